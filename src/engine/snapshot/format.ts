/**
 * Snapshot file format, version 1 (integers little-endian):
 *
 *   offset 0    u32 magic 'RMSN' | u32 format version | u32 payload length | u32 0 (keeps the payload 8-aligned)
 *   offset 16   payload: one FlatBuffers `Snapshot` (schemas/snapshot.fbs)
 *   then        u32 crc32 of bytes [0, 16 + length)        CRC-32/IEEE, the value zlib.crc32 gives
 *
 * A file is valid when it is exactly 20 + length bytes and the checksum matches; anything else is corrupt
 * as a whole (a snapshot is written to a temporary name and renamed, so a torn file only ever has that name).
 * Files are named `snapshot-<seq, 16 digits>.rms`, so names sort by sequence.
 *
 * Cost: the checksum uses zlib's native crc32 (about 1–2 GB/s; the journal's table-driven crc32 where
 * zlib lacks it).
 */
import * as zlib from 'node:zlib';
import { crc32 as tableCrc32 } from '../journal/crc32.js';
import { readU32, writeU32 } from '../journal/format.js';

/** 'RMSN' as a little-endian u32. */
export const SNAPSHOT_MAGIC = 0x4e534d52;
export const SNAPSHOT_VERSION = 1;
export const SNAPSHOT_HEADER_BYTES = 16;
export const SNAPSHOT_TRAILER_BYTES = 4;

/** A snapshot file that cannot be trusted (bad magic, version, length or checksum). */
export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

const nativeCrc = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 of a whole array. */
export function crcOf(bytes: Uint8Array): number {
  return nativeCrc !== undefined ? nativeCrc(bytes) >>> 0 : tableCrc32(bytes, 0, bytes.length);
}

/** The 16-byte header and 4-byte trailer around `payload` (write header, payload, trailer). @allocates */
export function frameSnapshot(payload: Uint8Array): { header: Uint8Array; trailer: Uint8Array } {
  const header = new Uint8Array(SNAPSHOT_HEADER_BYTES);
  writeU32(header, 0, SNAPSHOT_MAGIC);
  writeU32(header, 4, SNAPSHOT_VERSION);
  writeU32(header, 8, payload.length);
  const crc = nativeCrc !== undefined
    ? nativeCrc(payload, nativeCrc(header)) >>> 0
    : tableCrc32(payload, 0, payload.length, tableCrc32(header, 0, header.length));
  const trailer = new Uint8Array(SNAPSHOT_TRAILER_BYTES);
  writeU32(trailer, 0, crc);
  return { header, trailer };
}

/** The payload of a whole snapshot file (a view into `file`), or SnapshotFormatError naming `path`. */
export function unframeSnapshot(file: Uint8Array, path: string): Uint8Array {
  if (file.length < SNAPSHOT_HEADER_BYTES + SNAPSHOT_TRAILER_BYTES) throw new SnapshotFormatError(`${path}: too short`);
  if (readU32(file, 0) !== SNAPSHOT_MAGIC) throw new SnapshotFormatError(`${path}: not a snapshot (bad magic)`);
  const version = readU32(file, 4);
  if (version !== SNAPSHOT_VERSION) throw new SnapshotFormatError(`${path}: format version ${version}, expected ${SNAPSHOT_VERSION}`);
  const length = readU32(file, 8);
  const end = SNAPSHOT_HEADER_BYTES + length;
  if (end + SNAPSHOT_TRAILER_BYTES !== file.length) throw new SnapshotFormatError(`${path}: length ${length} does not match the file`);
  if (crcOf(file.subarray(0, end)) !== readU32(file, end)) throw new SnapshotFormatError(`${path}: checksum mismatch`);
  return file.subarray(SNAPSHOT_HEADER_BYTES, end);
}

const NAME = /^snapshot-(\d{16})\.rms$/;

/** The file name of the snapshot taken at `seq`. */
export const snapshotFileName = (seq: number): string => `snapshot-${String(seq).padStart(16, '0')}.rms`;

/** The sequence number in a snapshot file name, or -1 for any other name (temporary files included). */
export function seqOfFileName(name: string): number {
  const m = NAME.exec(name);
  return m === null ? -1 : Number(m[1]);
}
