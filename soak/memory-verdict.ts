/**
 * The memory verdict of soak:server: least-squares slopes of the server's memory figures against orders
 * placed, over the samples taken once the finished-order window is full (before that, the window itself
 * grows by design). Pure arithmetic over the samples; no I/O.
 */
import type { MemorySample } from './protocol.js';

export interface MemoryVerdict {
  /** Samples the slopes are fitted to (window full). */
  readonly samples: number;
  /** Orders placed between the first and the last of them. */
  readonly orders: number;
  /** Bytes per 1,000 orders placed; NaN when fewer than MIN_SAMPLES samples qualify. */
  readonly heap_used_per_1k: number;
  readonly rss_per_1k: number;
  readonly external_per_1k: number;
  readonly array_buffers_per_1k: number;
  /** flat: heapUsed grows less than the threshold; growing: more; unknown: too few samples or orders. */
  readonly verdict: 'flat' | 'growing' | 'unknown';
  readonly threshold_per_1k: number;
}

/** At least this many samples and orders past the window before a verdict is given. */
export const MIN_SAMPLES = 3;
export const MIN_ORDERS = 50_000;

/** Slope of y over x by least squares; NaN for fewer than two distinct x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/** The verdict over `samples` whose `window_full` is set; `thresholdPer1k` in bytes per 1,000 orders. */
export function memoryVerdict(samples: readonly MemorySample[], thresholdPer1k: number): MemoryVerdict {
  const s = samples.filter((x) => x.window_full);
  const xs = s.map((x) => x.orders_placed / 1000);
  const fit = (f: (x: MemorySample) => number): number => Math.round(slope(xs, s.map(f)));
  const orders = s.length === 0 ? 0 : s[s.length - 1]!.orders_placed - s[0]!.orders_placed;
  const heap = fit((x) => x.heap_used);
  const enough = s.length >= MIN_SAMPLES && orders >= MIN_ORDERS && Number.isFinite(heap);
  return {
    samples: s.length, orders, heap_used_per_1k: heap, rss_per_1k: fit((x) => x.rss), external_per_1k: fit((x) => x.external),
    array_buffers_per_1k: fit((x) => x.array_buffers),
    verdict: !enough ? 'unknown' : heap > thresholdPer1k ? 'growing' : 'flat', threshold_per_1k: thresholdPer1k,
  };
}
