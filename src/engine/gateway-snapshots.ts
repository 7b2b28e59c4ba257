/**
 * Snapshots of a running, journaled gateway, so that a restart loads the newest one and replays only the
 * journal after it (restart.ts).
 *
 * When: after `everyCommands` commands, or `everyMs` after the last one when commands came since; never two
 * at once. How, off the hot path except the capture: the gateway captures its state between commands
 * (inline: a synchronous copy; threaded: intake pauses while the shards copy their books), a piscina thread
 * encodes and writes it under a temporary name, and once the journal holds every command up to the
 * snapshot's seq the file is committed (renamed; its directory synced). Then the journal rotates: the active
 * file becomes an archived segment and a new one starts (journal/segments.ts); the newest `keep` snapshots
 * stay; with `pruneJournal`, archived segments the oldest kept snapshot covers are deleted.
 * A failed snapshot is logged and the engine goes on (the journal alone still recovers everything).
 */
import type { ExchangeGateway } from './gateway.js';
import { archivedPath, pruneSegments } from './journal/segments.js';
import { listSnapshots, pruneSnapshots } from './snapshot/snapshot-file.js';
import { commitSnapshotData, type SnapshotResult, SnapshotPool } from './snapshot/snapshotter.js';
import { mkdir } from 'node:fs/promises';

export interface SnapshotPolicy {
  readonly dir: string;
  /** Commands between snapshots (0: not by count). */
  readonly everyCommands: number;
  /** Ms between snapshots when commands came since the last (0: not by time). */
  readonly everyMs: number;
  /** Snapshots kept (at least 1). */
  readonly keep: number;
  /** Delete archived journal segments the oldest kept snapshot covers. */
  readonly pruneJournal: boolean;
}

export class GatewaySnapshots {
  readonly #gateway: ExchangeGateway;
  readonly #journalPath: string;
  readonly #policy: SnapshotPolicy;
  readonly #log: (m: string) => void;
  readonly #pool = new SnapshotPool();
  readonly #timer: NodeJS.Timeout | undefined;
  #commands = 0;
  #lastMs = Date.now();
  #inFlight: Promise<SnapshotResult | undefined> | undefined;
  #closed = false;
  /** The last snapshot committed (for health and tests). */
  last: SnapshotResult | undefined;

  constructor(gateway: ExchangeGateway, journalPath: string, policy: SnapshotPolicy, log: (m: string) => void) {
    this.#gateway = gateway;
    this.#journalPath = journalPath;
    this.#policy = policy;
    this.#log = log;
    gateway.observe(() => {
      if (++this.#commands >= policy.everyCommands && policy.everyCommands > 0) this.#due();
    });
    if (policy.everyMs > 0) {
      this.#timer = setInterval(() => {
        if (this.#commands > 0 && Date.now() - this.#lastMs >= policy.everyMs) this.#due();
      }, Math.min(policy.everyMs, 1000));
      this.#timer.unref();
    }
  }

  /** True while a snapshot is being taken. */
  get busy(): boolean {
    return this.#inFlight !== undefined;
  }

  /** Takes a snapshot now (or joins the one in flight); undefined when it failed (logged). */
  snapshotNow(): Promise<SnapshotResult | undefined> {
    if (this.#inFlight !== undefined) return this.#inFlight;
    this.#commands = 0;
    this.#lastMs = Date.now();
    const run = this.#take()
      .catch((e: unknown) => {
        if (!this.#closed) this.#log(`snapshot failed (the journal still holds everything): ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      })
      .finally(() => { this.#inFlight = undefined; });
    this.#inFlight = run;
    return run;
  }

  /** Waits for a snapshot in flight, stops the timer and the encoding thread. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    await this.#inFlight;
    await this.#pool.close();
  }

  #due(): void {
    if (this.#inFlight === undefined && !this.#closed && this.#gateway.stopped === undefined) void this.snapshotNow();
  }

  async #take(): Promise<SnapshotResult> {
    const journal = this.#gateway.journal;
    if (journal === undefined) throw new Error('snapshots need a journal');
    const { dir, keep, pruneJournal } = this.#policy;
    await mkdir(dir, { recursive: true });
    const t0 = performance.now();
    const data = await this.#gateway.capture();
    const result = await commitSnapshotData(data, dir, this.#pool, () => journal.waitDurable(data.seq), performance.now() - t0);
    await journal.rotate((first) => archivedPath(this.#journalPath, first));
    await pruneSnapshots(dir, Math.max(1, keep));
    if (pruneJournal) {
      const kept = await listSnapshots(dir);
      const oldest = kept.at(-1);
      if (oldest !== undefined) await pruneSegments(this.#journalPath, oldest.seq);
    }
    this.last = result;
    return result;
  }
}
