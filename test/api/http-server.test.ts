// The HTTP front on a real socket: authentication labels, errors, Gate's headers, body rules, rate limits
// and control-plane access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from './http-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startTestSimulator({ admin_token: undefined });
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

const label = (r: { body: unknown }): unknown => (r.body as { label?: string }).label;

describe('authentication', () => {
  it('answers a signed request', async () => {
    const r = await signedFetch(port, { path: '/api/v4/spot/accounts' });
    expect(r.status).toBe(200);
    expect(r.body).toContainEqual({ currency: 'USDT', available: '100000', locked: '0', update_id: 0 });
  });

  it('accepts a fractional-seconds Timestamp', async () => {
    const r = await signedFetch(port, { path: '/api/v4/spot/accounts', timestamp: (Date.now() / 1000).toFixed(3) });
    expect(r.status).toBe(200);
  });

  it.each([
    ['MISSING_REQUIRED_HEADER', 401, { headers: { SIGN: '' } }],
    ['INVALID_KEY', 401, { key: 'nobody' }],
    ['INVALID_SIGNATURE', 401, { secret: 'wrong' }],
    ['REQUEST_EXPIRED', 401, { timestamp: String(Math.floor(Date.now() / 1000) - 120) }],
    ['REQUEST_EXPIRED', 401, { timestamp: 'soon' }],
    ['IP_FORBIDDEN', 403, { key: 'far', secret: 'fs' }],
    ['FORBIDDEN', 403, { key: 'wallet-only', secret: 'ws' }],
    ['ACCOUNT_LOCKED', 403, { key: 'locked', secret: 'ls' }],
    ['SUB_ACCOUNT_LOCKED', 403, { key: 'sublocked', secret: 'sls' }],
  ])('answers %s (%i)', async (want, status, extra) => {
    const r = await signedFetch(port, { path: '/api/v4/spot/accounts', ...extra });
    expect(r.status).toBe(status);
    expect(label(r)).toBe(want);
    expect(typeof (r.body as { message: unknown }).message).toBe('string');
  });

  it('checks whitelists against the socket address, or X-Forwarded-For behind a trusted proxy only', async () => {
    const spoofed = { path: '/api/v4/spot/accounts', key: 'far', secret: 'fs', headers: { 'X-Forwarded-For': '10.1.2.3, 127.0.0.1' } };
    expect(label(await signedFetch(port, spoofed))).toBe('IP_FORBIDDEN');
    const proxied = await startTestSimulator({ trust_proxy: true });
    try {
      expect((await signedFetch(proxied.server.port, spoofed)).status).toBe(200);
      expect(label(await signedFetch(proxied.server.port, { ...spoofed, headers: { 'X-Forwarded-For': '10.9.9.9' } }))).toBe('IP_FORBIDDEN');
      expect(label(await signedFetch(proxied.server.port, { ...spoofed, headers: {} }))).toBe('IP_FORBIDDEN');
    } finally {
      await proxied.close();
    }
  });

  it('lets a read-only key read but not write', async () => {
    expect((await signedFetch(port, { path: '/api/v4/spot/accounts', key: 'ro', secret: 'ros' })).status).toBe(200);
    const w = await signedFetch(port, { method: 'DELETE', path: '/api/v4/spot/orders', key: 'ro', secret: 'ros' });
    expect([w.status, label(w)]).toEqual([403, 'READ_ONLY']);
  });

  it('covers the query exactly as the URL orders it', async () => {
    const ok = await signedFetch(port, { path: '/api/v4/spot/my_trades', query: 'currency_pair=BTC_USDT&limit=5' });
    expect(ok.status).toBe(200);
  });
});

