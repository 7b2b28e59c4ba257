// Spot orders of unified users: account=unified accepted, a shortfall borrowed automatically within the limits
// (AUTO_BORROW_TOO_MUCH beyond), the borrow repaid when the engine refuses the order, and TRADE_RESTRICTED once
// a falling price (the last ETH_USDT trade) pushes the margin below maintenance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { type Caller, caller, expectConserved, expectRejected, type J } from './funds-helpers.js';
import { U1, U_ETH, UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;
const UIDS = [10001, 10002, 10003, 10010, 10011, 10012];

beforeAll(async () => {
  sim = await startSimulator({ ...UNIFIED_CONFIG, unified: { ...UNIFIED_CONFIG.unified, liquidation: false } }, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
  for (const key of [U1, U_ETH]) expect((await call('PUT', '/unified/unified_mode', { mode: 'multi_currency' }, undefined, key)).status).toBe(204);
});
afterAll(async () => { await sim.close(); });

const usdt = async (key: [string, string]): Promise<J> =>
  ((await call('GET', '/unified/accounts', undefined, 'currency=USDT', key)).body.balances as Record<string, J>).USDT!;

/** A trade of `amount` ETH at `price` between the classic users 10001 (sell) and 10002 (buy). */
async function ethTrade(price: string, amount = '0.01'): Promise<void> {
  expect((await call('POST', '/spot/orders', { currency_pair: 'ETH_USDT', side: 'sell', amount, price })).status).toBe(201);
  const buy = await call('POST', '/spot/orders', { currency_pair: 'ETH_USDT', side: 'buy', amount, price }, undefined, ['k2', 's2']);
  expect(buy.body.status).toBe('closed');
}

describe('unified spot orders', () => {
  it('borrows the shortfall of a buy with account=unified', async () => {
    const r = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.5', price: '50000', account: 'unified' }, undefined, U1);
    expect(r.status).toBe(201);
    expect(await usdt(U1)).toMatchObject({ available: '0', freeze: '25000', borrowed: '15000', total_liab: '15000' });
    const recs = (await call('GET', '/unified/loan_records', undefined, undefined, U1)).body as unknown as J[];
    expect(recs[0]).toMatchObject({ type: 'borrow', borrow_type: 'auto_borrow', amount: '15000', currency: 'USDT' });
    expect((await call('DELETE', `/spot/orders/${r.body.id as string}`, undefined, 'currency_pair=BTC_USDT', U1)).status).toBe(200);
    expectConserved(sim, UIDS);
  });

  it('borrows base for a sell beyond the balance, treating account=spot as unified', async () => {
    const r = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'sell', amount: '1.5', price: '90000' }, undefined, U1);
    expect(r.status).toBe(201);
    const btc = ((await call('GET', '/unified/accounts', undefined, 'currency=BTC', U1)).body.balances as Record<string, J>).BTC!;
    expect(btc).toMatchObject({ available: '0', freeze: '1.5', borrowed: '0.5' });
    expect((await call('DELETE', `/spot/orders/${r.body.id as string}`, undefined, 'currency_pair=BTC_USDT', U1)).status).toBe(200);
  });

  it('refuses a shortfall beyond what may be borrowed, changing nothing', async () => {
    await expectRejected(sim, () => call('POST', '/spot/orders',
      { currency_pair: 'BTC_USDT', side: 'buy', amount: '5', price: '50000', account: 'unified' }, undefined, U1), 400, 'AUTO_BORROW_TOO_MUCH');
  });

  it('repays the auto borrow when the engine refuses the order', async () => {
    const before = await usdt(U1);
    const r = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.6', price: '50000', stp_act: 'cn' }, undefined, U1);
    expect(r.body.label).toBe('INVALID_PARAM_VALUE');
    expect(await usdt(U1)).toEqual(before);
    const recs = (await call('GET', '/unified/loan_records', undefined, 'limit=2', U1)).body as unknown as J[];
    expect(recs.map((x) => [x.type, x.repayment_type])).toEqual([['repay', 'auto_repay'], ['borrow', 'none']]);
    expectConserved(sim, UIDS);
  });

  it('restricts trading once the margin falls below maintenance', async () => {
    await ethTrade('3000');
    // 10 ETH at 3,000 = 30,000 USD of margin; 100,000 USDT borrowed needs 20,000 initial, 10,000 maintenance.
    expect((await call('POST', '/unified/loans', { currency: 'USDT', type: 'borrow', amount: '100000' }, undefined, U_ETH)).status).toBe(200);
    let a = (await call('GET', '/unified/accounts', undefined, undefined, U_ETH)).body;
    expect(a).toMatchObject({ total_margin_balance: '30000', total_initial_margin: '20000', total_maintenance_margin: '10000',
      total_initial_margin_rate: '1.5', total_maintenance_margin_rate: '3', locked: false });
    await ethTrade('900');
    a = (await call('GET', '/unified/accounts', undefined, undefined, U_ETH)).body;
    expect(a).toMatchObject({ total_margin_balance: '9000', locked: true, total_available_margin: '-11000' });
    expect((await call('GET', '/unified/borrowable', undefined, 'currency=USDT', U_ETH)).body.amount).toBe('0');
    expect((await call('GET', '/unified/transferable', undefined, 'currency=USDT', U_ETH)).body.amount).toBe('0');
    await expectRejected(sim, () => call('POST', '/spot/orders',
      { currency_pair: 'ETH_USDT', side: 'buy', amount: '40', price: '3000', account: 'unified' }, undefined, U_ETH), 400, 'TRADE_RESTRICTED');
    await expectRejected(sim, () => call('POST', '/unified/loans', { currency: 'USDT', type: 'borrow', amount: '1' }, undefined, U_ETH), 400, 'TRADE_RESTRICTED');
    expect((await call('POST', '/unified/loans', { currency: 'USDT', type: 'repay', amount: '50000' }, undefined, U_ETH)).status).toBe(200);
    expect((await call('GET', '/unified/accounts', undefined, undefined, U_ETH)).body.locked).toBe(false);
    expectConserved(sim, UIDS);
  });
});
