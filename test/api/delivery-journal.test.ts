// Delivery through expiry is journaled: on either runner, orders, fills, a margin change and a settlement made by
// moving the simulated clock over the expiry are all in the journal, and a restart from it answers every
// delivery read exactly as before and reaches the same state hash. Also: delivery's own rate classes (seed 8.1:
// 500 placements and 500 cancellations per 10 s per UID, 200 per 10 s for the other private routes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/main.js';
import { clockTo, DELIVERY_CONFIG, QUARTERLY, simPost, WEEKLY, WEEKLY_EXPIRE } from './delivery-helpers.js';
import { futuresCaller, type J, stateHash } from './futures-helpers.js';
import { signedFetch } from './http-helpers.js';
import { expectOk as ok, expectSameAfterRestart, journaledConfig, readPaths } from './journal-restart.js';

const dir = mkdtempSync(join(tmpdir(), 'delivery-journal-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

const READS = ['/delivery/usdt/accounts', '/delivery/usdt/positions', '/delivery/usdt/orders?status=open', '/delivery/usdt/orders?status=finished',
  '/delivery/usdt/my_trades', '/delivery/usdt/account_book', '/delivery/usdt/position_close', '/delivery/usdt/settlements',
  `/delivery/usdt/contracts/${WEEKLY}`, '/futures/usdt/accounts'];

describe('delivery across a restart', () => {
  for (const runner of ['threaded', 'inline'] as const) {
    it(`${runner} runner: reads and the state hash after an expiry are the same after a restart from the journal`, async () => {
      const before = await expectSameAfterRestart(journaledConfig(DELIVERY_CONFIG, runner, dir), async (first) => {
        const call = futuresCaller(first);
        const B: [string, string] = ['k2', 's2'];
        for (const contract of [WEEKLY, QUARTERLY]) expect((await simPost(first, '/sim/futures/prices', { contract, index: '60000' })).status).toBe(200);
        await ok(call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, size: -6, price: '60000' }, key: B }));
        await ok(call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, size: 4, price: '0', tif: 'ioc' } }));
        await ok(call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, size: 2, price: '59000', text: 't-rest' } }));
        await ok(call('POST', `/delivery/usdt/positions/${WEEKLY}/leverage`, { query: 'leverage=5' }));
        await ok(call('POST', `/delivery/usdt/positions/${WEEKLY}/margin`, { query: 'change=3' }));
        await ok(call('POST', '/delivery/usdt/orders', { body: { contract: QUARTERLY, size: 1, price: '59000' } }));
        await ok(call('POST', '/wallet/transfers', { body: { currency: 'USDT', from: 'delivery', settle: 'usdt', to: 'spot', amount: '10' } }));
        expect((await simPost(first, '/sim/futures/prices', { contract: WEEKLY, index: '60500' })).status).toBe(200);
        await clockTo(first, (WEEKLY_EXPIRE - 120) * 1000);
        await clockTo(first, (WEEKLY_EXPIRE + 5) * 1000);
      }, async (sim) => readPaths(futuresCaller(sim), READS, { hash: await stateHash(sim) },
        // Prices and the basis move with the price clock's samples, which a restart starts again.
        (p, body) => (p.includes('/contracts/') ? { settle_price: body.settle_price, status: body.status } : body)));
      expect(before[`k1 /delivery/usdt/contracts/${WEEKLY}`]).toEqual({ settle_price: '60500', status: 'delisted' });
      expect((before['k1 /delivery/usdt/settlements'] as J[]).length).toBe(1);
    });
  }
});

describe('delivery rate limits (seed 8.1)', () => {
  it('placement and cancellation: 500 per 10 s per UID; other private delivery routes 200 per 10 s per endpoint', async () => {
    const sim = await startSimulator({ ...DELIVERY_CONFIG, rate_limits: true }, { host: '127.0.0.1', port: 0 });
    try {
      const call = (method: string, path: string, query = '', body?: unknown) => signedFetch(sim.server.port, {
        method, path: `/api/v4${path}`, query, body: body === undefined ? '' : JSON.stringify(body), key: 'k1', secret: 's1',
      });
      const figures = (h: Headers): [number, number] => [Number(h.get('x-gate-ratelimit-limit')), Number(h.get('x-gate-ratelimit-requests-remain'))];
      const place = await call('POST', '/delivery/usdt/orders', '', { contract: WEEKLY, size: 0, price: '60000' });
      expect(figures(place.headers)).toEqual([500, 499]);
      const cancel = await call('DELETE', '/delivery/usdt/orders', `contract=${WEEKLY}`);
      expect(figures(cancel.headers)).toEqual([500, 499]);
      // A cancel of one order shares the cancellation window.
      expect(figures((await call('DELETE', '/delivery/usdt/orders/12345')).headers)).toEqual([500, 498]);
      expect(figures((await call('GET', '/delivery/usdt/accounts')).headers)).toEqual([200, 199]);
      // The perpetual windows are others.
      expect(figures((await call('POST', '/futures/usdt/orders', '', { contract: 'BTC_USDT', size: 0, price: '60000' })).headers)[0]).toBe(100);
    } finally {
      await sim.close();
    }
  });
});
