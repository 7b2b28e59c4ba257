/**
 * Wait strategies: how a consumer waits for the producer cursor (`waitFor`) and how a producer waits
 * for the consumer cursor when the ring is full (`waitForConsumed`). Chosen when wiring threads,
 * never inside stage code.
 *
 *   BusySpinWait       spin on `Atomics.load`             lowest latency, burns a core while idle
 *   SpinThenBlockWait  spin N loads, then `Atomics.wait`  worker threads only; idle costs no CPU
 *   AsyncWait          `Atomics.waitAsync` (a Promise)    main / HTTP thread, which must never block
 *
 * Sleeping protocol (Dekker style, all Atomics sequentially consistent): the waiter stores 1 in its
 * side's waiter flag, re-loads the cursor, and only if it is still short calls `Atomics.wait` on the
 * cursor word with the value it saw. The other side stores the cursor, then loads the flag and
 * notifies if set. Either the waiter's re-load sees the new cursor or the notifier's load sees the
 * flag; and `Atomics.wait` itself re-checks the word atomically, so no wake-up is lost. The flag is
 * cleared after waking; a stale flag only costs one spare `notify`.
 *
 * Return values (Disruptor contract): `waitFor(seq)` returns the published cursor, which is ≥ `seq`
 * unless the ring left the Running state (then it may be less: drain what is there and stop).
 * `waitForConsumed(seq)` returns the consumer cursor, ≥ `seq` unless the ring is Closed.
 * Allocation: none, except AsyncWait (one Promise per sleep).
 */
import { H_CONSUMED, H_CONSUMER_WAITING, H_PRODUCER_WAITING, H_PUBLISHED, H_STATE, RingState, seqLt } from './layout.js';
import type { SpscRing } from './spsc-ring.js';

/** A blocking or spinning wait; see the module header for the return contract. */
export interface WaitStrategy {
  /** Consumer thread. Waits until the published cursor is ≥ `seq`; returns it. */
  waitFor(ring: SpscRing, seq: number): number;
  /** Producer thread. Waits until the consumed cursor is ≥ `seq`; returns it. */
  waitForConsumed(ring: SpscRing, seq: number): number;
}

/** Index in `SpinThenBlockWait`'s stats array: spin iterations done (accumulated after each spin phase). */
export const STAT_SPINS = 0;
/** Index in `SpinThenBlockWait`'s stats array: `Atomics.wait` calls. */
export const STAT_BLOCKS = 1;
/** Int32 words a stats array needs. */
export const STAT_WORDS = 2;

/** Spins on the cursor. For dedicated threads on dedicated cores; an idle waiter uses a full core. */
export class BusySpinWait implements WaitStrategy {
  waitFor(ring: SpscRing, seq: number): number {
    return spin(ring.header, H_PUBLISHED, seq, RingState.Closing);
  }

  waitForConsumed(ring: SpscRing, seq: number): number {
    return spin(ring.header, H_CONSUMED, seq, RingState.Closed);
  }
}

function spin(h: Int32Array, word: number, seq: number, stopAt: RingState): number {
  let cursor = Atomics.load(h, word);
  while (seqLt(cursor, seq)) {
    if (Atomics.load(h, H_STATE) >= stopAt) return Atomics.load(h, word);
    cursor = Atomics.load(h, word);
  }
  return cursor;
}

/** Options of `SpinThenBlockWait`. */
export interface SpinThenBlockOptions {
  /** Cursor loads before sleeping (default 10,000: a few microseconds). */
  readonly spins?: number;
  /** Upper bound of one `Atomics.wait`, in ms (default 1,000); the waiter re-spins and sleeps again. */
  readonly timeoutMs?: number;
  /** Optional shared Int32Array of STAT_WORDS words, updated with `Atomics.add` (STAT_SPINS, STAT_BLOCKS). */
  readonly stats?: Int32Array;
}

/**
 * Spins `spins` loads, then sleeps in `Atomics.wait` until notified. Worker threads only: on the
 * main thread `Atomics.wait` would freeze the event loop. An idle waiter costs `spins` loads per
 * `timeoutMs`, so an idle worker does not burn a core.
 */
export class SpinThenBlockWait implements WaitStrategy {
  readonly #spins: number;
  readonly #timeoutMs: number;
  readonly #stats: Int32Array | undefined;

  constructor(opts: SpinThenBlockOptions = {}) {
    this.#spins = opts.spins ?? 10_000;
    this.#timeoutMs = opts.timeoutMs ?? 1_000;
    this.#stats = opts.stats;
  }

