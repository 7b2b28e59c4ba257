// Shared by spsc-ring.threads.test.ts and echo-worker.ts: ring geometries, message format, checksum.
//   in  slot (4 words): i32[0] message number n, f64[1] ID_BASE + n (an id above 2^52)
//   out slot (4 words): i32[0] count, i32[1] checksum, i32[2] order errors, i32[3] 1 on the final echo

export const IN_GEOMETRY = { capacity: 1 << 12, slotWords: 4 } as const;
export const ECHO_GEOMETRY = { capacity: 1 << 6, slotWords: 4 } as const;
export const ID_BASE = 2 ** 52;

export interface EchoWorkerData {
  inSab: SharedArrayBuffer;
  outSab: SharedArrayBuffer;
  spins: number;
  timeoutMs: number;
  stats?: Int32Array;
}

/** Order-sensitive int32 checksum of the message numbers. */
export const checksumStep = (sum: number, v: number): number => (Math.imul(sum, 31) + v) | 0;
