/**
 * Time enters the core only through a Clock, read by the sequencer (never by the core itself): microseconds
 * since the epoch as a safe integer. SimClock is the simulated clock of replays and tests; the wall clock
 * lives outside the core (engine/wall-clock.ts).
 */
import { InvariantError } from './invariant.js';

export interface Clock {
  /** µs since the epoch; never decreases. */
  nowUs(): number;
}

/** A clock that moves only when told, and never backwards. */
export class SimClock implements Clock {
  #now: number;

  constructor(startUs = 0) {
    if (!Number.isSafeInteger(startUs) || startUs < 0) throw new InvariantError(`bad start time ${startUs}`);
    this.#now = startUs;
  }

  nowUs(): number {
    return this.#now;
  }

  /** Moves to `us`; equal is allowed, earlier throws (a replay out of order is a bug). */
  advanceTo(us: number): void {
    if (!Number.isSafeInteger(us) || us < this.#now) throw new InvariantError(`clock moved backwards: ${us} < ${this.#now}`);
    this.#now = us;
  }

  advanceBy(us: number): void {
    this.advanceTo(this.#now + us);
  }
}