describe('errors and headers', () => {
  it('stamps X-In-Time, X-Out-Time, X-Svc-Trace-ID and echoes X-Client-Request-Id', async () => {
    const r = await plainFetch(port, '/api/v4/spot/time', { headers: { 'X-Client-Request-Id': 'abc-1' } });
    const inT = Number(r.headers.get('x-in-time'));
    const outT = Number(r.headers.get('x-out-time'));
    expect(inT).toBeGreaterThan(1e15);
    expect(outT).toBeGreaterThanOrEqual(inT);
    expect(r.headers.get('x-svc-trace-id')).toMatch(/^[0-9a-f]+$/);
    expect(r.headers.get('x-client-request-id')).toBe('abc-1');
  });

  it('answers NOT_FOUND and METHOD_NOT_ALLOWED', async () => {
    const nf = await plainFetch(port, '/api/v4/spot/nothing');
    expect([nf.status, label(nf)]).toEqual([404, 'NOT_FOUND']);
    const mna = await plainFetch(port, '/api/v4/spot/currencies', { method: 'POST' });
    expect([mna.status, label(mna)]).toEqual([405, 'METHOD_NOT_ALLOWED']);
  });

  it('answers INVALID_REQUEST_BODY for bad JSON and INVALID_CONTENT_TYPE for a form body', async () => {
    const bad = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: '{"side":' });
    expect([bad.status, label(bad)]).toEqual([400, 'INVALID_REQUEST_BODY']);
    const form = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect([form.status, label(form)]).toEqual([415, 'INVALID_CONTENT_TYPE']);
  });

  it('refuses a body above the limit', async () => {
    const r = await plainFetch(port, '/sim/users', { method: 'POST', body: `{"x":"${'a'.repeat(1 << 21)}"}`, headers: { 'Content-Type': 'application/json' } });
    expect([r.status, label(r)]).toEqual([413, 'INVALID_REQUEST_BODY']);
  });

  it('maps an engine rejection to its label and ignores unknown body keys', async () => {
    const r = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders',
      body: JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '100', price: '60000', textIsRequired: true }) });
    expect([r.status, label(r)]).toEqual([400, 'BALANCE_NOT_ENOUGH']);
  });

  it('holds cross_margin orders from the (empty) cross-margin account', async () => {
    const r = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders',
      body: JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '60000', account: 'cross_margin' }) });
    expect([r.status, label(r)]).toEqual([400, 'BALANCE_NOT_ENOUGH']);
  });

  it('reads PATCH fields from the body first, then the query', async () => {
    const placed = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders',
      body: JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.1', price: '100' }) });
    const id = (placed.body as { id: string }).id;
    const r = await signedFetch(port, { method: 'PATCH', path: `/api/v4/spot/orders/${id}`, query: 'currency_pair=BTC_USDT&price=90',
      body: JSON.stringify({ price: '95' }) });
    expect(r.status).toBe(200);
    expect((r.body as { price: string }).price).toBe('95');
  });

  it('pages GET /spot/orders with X-Pagination-Limit, -Offset and -Total', async () => {
    const place = (price: string) => signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', key: 'k2', secret: 's2',
      body: JSON.stringify({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price }) });
    for (const p of ['101', '102', '103']) expect((await place(p)).status).toBe(201);
    const r = await signedFetch(port, { path: '/api/v4/spot/orders', query: 'currency_pair=ETH_USDT&status=open&limit=2&page=2', key: 'k2', secret: 's2' });
    expect((r.body as { price: string }[]).map((o) => o.price)).toEqual(['103']);
    expect(['limit', 'offset', 'total'].map((h) => r.headers.get(`x-pagination-${h}`))).toEqual(['2', '2', '3']);
  });
});

describe('rate limits', () => {
  it('answers TOO_MANY_REQUESTS past the per-UID order rate', async () => {
    const limited = await startTestSimulator({ rate_limits: { enabled: true, scale: 0.3 } });
    try {
      const body = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '100' });
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await signedFetch(limited.server.port, { method: 'POST', path: '/api/v4/spot/orders', body })).status);
      expect(codes.slice(0, 3)).toEqual([201, 201, 201]);
      expect(codes[3]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('control plane', () => {
  it('creates a user whose key trades and whose deposit shows in its balance', async () => {
    const u = await plainFetch(port, '/sim/users', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ balances: { spot: { USDT: '5' } } }) });
    expect(u.status).toBe(200);
    const { uid, key, secret } = u.body as { uid: number; key: string; secret: string };
    const d = await plainFetch(port, '/sim/deposits', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ uid, currency: 'USDT', amount: '7' }) });
    expect((d.body as { id: string }).id).toMatch(/^d/);
    const acc = await signedFetch(port, { path: '/api/v4/spot/accounts', query: 'currency=USDT', key, secret });
    expect(acc.body).toEqual([{ currency: 'USDT', available: '12', locked: '0', update_id: 0 }]);
  });

  it('requires X-Sim-Token when a token is configured', async () => {
    const guarded = await startTestSimulator({ admin_token: 'tok' });
    try {
      const no = await plainFetch(guarded.server.port, '/sim/state_hash');
      expect([no.status, label(no)]).toEqual([403, 'FORBIDDEN']);
      const yes = await plainFetch(guarded.server.port, '/sim/state_hash', { headers: { 'X-Sim-Token': 'tok' } });
      expect((yes.body as { state_hash: string }).state_hash).toMatch(/^[0-9a-f]+$/);
    } finally {
      await guarded.close();
    }
  });

  it('moves the simulated clock only when it is selected', async () => {
    const wall = await plainFetch(port, '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advance_ms":1000}' });
    expect(wall.status).toBe(400);
    const simulated = await startTestSimulator({ clock: { type: 'sim', start_ms: 1_700_000_000_000 } });
    try {
      const p = simulated.server.port;
      const moved = await plainFetch(p, '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advance_ms":1500}' });
      expect(moved.body).toEqual({ now_ms: 1_700_000_001_500 });
      const t = await plainFetch(p, '/api/v4/spot/time');
      expect(t.body).toEqual({ server_time: 1_700_000_001_500 });
      const back = await plainFetch(p, '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"set_ms":1}' });
      expect(back.status).toBe(400);
    } finally {
      await simulated.close();
    }
  });
});
