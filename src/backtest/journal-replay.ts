/**
 * Order-flow replay of our own journal: every record goes through a fresh inline engine (R1, book, R2) with
 * its recorded sequence number and time, so the replay ends at the live run's state hash. The journal header
 * carries the exchange definition, so the files alone are enough.
 *
 * Input: a journal file (with its archived segments beside it, `<file>.<first seq>`, read first: see
 * engine/journal/segments.ts), or a directory holding one journal's segments. When the first segment starts
 * after seq 1 (older segments were pruned), the replay starts from the newest snapshot that covers the gap
 * (in `<file>.snapshots/`, or in the directory) and replays the records after it.
 *
 * Reading is streamed (never a whole file), through a decode worker for large segments (engine/journal/
 * pipelined-reader.ts: this thread only applies); each frame's CRC-32 is checked; a torn or corrupt tail of the
 * last segment ends the replay at the last whole record (reported, as recovery does), a defect or a gap
 * elsewhere is an error. Per record: one CRC pass and one FlatBuffers decode (on the worker for large
 * segments), one engine step; no allocation except order labels (and a group's records, held until the group is
 * whole).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CommandType } from '../core/command.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { ResultCode } from '../core/result-code.js';
import { SimClock } from '../core/clock.js';
import { InlineEngine } from '../engine/inline-engine.js';
import { JournalFormatError } from '../engine/journal/format.js';
import { readJournalAuto } from '../engine/journal/pipelined-reader.js';
import { listSegments, type Segment, segmentsIn } from '../engine/journal/segments.js';
import { restoreEngine } from '../engine/snapshot/capture.js';
import { listSnapshots, readSnapshotFile } from '../engine/snapshot/snapshot-file.js';
import type { Progress } from './progress.js';
import { makeReport, type ReplayReport } from './report.js';

const TYPE_NAMES: Readonly<Record<number, string>> = {
  [CommandType.PlaceOrder]: 'place', [CommandType.AmendOrder]: 'amend', [CommandType.CancelOrder]: 'cancel',
  [CommandType.CancelAll]: 'cancel_all', [CommandType.Credit]: 'credit', [CommandType.Debit]: 'debit',
  [CommandType.Transfer]: 'transfer',
};

export interface JournalReplayResult {
  readonly engine: InlineEngine;
  readonly report: ReplayReport;
}

/** The segments `path` names (a file and its archived siblings, or a directory) and where snapshots would be. */
async function layout(path: string): Promise<{ segments: Segment[]; snapshotDirs: string[] }> {
  if ((await stat(path)).isDirectory()) return { segments: await segmentsIn(path), snapshotDirs: [path, join(path, 'snapshots')] };
  const segments = await listSegments(path);
  if (segments.length === 0) throw new JournalFormatError(`${path}: empty journal file`);
  return { segments, snapshotDirs: [`${path}.snapshots`] };
}

/** The engine to replay into: fresh, or the newest snapshot covering what precedes the first segment. */
async function startingEngine(segments: readonly Segment[], snapshotDirs: readonly string[]): Promise<{ engine: InlineEngine; after: number }> {
  const first = segments[0]!;
  const definition = JSON.parse(first.header.configJson) as ExchangeDefinition;
  if (first.firstSeq <= 1) return { engine: new InlineEngine(definition, { clock: new SimClock(0) }), after: 0 };
  const canonical = JSON.stringify(definition);
  for (const dir of snapshotDirs) {
    for (const s of await listSnapshots(dir)) {
      if (s.seq < first.firstSeq - 1) continue;
      try {
        const data = await readSnapshotFile(s.path);
        if (JSON.stringify(JSON.parse(data.definitionJson)) !== canonical) continue;
        return { engine: restoreEngine(data), after: data.seq };
      } catch {
        // A damaged snapshot: try an older one.
      }
    }
  }
  throw new JournalFormatError(`${first.path}: the journal starts at seq ${first.firstSeq} and no snapshot covers what came before `
    + `(looked in ${snapshotDirs.join(', ')})`);
}

/**
 * Replays the journal at `path` (a file or a directory of segments); `progress` is ticked per record. With
 * `untilSeq`, records after that seq are read but not applied (the state a live server reported at that seq).
 * @allocates
 */
export async function replayJournal(path: string, progressSink?: Progress, options: { untilSeq?: number } = {}): Promise<JournalReplayResult> {
  const until = options.untilSeq ?? Number.POSITIVE_INFINITY;
  const progress = progressSink?.active === true ? progressSink : undefined;
  const { segments, snapshotDirs } = await layout(path);
  const { engine, after } = await startingEngine(segments, snapshotDirs);
  const header = segments[0]!.header;
  let totalBytes = 0;
  for (const s of segments) totalBytes += (await stat(s.path)).size;
  let doneBytes = 0;
  let lastSeq = after;
  let lastTime = 0;
  let firstTime = -1;
  let rejected = 0;
  let records = 0;
  /** Records by command type (types are below 64). */
  const byType = new Float64Array(64);
  const t0 = performance.now();
  let last: { validBytes: number; fileBytes: number; reason: string | undefined } = { validBytes: 0, fileBytes: 0, reason: undefined };
  for (const [i, seg] of segments.entries()) {
    if (lastSeq < until && seg.firstSeq !== lastSeq + 1 && !(lastSeq === after && seg.firstSeq <= after + 1)) {
      throw new JournalFormatError(`${seg.path}: starts at seq ${seg.firstSeq}, but what came before ends at ${lastSeq} (a segment is missing)`);
    }
    const r = await readJournalAuto(seg.path, (c, end) => {
      if (c.seq <= after || c.seq > until) return;
      if (c.seq !== lastSeq + 1) throw new JournalFormatError(`${seg.path}: record seq ${c.seq} where ${lastSeq + 1} was expected`);
      if (firstTime < 0) firstTime = c.time;
      byType[c.type & 63]!++;
      if (engine.apply(c) !== ResultCode.Ok) rejected++;
      lastSeq = c.seq;
      lastTime = c.time;
      records++;
      progress?.tick(records, () => (doneBytes + end) / Math.max(1, totalBytes));
    });
    if (r.reason !== undefined && i < segments.length - 1) {
      throw new JournalFormatError(`${seg.path}: damaged at byte ${r.validBytes} (${r.reason}) though later segments follow it`);
    }
    doneBytes += r.fileBytes;
    last = { validBytes: r.validBytes, fileBytes: r.fileBytes, reason: r.reason };
  }
  const wallMs = performance.now() - t0;
  progress?.done(records);
  engine.sequencer.resumeAfter(lastSeq);
  const commands: Record<string, number> = {};
  for (const [t, name] of Object.entries(TYPE_NAMES)) commands[name] = byType[Number(t)]!;
  const stateHash = engine.stateHash();
  const result = {
    journal: {
      file_bytes: last.fileBytes, valid_bytes: last.validBytes, records,
      ...(segments.length > 1 ? { segments: segments.length } : {}),
      ...(after > 0 ? { snapshot_seq: after } : {}),
      ...(last.reason === undefined ? {} : { truncated_at: last.validBytes, defect: last.reason }),
    },
    markets: header.markets.map((m) => m.id),
    commands,
    rejected,
    last_seq: lastSeq,
    first_time_us: Math.max(firstTime, 0),
    last_time_us: lastTime,
    orders_issued: engine.exchange.lastOrderId,
    trades: engine.exchange.trades.count,
    open_orders: engine.exchange.orders.openCount,
  };
  return { engine, report: makeReport('journal', records, stateHash, result, wallMs) };
}
