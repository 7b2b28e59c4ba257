/**
 * Timing discipline shared by every scenario.
 *
 * Throughput passes: fresh books per pass (one per repetition), created and pre-filled untimed, `gc()`, then
 * one `process.hrtime.bigint()` pair around each book's whole replay, with no per-command timers. Warm-up passes run
 * first and are discarded; the reported figure is the median of the measured passes. For side-by-side
 * scenarios the engine order alternates per pass (A/B, then B/A), and after every pass both final L2 books and
 * trade counts are compared.
 *
 * Latency pass: a separate pass per engine, closed loop, each command timed on its own with
 * `process.hrtime.bigint()` into an HDR histogram (ns, 3 significant digits). These are service times: they
 * include the timer's own cost (reported as `timer_overhead_ns`) and the BigInt garbage it makes.
 */
import * as hdr from 'hdr-histogram-js';

type Gc = () => void;
const gcFn = (globalThis as { gc?: Gc }).gc;

export const hasGc = gcFn !== undefined;

/** Full collection (twice, so finalizers and weak structures settle). No-op without --expose-gc. */
export function gcNow(): void {
  if (gcFn === undefined) return;
  gcFn();
  gcFn();
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 === 1 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
}

export interface Percentiles {
  p50: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
  count: number;
}

/** A latency recorder over an HDR histogram (values in ns). */
export class LatencyRecorder {
  readonly #h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: 3 });
  readonly record = (ns: number): void => {
    this.#h.recordValue(ns < 1 ? 1 : ns);
  };

  summary(): Percentiles {
    const h = this.#h;
    return {
      p50: h.getValueAtPercentile(50), p99: h.getValueAtPercentile(99), p999: h.getValueAtPercentile(99.9),
      max: h.maxValue, mean: h.mean, count: h.totalCount,
    };
  }
}

/** Keeps the timer loop's result observable. */
export let timerSink = 0n;

/** Median cost of one `process.hrtime.bigint()` pair plus a record call, in ns. */
export function timerOverheadNs(): number {
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    const n = 200_000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      const a = process.hrtime.bigint();
      timerSink += process.hrtime.bigint() - a;
    }
    const dt = Number(process.hrtime.bigint() - t0);
    samples.push(dt / n);
  }
  return median(samples);
}

/** One engine's side of a scenario: a fresh book, its pre-fill, a timed replay and the final L2. */
export interface EngineDriver<B> {
  readonly engine: string;
  fresh(): B;
  /** Untimed setup (pre-fill). */
  prefill(book: B): void;
  /** The timed replay; returns fills. */
  run(book: B): number;
  runTimed(book: B, record: (ns: number) => void): number;
  l2(book: B): string;
}

export interface PassResult {
  opsPerSec: number[];
  fills: number;
  l2: string;
}

/**
 * The last book of every driver's latest pass of several books, held until that driver's next pass has been timed.
 *
 * Why: V8 holds the hidden classes of an engine's objects (class fields and object shapes are reached through map
 * transitions, which are referenced weakly) only through live instances. When a pass dropped all its books, the
 * other engine's pass collected them, the maps of this engine's grown books (their pools, indexes, tree nodes,
 * order objects) died, and every optimized function that depended on them was discarded ("weak objects"
 * deoptimization); this engine's next timed pass then began in the interpreter and recompiled. That fixed cost per
 * pass is no cost of either book (an exchange keeps its books), and it weighed on both: ringmatch's first
 * nob-spam-orders pass after a peer pass took 2.5-6x the CPU time of one after its own, and the peer, whose
 * red-black tree code was discarded every pass, spent 1,100 instead of 1,400 CPU ns per command on
 * nob-constant-market with its last book held.
 *
 * So each engine keeps a small book alive, the same for both: the last book of a pass of several books (each a
 * small copy of the scenario), and otherwise the driver's keep-alive book (drivers.ts: the first commands of the
 * stream). Holding the one book of a single-book pass instead would make the other engine's collections mark a
 * whole scenario's book (300,000 orders of the peer's objects on nob-spam-limits), which slowed both engines
 * there. Nothing timed changes.
 */
