// Spot orders with account=cross_margin over HTTP: they trade the user's cross-margin account, are listed and
// cancelled only with account=cross_margin, borrow their shortfall with auto_borrow (AUTO_BORROW_TOO_MUCH beyond
// the leverage, repaid when the engine refuses the order), repay from proceeds with auto_repay; loans accrue
// interest hourly; /wallet/sub_account_cross_margin_balances shows the account's figures; transfers out are held
// to the leverage; below a risk of 1.1 the account is locked and may only place orders that buy what it owes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { crossMarginAccount } from '../../../src/api/sub-accounts/balance-shapes.js';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { plainFetch } from '../http-helpers.js';
import { available, type Caller, caller, expectConserved, expectRejected, type J } from './funds-helpers.js';
import { UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;
const UIDS = [10001, 10002, 10003, 10010, 10011, 10012];
const K2: [string, string] = ['k2', 's2'];
const MAIN: [string, string] = ['main', 'mains'];

beforeAll(async () => {
  sim = await startSimulator({
    ...UNIFIED_CONFIG, clock: { type: 'sim' }, unified: { ...UNIFIED_CONFIG.unified!, liquidation: false },
    users: [...UNIFIED_CONFIG.users!, { uid: 10020, keys: [{ key: 'main', secret: 'mains', perms: 'all' }] }],
  }, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
  expect((await call('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'cross_margin', amount: '1000' })).status).toBe(200);
});
afterAll(async () => { await sim.close(); });

const order = (body: J, key?: [string, string]): Promise<{ status: number; body: J }> => call('POST', '/spot/orders', body, undefined, key);
const placed = async (body: J, key?: [string, string]): Promise<J> => {
  const r = await order(body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const list = async (path: string, query: string, key?: [string, string]): Promise<J[]> => (await call('GET', path, undefined, query, key)).body as unknown as J[];
const cross = (uid: number, cur: string): string => available(sim, uid, AccountKind.CrossMargin, 0, cur);
const BUY = { currency_pair: 'BTC_USDT', side: 'buy', price: '50000', account: 'cross_margin' };

/** The cross-margin account of `uid` as /wallet/sub_account_cross_margin_balances shows it to a main account. */
async function account(uid: number): Promise<J> {
  await sim.gateway.settled();
  return crossMarginAccount(sim.gateway.exchange, uid);
}

describe('cross-margin orders', () => {
  it('hold from the cross-margin account and are listed and cancelled only with account=cross_margin', async () => {
    const spotBefore = available(sim, 10001, AccountKind.Spot, 0, 'USDT');
    const r = await placed({ ...BUY, amount: '0.01' });
    expect(r).toMatchObject({ account: 'cross_margin', auto_borrow: false, auto_repay: false, status: 'open' });
    expect(cross(10001, 'USDT')).toBe('500');
    expect(available(sim, 10001, AccountKind.Spot, 0, 'USDT')).toBe(spotBefore);
    const ids = (rows: J[]): unknown[] => rows.map((o) => o.id);
    expect(ids(await list('/spot/orders', 'status=open&currency_pair=BTC_USDT'))).not.toContain(r.id);
    expect(ids(await list('/spot/orders', 'status=open&currency_pair=BTC_USDT&account=margin'))).not.toContain(r.id);
    expect(ids(await list('/spot/orders', 'status=open&currency_pair=BTC_USDT&account=cross_margin'))).toEqual([r.id]);
    expect((await list('/spot/open_orders', 'account=cross_margin')).map((g) => g.currency_pair)).toEqual(['BTC_USDT']);
    const cancelled = await call('DELETE', '/spot/orders', undefined, 'currency_pair=BTC_USDT&account=cross_margin');
    expect((cancelled.body as unknown as J[]).map((o) => o.id)).toEqual([r.id]);
    expect(cross(10001, 'USDT')).toBe('1000');
    await expectRejected(sim, () => order({ ...BUY, amount: '0.03' }), 400, 'BALANCE_NOT_ENOUGH');
    expect((await account(10001))).toMatchObject({ user_id: 10001, locked: false, total: '1000', borrowed: '0', risk: '9999.99',
      total_initial_margin_rate: '9999.9900', total_maintenance_margin_rate: '9999.9900' });
    expectConserved(sim, UIDS);
  });

  it('borrow the shortfall with auto_borrow, within what the account may borrow', async () => {
    // Equity 1,000 USD at leverage 5 may owe 4,000: a 0.11 BTC bid (5,500) is 4,500 short.
    await expectRejected(sim, () => order({ ...BUY, amount: '0.11', auto_borrow: true }), 400, 'AUTO_BORROW_TOO_MUCH');
    // The engine refuses this one (stp_act without an STP group) after the borrow: the loan is repaid at once.
    expect((await order({ ...BUY, amount: '0.05', auto_borrow: true, stp_act: 'cn' })).status).toBe(400);
    expect((await account(10001)).borrowed).toBe('0');
    expect(cross(10001, 'USDT')).toBe('1000');
    expect(await placed({ ...BUY, amount: '0.05', auto_borrow: true })).toMatchObject({ account: 'cross_margin', auto_borrow: true });
    // Assets 2,500 (held) against 1,500 owed; initial margin 1,500 / 4, maintenance 1,500 × 0.1.
    expect(await account(10001)).toMatchObject({
      locked: false, total: '2500', borrowed: '1500', borrowed_net: '1500', interest: '0', net: '1000', leverage: '5',
      risk: '1.66666666', total_margin_balance: '1000', total_initial_margin: '375', total_maintenance_margin: '150',
      total_initial_margin_rate: '2.66666666', total_maintenance_margin_rate: '6.66666666', total_available_margin: '625',
      balances: { USDT: { available: '0', freeze: '2500', borrowed: '1500', interest: '0' } },
    });
    // Cross-margin loans are neither unified nor isolated-margin loans.
    expect(await list('/unified/loan_records', '')).toEqual([]);
    expect(await list('/margin/uni/loan_records', '')).toEqual([]);
    expectConserved(sim, UIDS);
  });

  it('settle fills on the cross-margin account and repay from proceeds with auto_repay', async () => {
    // 10002 sells 0.05 BTC from spot into the bid: 0.05 less the 0.1 % maker fee reaches the cross-margin account.
    await placed({ currency_pair: 'BTC_USDT', side: 'sell', price: '50000', amount: '0.05' }, K2);
    expect(cross(10001, 'BTC')).toBe('0.04995');
    expect((await list('/spot/my_trades', 'currency_pair=BTC_USDT&account=cross_margin')).length).toBe(1);
    // 10002 bids; the cross sell of 0.0499 with auto_repay takes it: 2,495 less 0.2 % = 2,490.01 repay the 1,500 owed.
    await placed({ currency_pair: 'BTC_USDT', side: 'buy', price: '50000', amount: '0.0499' }, K2);
    expect(await placed({ currency_pair: 'BTC_USDT', side: 'sell', price: '50000', amount: '0.0499', account: 'cross_margin', auto_repay: true }))
      .toMatchObject({ status: 'closed', auto_repay: true });
    expect((await account(10001)).balances).toMatchObject({ USDT: { available: '990.01', borrowed: '0', interest: '0' } });
    expectConserved(sim, UIDS);
  });

  it('charge interest every hour of the simulated clock', async () => {
    // A 2,000 USDT bid with 990.01 available borrows 1,009.99; nothing is left to pay interest from.
    await placed({ ...BUY, price: '40000', amount: '0.05', auto_borrow: true });
    const adv = await plainFetch(sim.server.port, '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_ms: 2 * 3_600_000 }) });
    expect(adv.status).toBe(200);
    // The balances route accrues what is due first: 1,009.99 × 0.00002 = 0.0201998 USDT per hour, unpaid.
    const r = (await call('GET', '/wallet/sub_account_cross_margin_balances', undefined, undefined, MAIN)).body as unknown as J[];
    expect(r).toEqual([]);
    const a = await account(10001);
    expect(['0.0403996', '0.0605994']).toContain(a.interest);
    expect(a.balances).toMatchObject({ USDT: { available: '0', freeze: '2000', borrowed: '1009.99', interest: a.interest } });
    expect(await list('/unified/interest_records', '')).toEqual([]);
    expect(await list('/margin/uni/interest_records', '')).toEqual([]);
    expectConserved(sim, UIDS);
  });

  it('hold transfers out to the leverage, and lock below a risk of 1.1', async () => {
    // ETH at 3,000 (the last ETH_USDT trade); 10002 moves 1 ETH to its cross-margin account and borrows 10,000 USDT.
    await placed({ currency_pair: 'ETH_USDT', side: 'sell', amount: '0.01', price: '3000' });
    await placed({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: '3000' }, K2);
    const toCross = { currency: 'ETH', from: 'spot', to: 'cross_margin', amount: '1' };
    expect((await call('POST', '/wallet/transfers', toCross, undefined, K2)).status).toBe(200);
    await placed({ ...BUY, amount: '0.2', auto_borrow: true }, K2);
    expect(await account(10002)).toMatchObject({ total: '13000', borrowed: '10000', risk: '1.3', locked: false });
    // Room E × 4 − L = 2,000 USD: at most 2,000 / (4 × 3,000) = 0.1666 ETH may leave.
    const out = { currency: 'ETH', from: 'cross_margin', to: 'spot', amount: '0.17' };
    await expectRejected(sim, () => call('POST', '/wallet/transfers', out, undefined, K2), 400, 'BALANCE_NOT_ENOUGH');
    expect((await call('POST', '/wallet/transfers', { ...out, amount: '0.1' }, undefined, K2)).status).toBe(200);
    // ETH falls to 500: 450 + 10,000 against 10,000 owed is a risk of 1.045, below 1.1.
    await placed({ currency_pair: 'ETH_USDT', side: 'sell', amount: '0.01', price: '500' });
    await placed({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: '500' }, K2);
    expect(await account(10002)).toMatchObject({ total: '10450', risk: '1.045', locked: true });
    const ethBuy = { currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: '500', account: 'cross_margin' };
    await expectRejected(sim, () => order(ethBuy, K2), 400, 'TRADE_RESTRICTED');
    await expectRejected(sim, () => order({ ...BUY, amount: '0.01', auto_borrow: true }, K2), 400, 'TRADE_RESTRICTED');
    await expectRejected(sim, () => call('POST', '/wallet/transfers', { ...out, amount: '0.01' }, undefined, K2), 400, 'BALANCE_NOT_ENOUGH');
    // Selling ETH buys the USDT it owes: allowed.
    await placed({ currency_pair: 'ETH_USDT', side: 'sell', amount: '0.5', price: '600', account: 'cross_margin' }, K2);
    expect(cross(10002, 'ETH')).toBe('0.4');
    expectConserved(sim, UIDS);
  });
});
