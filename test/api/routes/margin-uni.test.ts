// Isolated-margin borrowing over HTTP (/margin/uni/*): pairs, borrowable at the configured leverage, borrow and
// repay on the pair's Margin account (each refusal's label, nothing changed), loans and records, transfers out
// held to the leverage, hourly interest in the simulated clock's time, the account's risk and lock when the
// collateral's price falls, /earn/uni/currencies, and conservation of every currency throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { plainFetch } from '../http-helpers.js';
import { type Caller, caller, expectConserved, expectRejected, type J } from './funds-helpers.js';
import { UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;
const UIDS = [10001, 10002, 10003, 10010, 10011, 10012];
const K2: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  // Liquidation off: these tests look at a locked account the user repays (margin-liquidation.test.ts sells it down).
  sim = await startSimulator({ ...UNIFIED_CONFIG, clock: { type: 'sim' }, unified: { ...UNIFIED_CONFIG.unified!, liquidation: false } }, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
  for (const [currency, amount] of [['USDT', '1000'], ['BTC', '0.1']]) {
    const t = await call('POST', '/wallet/transfers', { currency, from: 'spot', to: 'margin', amount, currency_pair: 'BTC_USDT' });
    expect(t.status).toBe(200);
  }
});
afterAll(async () => { await sim.close(); });

const loan = (body: J, key?: [string, string]): Promise<{ status: number; body: J }> => call('POST', '/margin/uni/loans', body, undefined, key);
const list = async (path: string, query?: string, key?: [string, string]): Promise<J[]> => (await call('GET', path, undefined, query, key)).body as unknown as J[];
const account = async (pair: string, key?: [string, string]): Promise<J> => (await list('/margin/accounts', `currency_pair=${pair}`, key))[0]!;

