// GET /metrics on a real server: Prometheus text that prom-client renders, counting answers by route and
// status, their latency, engine commands, journal flushes, WebSocket connections and GC pauses; access like the
// control plane (a token when one is configured, else loopback only).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startExchange } from '../../src/testing/index.js';
import { signedFetch } from './http-helpers.js';
import { WS } from './ws/ws-client.js';

const dir = mkdtempSync(join(tmpdir(), 'ringmatch-metrics-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

const PAIR = [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }];
const USER = { uid: 1, keys: [{ key: 'k1', secret: 's1' }], balances: { spot: { USDT: '100000' } } };

describe('GET /metrics', () => {
  it('counts answers by route and status, with their latency, and engine commands', async () => {
    const ex = await startExchange({ currency_pairs: PAIR, users: [USER], engine: { journal: join(dir, 'a.journal'), fsync: 'batch' } });
    try {
      const before = sample(await (await fetch(`${ex.url}/metrics`)).text(), 'ringmatch_engine_commands_total')!;
      const order = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '50000' });
      for (let i = 0; i < 3; i++) expect((await signedFetch(ex.port, { method: 'POST', path: '/api/v4/spot/orders', body: order })).status).toBe(201);
      expect((await signedFetch(ex.port, { method: 'POST', path: '/api/v4/spot/orders', body: order, secret: 'wrong' })).status).toBe(401);
      expect((await fetch(`${ex.url}/api/v4/nowhere`)).status).toBe(404);
      const res = await fetch(`${ex.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await res.text();
      expect(text).toContain('# TYPE ringmatch_http_requests_total counter');
      expect(sample(text, 'ringmatch_http_requests_total{method="POST",route="/api/v4/spot/orders",status="201"}')).toBe(3);
      expect(sample(text, 'ringmatch_http_requests_total{method="POST",route="/api/v4/spot/orders",status="401"}')).toBe(1);
      expect(sample(text, 'ringmatch_http_requests_total{method="",route="unmatched",status="404"}')).toBe(1);
      expect(text).toContain('# TYPE ringmatch_http_request_duration_seconds histogram');
      expect(sample(text, 'ringmatch_http_request_duration_seconds_count{method="POST",route="/api/v4/spot/orders"}')).toBe(4);
      expect(sample(text, 'ringmatch_http_request_duration_seconds_bucket{method="POST",route="/api/v4/spot/orders",le="+Inf"}')).toBe(4);
      expect(sample(text, 'ringmatch_http_request_duration_seconds_sum{method="POST",route="/api/v4/spot/orders"}')).toBeGreaterThan(0);
      // Three placements (no market maker here); the rejected signature never reached the engine.
      expect(sample(text, 'ringmatch_engine_commands_total')! - before).toBe(3);
      expect(sample(text, 'ringmatch_journal_flush_duration_seconds_count{op="write"}')).toBeGreaterThan(0);
      expect(sample(text, 'ringmatch_journal_flush_duration_seconds_count{op="sync"}')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE ringmatch_gc_pause_seconds histogram');
      expect(sample(text, 'ringmatch_gc_pause_seconds_count{kind="minor"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'ringmatch_process_memory_bytes{type="heap_used"}')).toBeGreaterThan(0);
      // A scrape is counted once written: the first one here, not yet the second.
      expect(sample(text, 'ringmatch_http_requests_total{method="GET",route="/metrics",status="200"}')).toBe(1);
    } finally {
      await ex.stop();
    }
  });

  it('counts the threaded runner\'s commands too', async () => {
    const ex = await startExchange({ currency_pairs: PAIR, users: [USER], engine: { runner: 'threaded' } });
    try {
      const commands = async (): Promise<number | undefined> => sample(await (await fetch(`${ex.url}/metrics`)).text(), 'ringmatch_engine_commands_total');
      const before = (await commands())!;
      const order = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'sell', amount: '1', price: '50000' });
      // No BTC: rejected by the ledger, still a sequenced command.
      expect((await signedFetch(ex.port, { method: 'POST', path: '/api/v4/spot/orders', body: order })).status).toBe(400);
      expect((await commands())! - before).toBe(1);
    } finally {
      await ex.stop();
    }
  });

  it('shows open WebSocket connections', async () => {
    const ex = await startExchange({ currency_pairs: PAIR, users: [USER] });
    const sockets: InstanceType<typeof WS>[] = [];
    try {
      const gauge = async (): Promise<number | undefined> => sample(await (await fetch(`${ex.url}/metrics`)).text(), 'ringmatch_websocket_connections');
      expect(await gauge()).toBe(0);
      for (const url of [ex.wsUrl, ex.wsUrl, ex.futuresWsUrls.usdt]) {
        const ws = new WS(url);
        sockets.push(ws);
        await new Promise<void>((done, fail) => { ws.on('open', done); ws.on('error', fail); });
      }
      expect(await gauge()).toBe(3);
      const closed = new Promise<void>((done) => { sockets[0]!.on('close', () => done()); });
      sockets[0]!.close();
      await closed;
      for (let i = 0; i < 50 && await gauge() !== 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await gauge()).toBe(2);
    } finally {
      for (const ws of sockets) ws.terminate();
      await ex.stop();
    }
  });

  it('needs the control plane\'s token when one is configured', async () => {
    const ex = await startExchange({ currency_pairs: PAIR, users: [USER], admin_token: 'sesame' });
    try {
      const denied = await fetch(`${ex.url}/metrics`);
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as { label: string }).label).toBe('FORBIDDEN');
      expect((await fetch(`${ex.url}/metrics`, { headers: { 'X-Sim-Token': 'wrong!' } })).status).toBe(403);
      const ok = await fetch(`${ex.url}/metrics`, { headers: { 'X-Sim-Token': 'sesame' } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('ringmatch_http_requests_total');
    } finally {
      await ex.stop();
    }
  });
});
