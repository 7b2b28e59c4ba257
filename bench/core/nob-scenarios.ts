/**
 * S1–S5: the five cases of nodejs-order-book's own `benchmarks/benchmark_lob.js`, at the largest count each
 * case uses there, as pre-generated streams (seeded Prng instead of Math.random, integer ticks and lots).
 *
 * Differences from the original, all forced by integer units: prices and market sizes drawn from a Gaussian
 * are rounded to the nearest integer (at least 1); the spam cases' price `i` and `i % 5` become `i + 1` and
 * `i % 5 + 1` because a price of 0 is invalid in both books. All limits are GTC buys, every market order is a
 * sell of base lots (which both books define identically), so the only matching comes from market sells.
 *
 * `reps`: the small cases replay their stream on this many fresh books per pass (only the replays are timed),
 * so one pass is long enough to time reliably.
 */
import { Prng } from '../../src/core/prng.js';
import { BUY, CommandStream, Kind, PlaceTif, PlaceType, SELL } from './stream.js';

export interface NobScenario {
  readonly name: string;
  readonly title: string;
  readonly stream: CommandStream;
  readonly reps: number;
}

const USER = 1;

function limitBuy(s: CommandStream, id: number, price: number, size: number): void {
  s.place(Kind.Gtc, id, USER, BUY, PlaceType.Limit, PlaceTif.Gtc, price, size, false);
}

/** Market orders need an id in our book (not in the peer's); they take ids after the limits'. */
function marketSell(s: CommandStream, id: number, size: number): void {
  s.place(Kind.Market, id, USER, SELL, PlaceType.Market, PlaceTif.Ioc, 0, size, false);
}

const gaussianInt = (r: Prng, mean: number, sd: number): number => Math.max(1, Math.round(mean + sd * r.nextGaussian()));

/** "Spam N new Limits": buys at distinct prices. */
function spamLimits(n: number): CommandStream {
  const s = new CommandStream(n);
  for (let i = 0; i < n; i++) limitBuy(s, i + 1, i + 1, 50);
  s.ensureIds(n, USER);
  return s;
}

/** "Spam N new Orders": buys on 5 price levels. */
function spamOrders(n: number): CommandStream {
  const s = new CommandStream(n);
  for (let i = 0; i < n; i++) limitBuy(s, i + 1, (i % 5) + 1, 50);
  s.ensureIds(n, USER);
  return s;
}

/** "Spam N orders and randomly cancel orders": Gaussian(500, 30) prices, every 5th order cancels the one 5 before. */
function spamCancel(n: number, seed: number): CommandStream {
  const r = new Prng(seed);
  const s = new CommandStream(n + Math.ceil(n / 5));
  limitBuy(s, 1, gaussianInt(r, 500, 30), 50);
  for (let i = 1; i < n; i++) {
    limitBuy(s, i + 1, gaussianInt(r, 500, 30), 50);
    if (i % 5 === 0) s.cancel(Kind.Cancel, i - 5 + 1);
  }
  s.ensureIds(n, USER);
  return s;
}

/** "N limit orders and occasional market orders": Gaussian(500, 20) limits of 100, a Gaussian(100, 10) market sell every 100. */
function occasionalMarket(n: number, seed: number): CommandStream {
  const r = new Prng(seed);
  const s = new CommandStream(n + Math.ceil(n / 100));
  for (let i = 1; i < n; i++) {
    const price = gaussianInt(r, 500, 20);
    const qty = gaussianInt(r, 100, 10);
    limitBuy(s, i, price, 100);
    if (i % 100 === 0) marketSell(s, n + i, qty);
  }
  s.ensureIds(2 * n, USER);
  return s;
}

/** "N limit orders and constant market orders": a Gaussian(50, 10) market sell after every Gaussian(500, 20) limit of 100. */
function constantMarket(n: number, seed: number): CommandStream {
  const r = new Prng(seed);
  const s = new CommandStream(2 * n);
  for (let i = 1; i < n; i++) {
    const price = gaussianInt(r, 500, 20);
    const qty = gaussianInt(r, 50, 10);
    limitBuy(s, i, price, 100);
    marketSell(s, n + i, qty);
  }
  s.ensureIds(2 * n, USER);
  return s;
}

/** The five scenarios; `quick` shrinks the two large cases and the repetitions. @allocates */
export function nobScenarios(quick: boolean, seed: number): NobScenario[] {
  return [
    { name: 'nob-spam-limits', title: 'S1 Spam 300000 new Limits (distinct prices)', stream: spamLimits(quick ? 30_000 : 300_000), reps: 1 },
    { name: 'nob-spam-orders', title: 'S2 Spam 1000 new Orders (5 prices)', stream: spamOrders(1000), reps: quick ? 10 : 100 },
    { name: 'nob-spam-cancel', title: 'S3 Spam 10000 orders, cancel every 5th', stream: spamCancel(10_000, seed), reps: quick ? 2 : 10 },
    { name: 'nob-occasional-market', title: 'S4 100000 limits, market every 100', stream: occasionalMarket(quick ? 10_000 : 100_000, seed + 1), reps: 1 },
    { name: 'nob-constant-market', title: 'S5 10000 limits, market after each', stream: constantMarket(10_000, seed + 2), reps: quick ? 2 : 10 },
  ];
}
