// Gate's rate-limit headers on every limited answer: X-Gate-RateLimit-Limit, -Requests-Remain and
// -Reset-Timestamp (ms; the window's end once exceeded, otherwise the current time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from './http-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startTestSimulator({ rate_limits: true });
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

const figures = (h: Headers): [number, number, number] =>
  [Number(h.get('x-gate-ratelimit-limit')), Number(h.get('x-gate-ratelimit-requests-remain')), Number(h.get('x-gate-ratelimit-reset-timestamp'))];

describe('rate-limit headers', () => {
  it('count down per endpoint on public and private routes, the reset being now', async () => {
    const t0 = Date.now();
    const a = await plainFetch(port, '/api/v4/spot/currency_pairs');
    const b = await plainFetch(port, '/api/v4/spot/currency_pairs');
    expect(figures(a.headers).slice(0, 2)).toEqual([200, 199]);
    expect(figures(b.headers).slice(0, 2)).toEqual([200, 198]);
    expect(figures(b.headers)[2]).toBeGreaterThanOrEqual(t0 - 1000);
    expect(figures(b.headers)[2]).toBeLessThanOrEqual(Date.now() + 1000);
    expect(figures((await plainFetch(port, '/api/v4/spot/time')).headers).slice(0, 2)).toEqual([200, 199]);
    expect(figures((await signedFetch(port, { path: '/api/v4/spot/accounts' })).headers).slice(0, 2)).toEqual([200, 199]);
    expect(figures((await signedFetch(port, { path: '/api/v4/unified/accounts' })).headers).slice(0, 2)).toEqual([150, 149]);
  });

  it('show the order-placement window per pair, and the window end on TOO_MANY_REQUESTS', async () => {
    const order = JSON.stringify({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: '100' });
    let last: Headers | undefined;
    let status = 0;
    for (let i = 0; i < 11; i++) {
      const r = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: order });
      if (i === 0) expect(figures(r.headers).slice(0, 2)).toEqual([10, 9]);
      last = r.headers;
      status = r.status;
    }
    expect(status).toBe(429);
    const [limit, remain, reset] = figures(last!);
    expect([limit, remain]).toEqual([10, 0]);
    expect(reset).toBeGreaterThan(Date.now() - 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('are absent where nothing is limited (an answer refused before the limiter)', async () => {
    const r = await plainFetch(port, '/api/v4/nowhere');
    expect(r.headers.get('x-gate-ratelimit-limit')).toBeNull();
  });
});
