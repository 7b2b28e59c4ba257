/** IPC messages between ws.bench.ts and its children (ws-bench-server.ts, ws-bench-client.ts). */

/** `ringmatch`: the simulator's /ws/v4/ fed by matches; `bare`: a bare uWebSockets.js app publishing the same frames. */
export type ServerKind = 'ringmatch' | 'bare';

export type ToServer = { type: 'drive'; rate: number; seconds: number };
export type FromServer =
  | { type: 'listening'; port: number }
  /** `seconds`: the phase as it ran (a blocked event loop can make it longer than asked). */
  | { type: 'driven'; trades: number; seconds: number; busyMs: number; cpuMs: number };

export type ToClient =
  | { type: 'connect'; port: number; path: string; count: number; subscribe: string }
  | { type: 'reset' }
  | { type: 'report' };
export type FromClient =
  | { type: 'connected'; count: number }
  | { type: 'report'; received: number; closed: number; latency: [number, number][]; maxUs: number; firstUs: number; lastUs: number };

/** Latency buckets: 1 µs wide up to this many µs; larger values land in the last bucket (max kept apart). */
export const LATENCY_BUCKETS = 1 << 21;
