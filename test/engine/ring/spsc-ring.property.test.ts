// SpscRing in one thread: order across many wraps (seeded batch sizes), the int32 sequence wrap,
// backpressure on a full ring, canaries around the ring's memory, exact f64 payloads.
// Indexing note: typed-array indices below are in range by construction (offsets from the ring), hence `!`.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../../src/core/prng.js';
import { H_CONSUMED, HEADER_WORDS, H_PUBLISHED, LINE_WORDS, RingState, ringByteLength, seqDiff, seqLt, seqLte } from '../../../src/engine/ring/layout.js';
import { type EventHandler, NO_SEQ, SpscRing } from '../../../src/engine/ring/spsc-ring.js';

const INT32_MAX = 0x7fffffff;

/** Produces and consumes `total` messages in seeded random batches; every slot word carries the message number. */
function roundTrip(ring: SpscRing, seed: number, total: number): { wraps: number; firstSeq: number; lastSeq: number } {
  const rnd = new Prng(seed);
  let produced = 0;
  let consumed = 0;
  let firstSeq = NO_SEQ;
  let lastSeq = NO_SEQ;
  const check: EventHandler = {
    onEvent(r, seq, endOfBatch) {
      const w = r.wordOffset(seq);
      for (let k = 0; k < r.slotWords; k++) expect(r.slots32[w + k]).toBe(consumed ^ k);
      if (endOfBatch) expect(seq).toBe(r.available());
      lastSeq = seq;
      consumed++;
    },
  };
  for (let rounds = 0; consumed < total && rounds < total * 4; rounds++) {
    const n = Math.min(rnd.between(1, ring.capacity), total - produced);
    if (n > 0) {
      const first = ring.tryClaim(n);
      if (first !== NO_SEQ) {
        if (firstSeq === NO_SEQ) firstSeq = first;
        for (let i = 0; i < n; i++) {
          const w = ring.wordOffset((first + i) | 0);
          for (let k = 0; k < ring.slotWords; k++) ring.slots32[w + k] = (produced + i) ^ k;
        }
        produced += n;
        ring.publish((first + n - 1) | 0);
      }
    }
    if (rnd.chance(0.7) || n === 0) ring.drain(check);
  }
  expect(consumed).toBe(total);
  expect(ring.consumed).toBe(lastSeq);
  return { wraps: total / ring.capacity, firstSeq, lastSeq };
}

describe('sequence arithmetic', () => {
  it('compares int32 sequences correctly across the 2^31 wrap', () => {
    const below = INT32_MAX - 2;
    const above = (INT32_MAX + 3) | 0;
    expect(above).toBeLessThan(0);
    expect(seqLt(below, above)).toBe(true);
    expect(seqLt(above, below)).toBe(false);
    expect(seqLte(above, above)).toBe(true);
    expect(seqDiff(above, below)).toBe(5);
    expect(seqDiff(below, above)).toBe(-5);
  });
});

