/**
 * Journal reading and repair (format in ./format.ts).
 *
 * `readJournal` streams the file in chunks (default 1 MiB, grown only to fit one record larger than a
 * chunk), never the whole file. It hands each whole record to `onCommand` in file order and stops at the
 * first frame that is not whole, REPORTING where and why (`truncatedAt`, `reason`) instead of throwing:
 * a torn tail is the normal result of a crash between write and fsync. Only an untrustworthy beginning
 * (magic, version, header) throws JournalFormatError, since then nothing in the file has meaning.
 *
 * `onCommand` receives one reused Command, overwritten by the next record: copy what must outlive the
 * call. Cost per record: one CRC-32 pass and one FlatBuffers decode into the reused Command; no
 * allocation except a non-empty `text` (and a copy of each record of a group, held until the group is
 * whole). A group (format.ts) is handed out only whole; a file that ends inside one is cut before it
 * (reason 'group').
 *
 * `repairJournal` cuts the file at the end of the valid prefix (and fsyncs it), so that a JournalWriter
 * can append after it; the caller logs what was cut from the returned report.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Command } from '../../core/command.js';
import { decodeHeader, decodeRecord } from '../../protocol/codec.js';
import type { JournalHeaderData } from '../../protocol/codec.js';
import { crc32 } from './crc32.js';
import {
  FORMAT_VERSION, FRAME_BYTES, GROUP_CONTINUES, JournalFormatError, LENGTH_MASK, MAGIC, MAX_HEADER_BYTES, MAX_RECORD_BYTES,
  PREAMBLE_BYTES, readU32,
} from './format.js';
import type { JournalDefect } from './format.js';

export interface JournalReport {
  readonly header: JournalHeaderData;
  /** Whole records read (and handed to onCommand). */
  readonly records: number;
  /** Length of the valid prefix: preamble, header and `records` whole records. */
  readonly validBytes: number;
  /** File size when reading started. */
  readonly fileBytes: number;
  /** Offset of the first frame that is not whole (= validBytes); absent when the whole file is valid. */
  readonly truncatedAt?: number;
  readonly reason?: JournalDefect;
}

/**
 * Told of each record: the reused Command (valid during the call) and the file offset just after it (a group's
 * records all get the offset after the group).
 */
export type RecordCallback = (cmd: Command, end: number) => void;

export interface ReadOptions {
  /** Bytes read per chunk; default 1 MiB. */
  readonly chunkBytes?: number;
  /** Awaited after the records of each chunk were handed out (a consumer that applies them asynchronously). */
  readonly afterChunk?: () => Promise<void>;
}

async function readExactly(fh: FileHandle, buf: Uint8Array, at: number): Promise<boolean> {
  let done = 0;
  while (done < buf.length) {
    const { bytesRead } = await fh.read(buf, done, buf.length - done, at + done);
    if (bytesRead === 0) return false;
    done += bytesRead;
  }
  return true;
}

/** Validates magic, version and header frame; returns the header and the offset of the first record. */
export async function readFileStart(fh: FileHandle, path: string): Promise<{ header: JournalHeaderData; end: number }> {
  const head = new Uint8Array(PREAMBLE_BYTES + FRAME_BYTES);
  if (!(await readExactly(fh, head, 0))) throw new JournalFormatError(`${path}: shorter than a journal preamble`);
  if (readU32(head, 0) !== MAGIC) throw new JournalFormatError(`${path}: not a journal (bad magic)`);
  const version = readU32(head, 4);
  if (version !== FORMAT_VERSION) throw new JournalFormatError(`${path}: format version ${version}, expected ${FORMAT_VERSION}`);
  const len = readU32(head, PREAMBLE_BYTES);
  if (len === 0 || len > MAX_HEADER_BYTES) throw new JournalFormatError(`${path}: header length ${len} out of range`);
  const payload = new Uint8Array(len);
  const start = PREAMBLE_BYTES + FRAME_BYTES;
  if (!(await readExactly(fh, payload, start))) throw new JournalFormatError(`${path}: torn header`);
  if (crc32(payload, 0, len) !== readU32(head, PREAMBLE_BYTES + 4)) throw new JournalFormatError(`${path}: header checksum mismatch`);
  const header = decodeHeader(payload);
  if (header.formatVersion !== FORMAT_VERSION) throw new JournalFormatError(`${path}: header format version ${header.formatVersion}`);
  return { header, end: start + len };
}

/**
 * Parses record frames out of a buffer its owner fills with consecutive bytes of a journal (streamed reads):
 * CRC and decode per frame, groups held until whole (format.ts). Shared by `readJournal` and the replay
 * tool, so every reader of the format agrees on what is valid.
 *
 * `scan(buf, pos, have, base, onCommand)` parses the whole frames in `buf[pos, have)` (`base` = the file
 * offset of `buf[0]`) and returns the position after the last frame it consumed; on a defect it sets
 * `reason` and stops. `finish()` at the end of the file (or after a defect) settles a group left open.
 * `validEnd` is the file offset after the last record handed out; `records` how many were.
 */
