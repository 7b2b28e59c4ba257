// Perpetual futures rate limits (seed 8.1) and fill-ratio tiers (8.2) over HTTP, on a simulated clock:
// placement and amend share one 100 r/s window per UID, cancellations one 200 r/s window per UID, every other
// futures route 200 r/10 s per endpoint; a VIP 14+ user's placement limit follows the ratio of the previous
// seven days, evaluated at 00:00 UTC of the engine clock; a sub-account takes the higher of its own ratio and
// its main account's overall ratio; a user below VIP 14 keeps 100 r/s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/main.js';
import type { FileUser } from '../../src/sim/config-file.js';
import { FUTURES_CONFIG, setMark } from './futures-helpers.js';
import { plainFetch, signedFetch } from './http-helpers.js';

let sim: Simulator;
/** 2026-01-05 01:00 UTC. */
const START_MS = Date.UTC(2026, 0, 5, 1);
const DAY_MS = 86_400_000;

beforeAll(async () => {
  const users = (FUTURES_CONFIG.users as readonly FileUser[]).map((u) => (u.uid === 10001 ? { ...u, vip_level: 14 } : u));
  sim = await startSimulator({ ...FUTURES_CONFIG, users, rate_limits: true, clock: { type: 'sim', start_ms: START_MS } },
    { host: '127.0.0.1', port: 0 });
  await setMark(sim, 'BTC_USDT', '50000');
});
afterAll(async () => { await sim.close(); });