  waitFor(ring: SpscRing, seq: number): number {
    return this.#wait(ring.header, H_PUBLISHED, H_CONSUMER_WAITING, seq, RingState.Closing);
  }

  waitForConsumed(ring: SpscRing, seq: number): number {
    return this.#wait(ring.header, H_CONSUMED, H_PRODUCER_WAITING, seq, RingState.Closed);
  }

  #wait(h: Int32Array, word: number, flag: number, seq: number, stopAt: RingState): number {
    for (;;) {
      let cursor = Atomics.load(h, word);
      let i = 0;
      for (; i < this.#spins && seqLt(cursor, seq); i++) {
        if (Atomics.load(h, H_STATE) >= stopAt) return Atomics.load(h, word);
        cursor = Atomics.load(h, word);
      }
      if (this.#stats !== undefined) Atomics.add(this.#stats, STAT_SPINS, i);
      if (!seqLt(cursor, seq)) return cursor;
      Atomics.store(h, flag, 1);
      cursor = Atomics.load(h, word);
      if (!seqLt(cursor, seq) || Atomics.load(h, H_STATE) >= stopAt) {
        Atomics.store(h, flag, 0);
        return Atomics.load(h, word);
      }
      if (this.#stats !== undefined) Atomics.add(this.#stats, STAT_BLOCKS, 1);
      Atomics.wait(h, word, cursor, this.#timeoutMs);
      Atomics.store(h, flag, 0);
    }
  }
}

type WaitAsyncResult = { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
type WaitAsyncFn = (ta: Int32Array, index: number, value: number, timeoutMs?: number) => WaitAsyncResult;

/** Options of `AsyncWait`. */
export interface AsyncWaitOptions {
  /** Upper bound of one asynchronous sleep, in ms (default 1,000). */
  readonly timeoutMs?: number;
  /** Poll period in ms when `Atomics.waitAsync` is unavailable (default 1). */
  readonly pollMs?: number;
  /** Force the polling fallback (tests). */
  readonly forcePolling?: boolean;
}

/**
 * Non-blocking waits for the main / HTTP thread: sleeps with `Atomics.waitAsync`, or, where that is
 * missing, polls the cursor every `pollMs` with `setTimeout`. Never blocks the event loop.
 * Allocation: one Promise per sleep.
 */
export class AsyncWait {
  readonly #timeoutMs: number;
  readonly #pollMs: number;
  readonly #waitAsync: WaitAsyncFn | undefined;

  constructor(opts: AsyncWaitOptions = {}) {
    this.#timeoutMs = opts.timeoutMs ?? 1_000;
    this.#pollMs = opts.pollMs ?? 1;
    const native = (Atomics as unknown as { waitAsync?: WaitAsyncFn }).waitAsync;
    this.#waitAsync = opts.forcePolling === true || native === undefined ? undefined : native.bind(Atomics);
  }

  /** True when sleeping uses `Atomics.waitAsync` rather than polling. */
  get native(): boolean {
    return this.#waitAsync !== undefined;
  }

  /** Consumer thread (event-loop thread). Resolves with the published cursor, ≥ `seq` unless the ring left Running. */
  waitFor(ring: SpscRing, seq: number): Promise<number> {
    return this.#wait(ring.header, H_PUBLISHED, H_CONSUMER_WAITING, seq, RingState.Closing);
  }

  /** Producer thread (event-loop thread). Resolves with the consumed cursor, ≥ `seq` unless the ring is Closed. */
  waitForConsumed(ring: SpscRing, seq: number): Promise<number> {
    return this.#wait(ring.header, H_CONSUMED, H_PRODUCER_WAITING, seq, RingState.Closed);
  }

  async #wait(h: Int32Array, word: number, flag: number, seq: number, stopAt: RingState): Promise<number> {
    const waitAsync = this.#waitAsync;
    for (;;) {
      let cursor = Atomics.load(h, word);
      if (!seqLt(cursor, seq) || Atomics.load(h, H_STATE) >= stopAt) return Atomics.load(h, word);
      if (waitAsync === undefined) {
        await new Promise<void>((resolve) => setTimeout(resolve, this.#pollMs));
        continue;
      }
      Atomics.store(h, flag, 1);
      cursor = Atomics.load(h, word);
      if (seqLt(cursor, seq) && Atomics.load(h, H_STATE) < stopAt) {
        const r = waitAsync(h, word, cursor, this.#timeoutMs);
        if (r.async) await r.value;
      }
      Atomics.store(h, flag, 0);
    }
  }
}
