// Liquidation: an account whose margin falls below maintenance is liquidated when read (and by a timer):
// its collateral is sold through the book by ordinary market orders and the proceeds repay its debt, until
// it is no longer locked. Conservation holds throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { type Caller, caller, expectConserved, type J } from './funds-helpers.js';
import { U_ETH, UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;
const BOB: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  sim = await startSimulator(UNIFIED_CONFIG, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
});
afterAll(async () => { await sim.close(); });

const place = async (body: J, key?: [string, string]): Promise<J> => {
  const r = await call('POST', '/spot/orders', body, undefined, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};

describe('unified liquidation', () => {
  it('sells collateral through the book and repays until the account is no longer locked', async () => {
    await place({ currency_pair: 'ETH_USDT', side: 'sell', amount: '0.01', price: '3000' });
    await place({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: '3000' }, BOB);
    expect((await call('PUT', '/unified/unified_mode', { mode: 'multi_currency' }, undefined, U_ETH)).status).toBe(204);
    expect((await call('POST', '/unified/loans', { currency: 'USDT', type: 'borrow', amount: '100000' }, undefined, U_ETH)).status).toBe(200);
    await place({ currency_pair: 'BTC_USDT', side: 'sell', amount: '2', price: '50000' });
    expect((await place({ currency_pair: 'BTC_USDT', side: 'buy', amount: '2', price: '50000', account: 'unified' }, U_ETH)).status).toBe('closed');
    // ETH falls to 900: 9,000 + 1.996 BTC × 50,000 × 0.9 − 100,000 owed < 10,000 maintenance.
    await place({ currency_pair: 'ETH_USDT', side: 'sell', amount: '0.01', price: '900' });
    await place({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: '900' }, BOB);
    await place({ currency_pair: 'BTC_USDT', side: 'buy', amount: '2', price: '49000' });
    await place({ currency_pair: 'ETH_USDT', side: 'buy', amount: '10', price: '900' }, BOB);

    const a = (await call('GET', '/unified/accounts', undefined, 'currency=BTC,ETH,USDT', U_ETH)).body;
    const b = a.balances as Record<string, J>;
    expect(a.locked).toBe(false);
    expect(b.BTC!.available).toBe('0');
    expect(b.ETH!.available).toBe('10');
    // 1.996 BTC sold at 49,000 = 97,804 USDT, less the 0.2 % taker fee: 97,608.392 repaid.
    expect(b.USDT).toMatchObject({ available: '0', borrowed: '2391.608' });
    const sold = (await call('GET', '/spot/orders', undefined, 'status=finished&currency_pair=BTC_USDT', U_ETH)).body as unknown as J[];
    expect(sold.find((o) => o.text === 't-liquidation')).toMatchObject({ side: 'sell', type: 'market', filled_amount: '1.996' });
    const repaid = (await call('GET', '/unified/loan_records', undefined, 'type=repay', U_ETH)).body as unknown as J[];
    expect(repaid[0]).toMatchObject({ repayment_type: 'auto_repay', amount: '97608.392' });
    expectConserved(sim, [10001, 10002, 10003, 10010, 10011, 10012]);
  });
});
