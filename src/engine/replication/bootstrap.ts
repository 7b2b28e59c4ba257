/**
 * How a node of the replicated log starts from what is shared rather than from its own disk:
 * - `moveJournalAside`: the local journal (every segment) goes into `<journal>.replaced-<ms>/`. A node's own
 *   journal may hold commands the stream never acknowledged (a leader killed between its local write and the
 *   ack), so it is never replayed; it is kept for inspection.
 * - `storeSnapshot` / `newestSnapshot`: snapshots in the object store `<stream>-snapshots`, in the snapshot
 *   file format (snapshot/format.ts: framed, checksummed), named by engine seq, with `{seq, streamSeq}` in
 *   their description: the stream seq of the message holding the snapshot's last command, where a follower
 *   starting from it resumes (it skips the records at or below `seq`). The newest two are kept.
 * Cost: a snapshot is encoded and uploaded whole (O(state)); nothing here runs per command.
 */
import { mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ObjectStore } from '@nats-io/obj';
import type { Clock } from '../../core/clock.js';
import { decodeSnapshot, encodeSnapshot, type SnapshotData } from '../../protocol/snapshot-codec.js';
import type { InlineEngine } from '../inline-engine.js';
import { listSegments } from '../journal/segments.js';
import { restoreEngine } from '../snapshot/capture.js';
import { frameSnapshot, snapshotFileName, unframeSnapshot } from '../snapshot/format.js';

const canonical = (json: string): string => JSON.stringify(JSON.parse(json));

/** Moves every segment of the journal at `path` aside (see the module header); no-op without one. */
export async function moveJournalAside(path: string, log: (m: string) => void): Promise<void> {
  const segments = await listSegments(path);
  if (segments.length === 0) return;
  const dir = `${path}.replaced-${Date.now()}`;
  await mkdir(dir, { recursive: true });
  for (const s of segments) await rename(s.path, join(dir, basename(s.path)));
  log(`replication: moved the local journal aside to ${dir}; rebuilding from the stream`);
}

/** Stores `data` (taken with its last command in stream message `streamSeq`) and prunes to the newest two. @allocates */
export async function storeSnapshot(store: ObjectStore, data: SnapshotData, streamSeq: number): Promise<number> {
  const payload = encodeSnapshot(data);
  const { header, trailer } = frameSnapshot(payload);
  const bytes = new Uint8Array(header.length + payload.length + trailer.length);
  bytes.set(header, 0);
  bytes.set(payload, header.length);
  bytes.set(trailer, header.length + payload.length);
  await store.putBlob({ name: snapshotFileName(data.seq), description: JSON.stringify({ seq: data.seq, streamSeq }) }, bytes);
  const all = (await store.list()).filter((i) => !i.deleted).sort((a, b) => (a.name < b.name ? 1 : -1));
  for (const old of all.slice(2)) await store.delete(old.name);
  return bytes.length;
}

/**
 * The newest snapshot in `store` that checks and was taken of the exchange `configJson` describes, restored
 * into an inline engine on `clock`, with the stream seq to resume from; unusable ones are logged and skipped.
 * @allocates
 */
export async function newestSnapshot(store: ObjectStore, configJson: string, clock: Clock, log: (m: string) => void):
  Promise<{ engine: InlineEngine; seq: number; streamSeq: number } | undefined> {
  const infos = (await store.list()).filter((i) => !i.deleted).sort((a, b) => (a.name < b.name ? 1 : -1));
  for (const info of infos) {
    try {
      const meta = JSON.parse(info.description ?? '{}') as { seq?: number; streamSeq?: number };
      const bytes = await store.getBlob(info.name);
      if (bytes === null || meta.seq === undefined || meta.streamSeq === undefined) throw new Error('missing data or description');
      // A copy at offset 0: the payload's typed arrays need their 8-byte alignment (the blob arrives at any offset).
      const data = decodeSnapshot(unframeSnapshot(new Uint8Array(bytes), info.name));
      if (canonical(data.definitionJson) !== canonical(configJson)) throw new Error('written for another exchange definition');
      const engine = restoreEngine(data, { clock });
      log(`replication: starting from snapshot ${info.name} (engine seq ${data.seq}, stream seq ${meta.streamSeq})`);
      return { engine, seq: data.seq, streamSeq: meta.streamSeq };
    } catch (e) {
      log(`replication: skipping snapshot ${info.name}: ${(e as Error).message}`);
    }
  }
  return undefined;
}
