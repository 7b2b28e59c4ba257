// Candles: incremental buckets equal a brute-force recomputation from the same fills; Gate's alignment,
// query ranges, closed flags, carried empty buckets and validation.
import { describe, expect, it } from 'vitest';
import { defineMarket } from '../../../src/core/market.js';
import { Prng } from '../../../src/core/prng.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { formatUnits } from '../../../src/core/units.js';
import { CandleStore } from '../../../src/api/market-data/candles.js';
import { bucketOf, bucketStart, INTERVAL_NAMES, intervalIndex } from '../../../src/api/market-data/intervals.js';

const M = defineMarket({ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4 });
const T0 = Date.UTC(2026, 0, 30, 22) * 1000; // µs, two days before a month boundary
const sec = (us: number): number => us / 1e6;

interface Fill { t: number; price: number; lots: number }

function fills(seed: number, n: number, maxGapUs: number): Fill[] {
  const g = new Prng(seed);
  const out: Fill[] = [];
  let t = T0;
  for (let i = 0; i < n; i++) {
    t += g.nextInt(maxGapUs);
    out.push({ t, price: g.between(100_00, 200_00), lots: g.between(1, 5000) });
  }
  return out;
}

/** Rows as brute force computes them from the fills (carrying across empty buckets after the first fill). */
function bruteForce(all: Fill[], interval: number, kFrom: number, kTo: number, nowUs: number): string[][] {
  const rows: string[][] = [];
  const before = all.filter((f) => bucketOf(interval, sec(f.t)) < kFrom);
  let carry = before.length > 0 ? before[before.length - 1]!.price : Number.NaN;
  for (let k = kFrom; k <= kTo; k++) {
    const inK = all.filter((f) => bucketOf(interval, sec(f.t)) === k);
    const closed = bucketStart(interval, k + 1) <= sec(nowUs) ? 'true' : 'false';
    const p = (x: number): string => formatUnits(x, 2);
    if (inK.length > 0) {
      const prices = inK.map((f) => f.price);
      rows.push([String(bucketStart(interval, k)), formatUnits(inK.reduce((s, f) => s + f.price * f.lots, 0), 6),
        p(inK[inK.length - 1]!.price), p(Math.max(...prices)), p(Math.min(...prices)), p(inK[0]!.price),
        formatUnits(inK.reduce((s, f) => s + f.lots, 0), 4), closed]);
      carry = inK[inK.length - 1]!.price;
    } else if (!Number.isNaN(carry)) {
      rows.push([String(bucketStart(interval, k)), '0', p(carry), p(carry), p(carry), p(carry), '0', closed]);
    }
  }
  return rows;
}

function store(all: Fill[], capacity = 1024): CandleStore {
  const s = new CandleStore([M], capacity);
  for (const f of all) s.record(0, f.t, f.price, f.lots, f.price * f.lots);
  return s;
}

describe('intervals', () => {
  it('aligns days to 00:00 UTC, weeks to Monday 00:00 UTC and 30d to calendar months', () => {
    const t = Date.UTC(2026, 1, 18, 15, 7, 9) / 1000; // Wednesday 18 Feb 2026
    const start = (name: string): number => { const i = intervalIndex(name); return bucketStart(i, bucketOf(i, t)); };
    expect(start('1d')).toBe(Date.UTC(2026, 1, 18) / 1000);
    expect(start('7d')).toBe(Date.UTC(2026, 1, 16) / 1000);
    expect(new Date(start('7d') * 1000).getUTCDay()).toBe(1);
    expect(start('30d')).toBe(Date.UTC(2026, 1, 1) / 1000);
    expect(bucketStart(intervalIndex('30d'), bucketOf(intervalIndex('30d'), t) + 1)).toBe(Date.UTC(2026, 2, 1) / 1000);
    expect(start('4h')).toBe(Date.UTC(2026, 1, 18, 12) / 1000);
    expect(start('10s')).toBe(t - 9);
    expect(INTERVAL_NAMES).toHaveLength(12);
  });
});

