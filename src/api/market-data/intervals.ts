/**
 * Gate's candlestick intervals and their buckets, as integer bucket numbers k (start times in seconds).
 *
 * Alignment (UTC throughout): fixed intervals up to 1d start at multiples of their length since the epoch
 * (so 1d buckets start at 00:00 UTC and 4h/8h at 00:00, 04:00, …); 7d buckets start on Mondays 00:00 UTC
 * (ISO weeks); 30d is the calendar month, starting on the 1st at 00:00 UTC.
 * Costs: O(1), no allocation for fixed intervals; months go through Date (allocates one object per call).
 */

export const INTERVAL_NAMES = ['1s', '10s', '1m', '5m', '15m', '30m', '1h', '4h', '8h', '1d', '7d', '30d'] as const;
export type IntervalName = (typeof INTERVAL_NAMES)[number];

/** Length in seconds of each interval (0 for the calendar month). */
const LENGTHS: readonly number[] = [1, 10, 60, 300, 900, 1800, 3600, 14400, 28800, 86400, 604800, 0];
/** 1970-01-05 (the first Monday) in seconds: the origin of 7d buckets. */
const MONDAY = 4 * 86400;
export const MONTH = INTERVAL_NAMES.indexOf('30d');
export const WEEK = INTERVAL_NAMES.indexOf('7d');

/** Index of an interval name, or -1. */
export const intervalIndex = (name: string): number => (INTERVAL_NAMES as readonly string[]).indexOf(name);

/** The bucket number holding time `sec` (seconds, may be fractional). */
export function bucketOf(interval: number, sec: number): number {
  if (interval === MONTH) {
    const d = new Date(Math.floor(sec) * 1000);
    return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
  }
  const len = LENGTHS[interval]!;
  const origin = interval === WEEK ? MONDAY : 0;
  return Math.floor((sec - origin) / len);
}

/** Start (seconds) of bucket `k`. */
export function bucketStart(interval: number, k: number): number {
  if (interval === MONTH) return Date.UTC(1970 + Math.floor(k / 12), ((k % 12) + 12) % 12, 1) / 1000;
  return k * LENGTHS[interval]! + (interval === WEEK ? MONDAY : 0);
}
