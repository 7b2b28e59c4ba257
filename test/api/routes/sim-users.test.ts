// POST /sim/users with opening balances: zero is a balance (nothing credited, as in the config file), and a bad
// amount is refused naming its currency and what is wrong, with nothing created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from '../http-helpers.js';

let sim: Simulator;
beforeAll(async () => { sim = await startTestSimulator(); });
afterAll(async () => { await sim.close(); });

const addUser = (body: unknown) => plainFetch(sim.server.port, '/sim/users', { method: 'POST', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body) });

describe('POST /sim/users balances', () => {
  it('takes a zero balance and credits the others', async () => {
    const u = await addUser({ uid: 30001, balances: { spot: { USDT: '0', BTC: '0.000', ETH: '1.5' } } });
    expect(u.status).toBe(200);
    const { key, secret } = u.body as { key: string; secret: string };
    const acc = await signedFetch(sim.server.port, { path: '/api/v4/spot/accounts', key, secret });
    expect(acc.body).toEqual([{ currency: 'ETH', available: '1.5', locked: '0', update_id: 0 }]);
  });

  it.each([
    [{ USDT: '-1' }, 'balances.spot.USDT: "-1" is negative'],
    [{ BTC: '0.0000000001' }, 'balances.spot.BTC: "0.0000000001" has more decimals than BTC takes (9)'],
    [{ USDT: 5 }, 'balances.spot.USDT: 5 is not a decimal amount such as "100.5"'],
    [{ DOGE: '1' }, 'balances.spot.DOGE: unknown currency'],
  ])('refuses %j naming the currency and the problem', async (spot, message) => {
    const r = await addUser({ uid: 30002, balances: { spot } });
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toBe(message);
    expect(sim.gateway.exchange.ledger.mainOf(30002)).toBeLessThan(0);
  });
});