describe('SpscRing', () => {
  it.each([1, 7, 0xbeef, 20260101])('preserves order across more than 100 wraps of a small ring (seed %i)', (seed) => {
    const ring = SpscRing.create({ capacity: 16, slotWords: 4 });
    const { wraps } = roundTrip(ring, seed, 16 * 150);
    expect(wraps).toBeGreaterThanOrEqual(100);
  });

  it.each([3, 99])('works with sequences that start just below 2^31 and cross the int32 wrap (seed %i)', (seed) => {
    const ring = SpscRing.create({ capacity: 8, slotWords: 2, initialSeq: INT32_MAX - 20 });
    const { firstSeq, lastSeq } = roundTrip(ring, seed, 8 * 120);
    expect(firstSeq).toBe(INT32_MAX - 20);
    expect(lastSeq).toBeLessThan(0);
    expect(lastSeq).toBe((INT32_MAX - 20 + 8 * 120 - 1) | 0);
  });

  it('refuses a claim on a full ring and accepts again after release, without losing a message', () => {
    const ring = SpscRing.create({ capacity: 4, slotWords: 2, initialSeq: INT32_MAX - 1 });
    const first = ring.tryClaim(3);
    expect(first).toBe(INT32_MAX - 1);
    expect(ring.tryClaim(2)).toBe(NO_SEQ);
    expect(ring.tryClaim(1)).toBe((INT32_MAX + 2) | 0);
    expect(ring.tryClaim(1)).toBe(NO_SEQ);
    expect(ring.freeSlots()).toBe(0);
    ring.publish(ring.claimed);
    expect(ring.tryClaim(1)).toBe(NO_SEQ);
    ring.release(first);
    expect(ring.freeSlots()).toBe(1);
    expect(ring.tryClaim(2)).toBe(NO_SEQ);
    expect(ring.tryClaim(1)).toBe((INT32_MAX + 3) | 0);
    expect(() => ring.tryClaim(5)).toThrow(RangeError);
    expect(() => ring.tryClaim(0)).toThrow(RangeError);
  });

  it('never writes outside its own words: canaries in the header padding and past the slots survive', () => {
    const geometry = { capacity: 16, slotWords: 6 };
    const made = SpscRing.create(geometry);
    const extra = LINE_WORDS * 4;
    const sab = new SharedArrayBuffer(ringByteLength(geometry) + extra * 4);
    const words = new Int32Array(sab);
    new Int32Array(sab, 0, HEADER_WORDS).set(made.header);
    const CANARY = 0x5a5aa5a5 | 0;
    const canaries: number[] = [];
    for (let w = 0; w < HEADER_WORDS; w++) if (w % LINE_WORDS !== 0) canaries.push(w);
    for (let w = words.length - extra; w < words.length; w++) canaries.push(w);
    for (const w of canaries) words[w] = CANARY;
    roundTrip(SpscRing.attach(sab, geometry), 5, 16 * 110);
    for (const w of canaries) expect(words[w]).toBe(CANARY);
    expect(words[H_PUBLISHED]).toBe(16 * 110 - 1);
    expect(words[H_CONSUMED]).toBe(16 * 110 - 1);
  });

  it('round-trips f64 payloads exactly, including integer ids up to 2^53', () => {
    const ring = SpscRing.create({ capacity: 8, slotWords: 8 });
    const rnd = new Prng(11);
    const values = [2 ** 53, 2 ** 53 - 1, -(2 ** 53), 0.1, -0, Number.MIN_VALUE, 1e308, 123_456_789.000_001];
    for (let i = 0; i < 64; i++) values.push(rnd.nextInt(2 ** 53), rnd.nextFloat() * 1e9);
    let next = 0;
    const seen: number[] = [];
    const sink: EventHandler = {
      onEvent(r, seq) {
        const f = r.f64Offset(seq);
        for (let k = 0; k < r.slotWords / 2; k++) seen.push(r.slots64[f + k]!);
      },
    };
    while (next < values.length) {
      const seq = ring.tryClaim(1);
      expect(seq).not.toBe(NO_SEQ);
      const f = ring.f64Offset(seq);
      for (let k = 0; k < ring.slotWords / 2; k++) ring.slots64[f + k] = values[next + k] ?? Number.NaN;
      next += ring.slotWords / 2;
      ring.publish(seq);
      ring.drain(sink);
    }
    for (let i = 0; i < values.length; i++) expect(Object.is(seen[i], values[i])).toBe(true);
  });

  it('drain returns 0 and releases nothing when nothing is published', () => {
    const ring = SpscRing.create({ capacity: 4, slotWords: 2 });
    expect(ring.drain({ onEvent: () => expect.unreachable() })).toBe(0);
    expect(ring.consumed).toBe(-1);
  });

  it('moves through Running, Closing and Closed, and reports drained only after the last message', () => {
    const ring = SpscRing.create({ capacity: 4, slotWords: 2 });
    expect(ring.state).toBe(RingState.Running);
    ring.publish(ring.tryClaim(2) + 1);
    ring.close();
    expect(ring.state).toBe(RingState.Closing);
    expect(ring.isDrained()).toBe(false);
    expect(ring.drain({ onEvent: () => undefined })).toBe(2);
    expect(ring.isDrained()).toBe(true);
    ring.markClosed();
    ring.close();
    expect(ring.state).toBe(RingState.Closed);
  });

  it('rejects a capacity that is not a power of two and an odd slot width', () => {
    expect(() => SpscRing.create({ capacity: 12, slotWords: 2 })).toThrow(RangeError);
    expect(() => SpscRing.create({ capacity: 16, slotWords: 3 })).toThrow(RangeError);
    expect(() => SpscRing.attach(new SharedArrayBuffer(64), { capacity: 16, slotWords: 2 })).toThrow(RangeError);
  });
});
