/**
 * A journal in segments. The active segment is the configured path; a rotation (after a snapshot,
 * writer.ts `rotate`) renames it to `<path>.<seq of its first record, 16 digits>` and starts a new file at
 * the path whose header's `firstSeq` is the next record's. Segments never split a group, and each holds the
 * seqs that follow its predecessor's: reading them in order is reading one journal.
 *
 * Retention: once a snapshot covers every record of an archived segment, the segment may be deleted
 * (`pruneSegments`); a journal whose first segment starts after seq 1 needs a snapshot that covers what
 * came before it.
 */
import { open, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { JournalHeaderData } from '../../protocol/codec.js';
import { JournalFormatError, MAGIC, readU32 } from './format.js';
import { type JournalReport, type ReadOptions, readFileStart } from './reader.js';
import { readJournalAuto } from './pipelined-reader.js';
import type { Command } from '../../core/command.js';

export const SEGMENT_DIGITS = 16;

/** The name an archived segment of `path` whose first record has `firstSeq` takes. */
export const archivedPath = (path: string, firstSeq: number): string => `${path}.${String(firstSeq).padStart(SEGMENT_DIGITS, '0')}`;

export interface Segment {
  readonly path: string;
  readonly header: JournalHeaderData;
  /** Seq of its first record (its header's). */
  readonly firstSeq: number;
  /** The file new records are appended to (the configured path). */
  readonly active: boolean;
}

async function headerOf(path: string): Promise<JournalHeaderData> {
  const fh = await open(path, 'r');
  try {
    return (await readFileStart(fh, path)).header;
  } finally {
    await fh.close();
  }
}

async function sizeOf(path: string): Promise<number> {
  const fh = await open(path, 'r').catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  });
  if (fh === undefined) return -1;
  try {
    return (await fh.stat()).size;
  } finally {
    await fh.close();
  }
}

/** Archived segments of the journal at `path`, oldest first, then the active file when it exists and is not empty. */
export async function listSegments(path: string): Promise<Segment[]> {
  const dir = dirname(path);
  const base = basename(path);
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d{${SEGMENT_DIGITS}})$`);
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const out: Segment[] = [];
  for (const name of names.filter((n) => pattern.test(n)).sort()) {
    const p = join(dir, name);
    const header = await headerOf(p);
    out.push({ path: p, header, firstSeq: header.firstSeq ?? 1, active: false });
  }
  if (await sizeOf(path) > 0) {
    const header = await headerOf(path);
    out.push({ path, header, firstSeq: header.firstSeq ?? 1, active: true });
  }
  return out;
}

/** True when the file at `path` starts with the journal magic. */
async function isJournal(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const b = new Uint8Array(4);
    const { bytesRead } = await fh.read(b, 0, 4, 0);
    return bytesRead === 4 && readU32(b, 0) === MAGIC;
  } catch {
    return false;
  } finally {
    await fh.close();
  }
}

/**
 * The segments of the one journal in directory `dir` (every journal file there, by first seq; the last one is
 * taken as active). Throws JournalFormatError when there is none, or when files of different journals (other
 * exchange definitions) are mixed.
 */
export async function segmentsIn(dir: string): Promise<Segment[]> {
  const found: Segment[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const p = join(dir, name);
    if (!(await isJournal(p))) continue;
    const header = await headerOf(p);
    found.push({ path: p, header, firstSeq: header.firstSeq ?? 1, active: false });
  }
  if (found.length === 0) throw new JournalFormatError(`${dir}: no journal files in this directory`);
  const config = found[0]!.header.configJson;
  if (found.some((s) => s.header.configJson !== config)) throw new JournalFormatError(`${dir}: holds files of more than one journal`);
  found.sort((a, b) => a.firstSeq - b.firstSeq);
  return found.map((s, i) => (i === found.length - 1 ? { ...s, active: true } : s));
}

/**
 * Streams every record of `segments`, in order, to `onCommand`. Consecutive segments must hold consecutive
 * seqs (a gap is a missing segment: JournalFormatError). Only the last segment may end damaged (a torn
 * tail: reported, as `readJournal` does); a defect in an earlier one throws. The report is the last
 * segment's, with `records` counting every segment's.
 */
export async function readSegments(segments: readonly Segment[], onCommand: (cmd: Command) => void, options: ReadOptions = {}): Promise<JournalReport> {
  let expected = segments[0]?.firstSeq ?? 1;
  let total = 0;
  let last: JournalReport | undefined;
  for (const [i, s] of segments.entries()) {
    if (s.firstSeq !== expected) {
      throw new JournalFormatError(`${s.path}: starts at seq ${s.firstSeq}, but the segments before it end at ${expected - 1} (a segment is missing)`);
    }
    let next = expected;
    const report = await readJournalAuto(s.path, (c) => {
      if (c.seq !== next) throw new JournalFormatError(`${s.path}: record seq ${c.seq} where ${next} was expected`);
      next++;
      onCommand(c);
    }, options);
    if (report.reason !== undefined && i < segments.length - 1) {
      throw new JournalFormatError(`${s.path}: damaged at byte ${report.truncatedAt} (${report.reason}) though later segments follow it`);
    }
    total += report.records;
    expected = next;
    last = report;
  }
  if (last === undefined) throw new JournalFormatError('no journal segments');
  return { ...last, records: total };
}

/** Deletes the archived segments of `path` whose records are all at or below `coveredSeq`; returns their paths. */
export async function pruneSegments(path: string, coveredSeq: number): Promise<string[]> {
  const segments = await listSegments(path);
  const deleted: string[] = [];
  for (let i = 0; i + 1 < segments.length; i++) {
    const s = segments[i]!;
    if (s.active || segments[i + 1]!.firstSeq - 1 > coveredSeq) break;
    await rm(s.path);
    deleted.push(s.path);
  }
  return deleted;
}