const KEYS: Readonly<Record<number, [string, string]>> = { 10001: ['k1', 's1'], 10002: ['k2', 's2'], 20001: ['sub1', 'ss1'] };
const call = (uid: number, method: string, target: string, body?: unknown) => signedFetch(sim.server.port, {
  method, path: `/api/v4${target.split('?')[0]!}`, query: target.split('?')[1] ?? '', body: body === undefined ? '' : JSON.stringify(body), key: KEYS[uid]![0], secret: KEYS[uid]![1],
});
const figures = (h: Headers): [number, number] => [Number(h.get('x-gate-ratelimit-limit')), Number(h.get('x-gate-ratelimit-requests-remain'))];
const setClock = (ms: number) => plainFetch(sim.server.port, '/sim/clock', {
  method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ set_ms: ms }),
});
/** The placement limit `uid` is shown by a placement (a refused one: size 0 is invalid, but counted). */
const placeLimit = async (uid: number): Promise<number> => figures((await call(uid, 'POST', '/futures/usdt/orders', { contract: 'BTC_USDT', size: 0, price: '50000' })).headers)[0];
const tierRow = async (uid: number): Promise<unknown> => (await call(uid, 'GET', '/account/rate_limit')).body;
/** Waits for the next wall-clock second plus a margin, so the 1 s windows start afresh. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1050));

describe('perpetual rate limits (seed 8.1)', () => {
  it('placement and amend share one window per UID, cancellations another, others count per endpoint; all carry the headers', async () => {
    await nextSecond();
    const placed = await call(10002, 'POST', '/futures/usdt/orders', { contract: 'BTC_USDT', size: 1, price: '49000' });
    expect(placed.status).toBe(201);
    expect(figures(placed.headers)).toEqual([100, 99]);
    const id = String((placed.body as { id: number }).id);
    const amended = await call(10002, 'PUT', `/futures/usdt/orders/${id}`, { price: '49100' });
    expect(figures(amended.headers)).toEqual([100, 98]);
    const batch = await call(10002, 'POST', '/futures/btc/batch_orders', [{ contract: 'BTC_USD', size: 1, price: '40000' }]);
    expect(figures(batch.headers)).toEqual([100, 97]);

    const cancelled = await call(10002, 'DELETE', `/futures/usdt/orders/${id}`);
    expect(cancelled.status).toBe(200);
    expect(figures(cancelled.headers)).toEqual([200, 199]);
    expect(figures((await call(10002, 'DELETE', '/futures/btc/orders?contract=BTC_USD')).headers)).toEqual([200, 198]);
    expect(figures((await call(10002, 'POST', '/futures/usdt/batch_cancel_orders', ['1'])).headers)).toEqual([200, 197]);
    expect(figures((await call(10002, 'DELETE', '/futures/usdt/price_orders/1')).headers)).toEqual([200, 196]);
    const reset = Number(cancelled.headers.get('x-gate-ratelimit-reset-timestamp'));
    expect(Math.abs(reset - Date.now())).toBeLessThan(2000);

    // Others: 200 per 10 s, one window per endpoint.
    expect(figures((await call(10002, 'GET', '/futures/usdt/accounts')).headers)).toEqual([200, 199]);
    expect(figures((await call(10002, 'GET', '/futures/usdt/accounts')).headers)).toEqual([200, 198]);
    expect(figures((await call(10002, 'GET', '/futures/usdt/positions')).headers)).toEqual([200, 199]);
    expect(figures((await call(10002, 'GET', '/futures/usdt/price_orders?status=open')).headers)).toEqual([200, 199]);
  });
});

describe('perpetual rate limits at a small scale', () => {
  it('refuse the sixth placement or amend of a second across routes and settles, and the eleventh cancel', async () => {
    const small = await startSimulator({ ...FUTURES_CONFIG, rate_limits: { enabled: true, scale: 0.05 } }, { host: '127.0.0.1', port: 0 });
    try {
      const go = (method: string, path: string, body?: unknown) => signedFetch(small.server.port, {
        method, path: `/api/v4${path}`, body: body === undefined ? '' : JSON.stringify(body), key: 'k2', secret: 's2',
      });
      const bad = { contract: 'BTC_USDT', size: 0, price: '50000' };
      const place = [
        () => go('POST', '/futures/usdt/orders', bad), () => go('PUT', '/futures/usdt/orders/1', { price: '1' }),
        () => go('POST', '/futures/btc/orders', { ...bad, contract: 'BTC_USD' }), () => go('POST', '/futures/usdt/batch_orders', [bad]),
        () => go('PUT', '/futures/btc/orders/2', { price: '1' }), () => go('POST', '/futures/usdt/orders', bad),
      ];
      const statuses: number[] = [];
      for (const p of place) statuses.push((await p()).status);
      expect(statuses.slice(0, 5)).not.toContain(429);
      expect(statuses[5]).toBe(429);
      const cancels: number[] = [];
      for (let i = 0; i < 11; i++) cancels.push((await go('DELETE', i % 2 === 0 ? '/futures/usdt/orders/1' : '/futures/btc/orders/1')).status);
      expect(cancels.slice(0, 10)).not.toContain(429);
      expect(cancels[10]).toBe(429);
      const last = await go('DELETE', '/futures/usdt/price_orders/1');
      expect(last.status).toBe(429);
      expect(figures(last.headers)).toEqual([10, 0]);
    } finally {
      await small.close();
    }
  });
});

describe('fill-ratio tiers (seed 8.2)', () => {
  it('follow the previous seven days of the engine clock; a sub-account takes the higher ratio; VIP < 14 keeps 100 r/s', async () => {
    // Day 0: no history, tier 1.
    expect(await tierRow(10001)).toEqual([{ type: 'futures', tier: '1', ratio: '0', main_ratio: '0', limit: '100', updated_at: String((START_MS - DAY_MS / 24) / 1000) }]);
    expect(await tierRow(10002)).toEqual([]);
    expect((await call(10001, 'GET', '/account/detail')).body).toMatchObject({ tier: 14 });
    await nextSecond();
    // 10001 makes 24 contracts × 0.0001 BTC × 50000 = 120 USDT as maker (weight 1, BTC multiplier 1) with 10
    // requests (its sell, one refused placement, 8 cancels); its sub-account makes 2 requests and no fills.
    const sell = await call(10001, 'POST', '/futures/usdt/orders', { contract: 'BTC_USDT', size: -24, price: '50000' });
    expect(sell.status).toBe(201);
    expect(figures(sell.headers)).toEqual([100, 99]);
    expect((await call(10002, 'POST', '/futures/usdt/orders', { contract: 'BTC_USDT', size: 24, price: '50000', tif: 'ioc' })).status).toBe(201);
    expect(await placeLimit(10001)).toBe(100);
    for (let i = 0; i < 8; i++) await call(10001, 'DELETE', '/futures/usdt/orders/1');
    for (let i = 0; i < 2; i++) await call(20001, 'DELETE', '/futures/usdt/orders/1');

    // Day 1: own ratio 120 / 10 = 12, the main account's overall 120 / 12 = 10: tier 5, 300 r/s.
    await setClock(START_MS + DAY_MS);
    await nextSecond();
    const day1 = String((START_MS - DAY_MS / 24 + DAY_MS) / 1000);
    expect(await tierRow(10001)).toEqual([{ type: 'futures', tier: '5', ratio: '12', main_ratio: '10', limit: '300', updated_at: day1 }]);
    expect(await placeLimit(10001)).toBe(300);
    expect(await tierRow(20001)).toEqual([{ type: 'futures', tier: '5', ratio: '0', main_ratio: '10', limit: '300', updated_at: day1 }]);
    expect(await placeLimit(20001)).toBe(300);
    expect(await placeLimit(10002)).toBe(100);

    // Day 1: 30 more cancels by the sub-account. Day 2's window holds 120 USDT over 10001's 10 + 1 requests
    // (its refused placement on day 1) and the sub-account's 2 + 1 + 30: its own ratio stays 0, the main's
    // overall becomes 120 / 44 ≈ 2.73: tier 2, 150 r/s; 10001's own 120 / 11 ≈ 10.9 keeps tier 5.
    for (let i = 0; i < 30; i++) await call(20001, 'DELETE', '/futures/usdt/orders/1');
    await setClock(START_MS + 2 * DAY_MS);
    expect(await tierRow(10001)).toMatchObject([{ tier: '5', ratio: '10.90909091', main_ratio: '2.72727273', limit: '300' }]);
    expect(await placeLimit(10001)).toBe(300);
    expect(await tierRow(20001)).toMatchObject([{ tier: '2', ratio: '0', limit: '150' }]);
    expect(await placeLimit(20001)).toBe(150);

    // Day 8: day 0 has left the seven-day window: no fills, ratio 0, tier 1.
    await setClock(START_MS + 8 * DAY_MS);
    expect(await placeLimit(10001)).toBe(100);
    expect(await tierRow(20001)).toMatchObject([{ tier: '1', main_ratio: '0', limit: '100' }]);
  });
});
