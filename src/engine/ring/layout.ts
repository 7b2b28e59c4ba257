/**
 * Layout of one single-producer single-consumer ring in one SharedArrayBuffer, and wrap-safe int32
 * sequence arithmetic.
 *
 * Layout (Int32 words; LINE_WORDS = 16 words = 64 B, one cache line):
 *
 *   word        name               written by   read by     meaning
 *   0           H_PUBLISHED        producer     consumer    last published sequence (the cursor)
 *   16          H_CONSUMED         consumer     producer    last released sequence (the gating sequence)
 *   32          H_STATE            either       both        RingState: 0 running · 1 closing · 2 closed
 *   48          H_CONSUMER_WAITING consumer     producer    1 while the consumer may sleep on H_PUBLISHED
 *   64          H_PRODUCER_WAITING producer     consumer    1 while the producer may sleep on H_CONSUMED
 *   80 …        slots              producer     consumer    capacity × slotWords Int32 words
 *
 * Each header word has its own 64-byte line, so a producer store does not invalidate the line the
 * consumer stores to (false sharing). The other 15 words of each line are padding and are never
 * touched. The slot region starts at byte HEADER_BYTES (320), a multiple of 8, and `slotWords` is
 * even, so every slot starts 8-byte aligned and can be read as `slotWords / 2` Float64 fields
 * through a Float64Array over the same bytes (prices, quantities, ids up to 2^53 exactly).
 * Slot `i` covers Int32 words [i·slotWords, (i+1)·slotWords) and Float64 elements
 * [i·slotWords/2, (i+1)·slotWords/2) of the slot-region views; a sequence maps to slot `seq & mask`.
 *
 * Sequences are int32 and wrap: after 2^31 − 1 comes −2^31. At 10M messages/s that is 3.6 minutes,
 * so wrap handling is a correctness rule. Sequences are therefore only ever compared through
 * `seqDiff` (`(a − b) | 0`), which is exact while the two compared sequences are within 2^31 of each
 * other; a ring keeps its cursors within `capacity` (≤ 2^30) of each other, so every comparison the
 * ring makes is exact across the wrap. Tests start sequences just below 2^31 to cross it.
 * Int32 (not BigInt64) because `Atomics.wait` only works on Int32Array or BigInt64Array, and
 * BigInt arithmetic allocates.
 */

/** Int32 words per 64-byte cache line. */
export const LINE_WORDS = 16;
/** Producer cursor: last published sequence. */
export const H_PUBLISHED = 0;
/** Consumer cursor: last released (consumed) sequence. */
export const H_CONSUMED = H_PUBLISHED + LINE_WORDS;
/** Ring lifecycle word, a `RingState`. */
export const H_STATE = H_CONSUMED + LINE_WORDS;
/** Waiter flag: the consumer may be in `Atomics.wait` on H_PUBLISHED; the producer notifies only then. */
export const H_CONSUMER_WAITING = H_STATE + LINE_WORDS;
/** Waiter flag: the producer may be in `Atomics.wait` on H_CONSUMED; the consumer notifies only then. */
export const H_PRODUCER_WAITING = H_CONSUMER_WAITING + LINE_WORDS;
/** Int32 words before the slot region. */
export const HEADER_WORDS = H_PRODUCER_WAITING + LINE_WORDS;
/** Bytes before the slot region (a multiple of 8, so the Float64 view is aligned). */
export const HEADER_BYTES = HEADER_WORDS * Int32Array.BYTES_PER_ELEMENT;

/** Lifecycle values stored in H_STATE. They only move forward: Running → Closing → Closed. */
export const RingState = {
  /** Normal operation. */
  Running: 0,
  /** The producer will publish nothing more; the consumer drains what is published. */
  Closing: 1,
  /** The consumer has drained everything and stopped. */
  Closed: 2,
} as const;
export type RingState = (typeof RingState)[keyof typeof RingState];

/** Largest supported capacity: keeps cursors within 2^30 of each other, so `seqDiff` is exact. */
export const MAX_CAPACITY = 1 << 30;

/** Geometry of one ring: capacity (slots, a power of two) and Int32 words per slot (even, ≥ 2). */
export interface RingGeometry {
  readonly capacity: number;
  readonly slotWords: number;
}

/** Throws a RangeError unless `capacity` is a power of two in [2, MAX_CAPACITY] and `slotWords` is even and ≥ 2. */
export function checkGeometry(g: RingGeometry): void {
  const { capacity, slotWords } = g;
  if (!Number.isInteger(capacity) || capacity < 2 || capacity > MAX_CAPACITY || (capacity & (capacity - 1)) !== 0) {
    throw new RangeError(`ring capacity must be a power of two in [2, 2^30], got ${capacity}`);
  }
  if (!Number.isInteger(slotWords) || slotWords < 2 || slotWords % 2 !== 0) {
    throw new RangeError(`ring slotWords must be an even integer ≥ 2, got ${slotWords}`);
  }
  if (capacity * slotWords * Int32Array.BYTES_PER_ELEMENT > 2 ** 31) {
    throw new RangeError(`ring slot region over 2 GiB: ${capacity} × ${slotWords} words`);
  }
}

/** Bytes of SharedArrayBuffer one ring needs: header plus `capacity × slotWords` Int32 words. */
export function ringByteLength(g: RingGeometry): number {
  checkGeometry(g);
  return HEADER_BYTES + g.capacity * g.slotWords * Int32Array.BYTES_PER_ELEMENT;
}

/** Wrap-safe signed distance `a − b` between int32 sequences; exact while |a − b| < 2^31. */
export const seqDiff = (a: number, b: number): number => (a - b) | 0;

/** Wrap-safe `a < b` for int32 sequences. */
export const seqLt = (a: number, b: number): boolean => ((a - b) | 0) < 0;

/** Wrap-safe `a <= b` for int32 sequences. */
export const seqLte = (a: number, b: number): boolean => ((a - b) | 0) <= 0;
