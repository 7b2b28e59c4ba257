/**
 * The live clock: wall time in µs since the epoch from the high-resolution timer, forced monotonic
 * (a wall-clock step backwards repeats the last value instead).
 */
import { performance } from 'node:perf_hooks';
import type { Clock } from '../core/clock.js';

export class WallClock implements Clock {
  #last = 0;

  nowUs(): number {
    const now = Math.floor((performance.timeOrigin + performance.now()) * 1000);
    if (now > this.#last) this.#last = now;
    return this.#last;
  }
}