describe('isolated margin borrowing', () => {
  it('lists the margin pairs and the lending pool\'s currencies', async () => {
    const pairs = await list('/margin/uni/currency_pairs');
    expect(pairs.length).toBe(sim.gateway.exchange.markets.length);
    const one = { currency_pair: 'BTC_USDT', base_min_borrow_amount: '0.0001', quote_min_borrow_amount: '1', leverage: '5' };
    expect(pairs).toContainEqual(one);
    expect((await call('GET', '/margin/uni/currency_pairs/BTC_USDT')).body).toEqual(one);
    await expectRejected(sim, () => call('GET', '/margin/uni/currency_pairs/XRP_USDT'), 400, 'INVALID_CURRENCY_PAIR');
    const lend = await list('/earn/uni/currencies');
    expect(lend.map((c) => c.currency).sort()).toEqual(['BTC', 'ETH', 'USDT']);
    expect((await call('GET', '/earn/uni/currencies/USDT')).body).toEqual({ currency: 'USDT', min_lend_amount: '1', max_lend_amount: '1000000',
      max_rate: '0.00002', min_rate: '0.00002' });
    await expectRejected(sim, () => call('GET', '/earn/uni/currencies/XRP'), 400, 'INVALID_CURRENCY');
  });

  it('answers what the account may borrow at its leverage', async () => {
    // equity 1,000 + 0.1 × 50,000 = 6,000 USD; at leverage 5 the account may owe 4 × 6,000 = 24,000 USD.
    expect((await call('GET', '/margin/uni/borrowable', undefined, 'currency=USDT&currency_pair=BTC_USDT')).body)
      .toEqual({ currency: 'USDT', currency_pair: 'BTC_USDT', borrowable: '24000' });
    expect((await call('GET', '/margin/uni/borrowable', undefined, 'currency=BTC&currency_pair=BTC_USDT')).body)
      .toMatchObject({ borrowable: '0.48' });
    await expectRejected(sim, () => call('GET', '/margin/uni/borrowable', undefined, 'currency=USDT'), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => call('GET', '/margin/uni/borrowable', undefined, 'currency=ETH&currency_pair=BTC_USDT'), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/margin/uni/borrowable', undefined, 'currency=USDT', ['wallet-only', 'ws']), 403, 'FORBIDDEN');
  });

  it('refuses bad loans with Gate\'s labels and changes nothing', async () => {
    const p = { currency_pair: 'BTC_USDT' };
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'borrow', amount: '10' }), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', amount: '10' }), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', type: 'lend', amount: '10' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => loan({ ...p, currency: 'ETH', type: 'borrow', amount: '1' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => loan({ currency_pair: 'XRP_USDT', currency: 'USDT', type: 'borrow', amount: '1' }), 400, 'INVALID_CURRENCY_PAIR');
    await expectRejected(sim, () => loan({ ...p, currency: 'XRP', type: 'borrow', amount: '1' }), 400, 'INVALID_CURRENCY');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', type: 'borrow', amount: '-1' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', type: 'borrow', amount: '0.5' }), 400, 'AMOUNT_TOO_LITTLE');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', type: 'borrow', amount: '24001' }), 400, 'MARGIN_BALANCE_NOT_ENOUGH');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', type: 'borrow', amount: '200001' }), 400, 'BORROW_TOO_LARGE');
    await expectRejected(sim, () => loan({ ...p, currency: 'BTC', type: 'borrow', amount: '11' }), 400, 'BORROW_TOO_LARGE');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', type: 'repay', amount: '1' }), 400, 'REPAY_TOO_MUCH');
    await expectRejected(sim, () => loan({ ...p, currency: 'USDT', type: 'repay', repaid_all: 'yes' }), 400, 'INVALID_PARAM_VALUE');
  });

  it('borrows onto the pair\'s margin account, lists loans and records, and shows the risk', async () => {
    expect((await loan({ currency_pair: 'btc_usdt', currency: 'usdt', type: 'borrow', amount: '10000' })).status).toBe(204);
    expectConserved(sim, UIDS);
    const acct = await account('BTC_USDT');
    // assets 11,000 + 5,000 against 10,000 owed
    expect(acct).toMatchObject({ leverage: '5', locked: false, risk: '1.6', mmr: '1.6',
      quote: { currency: 'USDT', available: '11000', borrowed: '10000', interest: '0' }, base: { available: '0.1', borrowed: '0' } });
    const loans = await list('/margin/uni/loans');
    expect(loans).toHaveLength(1);
    expect(loans[0]).toMatchObject({ currency: 'USDT', currency_pair: 'BTC_USDT', amount: '10000', type: 'platform' });
    expect(await list('/margin/uni/loans', 'currency_pair=ETH_USDT')).toEqual([]);
    expect(await list('/margin/uni/loans', 'currency=BTC')).toEqual([]);
    const recs = await list('/margin/uni/loan_records');
    expect(recs).toEqual([{ type: 'borrow', currency_pair: 'BTC_USDT', currency: 'USDT', amount: '10000', create_time: expect.any(Number) as number }]);
    expect(await list('/margin/uni/loan_records', 'type=repay')).toEqual([]);
    await expectRejected(sim, () => call('GET', '/margin/uni/loan_records', undefined, 'type=lend'), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/margin/uni/loans', undefined, 'limit=101'), 400, 'INVALID_PARAM_VALUE');
    // Unified views do not list isolated loans.
    expect(await list('/unified/loan_records')).toEqual([]);
    expect((await call('GET', '/margin/uni/borrowable', undefined, 'currency=USDT&currency_pair=BTC_USDT')).body).toMatchObject({ borrowable: '14000' });
  });

  it('holds transfers out of a margin account that owes to its leverage', async () => {
    // (6,000 × 4 − 10,000) / 4 = 3,500 USDT may leave.
    expect((await call('GET', '/margin/transferable', undefined, 'currency=USDT&currency_pair=BTC_USDT')).body).toMatchObject({ amount: '3500' });
    const out = { currency: 'USDT', from: 'margin', to: 'spot', currency_pair: 'BTC_USDT' };
    await expectRejected(sim, () => call('POST', '/wallet/transfers', { ...out, amount: '3500.01' }), 400, 'BALANCE_NOT_ENOUGH');
    expect((await call('POST', '/wallet/transfers', { ...out, amount: '500' })).status).toBe(200);
    expectConserved(sim, UIDS);
  });

  it('charges interest every hour of the simulated clock, from the margin account', async () => {
    const adv = await plainFetch(sim.server.port, '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_ms: 2 * 3_600_000 }) });
    expect(adv.status).toBe(200);
    const recs = await list('/margin/uni/interest_records');
    expect(recs.length).toBeGreaterThanOrEqual(1);
    expect(recs[0]).toMatchObject({ currency: 'USDT', currency_pair: 'BTC_USDT', actual_rate: '0.00002', status: 1, type: 'platform' });
    const total = recs.reduce((s, r) => s + Number(r.interest), 0);
    // 10,000 USDT × 0.00002 per hour for the two (or, across an hour boundary, three) hours that passed.
    expect([0.4, 0.6]).toContain(Math.round(total * 1e6) / 1e6);
    expect((await account('BTC_USDT')).quote).toMatchObject({ available: String(10500 - total), borrowed: '10000', interest: '0' });
    expect(await list('/unified/interest_records')).toEqual([]);
    expect(await list('/margin/uni/interest_records', 'currency_pair=ETH_USDT')).toEqual([]);
    expectConserved(sim, UIDS);
  });

  it('repays part, then all', async () => {
    expect((await loan({ currency_pair: 'BTC_USDT', currency: 'USDT', type: 'repay', amount: '4000' })).status).toBe(204);
    expect((await account('BTC_USDT')).quote).toMatchObject({ borrowed: '6000' });
    expect((await loan({ currency_pair: 'BTC_USDT', currency: 'USDT', type: 'repay', repaid_all: true })).status).toBe(204);
    expect(await list('/margin/uni/loans')).toEqual([]);
    expect(await account('BTC_USDT')).toMatchObject({ risk: '9999.99', mmr: '9999.99', locked: false, quote: { borrowed: '0' } });
    expect((await list('/margin/uni/loan_records', 'type=repay')).map((r) => r.amount)).toEqual(['6000', '4000']);
    expectConserved(sim, UIDS);
  });

  it('locks an account whose collateral falls below the liquidation risk', async () => {
    const trade = async (price: string): Promise<void> => {
      const o = { currency_pair: 'ETH_USDT', amount: '0.1', price, type: 'limit' };
      expect((await call('POST', '/spot/orders', { ...o, side: 'sell' })).status).toBe(201);
      expect((await call('POST', '/spot/orders', { ...o, side: 'buy', time_in_force: 'ioc' }, undefined, K2)).status).toBe(201);
    };
    await trade('2000');
    expect((await call('POST', '/wallet/transfers', { currency: 'ETH', from: 'spot', to: 'margin', amount: '1', currency_pair: 'ETH_USDT' }, undefined, K2)).status).toBe(200);
    expect((await loan({ currency_pair: 'ETH_USDT', currency: 'USDT', type: 'borrow', amount: '7000' }, K2)).status).toBe(204);
    expect(await account('ETH_USDT', K2)).toMatchObject({ locked: false, risk: '1.28571428' });
    await trade('500');
    // 500 + 7,000 against 7,000 owed: below 1.1.
    expect(await account('ETH_USDT', K2)).toMatchObject({ locked: true, risk: '1.07142857' });
    await expectRejected(sim, () => loan({ currency_pair: 'ETH_USDT', currency: 'USDT', type: 'borrow', amount: '1' }, K2), 400, 'TRADE_RESTRICTED');
    expect((await call('GET', '/margin/uni/borrowable', undefined, 'currency=USDT&currency_pair=ETH_USDT', K2)).body).toMatchObject({ borrowable: '0' });
    expect((await loan({ currency_pair: 'ETH_USDT', currency: 'USDT', type: 'repay', amount: '3000' }, K2)).status).toBe(204);
    expect(await account('ETH_USDT', K2)).toMatchObject({ locked: false, risk: '1.125' });
    expectConserved(sim, UIDS);
  });
});
