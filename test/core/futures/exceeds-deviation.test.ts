// exceedsDeviation (the order price band check of futures placement and amend) against its definition in BigInt,
// |price − mark| × 10^8 > mark × deviate: on seeded prices exactly at the band's edge, one tick inside and
// outside it, and anywhere, up to 2^53.
import { describe, expect, it } from 'vitest';
import { exceedsDeviation, RATE_ONE } from '../../../src/core/futures/futures-math.js';
import { Prng } from '../../../src/core/prng.js';

const oracle = (price: number, mark: number, deviate: bigint): boolean => BigInt(Math.abs(price - mark)) * RATE_ONE > BigInt(mark) * deviate;

describe('exceedsDeviation', () => {
  it('decides as the BigInt definition does, at the band\'s edge and anywhere', () => {
    const rnd = new Prng(3);
    let edges = 0;
    for (let i = 0; i < 20_000; i++) {
      const deviate = BigInt(rnd.nextInt(100_000_000) + (i % 7 === 0 ? 0 : 1));
      const mark = i % 3 === 0 ? 1 + rnd.nextInt(2 ** 53 / 4) : 1 + rnd.nextInt(100_000_000);
      // The edge: |price − mark| = mark × deviate / 10^8 when that is whole, else its floor and ceiling.
      const reach = (BigInt(mark) * deviate) / RATE_ONE;
      for (const d of [reach - 1n, reach, reach + 1n, reach + 2n]) {
        if (d < 0n || d > BigInt(mark)) continue;
        for (const price of [mark + Number(d), mark - Number(d)]) {
          if (!Number.isSafeInteger(price) || price < 0) continue;
          expect(exceedsDeviation(price, mark, deviate), `${price} ${mark} ${deviate}`).toBe(oracle(price, mark, deviate));
          edges++;
        }
      }
      const any = rnd.nextInt(2 * mark + 1);
      expect(exceedsDeviation(any, mark, deviate)).toBe(oracle(any, mark, deviate));
    }
    expect(edges).toBeGreaterThan(100_000);
    expect(exceedsDeviation(100, 100, 0n)).toBe(false);
    expect(exceedsDeviation(101, 100, 0n)).toBe(true);
    expect(exceedsDeviation(150, 100, 50_000_000n)).toBe(false);
    expect(exceedsDeviation(151, 100, 50_000_000n)).toBe(true);
  });
});
