/**
 * Piscina task: encodes a captured snapshot and writes it to a (temporary) path. The capture arrives by
 * transfer (its columns' buffers move, no copy); the result is small. Stateless, so any pool thread may run it.
 * Loaded through `encode.worker.mjs` when running from TypeScript sources (see snapshotter.ts).
 */
import type { SnapshotData } from '../../protocol/snapshot-codec.js';
import { writeSnapshotFile, type WriteResult } from './snapshot-file.js';

/** A piscina task: what to write where. */
export interface EncodeTask {
  readonly data: SnapshotData;
  readonly path: string;
}

/** Writes `task.data` to `task.path` (see writeSnapshotFile). */
export default function encodeTask(task: EncodeTask): Promise<WriteResult> {
  return writeSnapshotFile(task.data, task.path);
}
