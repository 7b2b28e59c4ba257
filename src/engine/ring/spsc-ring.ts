/**
 * Single-producer single-consumer ring over one SharedArrayBuffer (layout in layout.ts).
 *
 * Roles: exactly one thread produces (`tryClaim` → write slots → `publish`) and exactly one thread
 * consumes (`available` → read slots → `release`, or `drain`). Each thread builds its own `SpscRing`
 * over the shared buffer (`create` in one, `attach` in the other); one instance may play both roles
 * in a single thread (tests). The producer's claim position and cached consumer cursor, and the
 * consumer's release position, are plain fields of the instance of the thread that owns the role.
 *
 * Ordering: only the two cursors, the state word and the waiter flags are accessed with `Atomics`.
 * Payload slots are plain typed-array reads and writes. The producer writes a slot before the
 * `Atomics.store` of H_PUBLISHED that covers it, and the consumer reads it after the `Atomics.load`
 * that observed that store (Atomics are sequentially consistent, so the cursor store/load pair
 * orders the payload). The same holds in reverse for H_CONSUMED: the producer never writes a slot
 * the consumer has not released.
 *
 * Invariants: consumed ≤ published ≤ claimed ≤ consumed + capacity (wrap-safe, see seqDiff). A full
 * ring refuses claims (`tryClaim` returns NO_SEQ): nothing blocks here and nothing is dropped.
 *
 * Costs: `publish` and `release` are one `Atomics.store` each per batch, plus one `Atomics.load` of the
 * other side's waiter flag, plus `Atomics.notify` only when that flag is set. `tryClaim` reads the
 * consumer cursor only when its cached copy says the ring may be full. `available` is one
 * `Atomics.load`. Allocation: none after construction.
 */
import {
  H_CONSUMED,
  H_CONSUMER_WAITING,
  H_PRODUCER_WAITING,
  H_PUBLISHED,
  H_STATE,
  HEADER_BYTES,
  type RingGeometry,
  RingState,
  checkGeometry,
  ringByteLength,
  seqDiff,
} from './layout.js';

/**
 * Returned by `tryClaim` when the ring has too few free slots. 2^31 is outside the int32 range, so
 * it can never be a sequence (−1 can: sequences wrap through every int32 value).
 */
export const NO_SEQ = 0x80000000;

/** Options of `SpscRing.create`. */
export interface RingOptions extends RingGeometry {
  /** First sequence the producer will claim (default 0); any int32, e.g. near 2^31 to test the wrap. */
  readonly initialSeq?: number;
}

/** Stage callback of `drain`; the slot at `seq` is valid only during the call. */
export interface EventHandler {
  onEvent(ring: SpscRing, seq: number, endOfBatch: boolean): void;
}

export class SpscRing implements RingGeometry {
  /** The shared buffer; pass it to the other thread, which calls `SpscRing.attach`. */
  readonly sab: SharedArrayBuffer;
  readonly capacity: number;
  readonly slotWords: number;
  /** `capacity − 1`; `seq & mask` is the slot index. */
  readonly mask: number;
  /** Int32 view over the slot region; slot words of `seq` start at `wordOffset(seq)`. */
  readonly slots32: Int32Array;
  /** Float64 view over the same bytes; slot fields of `seq` start at `f64Offset(seq)`. */
  readonly slots64: Float64Array;
  /** Int32 view over the header (cursors, state, waiter flags; indices are the H_* constants). */
  readonly header: Int32Array;
  readonly #half: number;
  /** Producer: last claimed sequence. */
  #claimed: number;
  #published: number;
  /** Producer: last consumer cursor seen (stale by design; refreshed when the ring looks full). */
  #gating: number;
  /** Consumer: last released sequence. */
  #consumed: number;

