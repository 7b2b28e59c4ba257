/**
 * The replicated command log on NATS JetStream: one stream (`engine.log.stream`), one subject
 * `<stream>.log`, one writer at a time (the leader), a KV bucket `<stream>-lease` holding the leader's lease
 * and an object store `<stream>-snapshots` holding snapshots for late followers (docs/scale-out.md).
 *
 * Messages, in stream order (headers name their kind; payloads are the journal's own bytes):
 * - `header`: the JournalHeader (markets, currencies, the exchange definition) as FlatBuffers; stream seq 1.
 * - `epoch`: a new leader's first message (`Rm-Epoch`); it ends whatever the previous leader left unfinished.
 * - `batch`: one group-commit buffer of the leader's journal, framed records unchanged (journal/format.ts),
 *   with `Rm-Epoch`, `Rm-First-Seq`, `Rm-Last-Seq` (engine seqs) and every `checkpoint_every` commands
 *   `Rm-State-Hash` (the leader's state hash after `Rm-Hash-Seq`).
 * Every publish carries `Nats-Msg-Id` (dedup of a retry) and an expected last stream sequence, so a
 * deposed leader's publish is refused (err_code 10071) once anyone else appended.
 */
import { connect, headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { Objm, type ObjectStore } from '@nats-io/obj';

/** `engine.log` of the config file. */
export interface LogSpec {
  readonly type: 'jetstream';
  readonly servers: readonly string[];
  readonly stream: string;
  /** Lease time-to-live, ms (renewed every third of it); default 3000. */
  readonly leaseMs?: number | undefined;
  /** Commands between state-hash checkpoints in the stream; default 10000 (0: none). */
  readonly checkpointEvery?: number | undefined;
  /** Commands between follower snapshots to the object store; default 1000000 (0: none). */
  readonly snapshotEvery?: number | undefined;
  /** Copies JetStream keeps of the stream, the lease bucket and the snapshot store (1, 3 or 5); default 1. */
  readonly replicas?: number | undefined;
  /** How long a follower holds a read for an engine seq it has not applied yet (read-your-writes), ms; default 5000. */
  readonly readWaitMs?: number | undefined;
}

export const HDR_KIND = 'Rm-Kind';
export const HDR_EPOCH = 'Rm-Epoch';
export const HDR_FIRST = 'Rm-First-Seq';
export const HDR_LAST = 'Rm-Last-Seq';
export const HDR_HASH = 'Rm-State-Hash';
export const HDR_HASH_SEQ = 'Rm-Hash-Seq';
/** JetStream's error code for a publish whose expected last sequence is stale. */
export const WRONG_LAST_SEQUENCE = 10071;

export type LogKind = 'header' | 'epoch' | 'batch';

/** An open connection to the log's stream, lease bucket and snapshot store. */
export interface LogStream {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly stream: string;
  readonly subject: string;
  readonly lease: KV;
  readonly snapshots: ObjectStore;
  /** The stream's last sequence now (0 when empty). */
  lastSeq(): Promise<number>;
  close(): Promise<void>;
}

/** Headers for a log message. @allocates */
export function logHeaders(kind: LogKind, fields: Readonly<Record<string, string | number>> = {}): MsgHdrs {
  const h = natsHeaders();
  h.set(HDR_KIND, kind);
  for (const [k, v] of Object.entries(fields)) h.set(k, String(v));
  return h;
}

/** Connects and creates (or opens) the stream, the lease bucket and the snapshot store. @allocates */
export async function openLogStream(spec: LogSpec, name = 'ringmatch'): Promise<LogStream> {
  const nc = await connect({ servers: [...spec.servers], name, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  try {
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc);
    const stream = spec.stream;
    const subject = `${stream}.log`;
    const replicas = spec.replicas ?? 1;
    try {
      await jsm.streams.info(stream);
    } catch {
      // Kept whole (no limits): followers bootstrap from the newest snapshot plus every message after it.
      await jsm.streams.add({ name: stream, subjects: [subject], duplicate_window: 120 * 1e9, num_replicas: replicas }).catch(async (e: unknown) => {
        // Another node created it meanwhile.
        await jsm.streams.info(stream).catch(() => { throw e; });
      });
    }
    const kvm = new Kvm(js);
    const lease = await kvm.create(`${stream}-lease`, { history: 1, replicas });
    const snapshots = await new Objm(js).create(`${stream}-snapshots`, { replicas });
    return {
      nc, js, jsm, stream, subject, lease, snapshots,
      async lastSeq() { return (await jsm.streams.info(stream)).state.last_seq; },
      async close() { await nc.drain().catch(() => nc.close()); },
    };
  } catch (e) {
    await nc.close();
    throw e;
  }
}

/** True when `e` is JetStream's refusal of a stale expected last sequence (a deposed writer). */
export function isWrongLastSequence(e: unknown): boolean {
  const x = e as { code?: unknown; apiError?: () => { err_code?: number } } | null;
  if (x === null || typeof x !== 'object') return false;
  try {
    if (typeof x.apiError === 'function' && x.apiError().err_code === WRONG_LAST_SEQUENCE) return true;
  } catch {
    // Not an API error.
  }
  return /wrong last sequence/i.test((e as Error).message ?? '');
}
