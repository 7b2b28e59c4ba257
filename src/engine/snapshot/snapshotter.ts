/**
 * Taking snapshots while intake continues.
 *
 * `takeSnapshot` stops the engine only for the synchronous capture (capture.ts: a copy of the state into
 * columns, O(state)); encoding and writing then run on a piscina pool thread (`SnapshotPool`), or inline
 * when no pool is given (tests, tools). The file is written under a temporary name and renamed only after
 * the journal has flushed every command up to the snapshot's `seq`, so a committed snapshot never covers an
 * unacknowledged command, and a crash leaves either the old set of snapshots or the new one.
 *
 * `Snapshotter` triggers `takeSnapshot` from the inline runner's loop every N commands and/or M ms
 * (`afterCommand()` after each submit; cost: a counter and a `Date.now()`), never two at once, and keeps
 * the newest `keep` files.
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
import { commitSnapshot, pruneSnapshots, tempSnapshotPath, writeSnapshotFile, type WriteResult } from './snapshot-file.js';

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
 * Captures `engine` now and writes `dir/snapshot-<seq>.rms`; resolves once the file is committed. Without
 * `pool` the encoding runs on this thread.
 */
export async function takeSnapshot(engine: InlineEngine, dir: string, options: { pool?: SnapshotPool } = {}): Promise<SnapshotResult> {
  const t0 = performance.now();
  const data = captureSnapshot(engine);
  const captureMs = performance.now() - t0;
  const seq = data.seq;
  const tmp = tempSnapshotPath(dir, seq);
  const write = options.pool !== undefined ? options.pool.write(data, tmp) : writeSnapshotFile(data, tmp);
  const [w] = await Promise.all([write, engine.flush()]);
  const t1 = performance.now();
  const path = await commitSnapshot(tmp, dir, seq);
  return { path, seq, bytes: w.bytes, captureMs, encodeMs: w.encodeMs, writeMs: w.writeMs + (performance.now() - t1) };
}

export interface SnapshotterOptions {
  readonly dir: string;
  /** Snapshot after this many commands since the last one started (0/absent: not by count). */
  readonly everyCommands?: number;
  /** Snapshot when this many ms passed since the last one started (0/absent: not by time). */
  readonly everyMs?: number;
  /** Shared pool; by default the Snapshotter starts (and closes) its own one-thread pool. */
  readonly pool?: SnapshotPool;
  /** Snapshots kept in `dir` (older ones are deleted after each commit); default 3, at least 1. */
  readonly keep?: number;
  /** Called with each committed snapshot. */
  readonly onSnapshot?: (r: SnapshotResult) => void;
  /** Called when a snapshot fails (the engine carries on); default logs to stderr. */
  readonly onError?: (e: unknown) => void;
}

/** Periodic snapshots of an inline engine; see the module header. */
export class Snapshotter {
  readonly #engine: InlineEngine;
  readonly #o: SnapshotterOptions;
  readonly #pool: SnapshotPool;
  readonly #ownPool: boolean;
  #commands = 0;
  #lastMs = Date.now();
  #inFlight: Promise<SnapshotResult | undefined> | undefined;

  constructor(engine: InlineEngine, options: SnapshotterOptions) {
    this.#engine = engine;
    this.#o = options;
    this.#ownPool = options.pool === undefined;
    this.#pool = options.pool ?? new SnapshotPool();
  }

  /** True while a snapshot is being written. */
  get busy(): boolean {
    return this.#inFlight !== undefined;
  }

  /** Call after each submitted command: starts a snapshot when one is due and none is in flight. */
  afterCommand(): void {
    this.#commands++;
    if (this.#inFlight !== undefined) return;
    const { everyCommands = 0, everyMs = 0 } = this.#o;
    if ((everyCommands > 0 && this.#commands >= everyCommands) || (everyMs > 0 && Date.now() - this.#lastMs >= everyMs)) {
      void this.snapshotNow();
    }
  }

  /**
   * Captures now (unless one is in flight: then resolves with that one's result) and resolves when the file
   * is committed; undefined when it failed (reported to onError).
   */
  snapshotNow(): Promise<SnapshotResult | undefined> {
    if (this.#inFlight !== undefined) return this.#inFlight;
    this.#commands = 0;
    this.#lastMs = Date.now();
    const run = takeSnapshot(this.#engine, this.#o.dir, { pool: this.#pool })
      .then(async (r) => {
        await pruneSnapshots(this.#o.dir, this.#o.keep ?? 3);
        this.#o.onSnapshot?.(r);
        return r;
      })
      .catch((e: unknown) => {
        (this.#o.onError ?? ((err: unknown) => console.error('snapshot failed:', err)))(e);
        return undefined;
      })
      .finally(() => {
        this.#inFlight = undefined;
      });
    this.#inFlight = run;
    return run;
  }

  /** Waits for a snapshot in flight, then closes the pool if this Snapshotter started it. */
  async close(): Promise<void> {
    await this.#inFlight;
    if (this.#ownPool) await this.#pool.close();
  }
}
