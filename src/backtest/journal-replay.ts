/**
 * Order-flow replay of our own journal: every record goes through a fresh inline engine (R1, book, R2) with
 * its recorded sequence number and time, so the replay ends at the live run's state hash. The journal header
 * carries the exchange definition, so the file alone is enough.
 *
 * Reading is streamed in 4 MiB chunks, the next read in flight while one is replayed (never the whole file); each frame's CRC-32 is checked and a torn or
 * corrupt tail ends the replay at the last whole record (reported, as recovery does). Journal groups
 * (journal/format.ts) are all or nothing, as in recovery: a group's records are applied once its last frame is
 * read, and a file that ends inside a group ends before it. Per record: one CRC pass, one FlatBuffers decode
 * into a reused Command, one engine step; no allocation except order labels and a copy per record of a group.
 */
import { open } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { Command, CommandType } from '../core/command.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { ResultCode } from '../core/result-code.js';
import { SimClock } from '../core/clock.js';
import { InlineEngine } from '../engine/inline-engine.js';
import { crc32 } from '../engine/journal/crc32.js';
import { FRAME_BYTES, GROUP_CONTINUES, LENGTH_MASK, MAX_RECORD_BYTES, readU32, type JournalDefect } from '../engine/journal/format.js';
import { readFileStart } from '../engine/journal/reader.js';
import { decodeRecord } from '../protocol/codec.js';
import type { Progress } from './progress.js';
import { makeReport, type ReplayReport } from './report.js';

const CHUNK = 4 << 20;

const TYPE_NAMES: Readonly<Record<number, string>> = {
  [CommandType.PlaceOrder]: 'place', [CommandType.AmendOrder]: 'amend', [CommandType.CancelOrder]: 'cancel',
  [CommandType.CancelAll]: 'cancel_all', [CommandType.Credit]: 'credit', [CommandType.Debit]: 'debit',
  [CommandType.Transfer]: 'transfer',
};

export interface JournalReplayResult {
  readonly engine: InlineEngine;
  readonly report: ReplayReport;
}

/** Replays the journal at `path`; `progress` is ticked per record. @allocates (engine, report) */
export async function replayJournal(path: string, progressSink?: Progress): Promise<JournalReplayResult> {
  const progress = progressSink?.active === true ? progressSink : undefined;
  let fileBytes = 1;
  let consumed = 0;
  let pos = 0;
  const fraction = (): number => (consumed + pos) / fileBytes;
  const fh = await open(path, 'r');
  try {
    fileBytes = (await fh.stat()).size;
    const { header, end } = await readFileStart(fh, path);
    const definition = JSON.parse(header.configJson) as ExchangeDefinition;
    const engine = new InlineEngine(definition, { clock: new SimClock(0) });
    const cmd = new Command();
    const byType = new Float64Array(16);
    let rejected = 0;
    let firstTime = -1;
    // Two read buffers: the next chunk is read while this one is replayed (the engine never waits on disk).
    const reads = [new Uint8Array(CHUNK), new Uint8Array(CHUNK)];
    const readInto = (b: Uint8Array, at: number): Promise<number> =>
      at >= fileBytes ? Promise.resolve(0) : fh.read(b, 0, Math.min(b.length, fileBytes - at), at).then((r) => r.bytesRead);
    let buf = new Uint8Array(2 * CHUNK);
    let have = 0;
    let filePos = end;
    let records = 0;
    let which = 0;
    consumed = end;
    let reason: JournalDefect | undefined;
    /** Records of a group whose last frame is not read yet (copies); end of the last record applied (file offset). */
    const group: Command[] = [];
    let valid = end;
    let lastSeq = 0;
    let lastTime = 0;
    const apply = (c: Command): void => {
      if (firstTime < 0) firstTime = c.time;
      byType[c.type & 15]!++;
      if (engine.apply(c) !== ResultCode.Ok) rejected++;
      records++;
      lastSeq = c.seq;
      lastTime = c.time;
    };
    let pending = readInto(reads[0]!, filePos);
    const t0 = performance.now();
    for (;;) {
      const n = await pending;
      const chunk = reads[which]!;
      filePos += n;
      which ^= 1;
      pending = readInto(reads[which]!, filePos);
      if (n === 0) { if (have > 0) reason = 'torn'; break; }
      if (have + n > buf.length) {
        const bigger = new Uint8Array(have + n);
        bigger.set(buf.subarray(0, have));
        buf = bigger;
      }
      buf.set(chunk.subarray(0, n), have);
      have += n;
      while (have - pos >= FRAME_BYTES) {
        const word = readU32(buf, pos);
        const len = (word & LENGTH_MASK) >>> 0;
        if (len === 0 || len > MAX_RECORD_BYTES) { reason = 'bad-length'; break; }
        const p = pos + FRAME_BYTES;
        if (have - p < len) break;
        if (crc32(buf, p, p + len) !== readU32(buf, pos + 4)) { reason = 'checksum'; break; }
        if (!decodeRecord(buf, cmd, p)) { reason = 'undecodable'; break; }
        pos = p + len;
        if ((word & GROUP_CONTINUES) !== 0) {
          group.push(new Command().copyFrom(cmd));
          continue;
        }
        for (const g of group) apply(g);
        group.length = 0;
        apply(cmd);
        valid = consumed + pos;
        progress?.tick(records, fraction);
      }
      if (reason !== undefined) break;
      consumed += pos;
      buf.copyWithin(0, pos, have);
      have -= pos;
      pos = 0;
    }
    await pending;
    if (group.length > 0) reason ??= 'group';
    const wallMs = performance.now() - t0;
    progress?.done(records);
    engine.sequencer.resumeAfter(lastSeq);
    const commands: Record<string, number> = {};
    for (const [t, name] of Object.entries(TYPE_NAMES)) commands[name] = byType[Number(t)]!;
    const stateHash = engine.stateHash();
    const result = {
      journal: { file_bytes: fileBytes, valid_bytes: valid, records, ...(reason === undefined ? {} : { truncated_at: valid, defect: reason }) },
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
  } finally {
    await fh.close();
  }
}