  private constructor(sab: SharedArrayBuffer, g: RingGeometry) {
    checkGeometry(g);
    if (sab.byteLength < ringByteLength(g)) {
      throw new RangeError(`SharedArrayBuffer of ${sab.byteLength} B is smaller than the ring's ${ringByteLength(g)} B`);
    }
    this.sab = sab;
    this.capacity = g.capacity;
    this.slotWords = g.slotWords;
    this.mask = g.capacity - 1;
    this.#half = g.slotWords >> 1;
    this.header = new Int32Array(sab, 0, HEADER_BYTES / Int32Array.BYTES_PER_ELEMENT);
    this.slots32 = new Int32Array(sab, HEADER_BYTES, g.capacity * g.slotWords);
    this.slots64 = new Float64Array(sab, HEADER_BYTES, g.capacity * this.#half);
    this.#claimed = Atomics.load(this.header, H_PUBLISHED);
    this.#published = this.#claimed;
    this.#consumed = Atomics.load(this.header, H_CONSUMED);
    this.#gating = this.#consumed;
  }

  /** Allocates a zeroed SharedArrayBuffer and initialises the header. Any thread; call before sharing. */
  static create(opts: RingOptions): SpscRing {
    const sab = new SharedArrayBuffer(ringByteLength(opts));
    const start = (opts.initialSeq ?? 0) | 0;
    const header = new Int32Array(sab, 0, HEADER_BYTES / Int32Array.BYTES_PER_ELEMENT);
    Atomics.store(header, H_PUBLISHED, (start - 1) | 0);
    Atomics.store(header, H_CONSUMED, (start - 1) | 0);
    return new SpscRing(sab, opts);
  }

  /**
   * Views a ring made by `create` (in this or another thread) with the same geometry. The buffer may be
   * larger than the ring; the tail is left alone. Attach before producing/consuming starts on this side.
   */
  static attach(sab: SharedArrayBuffer, g: RingGeometry): SpscRing {
    return new SpscRing(sab, g);
  }

  /** Producer thread. Claims `n` (1 ≤ n ≤ capacity) consecutive slots; returns the first sequence, or NO_SEQ when fewer than `n` slots are free. */
  tryClaim(n: number): number {
    if (n < 1 || n > this.capacity) throw new RangeError(`claim of ${n} slots in a ring of ${this.capacity}`);
    const next = (this.#claimed + n) | 0;
    if (seqDiff(next, this.#gating) > this.capacity) {
      this.#gating = Atomics.load(this.header, H_CONSUMED);
      if (seqDiff(next, this.#gating) > this.capacity) return NO_SEQ;
    }
    const first = (this.#claimed + 1) | 0;
    this.#claimed = next;
    return first;
  }

  /** Producer thread. Slots free for claiming now (reads the consumer cursor). */
  freeSlots(): number {
    this.#gating = Atomics.load(this.header, H_CONSUMED);
    return this.capacity - seqDiff(this.#claimed, this.#gating);
  }

  /**
   * Producer thread. Makes every claimed sequence up to `lastSeq` visible to the consumer: one
   * `Atomics.store`, then `Atomics.notify` only if the consumer flagged that it may be waiting.
   * Slots must be fully written before this call (the store orders them).
   */
  publish(lastSeq: number): void {
    this.#published = lastSeq;
    Atomics.store(this.header, H_PUBLISHED, lastSeq);
    // The store above and the flag load below pair with the consumer's flag store and cursor load
    // (both seq-cst), so at least one side sees the other: no lost wake-up.
    if (Atomics.load(this.header, H_CONSUMER_WAITING) !== 0) Atomics.notify(this.header, H_PUBLISHED);
  }

  /** Producer thread. Last sequence this producer published (no Atomics: its own copy). */
  get published(): number {
    return this.#published;
  }

  /** Producer thread. Last sequence claimed by this producer. */
  get claimed(): number {
    return this.#claimed;
  }

  /** Consumer thread. Last published sequence (one `Atomics.load`); nothing new when it equals `consumed`. */
  available(): number {
    return Atomics.load(this.header, H_PUBLISHED);
  }

  /** Consumer thread. Last sequence released by this consumer. */
  get consumed(): number {
    return this.#consumed;
  }

  /**
   * Consumer thread. Hands every slot up to `seq` back to the producer: one `Atomics.store`, then
   * `Atomics.notify` only if the producer flagged that it may be waiting. Slots must not be read after.
   */
  release(seq: number): void {
    this.#consumed = seq;
    Atomics.store(this.header, H_CONSUMED, seq);
    if (Atomics.load(this.header, H_PRODUCER_WAITING) !== 0) Atomics.notify(this.header, H_CONSUMED);
  }

  /**
   * Consumer thread. Calls `handler.onEvent` for every published, unconsumed sequence in order
   * (`endOfBatch` true on the last), then releases them with one `release`. Returns the count (0 when
   * nothing was available). If the handler throws, nothing of the batch is released.
   */
  drain(handler: EventHandler): number {
    const from = (this.#consumed + 1) | 0;
    const to = this.available();
    const count = seqDiff(to, this.#consumed);
    if (count <= 0) return 0;
    for (let s = from; s !== to; s = (s + 1) | 0) handler.onEvent(this, s, false);
    handler.onEvent(this, to, true);
    this.release(to);
    return count;
  }

  /** Any thread. Slot index of `seq` (`seq & mask`). */
  slotIndex(seq: number): number {
    return seq & this.mask;
  }

  /** Any thread. Index into `slots32` of the first Int32 word of `seq`'s slot. */
  wordOffset(seq: number): number {
    return (seq & this.mask) * this.slotWords;
  }

  /** Any thread. Index into `slots64` of the first Float64 field of `seq`'s slot. */
  f64Offset(seq: number): number {
    return (seq & this.mask) * this.#half;
  }

  /** Any thread. Current lifecycle state (one `Atomics.load`). */
  get state(): RingState {
    return Atomics.load(this.header, H_STATE) as RingState;
  }

  /**
   * Producer thread (or an owner shutting the ring down). Announces that nothing more will be
   * published: state becomes Closing (if still Running) and both sides are woken so waits return.
   */
  close(): void {
    Atomics.compareExchange(this.header, H_STATE, RingState.Running, RingState.Closing);
    this.#wakeAll();
  }

  /** Consumer thread. Marks the ring Closed (the consumer has drained everything and stopped); wakes both sides. */
  markClosed(): void {
    Atomics.store(this.header, H_STATE, RingState.Closed);
    this.#wakeAll();
  }

  /** Consumer thread. True once the ring is closing or closed and every published sequence is consumed. */
  isDrained(): boolean {
    return this.state !== RingState.Running && this.available() === this.#consumed;
  }

  #wakeAll(): void {
    Atomics.notify(this.header, H_PUBLISHED);
    Atomics.notify(this.header, H_CONSUMED);
  }
}
