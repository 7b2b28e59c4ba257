/**
 * Restarting a journaled engine: the newest usable snapshot, then every journal record after it, from the
 * archived segments and the active file, in order, on either runner; then the journal is reopened for
 * appending. This is what the server does at start-up and what `recover`-style tools build on.
 *
 * Steps (`planRestart`, then `restartInline` / `restartThreaded`):
 * 1. The journal's segments (journal/segments.ts). None: a fresh start.
 * 2. The active file's damaged tail is cut (a crash mid-write; reported). A defect in an archived segment,
 *    or a gap between segments, stops start-up with a clear error.
 * 3. The newest snapshot in the snapshot directory that checks (checksum, decode, same exchange definition)
 *    and covers everything before the first segment; unusable ones are skipped and reported. Without one the
 *    whole journal is replayed, which needs the first segment to start at seq 1.
 * 4. The engine is built from the snapshot (inline: restored books; threaded: books restored in the shard
 *    workers, the exchange state on this thread), every record after the snapshot's seq is applied with its
 *    recorded seq and time (never journaled again), and the journal is reopened for appending after the
 *    last record (a new active file when a crash came between a rotation's rename and its new file).
 * Cost: reading the snapshot (O(state)) and the records after it; the threaded runner replays through its
 * own pipeline.
 */
