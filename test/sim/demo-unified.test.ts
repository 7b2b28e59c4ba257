// The demo defaults carry a lending pool: a demo user can switch to a unified mode and borrow at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { signedFetch } from '../api/http-helpers.js';

let sim: Simulator;
beforeAll(async () => { sim = await startSimulator({ ...DEMO_CONFIG, market_maker: false, rate_limits: false }, { host: '127.0.0.1', port: 0 }); });
afterAll(async () => { await sim.close(); });

const call = (method: string, path: string, body?: unknown, query = '') => signedFetch(sim.server.port,
  { method, path: `/api/v4${path}`, query, body: body === undefined ? '' : JSON.stringify(body), key: 'demo-bob-key', secret: 'demo-bob-secret' });

describe('demo lending pool', () => {
  it('lets a demo user borrow after switching to multi_currency', async () => {
    expect((await call('PUT', '/unified/unified_mode', { mode: 'multi_currency' })).status).toBe(204);
    const borrowed = await call('POST', '/unified/loans', { currency: 'USDT', type: 'borrow', amount: '1000' });
    expect(borrowed.status).toBeLessThan(300);
    const loans = (await call('GET', '/unified/loans', undefined, 'currency=USDT')).body as { currency: string; amount: string }[];
    expect(loans).toEqual([expect.objectContaining({ currency: 'USDT', amount: '1000' })]);
    expect((await call('GET', '/account/detail')).body).toMatchObject({ key: { mode: 2 } });
  });
});