export class RecordScanner {
  readonly #cmd = new Command();
  readonly #group: Command[] = [];
  #groupStart = 0;
  records = 0;
  validEnd: number;
  reason: JournalDefect | undefined;

  /** `start`: the file offset of the first record (after the header). */
  constructor(start: number) {
    this.validEnd = start;
  }

  /** The last record decoded (valid until the next scan). */
  get last(): Command {
    return this.#cmd;
  }

  scan(buf: Uint8Array, pos: number, have: number, base: number, onCommand: RecordCallback | undefined): number {
    const cmd = this.#cmd;
    const group = this.#group;
    while (have - pos >= FRAME_BYTES) {
      const word = readU32(buf, pos);
      const len = (word & LENGTH_MASK) >>> 0;
      if (len === 0 || len > MAX_RECORD_BYTES) { this.reason = 'bad-length'; break; }
      const p = pos + FRAME_BYTES;
      if (have - p < len) break;
      if (crc32(buf, p, p + len) !== readU32(buf, pos + 4)) { this.reason = 'checksum'; break; }
      if (!decodeRecord(buf, cmd, p)) { this.reason = 'undecodable'; break; }
      if ((word & GROUP_CONTINUES) !== 0) {
        if (group.length === 0) this.#groupStart = base + pos;
        group.push(new Command().copyFrom(cmd));
      } else {
        const after = base + p + len;
        if (group.length > 0) {
          for (const g of group) onCommand?.(g, after);
          this.records += group.length;
          group.length = 0;
        }
        onCommand?.(cmd, after);
        this.records++;
        this.validEnd = base + p + len;
      }
      pos = p + len;
    }
    return pos;
  }

  /** Ends the scan: a group still open is cut (reason 'group'; the valid prefix ends before it). */
  finish(): void {
    if (this.#group.length === 0) return;
    if (this.reason === undefined || this.reason === 'torn') this.reason = 'group';
    this.validEnd = this.#groupStart;
    this.#group.length = 0;
  }
}

/** Streams the records of the journal at `path` to `onCommand`; reports the valid prefix. */
export async function readJournal(
  path: string,
  onCommand?: RecordCallback,
  options: ReadOptions = {},
): Promise<JournalReport> {
  const fh = await open(path, 'r');
  try {
    const fileBytes = (await fh.stat()).size;
    const { header, end } = await readFileStart(fh, path);
    const scanner = new RecordScanner(end);
    await scanRecords(fh, fileBytes, scanner, onCommand, options);
    const { records, validEnd: validBytes, reason } = scanner;
    return reason === undefined
      ? { header, records, validBytes, fileBytes }
      : { header, records, validBytes, fileBytes, truncatedAt: validBytes, reason };
  } finally {
    await fh.close();
  }
}

/**
 * The read loop of `readJournal`: the records of `fh` (of `fileBytes`) from the scanner's start, in chunks,
 * through `scanner` to `onCommand`; ends with `scanner.finish()` (its fields are the result). The decode
 * worker (decode.worker.ts) runs the same loop.
 */
export async function scanRecords(fh: FileHandle, fileBytes: number, scanner: RecordScanner, onCommand: RecordCallback | undefined,
  options: ReadOptions = {}): Promise<void> {
  let buf = new Uint8Array(Math.max(options.chunkBytes ?? 1 << 20, 64));
  let bufStart = scanner.validEnd;
  let have = 0;
  let pos = 0;
  let filePos = scanner.validEnd;
  for (;;) {
    pos = scanner.scan(buf, pos, have, bufStart, onCommand);
    if (options.afterChunk !== undefined) await options.afterChunk();
    if (scanner.reason !== undefined) break;
    if (filePos >= fileBytes) {
      if (pos < have) scanner.reason = 'torn';
      break;
    }
    buf.copyWithin(0, pos, have);
    bufStart += pos;
    have -= pos;
    pos = 0;
    if (have >= FRAME_BYTES) {
      // The scan stopped at this frame for want of bytes, so its length is already in range.
      const need = FRAME_BYTES + ((readU32(buf, 0) & LENGTH_MASK) >>> 0);
      if (need > buf.length) {
        const bigger = new Uint8Array(need);
        bigger.set(buf.subarray(0, have));
        buf = bigger;
      }
    }
    const { bytesRead } = await fh.read(buf, have, Math.min(buf.length - have, fileBytes - filePos), filePos);
    if (bytesRead === 0) {
      if (have > 0) scanner.reason = 'torn';
      break;
    }
    have += bytesRead;
    filePos += bytesRead;
  }
  scanner.finish();
}

/**
 * Truncates the journal at `path` to its valid prefix and fsyncs it; returns the report of the read
 * (with `truncatedAt`/`reason` when something was cut). Throws JournalFormatError if the start is bad.
 */
export async function repairJournal(path: string, options: ReadOptions = {}): Promise<JournalReport> {
  const report = await readJournal(path, undefined, options);
  if (report.truncatedAt !== undefined) {
    const fh = await open(path, 'r+');
    try {
      await fh.truncate(report.validBytes);
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }
  return report;
}
