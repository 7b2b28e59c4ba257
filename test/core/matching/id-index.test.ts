// IdIndex maps order ids to records exactly, whether ids arrive in sequence, jump, come back or rest for long.
import { describe, expect, it } from 'vitest';
import { IdIndex } from '../../../src/core/matching/id-index.js';
import { Prng } from '../../../src/core/prng.js';

/** An IdIndex over a key column, beside a Map oracle; every operation is checked against the Map. */
class Harness {
  readonly keys = new Float64Array(1 << 17);
  readonly index = new IdIndex(this.keys, 16);
  readonly oracle = new Map<number, number>();
  readonly live: number[] = [];
  readonly #free: number[] = [];

  constructor() {
    for (let i = this.keys.length - 1; i >= 0; i--) this.#free.push(i);
  }

  add(id: number): void {
    expect(this.index.get(id)).toBe(-1);
    const record = this.#free.pop()!;
    this.keys[record] = id;
    this.index.insert(id, record);
    this.oracle.set(id, record);
    this.live.push(id);
  }

  drop(at: number): void {
    const id = this.live[at]!;
    this.live[at] = this.live[this.live.length - 1]!;
    this.live.pop();
    expect(this.index.remove(id)).toBe(true);
    expect(this.index.remove(id)).toBe(false);
    this.#free.push(this.oracle.get(id)!);
    this.oracle.delete(id);
  }

  check(probes: readonly number[]): void {
    for (const [id, record] of this.oracle) expect(this.index.get(id)).toBe(record);
    for (const id of probes) expect(this.index.get(id)).toBe(this.oracle.get(id) ?? -1);
    expect(this.index.count).toBe(this.oracle.size);
  }
}

describe('IdIndex', () => {
  it('agrees with a Map when ids mostly come in sequence, some rest for long, some jump, some come back', () => {
    const h = new Harness();
    const r = new Prng(7);
    let next = 1;
    const gone: number[] = [];
    for (let step = 0; step < 60_000; step++) {
      const roll = r.nextInt(100);
      if (roll < 55 && h.live.length < 20_000) {
        h.add(next++);
      } else if (roll < 60 && gone.length > 0) {
        // an id comes back (cancel and re-place under the same id), possibly far below the window by now
        const id = gone.splice(r.nextInt(gone.length), 1)[0]!;
        if (!h.oracle.has(id)) h.add(id);
      } else if (roll < 61) {
        next += 1 + r.nextInt(r.chance(0.5) ? 100 : 5_000_000); // a gap, sometimes far past the window
      } else if (roll < 62) {
        const id = 2 ** 45 + r.nextInt(1000); // an id far away from the rest
        if (!h.oracle.has(id)) h.add(id);
      } else if (roll < 63) {
        const id = next - r.nextInt(100) + 0.5; // not an integer: never confused with its neighbours
        if (!h.oracle.has(id)) h.add(id);
      } else if (h.live.length > 0) {
        // removals favour recent ids (takers and cancels of fresh orders), but reach old ones too
        const at = r.chance(0.7) ? h.live.length - 1 - r.nextInt(Math.min(h.live.length, 50)) : r.nextInt(h.live.length);
        gone.push(h.live[at]!);
        h.drop(at);
      }
      if (step % 5000 === 0) h.check([next, next + 1, next - 1, next - 1.5, 0.5 * next, 2 ** 45 + 5, 1, Number.NaN]);
    }
    h.check([next, next + 100, 2 ** 45 + 999, 3]);
  });

  it('keeps every id of a book whose orders all rest (the window doubles instead of moving)', () => {
    const h = new Harness();
    for (let id = 1_000; id < 101_000; id++) h.add(id);
    h.check([999, 101_000, 50_000.5]);
    for (let at = h.live.length - 1; at >= 0; at -= 3) h.drop(at);
    h.check([1_000, 100_999]);
  });
});
