// The embedded exchange runs the options services as the server does, on its own clock and without timers: the
// index follows the underlying's spot market, and when the clock passes an expiration the next call (or poll())
// cancels the expiration's open orders and settles its positions at the index. Through the embedded API only.
import { describe, expect, it } from 'vitest';
import Big from 'big.js';
import { SimClock } from '../../src/core/clock.js';
import { EmbeddedExchange, GateApiError } from '../../src/sim/embedded-exchange.js';
import type { SimConfig } from '../../src/sim/sim-config.js';

const START_MS = Date.UTC(2026, 0, 1);
const EXP1_MS = START_MS + 86_400_000 + 8 * 3_600_000;
const CALL = 'BTC_USDT-20260102-60000-C';
const CALL7 = 'BTC_USDT-20260108-60000-C';
const CONFIG: SimConfig = {
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
  users: [
    { uid: 1, balances: { spot: { USDT: '100000', BTC: '1' }, options: { USDT: '20000' } } },
    { uid: 2, balances: { spot: { USDT: '100000', BTC: '1' }, options: { USDT: '20000' } } },
  ],
  options: { underlyings: [{ name: 'BTC_USDT', multiplier: '0.01', order_price_round: '0.1', strikes: ['55000', '60000'], expiration_days: [1, 7] }] },
};

/** A spot trade of 0.01 BTC at `price` between users 2 (sells) and 1 (buys). */
function spotTrade(ex: EmbeddedExchange, price: string): void {
  ex.createOrder(2, { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.01', price });
  ex.createOrder(1, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price });
}

/** The same calls on a fresh exchange; returns it. */
function run(): { ex: EmbeddedExchange; clock: SimClock; totals: Big[][] } {
  const clock = new SimClock(START_MS * 1000);
  const ex = EmbeddedExchange.create(CONFIG, { clock });
  const totals: Big[][] = [];
  const total = (): Big[] => [1, 2].map((u) => new Big(ex.optionsAccount(u).total as string));
  expect(ex.options).toBeDefined();
  expect(ex.exchange.options.index[0]).toBe(0); // nothing traded: no index yet
  spotTrade(ex, '60000');
  clock.advanceBy(1_000_000);
  ex.poll();
  expect(ex.exchange.options.index[0]).toBe(600_000); // 60000.0 in ticks of 0.1
  ex.createOptionsOrder(2, { contract: CALL, size: -3, price: '2500' });
  const bought = ex.createOptionsOrder(1, { contract: CALL, size: 2, price: '2500' });
  expect(bought).toMatchObject({ status: 'finished', finish_as: 'filled', size: 2, left: 0 });
  ex.createOptionsOrder(1, { contract: CALL7, size: 1, price: '3000' });
  expect(ex.optionsPositions(1).map((p) => [p.contract, p.size])).toEqual([[CALL, 2]]);
  expect(ex.optionsPositions(2).map((p) => [p.contract, p.size])).toEqual([[CALL, -2]]);
  spotTrade(ex, '62000');
  clock.advanceBy(1_000_000);
  // A read submits nothing; a call that submits runs what is due first (the index step).
  ex.deposit(1, 'USDT', '1');
  expect(ex.exchange.options.index[0]).toBe(620_000);
  totals.push(total());
  clock.advanceTo((EXP1_MS + 5000) * 1000);
  ex.poll();
  totals.push(total());
  return { ex, clock, totals };
}

describe('options services in the embedded exchange', () => {
  it('the index follows the spot pair; the expiry cancels the open orders and settles the positions at the index', () => {
    const { ex, totals } = run();
    expect(ex.options!.stats).toMatchObject({ indexUpdates: 2, settlements: 1, cancels: 1 });
    // Both positions of the first expiration are settled; the second expiration's order still rests.
    expect(ex.optionsPositions(1)).toEqual([]);
    expect(ex.optionsPositions(2)).toEqual([]);
    const [before, after] = totals as [Big[], Big[]];
    // The 60000 call settled at 62000: 2 × 0.01 × 2000 = 40 from the short to the long.
    expect(after[0]!.minus(before[0]!).toString()).toBe('40');
    expect(after[1]!.minus(before[1]!).toString()).toBe('-40');
    // The seller's remaining ask (1 contract) was cancelled: no order margin left on the short side.
    expect(ex.optionsAccount(2)).toMatchObject({ ask_order_margin: '0', order_margin: '0' });
    expect(ex.optionsAccount(1).bid_order_margin).not.toBe('0'); // CALL7's bid, 7 days out
    // Settled contracts take no orders.
    expect(() => ex.createOptionsOrder(1, { contract: CALL, size: 1, price: '100' })).toThrow(GateApiError);
    ex.engine.assertInvariants();
  });

  it('the same calls on the same clock reach the same state hash', () => {
    expect(run().ex.stateHash()).toBe(run().ex.stateHash());
  });

  it('answers USER_NOT_FOUND to a user without an options account, as the REST routes', () => {
    const ex = EmbeddedExchange.create({ ...CONFIG, users: [...CONFIG.users!, { uid: 3, balances: { spot: { USDT: '1' } } }] });
    const e = ((): GateApiError => {
      try { ex.createOptionsOrder(3, { contract: CALL, size: 1, price: '100' }); } catch (x) { if (x instanceof GateApiError) return x; }
      throw new Error('expected a rejection');
    })();
    expect(e).toMatchObject({ label: 'USER_NOT_FOUND', status: 400 });
    expect(() => ex.optionsAccount(3)).toThrow(GateApiError);
  });
});
