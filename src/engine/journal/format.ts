/**
 * Journal file format, version 1 (all integers little-endian):
 *
 *   offset 0   u32 magic 'RMJL' | u32 format version
 *   offset 8   frame(JournalHeader)        markets, currencies, config (schemas/journal.fbs)
 *   then       frame(JournalRecord)*       one Command each, in append (sequence) order
 *
 *   frame(p) = u32 (byteLength(p) | flags) | u32 crc32(p) | p        CRC-32/IEEE, the value zlib.crc32 gives
 *
 * A frame is whole when its 8 bytes of framing and all of `p` are present, 0 < byteLength ≤ the limit
 * (MAX_RECORD_BYTES, or MAX_HEADER_BYTES for the header) and the checksum matches. Readers trust the
 * longest prefix of whole frames; the first frame that is not whole ends the log.
 *
 * Groups: a record frame whose length word has GROUP_CONTINUES set is followed by another record of the
 * same group (commands of one request that must survive a crash together: a user and its opening
 * balances, a loan and the order it funds). A group is all or nothing: readers hand out its records only
 * once its last frame (the one without the flag) is whole, and a log that ends inside a group ends before
 * it. Journals written before groups never set the flag. The header frame has no flags.
 */
import { crc32 } from './crc32.js';

/** 'RMJL' as a little-endian u32. */
export const MAGIC = 0x4c4a4d52;
export const FORMAT_VERSION = 1;
/** Magic + version. */
export const PREAMBLE_BYTES = 8;
/** Length + checksum in front of each payload. */
export const FRAME_BYTES = 8;
export const MAX_RECORD_BYTES = 1 << 20;
/** Flag in a record frame's length word: another record of the same group follows (see the header). */
export const GROUP_CONTINUES = 0x80000000;
/** The byte length in a record frame's length word. */
export const LENGTH_MASK = 0x7fffffff;
export const MAX_HEADER_BYTES = 64 << 20;

/** Why a journal's valid prefix ended before the end of the file. */
export type JournalDefect =
  /** The file ends inside a frame (a write cut short by a crash). */
  | 'torn'
  /** A frame's length field is 0 or above the limit. */
  | 'bad-length'
  /** A frame's payload does not match its checksum. */
  | 'checksum'
  /** A payload passed its checksum but holds no command (written by a different format). */
  | 'undecodable'
  /** The file ends inside a group of records (a crash while writing it): the whole group is cut. */
  | 'group';

/** A journal whose beginning (magic, version, header) cannot be trusted: nothing in it can be replayed. */
export class JournalFormatError extends Error {
  override readonly name = 'JournalFormatError';
}

export const readU32 = (b: Uint8Array, at: number): number =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

export function writeU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = v >>> 24;
}

/**
 * Fills the 8 framing bytes in front of a payload already at `b[at + FRAME_BYTES, +length)`; `continues`
 * marks a record followed by another of its group.
 */
export function writeFrame(b: Uint8Array, at: number, length: number, continues = false): void {
  const p = at + FRAME_BYTES;
  writeU32(b, at, continues ? (length | GROUP_CONTINUES) >>> 0 : length);
  writeU32(b, at + 4, crc32(b, p, p + length));
}

/** The preamble and framed header of a new journal. @allocates */
export function encodeFileStart(header: Uint8Array): Uint8Array {
  if (header.length === 0 || header.length > MAX_HEADER_BYTES) throw new JournalFormatError('header size out of range');
  const out = new Uint8Array(PREAMBLE_BYTES + FRAME_BYTES + header.length);
  writeU32(out, 0, MAGIC);
  writeU32(out, 4, FORMAT_VERSION);
  out.set(header, PREAMBLE_BYTES + FRAME_BYTES);
  writeFrame(out, PREAMBLE_BYTES, header.length);
  return out;
}
