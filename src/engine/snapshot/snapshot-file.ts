/**
 * Snapshot files on disk (format in ./format.ts): writing one (encode, frame, write, fsync), committing it
 * under its final name (atomic rename, then an fsync of the directory), reading and checking one, and
 * listing a directory's snapshots newest first.
 *
 * Thread affinity: any thread; `writeSnapshotFile` is what the snapshot worker runs. Cost: encoding is
 * O(state) (see the codec); writing is one sequential write of the whole file and a datasync.
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeSnapshot, encodeSnapshot, type SnapshotData } from '../../protocol/snapshot-codec.js';
import { frameSnapshot, seqOfFileName, snapshotFileName, unframeSnapshot } from './format.js';

/** What writing one file took. */
export interface WriteResult {
  readonly bytes: number;
  /** Building the FlatBuffers payload, in ms. */
  readonly encodeMs: number;
  /** Framing, checksum, write and datasync, in ms. */
  readonly writeMs: number;
}

/** Encodes `data` and writes a whole snapshot file at `path` (created or replaced), durably. */
export async function writeSnapshotFile(data: SnapshotData, path: string): Promise<WriteResult> {
  const t0 = performance.now();
  const payload = encodeSnapshot(data);
  const t1 = performance.now();
  const { header, trailer } = frameSnapshot(payload);
  const fh = await open(path, 'w');
  try {
    await fh.writev([header, payload, trailer]);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  return { bytes: header.length + payload.length + trailer.length, encodeMs: t1 - t0, writeMs: performance.now() - t1 };
}

/** A fresh temporary name in `dir` for the snapshot of `seq` (never matched by `listSnapshots`). */
export function tempSnapshotPath(dir: string, seq: number): string {
  return join(dir, `${snapshotFileName(seq)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** Moves a written temporary file to its final name in `dir` and fsyncs the directory; returns the path. */
export async function commitSnapshot(tmpPath: string, dir: string, seq: number): Promise<string> {
  const path = join(dir, snapshotFileName(seq));
  await rename(tmpPath, path);
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
  return path;
}

/** Reads and checks the snapshot at `path`. Throws SnapshotFormatError (or InvariantError) when corrupt. */
export async function readSnapshotFile(path: string): Promise<SnapshotData> {
  const file = await readFile(path);
  return decodeSnapshot(unframeSnapshot(file, path));
}

/** The snapshots in `dir`, newest (highest seq) first; [] when the directory does not exist. */
export async function listSnapshots(dir: string): Promise<{ path: string; seq: number }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names
    .map((name) => ({ path: join(dir, name), seq: seqOfFileName(name) }))
    .filter((s) => s.seq >= 0)
    .sort((a, b) => b.seq - a.seq);
}

/** Deletes all but the newest `keep` snapshots of `dir`. */
export async function pruneSnapshots(dir: string, keep: number): Promise<void> {
  const all = await listSnapshots(dir);
  await Promise.all(all.slice(Math.max(1, keep)).map((s) => rm(s.path, { force: true })));
}
