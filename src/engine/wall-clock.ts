/**
 * The live clock: wall time in µs since the epoch from the high-resolution timer, forced monotonic
 * (a wall-clock step backwards repeats the last value instead).
 */
import { performance } from 'node:perf_hooks';
import type { Clock } from '../core/clock.js';

/** The timer's origin, ms since the epoch (constant for the process; read once: each read allocates). */
const ORIGIN_MS = performance.timeOrigin;

export class WallClock implements Clock {
  #last = 0;

  nowUs(): number {
    const now = Math.floor((ORIGIN_MS + performance.now()) * 1000);
    if (now > this.#last) this.#last = now;
    return this.#last;
  }
}
