/**
 * Memory figures.
 *
 * Resting orders: `n` non-crossing GTC limits (bids on 1,000 levels at 10,000–10,999, asks on 1,000 levels at
 * 11,000–11,999, sizes 1 + rand(6)·rand(6)·rand(6)) are generated first; then, after gc, heapUsed +
 * arrayBuffers is read, a book is created and filled, gc runs again, and the difference divided by `n` is the
 * cost per resting order (the empty book is included, and reported alone as `empty_book_bytes`). Our book is
 * created with `maxOrders: n`. The peer's string ids are created before the first reading, so they count as
 * the caller's, not the book's.
 *
 * Steady state: the EC-mirror stream on a fresh book: pre-fill, gc, read; replay the benchmark commands; read
 * again without gc (growth including garbage), gc, read (retained growth). GC events that started during the
 * replay are counted with a PerformanceObserver: none means the replay allocated nothing the young
 * generation had to collect.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { Market } from '../../src/core/market.js';
import type { OrderBook } from '../../src/core/matching/order-book.js';
import { Prng } from '../../src/core/prng.js';
import { gcNow } from './measure.js';
import { OursRunner, createBook } from './ours-adapter.js';
import { PeerRunner, createPeerBook } from './peer-adapter.js';
import { BUY, CommandStream, Kind, PlaceTif, PlaceType, SELL } from './stream.js';

const heapNow = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** n resting orders that never cross. @allocates */
export function restingStream(n: number, seed: number): CommandStream {
  const r = new Prng(seed);
  const s = new CommandStream(n);
  for (let i = 1; i <= n; i++) {
    const bid = (i & 1) === 1;
    const price = (bid ? 10_000 : 11_000) + r.nextInt(1000);
    const size = 1 + r.nextInt(6) * r.nextInt(6) * r.nextInt(6);
    s.place(Kind.Gtc, i, 1 + r.nextInt(1000), bid ? BUY : SELL, PlaceType.Limit, PlaceTif.Gtc, price, size, false);
  }
  s.ensureIds(n, 1000);
  return s;
}

export interface RestingMemory {
  bytesPerOrder: number;
  emptyBookBytes: number;
  totalBytes: number;
  seconds: number;
  /** Ours: resting orders; the peer: price levels (its order count is private). */
  resting: number;
}

export function oursRestingMemory(market: Market, s: CommandStream): RestingMemory {
  const runner = new OursRunner(s, 'native');
  const n = s.length;
  gcNow();
  const h0 = heapNow();
  const empty = createBook(market, { maxOrders: n });
  gcNow();
  const emptyBookBytes = heapNow() - h0;
  const h1 = heapNow();
  const book = createBook(market, { maxOrders: n });
  const t0 = process.hrtime.bigint();
  runner.run(book, 0, n);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  gcNow();
  const totalBytes = heapNow() - h1;
  const resting = book.size + empty.size;
  return { bytesPerOrder: totalBytes / n, emptyBookBytes, totalBytes, seconds, resting };
}

export function peerRestingMemory(s: CommandStream): RestingMemory {
  const runner = new PeerRunner(s, 'modify');
  const n = s.length;
  gcNow();
  const h0 = heapNow();
  const empty = createPeerBook();
  gcNow();
  const emptyBookBytes = heapNow() - h0;
  const h1 = heapNow();
  const book = createPeerBook();
  const t0 = process.hrtime.bigint();
  runner.run(book, 0, n);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  gcNow();
  const totalBytes = heapNow() - h1;
  const [asks, bids] = book.depth();
  const resting = asks.length + bids.length + empty.depth()[0].length;
  return { bytesPerOrder: totalBytes / n, emptyBookBytes, totalBytes, seconds, resting };
}

export interface SteadyMemory {
  /** Retained growth after gc. */
  retainedBytes: number;
  /** Growth before gc: retained plus garbage, a lower bound of allocation when no GC ran. */
  grossBytes: number;
  gcEvents: number;
  commands: number;
  seconds: number;
}

/** Replays the benchmark part of an EC stream on a fresh book of ours, watching the heap. */
export async function oursSteadyMemory(market: Market, s: CommandStream): Promise<SteadyMemory> {
  const runner = new OursRunner(s, 'native');
  const warm: OrderBook = createBook(market);
  runner.run(warm, 0, s.length);
  const starts: number[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) starts.push(e.startTime);
  });
  obs.observe({ entryTypes: ['gc'] });
  const fresh: OrderBook = createBook(market);
  runner.run(fresh, 0, s.prefill);
  gcNow();
  const h0 = heapNow();
  const tStart = performance.now();
  const t0 = process.hrtime.bigint();
  runner.run(fresh, s.prefill, s.length);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const tEnd = performance.now();
  const gross = heapNow() - h0;
  gcNow();
  const retained = heapNow() - h0;
  await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setTimeout(resolve, 20));
  obs.disconnect();
  const gcEvents = starts.filter((t) => t >= tStart && t <= tEnd).length;
  return { retainedBytes: retained, grossBytes: gross, gcEvents, commands: s.length - s.prefill, seconds };
}
