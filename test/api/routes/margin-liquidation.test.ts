// Liquidation of isolated-margin and cross-margin accounts that fell below their risk threshold: open orders on
// the account are cancelled, debt is repaid from what the account holds, and collateral is sold through the
// book with market IOC orders on the account until it is no longer locked (called directly, and by the timer);
// every currency is conserved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { crossAccountOf } from '../../../src/core/margin/cross-margin.js';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { liquidateMargin } from '../../../src/api/unified/margin-liquidator.js';
import { type Caller, caller, expectConserved, type J } from './funds-helpers.js';
import { UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;
const UIDS = [10001, 10002, 10003, 10010, 10011, 10012];
const K2: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  sim = await startSimulator({ ...UNIFIED_CONFIG, clock: { type: 'sim' } }, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
});
afterAll(async () => { await sim.close(); });

/** A trade of 0.1 ETH at `price`: 10001 sells, 10002 buys (sets the last price the index follows). */
async function tradeAt(price: string): Promise<void> {
  const o = { currency_pair: 'ETH_USDT', amount: '0.1', price, type: 'limit' };
  expect((await call('POST', '/spot/orders', { ...o, side: 'sell' })).status).toBe(201);
  expect((await call('POST', '/spot/orders', { ...o, side: 'buy', time_in_force: 'ioc' }, undefined, K2)).status).toBe(201);
}
const run = (uid: number, kind: number, market: number): Promise<void> => new Promise((resolve) => { liquidateMargin(sim.server.deps, uid, kind, market, resolve); });
const marginAccount = async (pair: string): Promise<J> => ((await call('GET', '/margin/accounts', undefined, `currency_pair=${pair}`, K2)).body as unknown as J[])[0]!;

/** 10002 buys 1.5 ETH at 2,000 on `account` (borrowing the 3,000 USDT: margin by hand, cross_margin by auto_borrow). */
async function leveredBuy(account: 'margin' | 'cross_margin'): Promise<void> {
  const o = { currency_pair: 'ETH_USDT', amount: '1.5', price: '2000', type: 'limit' };
  expect((await call('POST', '/spot/orders', { ...o, side: 'sell' })).status).toBe(201);
  const buy = await call('POST', '/spot/orders', { ...o, side: 'buy', time_in_force: 'ioc', account, ...(account === 'cross_margin' ? { auto_borrow: true } : {}) }, undefined, K2);
  expect([buy.status, (buy.body).finish_as]).toEqual([201, 'filled']);
}

describe('margin liquidation', () => {
  it('sells an isolated account\'s collateral through the book until it is safe again', async () => {
    const eth = sim.gateway.exchange.marketIndex('ETH_USDT');
    await tradeAt('2000');
    expect((await call('POST', '/wallet/transfers', { currency: 'ETH', from: 'spot', to: 'margin', amount: '1', currency_pair: 'ETH_USDT' }, undefined, K2)).status).toBe(200);
    expect((await call('POST', '/margin/uni/loans', { currency_pair: 'ETH_USDT', currency: 'USDT', type: 'borrow', amount: '3000' }, undefined, K2)).status).toBe(204);
    await leveredBuy('margin');
    const resting = await call('POST', '/spot/orders', { currency_pair: 'ETH_USDT', side: 'sell', amount: '0.2', price: '3000', account: 'margin' }, undefined, K2);
    expect(resting.status).toBe(201);
    // Bids the liquidation can sell into, then a trade at 1,250: 2.5 ETH (3,125) against 3,000 owed is below 1.1.
    expect((await call('POST', '/spot/orders', { currency_pair: 'ETH_USDT', side: 'buy', amount: '3', price: '1240' })).status).toBe(201);
    await tradeAt('1250');
    expect(await marginAccount('ETH_USDT')).toMatchObject({ locked: true });
    await run(10002, AccountKind.Margin, eth);
    const after = await marginAccount('ETH_USDT');
    expect(after.locked).toBe(false);
    expect(Number((after.quote as J).borrowed)).toBeLessThan(3000);
    expect(Number((after.base as J).available)).toBeLessThan(2.5);
    expect(((await call('GET', `/spot/orders/${(resting.body).id as string}`, undefined, 'currency_pair=ETH_USDT&account=margin', K2)).body).status).toBe('cancelled');
    const trades = (await call('GET', '/spot/my_trades', undefined, 'currency_pair=ETH_USDT&account=margin', K2)).body as unknown as J[];
    expect(trades.some((t) => t.text === 't-liquidation' && t.side === 'sell')).toBe(true);
    expectConserved(sim, UIDS);
  });

  it('sells a cross-margin account\'s collateral the same way', async () => {
    await tradeAt('2000');
    expect((await call('POST', '/wallet/transfers', { currency: 'ETH', from: 'spot', to: 'cross_margin', amount: '1' }, undefined, K2)).status).toBe(200);
    await leveredBuy('cross_margin');
    const owed = (): number => Number(sim.gateway.exchange.ledger.balanceText(10002, AccountKind.CrossMargin, 0, 'USDT')!.borrowed);
    const before = owed();
    expect(before).toBeGreaterThanOrEqual(3000);
    expect((await call('POST', '/spot/orders', { currency_pair: 'ETH_USDT', side: 'buy', amount: '3', price: '1240' })).status).toBe(201);
    await tradeAt('1250');
    expect(crossAccountOf(sim.gateway.exchange, 10002).figures.locked).toBe(true);
    // Left to the liquidation timer (every second): bounded wait for the account to be safe again.
    for (let i = 0; i < 40 && crossAccountOf(sim.gateway.exchange, 10002).figures.locked; i++) await new Promise((r) => setTimeout(r, 100));
    expect(crossAccountOf(sim.gateway.exchange, 10002).figures.locked).toBe(false);
    expect(owed()).toBeLessThan(before);
    expect(Number(sim.gateway.exchange.ledger.balanceText(10002, AccountKind.CrossMargin, 0, 'ETH')!.available)).toBeLessThan(2.5);
    expectConserved(sim, UIDS);
  });
});
