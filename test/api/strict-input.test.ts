// Input the front must refuse rather than guess at: Content-Types that are not JSON, and unbounded client
// strings echoed back in answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJsonContentType } from '../../src/api/http/api-request.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from './http-helpers.js';
import { TestSocket } from './ws/ws-client.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startTestSimulator();
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

const label = (r: { body: unknown }): unknown => (r.body as { label?: string }).label;
const stateHash = async (): Promise<string> => ((await plainFetch(port, '/sim/state_hash')).body as { state_hash: string }).state_hash;
const ORDER = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '1000', text: 't-ct' });

describe('Content-Type', () => {
  it('reads application/json with or without a UTF-8 charset, in any case', () => {
    for (const ok of ['application/json', 'Application/JSON', ' application/json ', 'application/json; charset=utf-8',
      'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'application/json; charset=utf8; x=y']) {
      expect(isJsonContentType(ok), ok).toBe(true);
    }
    for (const bad of ['', 'application/jsonx', 'application/json-seq', 'text/json', 'application/x-json', 'application/json5',
      'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset', 'text/plain, application/json']) {
      expect(isJsonContentType(bad), bad).toBe(false);
    }
  });

  it('refuses a body sent as application/jsonx or with charset=utf-16, and changes nothing', async () => {
    const before = await stateHash();
    for (const ct of ['application/jsonx', 'application/json; charset=utf-16', 'application/json-patch+json']) {
      const r = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: ORDER, headers: { 'Content-Type': ct } });
      expect([r.status, label(r)], ct).toEqual([415, 'INVALID_CONTENT_TYPE']);
    }
    expect(await stateHash()).toBe(before);
    const ok = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: ORDER, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(ok.status).toBe(201);
  });
});

describe('echoes of client strings', () => {
  const huge = `t-${'x'.repeat(100_000)}`;

  it('caps what a rejected batch item echoes (text, order_id, currency_pair, amend_text)', async () => {
    const place = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/batch_orders', body: JSON.stringify([
      { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '1000', text: huge },
    ]) });
    expect(place.status).toBe(200);
    const [item] = place.body as Record<string, unknown>[];
    expect([item!.succeeded, item!.label]).toEqual([false, 'INVALID_PARAM_VALUE']);
    expect(item!.text).toBe(huge.slice(0, 64));
    expect(JSON.stringify(place.body).length).toBeLessThan(1000);

    const amend = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/amend_batch_orders', body: JSON.stringify([
      { currency_pair: 'BTC_USDT', order_id: '9'.repeat(100_000), price: '1000', amend_text: huge },
      { currency_pair: `X${'Y'.repeat(100_000)}`, order_id: '1', price: '1000' },
    ]) });
    expect(amend.status).toBe(200);
    expect(JSON.stringify(amend.body).length).toBeLessThan(1000);
    const [a, b] = amend.body as Record<string, unknown>[];
    expect([a!.label, (a!.order_id as string).length, (a!.amend_text as string).length]).toEqual(['ORDER_NOT_FOUND', 64, 64]);
    expect([b!.label, (b!.currency_pair as string).length]).toEqual(['INVALID_CURRENCY_PAIR', 64]);

    const cancel = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/cancel_batch_orders', body: JSON.stringify([
      { currency_pair: 'BTC_USDT', id: `t-${'z'.repeat(100_000)}` },
    ]) });
    expect(cancel.status).toBe(200);
    expect(JSON.stringify(cancel.body).length).toBeLessThan(1000);
    expect(((cancel.body as Record<string, unknown>[])[0]!.id as string).length).toBe(64);
  });

  it('echoes a valid text whole', async () => {
    const r = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/batch_orders', body: JSON.stringify([
      { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '1000', text: `t-${'a'.repeat(28)}` },
      { currency_pair: 'BTC_USDT', side: 'buy', amount: '-1', price: '1000', text: `t-${'b'.repeat(28)}` },
    ]) });
    const [ok, bad] = r.body as Record<string, unknown>[];
    expect([ok!.succeeded, ok!.text]).toEqual([true, `t-${'a'.repeat(28)}`]);
    expect([bad!.succeeded, bad!.text]).toEqual([false, `t-${'b'.repeat(28)}`]);
  });
});

describe('echoes over the WebSocket API', () => {
  it('caps an unbounded req_id and cancel item it echoes', async () => {
    const ws = await TestSocket.open(port);
    try {
      const long = 'r'.repeat(50_000);
      ws.send({ time: Math.floor(Date.now() / 1000), channel: 'spot.order_cancel_ids', event: 'api',
        payload: { req_id: long, req_param: [{ currency_pair: 'Q'.repeat(5000), id: 'i'.repeat(5000) }] } });
      const f = await ws.next((x) => typeof x.request_id === 'string');
      expect((f.request_id as string).length).toBe(64);
      expect(JSON.stringify(f).length).toBeLessThan(2000);
    } finally {
      ws.close();
    }
  });
});