import type { Clock } from '../core/clock.js';
import { Command } from '../core/command.js';
import { BookMirror } from '../core/exchange/book-mirror.js';
import { bookMarketSpecs, type ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { ResultCode } from '../core/result-code.js';
import type { SnapshotData } from '../protocol/snapshot-codec.js';
import { InlineEngine } from './inline-engine.js';
import type { JournalReport } from './journal/reader.js';
import { repairJournal } from './journal/reader.js';
import { listSegments, readSegments, type Segment } from './journal/segments.js';
import { type FsyncPolicy, JournalWriter } from './journal/writer.js';
import { restoreEngine } from './snapshot/capture.js';
import { listSnapshots, readSnapshotFile } from './snapshot/snapshot-file.js';
import { ThreadedEngine, type ThreadedEngineOptions } from './threaded-engine.js';

/** What start-up found on disk. */
export interface RestartPlan {
  readonly definition: ExchangeDefinition;
  readonly segments: readonly Segment[];
  /** The snapshot to start from, if any (its seq and file). */
  readonly snapshot: { readonly data: SnapshotData; readonly path: string } | undefined;
  /** Snapshots that could not be used, and why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
  /** What repairing the active file cut, if anything. */
  readonly repaired: JournalReport | undefined;
}

/** What a restart replayed. */
export interface RestartReport {
  /** Records applied after the snapshot. */
  readonly replayed: number;
  readonly lastSeq: number;
  /** Time of the last record applied (or of the snapshot), µs; 0 when none. */
  readonly lastTimeUs: number;
  readonly snapshotSeq: number | undefined;
}

const canonical = (json: string): string => JSON.stringify(JSON.parse(json));

/** Reads the journal's layout and picks the snapshot to start from; undefined when there is no journal yet. @allocates */
export async function planRestart(journalPath: string, snapshotDir: string | undefined, log: (m: string) => void,
  options: { repair?: boolean } = {}): Promise<RestartPlan | undefined> {
  const segments = await listSegments(journalPath);
  if (segments.length === 0) return undefined;
  const last = segments.at(-1)!;
  const repaired = last.active && options.repair !== false ? await repairJournal(last.path) : undefined;
  if (repaired?.truncatedAt !== undefined) {
    log(`journal ${last.path}: cut a damaged tail at byte ${repaired.truncatedAt} of ${repaired.fileBytes} (${repaired.reason}); `
      + 'what it held was never acknowledged');
  }
  const configJson = segments[0]!.header.configJson;
  const definition = JSON.parse(configJson) as ExchangeDefinition;
  const skipped: { path: string; reason: string }[] = [];
  let snapshot: RestartPlan['snapshot'];
  const firstSeq = segments[0]!.firstSeq;
  for (const s of snapshotDir === undefined ? [] : await listSnapshots(snapshotDir)) {
    try {
      const data = await readSnapshotFile(s.path);
      if (canonical(data.definitionJson) !== canonical(configJson)) throw new Error('written for another exchange definition');
      if (data.seq < firstSeq - 1) throw new Error(`covers seq ${data.seq}, but the journal starts at ${firstSeq}`);
      snapshot = { data, path: s.path };
      break;
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      skipped.push({ path: s.path, reason });
      log(`restart: skipping snapshot ${s.path}: ${reason}`);
    }
  }
  if (snapshot === undefined && firstSeq > 1) {
    throw new ConfigError(`engine.journal: ${segments[0]!.path} starts at seq ${firstSeq} and no usable snapshot covers the records `
      + 'before it: restore the snapshot directory or the deleted segments');
  }
  return { definition, segments, snapshot, skipped, repaired };
}

/**
 * Reopens the active file for appending after `lastSeq` (creating it after an interrupted rotation) and
 * attaches it to `sequencer`; without `fsync` nothing is reopened (a read-only restart).
 */
async function reopen(plan: RestartPlan, journalPath: string, lastSeq: number, fsync: FsyncPolicy | undefined,
  sequencer: { attach(j: JournalWriter): void }): Promise<JournalWriter | undefined> {
  if (fsync === undefined) return undefined;
  const last = plan.segments.at(-1)!;
  const header = { ...last.header, firstSeq: last.active ? last.firstSeq : lastSeq + 1 };
  const journal = await JournalWriter.open(journalPath, header, fsync, lastSeq);
  sequencer.attach(journal);
  return journal;
}

/** Rebuilds an inline engine from `plan` and attaches the reopened journal. @allocates */
export async function restartInline(plan: RestartPlan, journalPath: string, clock: Clock, fsync: FsyncPolicy | undefined):
  Promise<{ engine: InlineEngine; journal: JournalWriter | undefined; report: RestartReport }> {
  const snap = plan.snapshot?.data;
  const engine = snap !== undefined ? restoreEngine(snap, { clock }) : new InlineEngine(plan.definition, { clock });
  const after = snap?.seq ?? 0;
  let replayed = 0;
  let lastSeq = after;
  let lastTimeUs = snap === undefined ? 0 : lastRecordTime(snap);
  const cmd = new Command();
  await readSegments(plan.segments, (c) => {
    if (c.seq <= after) return;
    engine.apply(cmd.copyFrom(c));
    replayed++;
    lastSeq = c.seq;
    lastTimeUs = c.time;
  });
  engine.sequencer.resumeAfter(lastSeq);
  const journal = await reopen(plan, journalPath, lastSeq, fsync, engine.sequencer);
  return { engine, journal, report: { replayed, lastSeq, lastTimeUs, snapshotSeq: snap?.seq } };
}

/**
 * Rebuilds a threaded engine from `plan` (shards start with the snapshot's books), replaying through its own
 * pipeline with backpressure, and a depth mirror kept along; attaches the reopened journal. @allocates
 */
export async function restartThreaded(plan: RestartPlan, journalPath: string, clock: Clock, fsync: FsyncPolicy | undefined,
  options: Omit<ThreadedEngineOptions, 'clock' | 'journal' | 'snapshot'>):
  Promise<{ engine: ThreadedEngine; mirror: BookMirror; journal: JournalWriter | undefined; report: RestartReport }> {
  const snap = plan.snapshot?.data;
  const engine = ThreadedEngine.start(plan.definition, { ...options, clock, snapshot: snap });
  const mirror = new BookMirror(bookMarketSpecs(plan.definition).length);
  if (snap !== undefined) snap.books.forEach((b, m) => mirror.restore(m, b));
  const after = snap?.seq ?? 0;
  let replayed = 0;
  let lastSeq = after;
  let lastTimeUs = snap === undefined ? 0 : lastRecordTime(snap);
  const observe = (code: ResultCode, c: Command, events: Parameters<BookMirror['apply']>[1]): void => {
    if (code === ResultCode.Ok) mirror.apply(c, events, engine.exchange.orders);
  };
  // Records that found the intake full wait here until the end of their chunk.
  const overflow: Command[] = [];
  try {
    await readSegments(plan.segments, (c) => {
      if (c.seq <= after) return;
      replayed++;
      lastSeq = c.seq;
      lastTimeUs = c.time;
      if (overflow.length > 0 || engine.submitReplayed(c, observe) === ResultCode.Busy) overflow.push(new Command().copyFrom(c));
    }, {
      chunkBytes: 256 << 10,
      afterChunk: async () => {
        await engine.run();
        for (const c of overflow.splice(0)) while (engine.submitReplayed(c, observe) === ResultCode.Busy) await engine.run();
      },
    });
    await engine.run();
  } catch (e) {
    await engine.close();
    throw e;
  }
  engine.sequencer.resumeAfter(lastSeq);
  const journal = await reopen(plan, journalPath, lastSeq, fsync, engine.sequencer);
  return { engine, mirror, journal, report: { replayed, lastSeq, lastTimeUs, snapshotSeq: snap?.seq } };
}

/** The newest time a snapshot holds: its latest order update or trade (the engine clock had reached it). */
function lastRecordTime(s: SnapshotData): number {
  let t = 0;
  for (const u of s.exchange.orders.updateTime) if (u > t) t = u;
  for (const u of s.exchange.trades.time) if (u > t) t = u;
  return t;
}