describe('CandleStore', () => {
  it('matches brute force at every interval over dense and sparse fills', () => {
    for (const [seed, gap] of [[1, 2_000_000], [2, 600_000_000], [3, 40_000_000_000]] as const) {
      const all = fills(seed, 800, gap);
      const s = store(all);
      const now = all[all.length - 1]!.t + 5_000_000;
      for (let i = 0; i < INTERVAL_NAMES.length; i++) {
        const kTo = bucketOf(i, sec(now));
        const kFrom = Math.max(kTo - 999, bucketOf(i, sec(T0)) - 2);
        expect(s.rows(0, { interval: i, kFrom, kTo }, now), `${INTERVAL_NAMES[i]} seed ${seed}`)
          .toEqual(bruteForce(all, i, kFrom, kTo, now));
      }
    }
  });

  it('keeps the last `capacity` traded buckets and carries from the evicted one', () => {
    const all = fills(4, 300, 3_000_000);
    const s = store(all, 16);
    const i = intervalIndex('1s');
    const now = all[all.length - 1]!.t;
    const series = s.series(0, i);
    expect(series.size).toBe(16);
    const oldest = series.k[series.slot(0)]!;
    const kTo = bucketOf(i, sec(now));
    expect(s.rows(0, { interval: i, kFrom: oldest, kTo }, now)).toEqual(bruteForce(all, i, oldest, kTo, now));
    const evicted = all.filter((f) => bucketOf(i, sec(f.t)) < oldest);
    const carry = formatUnits(evicted[evicted.length - 1]!.price, 2);
    const early = s.rows(0, { interval: i, kFrom: oldest - 1, kTo: oldest - 1 }, now);
    expect(early).toEqual([[String(bucketStart(i, oldest - 1)), '0', carry, carry, carry, carry, '0', 'true']]);
  });

  it('answers Gate queries: default 100 up to now, from/to, to+limit, from+limit, closed flags', () => {
    const all = fills(5, 500, 60_000_000);
    const s = store(all);
    const now = all[all.length - 1]!.t + 1;
    const q = (params: Record<string, string>): string[][] => {
      const a = s.query(0, params, now);
      if (!a.ok) throw new Error(`rejected ${a.code}`);
      return a.value;
    };
    const oneMin = q({ interval: '1m' });
    expect(oneMin).toHaveLength(100);
    expect(oneMin[99]![7]).toBe('false');
    expect(oneMin[98]![7]).toBe('true');
    expect(Number(oneMin[99]![0])).toBe(Math.floor(sec(now) / 60) * 60);
    expect(q({})).toEqual(q({ interval: '30m', limit: '100' }));
    const to = String(Math.floor(sec(now)) - 3600);
    const byTo = q({ interval: '5m', to, limit: '7' });
    expect(byTo).toHaveLength(7);
    expect(Number(byTo[6]![0])).toBe(Math.floor(Number(to) / 300) * 300);
    const from = String(Math.floor(sec(T0)) + 7200);
    const ranged = q({ interval: '1m', from, to: String(Number(from) + 600) });
    expect(ranged).toHaveLength(11);
    expect(q({ interval: '1m', from, limit: '5' })).toEqual(ranged.slice(0, 5));
    expect(q({ interval: '1m', from: String(Math.floor(sec(now)) + 60) })).toEqual([]);
  });

  it('rejects bad intervals, limits, times and ranges with INVALID_PARAM_VALUE codes', () => {
    const s = store(fills(6, 10, 1_000_000));
    const now = T0 + 100e6;
    for (const params of [{ interval: '2m' }, { limit: '1001' }, { limit: '0' }, { limit: 'x' }, { from: '-5' },
      { from: '200', to: '100' }, { interval: '1s', from: '0', to: '5000' }, { to: 'abc' }]) {
      expect(s.query(0, params, now), JSON.stringify(params)).toEqual({ ok: false, code: ResultCode.InvalidParam });
    }
    expect(s.query(0, { interval: '1s', from: '1000', to: '1999' }, now).ok).toBe(true);
  });
});
