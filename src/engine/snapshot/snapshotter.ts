/**
 * Taking snapshots while intake continues.
 *
 * A snapshot stops the engine only for the capture (capture.ts: a copy of the state into columns, O(state));
 * encoding and writing then run on a piscina pool thread (`SnapshotPool`), or inline when no pool is given
 * (tests, tools). The file is written under a temporary name and renamed only after the journal holds every
 * command up to the snapshot's `seq`, so a committed snapshot never covers an unacknowledged command, and a
 * crash leaves either the old set of snapshots or the new one (`commitSnapshotData`). The server schedules
 * them with GatewaySnapshots (../gateway-snapshots.ts); `takeSnapshot` is the one-shot form for an inline engine.
 *
 * Workers under tsx: Node 20 does not run tsx's `--import` hooks in worker threads, and piscina only takes
 * a `filename`. When the compiled `encode.worker.js` is absent (running from sources), the pool loads
 * `encode.worker.mjs`, which registers tsx in the worker and imports `encode.worker.ts`.
 * Thread affinity: call everything from the engine's thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SnapshotData } from '../../protocol/snapshot-codec.js';
import type { InlineEngine } from '../inline-engine.js';
import { captureSnapshot, transferListOf } from './capture.js';
import type { EncodeTask } from './encode.worker.js';
import { commitSnapshot, tempSnapshotPath, writeSnapshotFile, type WriteResult } from './snapshot-file.js';

/** What a snapshot cost and where it went. */
export interface SnapshotResult {
  readonly path: string;
  readonly seq: number;
  readonly bytes: number;
  /** Intake stopped this long (synchronous capture), in ms. */
  readonly captureMs: number;
  /** Payload encoding (off the engine's thread with a pool), in ms. */
  readonly encodeMs: number;
  /** Write, datasync and rename, in ms. */
  readonly writeMs: number;
}

function workerFile(): string {
  const js = new URL('./encode.worker.js', import.meta.url);
  return fileURLToPath(existsSync(js) ? js : new URL('./encode.worker.mjs', import.meta.url));
}

/** A piscina pool that encodes and writes snapshots. Start it at wiring time (a thread takes ~100 ms+). */
export class SnapshotPool {
  readonly #pool: Piscina<EncodeTask, WriteResult>;

  constructor(options: { threads?: number } = {}) {
    const threads = options.threads ?? 1;
    this.#pool = new Piscina<EncodeTask, WriteResult>({ filename: workerFile(), minThreads: threads, maxThreads: threads });
  }

  /** Encodes and writes `data` to `path` on a pool thread. `data`'s buffers are transferred (unusable after). */
  write(data: SnapshotData, path: string): Promise<WriteResult> {
    return this.#pool.run({ data, path }, { transferList: transferListOf(data) });
  }

  /** Stops the pool's threads (after running tasks finish). */
  close(): Promise<void> {
    return this.#pool.destroy();
  }
}

/**
 * Writes captured `data` as `dir/snapshot-<seq>.rms`: encoded and written under a temporary name (on `pool`'s
 * thread, or this one), then committed (renamed, directory synced) once `durable()` resolves, which must mean the
 * journal holds every command up to `data.seq`. `captureMs` is what the caller's capture took. The one path every
 * snapshot takes (tools through `takeSnapshot`, the server through GatewaySnapshots).
 */
export async function commitSnapshotData(data: SnapshotData, dir: string, pool: SnapshotPool | undefined,
  durable: () => Promise<void>, captureMs: number): Promise<SnapshotResult> {
  const seq = data.seq;
  const tmp = tempSnapshotPath(dir, seq);
  const write = pool !== undefined ? pool.write(data, tmp) : writeSnapshotFile(data, tmp);
  const [w] = await Promise.all([write, durable()]);
  const t1 = performance.now();
  const path = await commitSnapshot(tmp, dir, seq);
  return { path, seq, bytes: w.bytes, captureMs, encodeMs: w.encodeMs, writeMs: w.writeMs + (performance.now() - t1) };
}

/**
 * Captures `engine` now and writes `dir/snapshot-<seq>.rms`; resolves once the file is committed. Without
 * `pool` the encoding runs on this thread.
 */
export async function takeSnapshot(engine: InlineEngine, dir: string, options: { pool?: SnapshotPool } = {}): Promise<SnapshotResult> {
  const t0 = performance.now();
  const data = captureSnapshot(engine);
  return commitSnapshotData(data, dir, options.pool, () => engine.flush(), performance.now() - t0);
}
