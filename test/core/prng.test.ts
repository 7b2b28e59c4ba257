// Prng replays identically per seed, differs across seeds, and keeps every draw in its documented range.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';

const draws = (seed: number, n = 200): number[] => {
  const r = new Prng(seed);
  return Array.from({ length: n }, () => r.nextU32());
};

describe('Prng', () => {
  it('replays the same sequence for the same seed', () => {
    expect(draws(42)).toEqual(draws(42));
    expect(draws(2 ** 40 + 3)).toEqual(draws(2 ** 40 + 3));
  });

  it('gives different sequences for different seeds, including seeds that differ only above 32 bits', () => {
    const seeds = [0, 1, 2, 42, -1, 2 ** 32, 2 ** 32 + 1, 2 ** 40 + 1];
    const seqs = new Set(seeds.map((s) => draws(s, 8).join(',')));
    expect(seqs.size).toBe(seeds.length);
  });

  it('draws nextU32 as integers in [0, 2^32)', () => {
    const r = new Prng(1);
    let high = false;
    for (let i = 0; i < 10_000; i++) {
      const v = r.nextU32();
      expect(Number.isInteger(v) && v >= 0 && v < 2 ** 32).toBe(true);
      if (v >= 2 ** 31) high = true;
    }
    expect(high).toBe(true);
  });

  it('draws nextFloat in [0, 1) spread over the interval', () => {
    const r = new Prng(2);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const v = r.nextFloat();
      expect(v >= 0 && v < 1).toBe(true);
      buckets[Math.floor(v * 10)]! += 1;
    }
    for (const b of buckets) expect(b).toBeGreaterThan(800);
  });

  it('draws nextInt(n) as integers in [0, n) hitting every value', () => {
    const r = new Prng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.nextInt(7);
      expect(Number.isInteger(v) && v >= 0 && v < 7).toBe(true);
      seen.add(v);
    }
    expect(seen.size).toBe(7);
    for (let i = 0; i < 1000; i++) {
      const v = r.nextInt(2 ** 53);
      expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
    }
  });

  it('draws between(lo, hi) inclusive of both ends', () => {
    const r = new Prng(4);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.between(-3, 3);
      expect(Number.isInteger(v) && v >= -3 && v <= 3).toBe(true);
      seen.add(v);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(r.between(5, 5)).toBe(5);
  });

  it('answers chance(0) never and chance(1) always', () => {
    const r = new Prng(5);
    for (let i = 0; i < 1000; i++) {
      expect(r.chance(0)).toBe(false);
      expect(r.chance(1)).toBe(true);
    }
  });

  it('draws standard normal values (finite, mean near 0, variance near 1)', () => {
    const r = new Prng(6);
    let sum = 0;
    let sq = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const g = r.nextGaussian();
      expect(Number.isFinite(g)).toBe(true);
      sum += g;
      sq += g * g;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.05);
    expect(Math.abs(sq / n - 1)).toBeLessThan(0.05);
  });
});
