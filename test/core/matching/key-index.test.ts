// KeyIndex maps keys to slots exactly under churn, and sequential keys do not form long probe runs.
import { describe, expect, it } from 'vitest';
import { KeyIndex, hashKey, homeOf } from '../../../src/core/matching/key-index.js';
import { Prng } from '../../../src/core/prng.js';

describe('KeyIndex', () => {
  it('agrees with a Map under random inserts and removes, across resizes', () => {
    const keys = new Float64Array(1 << 15);
    const index = new KeyIndex(keys, 16);
    const oracle = new Map<number, number>();
    const live: number[] = [];
    const freeSlots = Array.from({ length: keys.length }, (_, i) => i);
    const r = new Prng(3);
    for (let i = 0; i < 60_000; i++) {
      if (live.length < 20_000 && (live.length === 0 || r.chance(0.6))) {
        const key = r.chance(0.5) ? 1 + r.nextInt(2 ** 53 - 2) : 1 + r.nextInt(40_000);
        if (oracle.has(key)) continue;
        const slot = freeSlots.pop()!;
        keys[slot] = key;
        index.insert(key, slot);
        oracle.set(key, slot);
        live.push(key);
      } else {
        const at = r.nextInt(live.length);
        const victim = live[at]!;
        live[at] = live[live.length - 1]!;
        live.pop();
        expect(index.remove(victim)).toBe(true);
        freeSlots.push(oracle.get(victim)!);
        oracle.delete(victim);
      }
      if (i % 4999 === 0) for (const [k, v] of oracle) expect(index.get(k)).toBe(v);
    }
    for (const [k, v] of oracle) expect(index.get(k)).toBe(v);
    expect(index.count).toBe(oracle.size);
    expect(index.get(2 ** 53 - 1)).toBe(-1);
  });

  it('answers a key above every key ever inserted as absent, and still finds keys below it after removals', () => {
    const keys = new Float64Array(64);
    const index = new KeyIndex(keys, 16);
    const put = (slot: number, key: number): void => {
      keys[slot] = key;
      index.insert(key, slot);
    };
    expect(index.get(1)).toBe(-1);
    put(0, 10);
    put(1, 5);
    expect(index.get(11)).toBe(-1);
    expect(index.get(10)).toBe(0);
    expect(index.get(5)).toBe(1);
    expect(index.remove(10)).toBe(true);
    expect(index.get(10)).toBe(-1);
    put(2, 10);
    expect(index.get(10)).toBe(2);
    put(3, -7);
    expect(index.get(-7)).toBe(3);
  });

  it('inserts after a miss where the miss ended, unless the table changed in between', () => {
    // place looks an id up, may match (removing other ids, or resting one, which resizes), then inserts it.
    const keys = new Float64Array(1 << 14);
    const index = new KeyIndex(keys, 16);
    const oracle = new Map<number, number>();
    const live: number[] = [];
    const freeSlots = Array.from({ length: keys.length }, (_, i) => i);
    const r = new Prng(11);
    const add = (key: number): void => {
      const slot = freeSlots.pop()!;
      keys[slot] = key;
      index.insert(key, slot);
      oracle.set(key, slot);
      live.push(key);
    };
    const dropAny = (): void => {
      const at = r.nextInt(live.length);
      const key = live[at]!;
      live[at] = live[live.length - 1]!;
      live.pop();
      expect(index.remove(key)).toBe(true);
      freeSlots.push(oracle.get(key)!);
      oracle.delete(key);
    };
    let next = 1;
    for (let i = 0; i < 30_000; i++) {
      const key = r.chance(0.8) ? next++ : 1 + r.nextInt(2 ** 40);
      if (oracle.has(key)) continue;
      expect(index.get(key)).toBe(-1);
      const between = r.nextInt(4);
      if (between === 1 && live.length > 0) dropAny();
      if (between === 2) {
        const other = 2 ** 41 + i;
        expect(index.get(other)).toBe(-1);
        add(other);
      }
      if (between === 3 && live.length > 0) expect(index.get(live[r.nextInt(live.length)]!)).not.toBe(-1);
      if (live.length < 6000) add(key);
      if (live.length > 3000 && r.chance(0.5)) dropAny();
      if (i % 2999 === 0) for (const [k, v] of oracle) expect(index.get(k)).toBe(v);
    }
    for (const [k, v] of oracle) expect(index.get(k)).toBe(v);
    expect(index.count).toBe(oracle.size);
  });

  // Key shapes the core indexes: engine-issued ids and prices (consecutive), ledger account keys (uid × 2^20 + …),
  // balance records (account × 2^16 + currency), position keys (uid × 2^18 + market × 4 + slot), ids past 2^32.
  const SHAPES: ReadonlyArray<[string, (i: number) => number]> = [
    ['consecutive ids', (i) => 1_000_000 + i],
    ['account keys', (i) => i * 2 ** 20 + 3 * 2 ** 16],
    ['balance records', (i) => (i >> 3) * 2 ** 16 + (i & 7)],
    ['position keys', (i) => (i >> 4) * 2 ** 18 + (i & 15) * 4],
    ['ids past 2^32', (i) => 2 ** 40 + i],
    ['stride 1000', (i) => i * 1000],
  ];
  for (const [shape, keyOf] of SHAPES) {
    it(`spreads ${shape} so that no probe run is long at load 1/2`, () => {
      const bits = 18;
      const size = 1 << bits;
      const occupied = new Uint8Array(size);
      for (let k = 0; k < size / 2; k++) {
        let i = homeOf(hashKey(keyOf(k)), bits);
        while (occupied[i] === 1) i = (i + 1) & (size - 1);
        occupied[i] = 1;
      }
      let longest = 0;
      let run = 0;
      for (let i = 0; i < size * 2; i++) {
        run = occupied[i & (size - 1)] === 1 ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
      // A well-spread table has runs of a few dozen at most; an identity-like hash gives 131,072.
      expect(longest).toBeLessThan(100);
    });
  }
});
