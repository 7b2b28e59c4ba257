/** Wall time in µs since the epoch (for X-In-Time / X-Out-Time and signature windows; never the engine clock). */
import { performance } from 'node:perf_hooks';

/** The timer's origin, ms since the epoch (constant for the process; read once: each read allocates). */
const ORIGIN_MS = performance.timeOrigin;

export const wallMicros = (): number => Math.floor((ORIGIN_MS + performance.now()) * 1000);
