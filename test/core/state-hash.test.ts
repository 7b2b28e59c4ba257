// StateHasher is deterministic, order-sensitive and tells apart values that differ only above 2^32.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { StateHasher } from '../../src/core/state-hash.js';

const hash = (...values: number[]): string => {
  const h = new StateHasher();
  for (const v of values) h.add(v);
  return h.digest();
};

describe('StateHasher', () => {
  it('digests to 16 lowercase hex digits', () => {
    expect(hash()).toMatch(/^[0-9a-f]{16}$/);
    expect(hash(1, 2, 3)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is deterministic and digest does not disturb the state', () => {
    expect(hash(1, 2, 3)).toBe(hash(1, 2, 3));
    const h = new StateHasher().add(5);
    expect(h.digest()).toBe(h.digest());
    expect(h.add(6).digest()).toBe(hash(5, 6));
  });

  it('is sensitive to order', () => {
    expect(hash(1, 2)).not.toBe(hash(2, 1));
    expect(hash(0, 1)).not.toBe(hash(1, 0));
    expect(hash(7, 7, 8)).not.toBe(hash(7, 8, 7));
  });

  it('is sensitive to length', () => {
    expect(hash(0)).not.toBe(hash());
    expect(hash(0, 0)).not.toBe(hash(0));
  });

  it('distinguishes values across the 2^32 boundary', () => {
    const T = 2 ** 32;
    const pairs: Array<[number, number]> = [
      [1, T + 1], [0, T], [T - 1, -1], [T, 1], [5, 5 + 7 * T], [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - T],
      [2 ** 52, 0], [2 ** 31, -(2 ** 31)],
    ];
    for (const [a, b] of pairs) expect(hash(a), `${a} vs ${b}`).not.toBe(hash(b));
  });

  it('gives distinct digests to many distinct safe integers', () => {
    const r = new Prng(3);
    const values = new Set<number>();
    for (let hi = 0; hi < 1000; hi++) values.add(hi * 2 ** 32 + 12345);
    while (values.size < 21_000) values.add(r.between(0, Number.MAX_SAFE_INTEGER));
    const digests = new Set([...values].map((v) => hash(v)));
    expect(digests.size).toBe(values.size);
  });

  it('reset returns to the initial state', () => {
    const h = new StateHasher().add(1).add(2);
    expect(h.reset().digest()).toBe(hash());
    expect(h.add(9).digest()).toBe(hash(9));
  });

  it('hashes a string as its length then its char codes', () => {
    expect(new StateHasher().addString('ab').digest()).toBe(hash(2, 97, 98));
    expect(new StateHasher().addString('ab').digest()).not.toBe(new StateHasher().addString('ba').digest());
    expect(new StateHasher().addString('a').addString('b').digest()).not.toBe(new StateHasher().addString('ab').digest());
  });
});
