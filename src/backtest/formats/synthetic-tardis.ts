/**
 * Synthetic market data in Tardis CSV layout (trades and incremental_book_L2), from a seed: a random-walk
 * mid, `levels` levels per side, level updates, trades at the touch followed (same receive time, trade file
 * first) by the depth update they caused, and a fresh snapshot every `snapshotEvery` messages (as after a
 * reconnect). For examples, tests and benchmarks; the rows obey every rule the readers check.
 *
 * With a `ticker` sink (perpetuals), a `derivative_ticker` row every `tickerEveryUs` of exchange time: index at
 * the mid, mark = index + a small bounded premium, a funding rate that random-walks within ±0.1 %, and
 * `funding_timestamp` the next multiple of `fundingIntervalS`. It draws from its own PRNG (seed + 1), so the
 * trades and book rows of a seed are the same with or without it.
 */
import { Prng } from '../../core/prng.js';
import { TARDIS_TICKER_HEADER } from './tardis-ticker.js';

export interface SyntheticOptions {
  readonly seed: number;
  /** Depth messages to generate (each 1–4 rows). */
  readonly messages: number;
  readonly levels?: number;
  readonly startUs?: number;
  /** Price tick as a decimal with `priceDecimals` decimals: price = ticks / 10^priceDecimals. */
  readonly priceDecimals?: number;
  readonly amountDecimals?: number;
  readonly startTicks?: number;
  /** Largest exchange-time step between messages, µs (default 2,000). */
  readonly maxStepUs?: number;
  readonly snapshotEvery?: number;
  readonly exchange?: string;
  readonly symbol?: string;
  /** Exchange µs between derivative ticker rows (default 1,000,000). */
  readonly tickerEveryUs?: number;
  /** Seconds between funding events (default 28,800). */
  readonly fundingIntervalS?: number;
}

export interface SyntheticSink {
  book(line: string): void;
  trade(line: string): void;
  /** Derivative ticker lines (header first); absent: none generated. */
  ticker?(line: string): void;
}

const fmt = (v: number, d: number): string => {
  if (d === 0) return String(v);
  const s = String(v).padStart(d + 1, '0');
  return `${s.slice(0, s.length - d)}.${s.slice(s.length - d)}`;
};

