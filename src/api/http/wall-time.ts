/** Wall time in µs since the epoch (for X-In-Time / X-Out-Time and signature windows; never the engine clock). */
import { performance } from 'node:perf_hooks';

export const wallMicros = (): number => Math.floor((performance.timeOrigin + performance.now()) * 1000);