const lastBook = new WeakMap<object, unknown>();

/**
 * Times one pass on `reps` fresh books: all books are created and pre-filled first, then gc, then each replay
 * is timed on its own. Returns the summed seconds and the last book's fills and L2. Keeps the last book of
 * several (see lastBook).
 */
export function timePass<B>(d: EngineDriver<B>, reps: number): { seconds: number; fills: number; l2: string } {
  const books: B[] = [];
  for (let r = 0; r < reps; r++) {
    const book = d.fresh();
    d.prefill(book);
    books.push(book);
  }
  gcNow();
  let ns = 0;
  let fills = 0;
  for (const book of books) {
    const t0 = process.hrtime.bigint();
    fills = d.run(book);
    ns += Number(process.hrtime.bigint() - t0);
  }
  const last = books[books.length - 1]!;
  if (reps > 1) lastBook.set(d, last);
  return { seconds: ns / 1e9, fills, l2: d.l2(last) };
}

/** The latency pass: one fresh book, every command timed. */
export function latencyPass<B>(d: EngineDriver<B>): Percentiles {
  const rec = new LatencyRecorder();
  const book = d.fresh();
  d.prefill(book);
  gcNow();
  d.runTimed(book, rec.record);
  return rec.summary();
}

export interface PairOutcome {
  engine: string;
  opsPerSec: number;
  passOps: number[];
  fills: number;
  latency: Percentiles;
}

export interface PairResult {
  outcomes: PairOutcome[];
  booksMatch: boolean;
  mismatch: string;
}

/**
 * Runs `drivers` side by side: warm-up then measured passes, engine order rotating each pass, the final L2 and
 * fills compared after every pass (the first driver is the baseline), then one latency pass each.
 */
export function runSideBySide(drivers: ReadonlyArray<EngineDriver<unknown>>, opsPerRep: number, reps: number,
  warmup: number, passes: number, log: (line: string) => void): PairResult {
  const ops: number[][] = drivers.map(() => []);
  const fills: number[] = drivers.map(() => 0);
  let booksMatch = true;
  let mismatch = '';
  for (let p = 0; p < warmup + passes; p++) {
    const order = drivers.map((_, k) => k);
    if (p % 2 === 1) order.reverse();
    const l2s: string[] = drivers.map(() => '');
    for (const k of order) {
      const res = timePass(drivers[k]!, reps);
      l2s[k] = res.l2;
      fills[k] = res.fills;
      if (p >= warmup) ops[k]!.push((opsPerRep * reps) / res.seconds);
    }
    for (let k = 1; k < drivers.length; k++) {
      if (l2s[k] !== l2s[0] || fills[k] !== fills[0]) {
        if (booksMatch) {
          mismatch = describeMismatch(drivers[0]!.engine, drivers[k]!.engine, l2s[0]!, l2s[k]!, fills[0]!, fills[k]!);
          log(`pass ${p}: ${mismatch}`);
        }
        booksMatch = false;
      }
    }
  }
  const outcomes = drivers.map((d, k): PairOutcome => {
    gcNow();
    return { engine: d.engine, opsPerSec: median(ops[k]!), passOps: ops[k]!, fills: fills[k]!, latency: latencyPass(d) };
  });
  return { outcomes, booksMatch, mismatch };
}

function describeMismatch(a: string, b: string, la: string, lb: string, fa: number, fb: number): string {
  if (fa !== fb) return `trade counts differ: ${a} ${fa}, ${b} ${fb}`;
  let i = 0;
  while (i < la.length && la[i] === lb[i]) i++;
  const from = Math.max(0, i - 40);
  return `L2 books differ at char ${i}: ${a} …${la.slice(from, i + 40)}… vs ${b} …${lb.slice(from, i + 40)}…`;
}
