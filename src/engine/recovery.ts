/**
 * Recovery from a journal: rebuilds the exchange its header defines and replays every whole record through
 * the inline runner, in sequence order, with the recorded times. A torn or corrupt tail stops the replay at
 * the last whole record (the report says where and why; `repair` also truncates the file there), so a crash
 * mid-write loses only commands that were never acknowledged.
 *
 * `recover` starts from the newest snapshot that checks (./snapshot) and replays only the journal records
 * after its sequence number; snapshots that fail their checksum, cannot be decoded or belong to another
 * exchange definition are skipped (logged and reported), down to a full replay when none is usable.
 */
import { open, stat } from 'node:fs/promises';
import type { Clock } from '../core/clock.js';
import { join } from 'node:path';
import { SimClock } from '../core/clock.js';
import { Command } from '../core/command.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import type { JournalHeaderData } from '../protocol/codec.js';
import { type BookFactory, InlineEngine } from './inline-engine.js';
import { type JournalReport, readFileStart, readJournal, repairJournal } from './journal/reader.js';
import { type FsyncPolicy, JournalWriter } from './journal/writer.js';
import { restoreEngine } from './snapshot/capture.js';
import { listSnapshots, readSnapshotFile } from './snapshot/snapshot-file.js';

export interface Recovered {
  readonly engine: InlineEngine;
  readonly report: JournalReport;
  readonly definition: ExchangeDefinition;
}

/** The journal header for an exchange definition (the whole definition travels in `configJson`). */
export function headerFor(def: ExchangeDefinition, createdTime: number): JournalHeaderData {
  return { formatVersion: 1, createdTime, markets: def.markets, currencies: def.currencies, configJson: JSON.stringify(def) };
}

/** Reads a journal's header. @allocates */
export async function readHeader(path: string): Promise<JournalHeaderData> {
  const fh = await open(path, 'r');
  try {
    return (await readFileStart(fh, path)).header;
  } finally {
    await fh.close();
  }
}

/**
 * Replays `path` into a fresh inline engine (no journal attached; its sequencer continues after the last
 * replayed record). With `repair`, a damaged tail is first truncated on disk.
 */
export async function recoverFromJournal(path: string, options: { repair?: boolean; bookFactory?: BookFactory } = {}): Promise<Recovered> {
  const repaired = options.repair === true ? await repairJournal(path) : undefined;
  const header = await readHeader(path);
  const definition = JSON.parse(header.configJson) as ExchangeDefinition;
  const engine = new InlineEngine(definition, { clock: new SimClock(0), bookFactory: options.bookFactory });
  const cmd = new Command();
  const report = withDefect(await readJournal(path, (c) => {
    engine.apply(cmd.copyFrom(c));
  }), repaired);
  engine.sequencer.resumeAfter(cmd.seq);
  return { engine, report, definition };
}

/**
 * Opens (or creates) the journal at `path` for an inline engine that keeps journaling: a new or empty file gets
 * `def`'s header; an existing one is repaired (a torn tail cut), replayed into a fresh engine with the recorded
 * times, and appended to afterwards. The caller compares `definition` with what it expected (a journal of
 * another exchange is not an error here). New commands take `clock`'s time.
 * @allocates
 */
export async function openInlineJournal(path: string, def: ExchangeDefinition, clock: Clock, policy: FsyncPolicy,
  bookFactory?: BookFactory): Promise<Recovered & { readonly journal: JournalWriter; readonly lastTimeUs: number }> {
  const size = await stat(path).then((s) => s.size, (e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  });
  const repaired = size > 0 ? await repairJournal(path) : undefined;
  const journal = await JournalWriter.open(path, headerFor(def, clock.nowUs()), policy);
  const definition = JSON.parse(journal.header.configJson) as ExchangeDefinition;
  const records: Command[] = [];
  const report = repaired === undefined ? undefined : await readJournal(path, (c) => { records.push(new Command().copyFrom(c)); });
  const last = records.at(-1);
  const engine = new InlineEngine(definition, { clock, journal, bookFactory, lastSeq: last?.seq ?? 0 });
  for (const c of records) engine.apply(c);
  const empty: JournalReport = { header: journal.header, records: 0, validBytes: 0, fileBytes: 0 };
  return { engine, report: withDefect(report ?? empty, repaired), definition, journal, lastTimeUs: last?.time ?? 0 };
}

/**
 * The report of a replay after a repair, keeping where and why the repair cut the tail (the replay itself then
 * reads a whole file and would report no defect).
 */
function withDefect(report: JournalReport, repaired: JournalReport | undefined): JournalReport {
  if (repaired?.truncatedAt === undefined) return report;
  return { ...report, fileBytes: repaired.fileBytes, truncatedAt: repaired.truncatedAt, ...(repaired.reason === undefined ? {} : { reason: repaired.reason }) };
}

/** The journal's file name inside a recovery directory given as a string. */
export const JOURNAL_FILE = 'journal.log';

export interface SnapshotRecovered extends Recovered {
  /** The snapshot recovery started from; absent when it replayed the whole journal. */
  readonly snapshot?: { readonly path: string; readonly seq: number };
  /** Newer snapshots that were not usable, and why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
  /** Journal records applied on top of the snapshot. */
  readonly replayed: number;
}

export interface RecoverOptions {
  /** Truncate a damaged journal tail on disk first. */
  readonly repair?: boolean;
  readonly bookFactory?: BookFactory;
  /** Where skipped snapshots are reported; default console.warn. */
  readonly log?: (message: string) => void;
}

const canonical = (json: string): string => JSON.stringify(JSON.parse(json));

/**
 * Newest valid snapshot + journal tail. `target` is a directory holding both the snapshots and
 * `journal.log`, or the two locations. The engine's sequencer continues after the last record. @allocates
 */
export async function recover(target: string | { snapshotDir: string; journalPath: string },
  options: RecoverOptions = {}): Promise<SnapshotRecovered> {
  const { snapshotDir, journalPath } = typeof target === 'string' ? { snapshotDir: target, journalPath: join(target, JOURNAL_FILE) } : target;
  const repaired = options.repair === true ? await repairJournal(journalPath) : undefined;
  const header = await readHeader(journalPath);
  const definition = JSON.parse(header.configJson) as ExchangeDefinition;
  const log = options.log ?? ((m: string) => console.warn(m));
  const skipped: { path: string; reason: string }[] = [];
  let engine: InlineEngine | undefined;
  let snapshot: { path: string; seq: number } | undefined;
  for (const s of await listSnapshots(snapshotDir)) {
    try {
      const data = await readSnapshotFile(s.path);
      if (canonical(data.definitionJson) !== canonical(header.configJson)) throw new Error('another exchange definition');
      engine = restoreEngine(data, { bookFactory: options.bookFactory });
      snapshot = { path: s.path, seq: data.seq };
      break;
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      skipped.push({ path: s.path, reason });
      log(`recovery: skipping snapshot ${s.path}: ${reason}`);
    }
  }
  engine ??= new InlineEngine(definition, { clock: new SimClock(0), bookFactory: options.bookFactory });
  const after = snapshot?.seq ?? 0;
  const cmd = new Command();
  let replayed = 0;
  let last = after;
  const report = withDefect(await readJournal(journalPath, (c) => {
    if (c.seq <= after) return;
    engine.apply(cmd.copyFrom(c));
    replayed++;
    last = c.seq;
  }), repaired);
  engine.sequencer.resumeAfter(last);
  const base = { engine, report, definition, skipped, replayed };
  return snapshot === undefined ? base : { ...base, snapshot };
}