/** Writes header lines and then the rows; returns the row counts. */
export function generateTardis(o: SyntheticOptions, sink: SyntheticSink): { bookRows: number; tradeRows: number; tickerRows?: number } {
  const r = new Prng(o.seed);
  const L = o.levels ?? 10;
  const pd = o.priceDecimals ?? 1;
  const ad = o.amountDecimals ?? 3;
  const ex = o.exchange ?? 'gate-io';
  const sym = o.symbol ?? 'BTC_USDT';
  const snapEvery = o.snapshotEvery ?? 0;
  let t = o.startUs ?? 1_767_225_600_000_000;
  let mid = o.startTicks ?? 600_000;
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  let bookRows = 0;
  let tradeRows = 0;
  let tradeId = 0;
  let tickerRows = 0;
  const tick = sink.ticker === undefined ? undefined : tickerWriter(o, ex, sym, pd, t, (l) => { sink.ticker!(l); tickerRows++; });
  tickerRows = 0; // the header line is not a row
  sink.book('exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount');
  sink.trade('exchange,symbol,timestamp,local_timestamp,id,side,price,amount');
  const row = (local: number, snap: boolean, side: 'bid' | 'ask', price: number, amount: number): void => {
    sink.book(`${ex},${sym},${local - 150},${local},${snap},${side},${fmt(price, pd)},${fmt(amount, ad)}`);
    bookRows++;
  };
  const size = (): number => 1 + r.nextInt(5000);
  const snapshot = (): void => {
    bids.clear(); asks.clear();
    for (let k = 1; k <= L; k++) { bids.set(mid - k, size()); asks.set(mid + k, size()); }
    for (const [p, s] of asks) row(t, true, 'ask', p, s);
    for (const [p, s] of bids) row(t, true, 'bid', p, s);
  };
  snapshot();
  for (let m = 0; m < o.messages; m++) {
    t += 1 + r.nextInt(o.maxStepUs ?? 2000);
    tick?.(t - 150, mid);
    if (snapEvery > 0 && m > 0 && m % snapEvery === 0) { snapshot(); continue; }
    const u = r.nextFloat();
    if (u < 0.15) {
      // A trade at the touch, then the depth update it caused at the same receive time.
      const buy = r.chance(0.5);
      const book = buy ? asks : bids;
      const best = buy ? minKey(book) : maxKey(book);
      const have = book.get(best)!;
      const amt = Math.min(have, 1 + r.nextInt(3000));
      sink.trade(`${ex},${sym},${t - 150},${t},${++tradeId},${buy ? 'buy' : 'sell'},${fmt(best, pd)},${fmt(amt, ad)}`);
      tradeRows++;
      const left = have - amt;
      if (left === 0) book.delete(best); else book.set(best, left);
      row(t, false, buy ? 'ask' : 'bid', best, left);
      if (book.size < 2) {
        const far = buy ? Math.max(maxKey(book), best) + 1 : Math.min(minKey(book), best) - 1;
        book.set(far, size());
        row(t, false, buy ? 'ask' : 'bid', far, book.get(far)!);
      }
    } else if (u < 0.2) {
      // The mid moves a tick: the level crossing over is removed, a new one appears on the other side.
      const up = r.chance(0.5);
      const bestBid = maxKey(bids);
      const bestAsk = minKey(asks);
      if (up && bestAsk - bestBid > 1) { bids.set(bestBid + 1, size()); row(t, false, 'bid', bestBid + 1, bids.get(bestBid + 1)!); }
      else if (!up && bestAsk - bestBid > 1) { asks.set(bestAsk - 1, size()); row(t, false, 'ask', bestAsk - 1, asks.get(bestAsk - 1)!); }
      else { mid += up ? 1 : -1; }
    } else {
      const n = 1 + r.nextInt(3);
      for (let k = 0; k < n; k++) {
        const bid = r.chance(0.5);
        const book = bid ? bids : asks;
        const best = bid ? maxKey(book) : minKey(book);
        const p = bid ? best - r.nextInt(L) : best + r.nextInt(L);
        const s = r.chance(0.1) && book.size > 2 ? 0 : size();
        if (s === 0) book.delete(p); else book.set(p, s);
        row(t, false, bid ? 'bid' : 'ask', p, s);
      }
    }
  }
  return { bookRows, tradeRows, ...(tick === undefined ? {} : { tickerRows }) };
}

/** The ticker side of the generator: writes the header now, then a row whenever `exch` passes the next one. */
function tickerWriter(o: SyntheticOptions, ex: string, sym: string, pd: number, startUs: number,
  out: (line: string) => void): (exch: number, mid: number) => void {
  const r = new Prng(o.seed + 1);
  const every = o.tickerEveryUs ?? 1_000_000;
  const interval = (o.fundingIntervalS ?? 28_800) * 1_000_000;
  let next = startUs;
  let rate = 10_000; // 10^-8: 0.01 %
  out(TARDIS_TICKER_HEADER);
  return (exch, mid) => {
    while (exch >= next) {
      rate = Math.max(-100_000, Math.min(100_000, rate + r.nextInt(2001) - 1000));
      const premium = r.nextInt(5) - 2;
      const funding = (Math.floor(next / interval) + 1) * interval;
      out(`${ex},${sym},${next},${next + 150},${funding},${fmtSigned(rate, 8)},${fmtSigned(rate, 8)},${1000 + r.nextInt(1000)},`
        + `${fmt(mid, pd)},${fmt(mid, pd)},${fmt(mid + premium, pd)}`);
      next += every;
    }
  };
}

const fmtSigned = (v: number, d: number): string => (v < 0 ? `-${fmt(-v, d)}` : fmt(v, d));

/** Lowest key of a book side by a loop (a spread into Math.min fails past about 10^5 levels); Infinity when empty. */
function minKey(m: ReadonlyMap<number, number>): number {
  let v = Number.POSITIVE_INFINITY;
  for (const k of m.keys()) if (k < v) v = k;
  return v;
}

/** Highest key of a book side; -Infinity when empty. */
function maxKey(m: ReadonlyMap<number, number>): number {
  let v = Number.NEGATIVE_INFINITY;
  for (const k of m.keys()) if (k > v) v = k;
  return v;
}
