/**
 * Recovery from a journal: rebuilds the exchange its header defines and replays every whole record through
 * the inline runner, in sequence order, with the recorded times. A torn or corrupt tail stops the replay at
 * the last whole record (the report says where and why; `repair` also truncates the file there), so a crash
 * mid-write loses only commands that were never acknowledged.
 *
 * `recover` starts from the newest snapshot that checks (./snapshot) and replays only the journal records
 * after its sequence number (restart.ts, over every journal segment); snapshots that fail their checksum,
 * cannot be decoded or belong to another exchange definition are skipped (logged and reported), down to a
 * full replay when none is usable.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { SimClock } from '../core/clock.js';
import { Command } from '../core/command.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import type { JournalHeaderData } from '../protocol/codec.js';
import { type BookFactory, InlineEngine } from './inline-engine.js';
import { type JournalReport, readFileStart, repairJournal } from './journal/reader.js';
import { readJournalAuto } from './journal/pipelined-reader.js';
import { JournalFormatError } from './journal/format.js';
import { planRestart, restartInline } from './restart.js';

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
  const report = withDefect(await readJournalAuto(path, (c) => {
    engine.apply(cmd.copyFrom(c));
  }), repaired);
  engine.sequencer.resumeAfter(cmd.seq);
  return { engine, report, definition };
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

export interface SnapshotRecovered {
  readonly engine: InlineEngine;
  readonly definition: ExchangeDefinition;
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
  /** Where skipped snapshots are reported; default console.warn. */
  readonly log?: (message: string) => void;
}

/**
 * Newest valid snapshot + journal tail (restart.ts), read-only: no journal is reopened. `target` is a
 * directory holding both the snapshots and `journal.log` (and its archived segments), or the two locations.
 * The engine's sequencer continues after the last record. @allocates
 */
export async function recover(target: string | { snapshotDir: string; journalPath: string },
  options: RecoverOptions = {}): Promise<SnapshotRecovered> {
  const { snapshotDir, journalPath } = typeof target === 'string' ? { snapshotDir: target, journalPath: join(target, JOURNAL_FILE) } : target;
  const log = options.log ?? ((m: string) => console.warn(m));
  const plan = await planRestart(journalPath, snapshotDir, log, { repair: options.repair === true });
  if (plan === undefined) throw new JournalFormatError(`${journalPath}: no journal`);
  const r = await restartInline(plan, journalPath, new SimClock(0), undefined);
  const snapshot = plan.snapshot === undefined ? undefined : { path: plan.snapshot.path, seq: plan.snapshot.data.seq };
  const base = { engine: r.engine, definition: plan.definition, skipped: plan.skipped, replayed: r.report.replayed };
  return snapshot === undefined ? base : { ...base, snapshot };
}
