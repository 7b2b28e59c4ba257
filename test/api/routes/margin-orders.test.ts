// Spot orders with account=margin over HTTP: they trade the pair's isolated Margin account (never the spot
// balance), render account "margin" with their flags, are listed and cancelled only with account=margin,
// borrow their shortfall with auto_borrow (AUTO_BORROW_TOO_MUCH beyond, repaid when the engine refuses the
// order), repay from proceeds with auto_repay, and a locked account may only place orders that reduce its debt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { available, type Caller, caller, expectConserved, expectRejected, type J } from './funds-helpers.js';
import { UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;
const UIDS = [10001, 10002, 10003, 10010, 10011, 10012];
const K2: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  // Liquidation off: a test here looks at a locked account (margin-liquidation.test.ts sells one down).
  sim = await startSimulator({ ...UNIFIED_CONFIG, clock: { type: 'sim' }, unified: { ...UNIFIED_CONFIG.unified!, liquidation: false } }, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
  const t = await call('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'margin', amount: '1000', currency_pair: 'BTC_USDT' });
  expect(t.status).toBe(200);
});
afterAll(async () => { await sim.close(); });

const order = (body: J, key?: [string, string]): Promise<{ status: number; body: J }> => call('POST', '/spot/orders', body, undefined, key);
const list = async (path: string, query: string, key?: [string, string]): Promise<J[]> => (await call('GET', path, undefined, query, key)).body as unknown as J[];
const owed = async (pair: string, key?: [string, string]): Promise<J[]> => list('/margin/uni/loans', `currency_pair=${pair}`, key);
const BUY = { currency_pair: 'BTC_USDT', side: 'buy', price: '50000', account: 'margin' };

describe('margin orders', () => {
  it('hold from the Margin account and are listed only with account=margin', async () => {
    const spotBefore = available(sim, 10001, AccountKind.Spot, 0, 'USDT');
    const r = await order({ ...BUY, amount: '0.01' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ account: 'margin', auto_borrow: false, auto_repay: false, status: 'open' });
    expect(available(sim, 10001, AccountKind.Margin, 0, 'USDT')).toBe('500');
    expect(available(sim, 10001, AccountKind.Spot, 0, 'USDT')).toBe(spotBefore);
    const ids = (rows: J[]): unknown[] => rows.map((o) => o.id);
    expect(ids(await list('/spot/orders', 'status=open&currency_pair=BTC_USDT'))).not.toContain(r.body.id);
    expect(ids(await list('/spot/orders', 'status=open&currency_pair=BTC_USDT&account=margin'))).toEqual([r.body.id]);
    const open = await list('/spot/open_orders', 'account=margin');
    expect(open.map((g) => g.currency_pair)).toEqual(['BTC_USDT']);
    expect((await call('GET', `/spot/orders/${String(r.body.id)}`, undefined, 'currency_pair=BTC_USDT&account=margin')).body)
      .toMatchObject({ account: 'margin' });
    await expectRejected(sim, () => order({ ...BUY, amount: '0.01', account: 'cross_margin' }), 400, 'BALANCE_NOT_ENOUGH');
    await expectRejected(sim, () => order({ ...BUY, amount: '0.01', auto_borrow: 'yes' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => order({ ...BUY, amount: '0.02' }), 400, 'BALANCE_NOT_ENOUGH');
    expectConserved(sim, UIDS);
  });

  it('borrow the shortfall with auto_borrow, within what the account may borrow', async () => {
    // 500 USDT left; equity 1,000 USD at leverage 5 may owe 4,000.
    await expectRejected(sim, () => order({ ...BUY, amount: '0.1', auto_borrow: true }), 400, 'AUTO_BORROW_TOO_MUCH');
    // The engine refuses this one (stp_act without an STP group) after the borrow: the loan is repaid at once.
    const refused = await order({ ...BUY, amount: '0.05', auto_borrow: true, stp_act: 'cn' });
    expect(refused.status).toBe(400);
    expect(await owed('BTC_USDT')).toEqual([]);
    expect(available(sim, 10001, AccountKind.Margin, 0, 'USDT')).toBe('500');
    const r = await order({ ...BUY, amount: '0.05', auto_borrow: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ account: 'margin', auto_borrow: true });
    expect((await owed('BTC_USDT')).map((l) => [l.currency, l.amount])).toEqual([['USDT', '2000']]);
    expect(available(sim, 10001, AccountKind.Margin, 0, 'USDT')).toBe('0');
    // Newest first: the order's borrow, and the refused order's borrow and repayment.
    const records = await list('/margin/uni/loan_records', 'currency_pair=BTC_USDT');
    expect(records.map((x) => [x.type, x.amount])).toEqual([['borrow', '2000'], ['repay', '2000'], ['borrow', '2000']]);
    expectConserved(sim, UIDS);
  });

  it('settle fills and fees on the Margin account and repay from proceeds with auto_repay', async () => {
    const btcSpot = available(sim, 10001, AccountKind.Spot, 0, 'BTC');
    // 10002 sells 0.06 BTC from spot into both margin bids: 0.06 less the 0.1 % maker fee reaches the Margin account.
    expect((await order({ currency_pair: 'BTC_USDT', side: 'sell', price: '50000', amount: '0.06' }, K2)).status).toBe(201);
    expect(available(sim, 10001, AccountKind.Margin, 0, 'BTC')).toBe('0.05994');
    expect(available(sim, 10001, AccountKind.Spot, 0, 'BTC')).toBe(btcSpot);
    const trades = await list('/spot/my_trades', 'currency_pair=BTC_USDT&account=margin');
    expect(trades.length).toBe(2);
    expect(await list('/spot/my_trades', 'currency_pair=BTC_USDT')).toEqual([]);
    // 10002 bids; the margin sell of 0.05 with auto_repay takes it: 2,500 less 0.2 % = 2,495 USDT repay the 2,000 owed.
    expect((await order({ currency_pair: 'BTC_USDT', side: 'buy', price: '50000', amount: '0.05' }, K2)).status).toBe(201);
    const r = await order({ currency_pair: 'BTC_USDT', side: 'sell', price: '50000', amount: '0.05', account: 'margin', auto_repay: true });
    expect(r.body).toMatchObject({ status: 'closed', auto_repay: true, account: 'margin' });
    expect(await owed('BTC_USDT')).toEqual([]);
    expect(available(sim, 10001, AccountKind.Margin, 0, 'USDT')).toBe('495');
    expectConserved(sim, UIDS);
  });

  it('cancel all with account=margin cancels margin orders only', async () => {
    expect((await order({ ...BUY, price: '40000', amount: '0.01' })).status).toBe(201);
    expect((await order({ currency_pair: 'BTC_USDT', side: 'buy', price: '40000', amount: '0.01' })).status).toBe(201);
    const spotOnly = (await call('DELETE', '/spot/orders', undefined, 'currency_pair=BTC_USDT')).body as unknown as J[];
    expect(spotOnly.map((o) => o.account)).toEqual(['spot']);
    expect((await list('/spot/orders', 'status=open&currency_pair=BTC_USDT&account=margin')).length).toBe(1);
    const margin = (await call('DELETE', '/spot/orders', undefined, 'currency_pair=BTC_USDT&account=margin')).body as unknown as J[];
    expect(margin.map((o) => o.account)).toEqual(['margin']);
    expect(available(sim, 10001, AccountKind.Margin, 0, 'USDT')).toBe('495');
    expectConserved(sim, UIDS);
  });

  it('refuse orders of a locked account that do not reduce its debt', async () => {
    const trade = async (price: string): Promise<void> => {
      const o = { currency_pair: 'ETH_USDT', amount: '0.1', price, type: 'limit' };
      expect((await order({ ...o, side: 'sell' })).status).toBe(201);
      expect((await order({ ...o, side: 'buy', time_in_force: 'ioc' }, K2)).status).toBe(201);
    };
    await trade('2000');
    expect((await call('POST', '/wallet/transfers', { currency: 'ETH', from: 'spot', to: 'margin', amount: '1', currency_pair: 'ETH_USDT' }, undefined, K2)).status).toBe(200);
    expect((await call('POST', '/margin/uni/loans', { currency_pair: 'ETH_USDT', currency: 'USDT', type: 'borrow', amount: '7000' }, undefined, K2)).status).toBe(204);
    await trade('500');
    const eth = { currency_pair: 'ETH_USDT', amount: '0.1', account: 'margin' };
    await expectRejected(sim, () => order({ ...eth, side: 'buy', price: '500' }, K2), 400, 'TRADE_RESTRICTED');
    // Selling ETH for the USDT it owes reduces the debt.
    const sell = await order({ ...eth, side: 'sell', price: '600' }, K2);
    expect(sell.status).toBe(201);
    expect(sell.body).toMatchObject({ account: 'margin', status: 'open' });
    expectConserved(sim, UIDS);
  });
});
