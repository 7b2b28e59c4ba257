/**
 * How a node of the replicated log starts from what is shared rather than from its own disk:
 * - `moveJournalAside`: the local journal (every segment) goes into `<journal>.replaced-<ms>/`. A node's own
 *   journal may hold commands the stream never acknowledged (a leader killed between its local write and the
 *   ack), so it is never replayed; it is kept for inspection. Retention: the `ASIDE_KEPT` newest such
 *   directories are kept, older ones are deleted at each move (a node that restarts or steps down often would
 *   otherwise fill its disk with copies of what the stream holds).
 * - `storeSnapshot` / `newestSnapshot`: snapshots in the object store `<stream>-snapshots`, in the snapshot
 *   file format (snapshot/format.ts: framed, checksummed), named by engine seq, with `{seq, streamSeq}` in
 *   their description: the stream seq of the message holding the snapshot's last command, where a follower
 *   starting from it resumes (it skips the records at or below `seq`). The newest two are kept.
 * Cost: a snapshot is encoded and uploaded whole (O(state)); nothing here runs per command.
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ObjectStore } from '@nats-io/obj';
import type { Clock } from '../../core/clock.js';
import { decodeSnapshot, encodeSnapshot, type SnapshotData } from '../../protocol/snapshot-codec.js';
import type { InlineEngine } from '../inline-engine.js';
import { listSegments } from '../journal/segments.js';
import { restoreEngine } from '../snapshot/capture.js';
import { frameSnapshot, snapshotFileName, unframeSnapshot } from '../snapshot/format.js';

const canonical = (json: string): string => JSON.stringify(JSON.parse(json));

/** Journals moved aside that are kept (the newest ones); see the module header. */
export const ASIDE_KEPT = 2;

/** The directories holding journals of `path` moved aside, oldest first. */
export async function journalsAside(path: string): Promise<string[]> {
  const prefix = `${basename(path)}.replaced-`;
  const names = (await readdir(dirname(path)).catch(() => [] as string[])).filter((n) => n.startsWith(prefix) && /^\d+(-\d+)?$/.test(n.slice(prefix.length)));
  const key = (n: string): [number, number] => {
    const [ms, k] = n.slice(prefix.length).split('-');
    return [Number(ms), Number(k ?? 0)];
  };
  return names.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]).map((n) => join(dirname(path), n));
}

/**
 * Moves every segment of the journal at `path` aside, then deletes all but the `ASIDE_KEPT` newest journals
 * moved aside (see the module header); no-op without a journal.
 */
export async function moveJournalAside(path: string, log: (m: string) => void): Promise<void> {
  const segments = await listSegments(path);
  if (segments.length === 0) return;
  const ms = Date.now();
  let dir = `${path}.replaced-${ms}`;
  for (let k = 1; (await readdir(dir).then(() => true, () => false)); k++) dir = `${path}.replaced-${ms}-${k}`;
  await mkdir(dir, { recursive: true });
  for (const s of segments) await rename(s.path, join(dir, basename(s.path)));
  log(`replication: moved the local journal aside to ${dir}; rebuilding from the stream`);
  for (const old of (await journalsAside(path)).slice(0, -ASIDE_KEPT)) {
    await rm(old, { recursive: true, force: true });
    log(`replication: deleted ${old} (the ${ASIDE_KEPT} newest journals moved aside are kept)`);
  }
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
