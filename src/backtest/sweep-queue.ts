/**
 * The JetStream work queue of distributed sweeps (docs/scale-out.md, "Sweeps across machines"), shared by the
 * driver (`replay … --sweep … --queue`, ./sweep-driver.ts) and the workers (`sweep-worker`, ./sweep-worker.ts).
 *
 * - Tasks: the work-queue stream `RINGMATCH_SWEEP` (retention workqueue: a task is removed once acked),
 *   subject `ringmatch.sweep.<sweep id>.task`, one JSON message per run (`QueueTask`: the replay arguments,
 *   the run's whole config, the results bucket), `Nats-Msg-Id` `<sweep id>:<task>` so a retried publish is
 *   stored once. One durable pull consumer `sweep-workers`, shared by every worker, explicit acks: a task is
 *   handed to one worker at a time and handed out again when its worker neither acks nor sends `working`
 *   within the ack wait (a worker killed mid-task), up to MAX_DELIVER times.
 * - Results: an object store bucket per sweep, `ringmatch-sweep-<sweep id>`, one object `run-<k>` per task
 *   (`QueueResult`, JSON, chunked by the store: a report may be larger than a NATS message). A redelivered
 *   task that ran twice writes the same name twice; the driver keeps the first result per name, so nothing is
 *   counted twice, and a task is acked only after its result is stored, so nothing is lost.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, jetstream, JetStreamApiCodes, JetStreamApiError, jetstreamManager, RetentionPolicy, StorageType,
  type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { ConfigError } from '../core/invariant.js';
import type { ReplayArgs } from './replay-args.js';
import type { ReplayConfig } from './replay-config.js';
import type { ReplayReport } from './report.js';

export const QUEUE_STREAM = 'RINGMATCH_SWEEP';
export const QUEUE_CONSUMER = 'sweep-workers';
/** Deliveries of one task before JetStream gives up on it (the driver then fails the sweep, naming it). */
export const MAX_DELIVER = 10;
/** Default ack wait: how long a task whose worker died waits before another worker gets it. */
export const DEFAULT_ACK_WAIT_S = 30;
/** How often a worker tells JetStream a running task is still in progress (below any allowed ack wait). */
export const WORKING_EVERY_MS = 1000;
/** Results buckets expire after a week (a driver killed before it removed its own). */
const RESULTS_TTL_MS = 7 * 24 * 3600 * 1000;

export const taskSubject = (sweepId: string): string => `ringmatch.sweep.${sweepId}.task`;
export const resultsBucket = (sweepId: string): string => `ringmatch-sweep-${sweepId}`;
export const resultName = (task: number): string => `run-${task}`;
/** JetStream's advisory when a task reached MAX_DELIVER: `{ stream_seq, deliveries }`. */
export const MAX_DELIVERIES_ADVISORY = `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${QUEUE_STREAM}.${QUEUE_CONSUMER}`;
export { RESULTS_TTL_MS };

/** One run of a sweep, as published. */
export interface QueueTask {
  readonly v: 1;
  readonly sweep: string;
  /** Index of the run in the sweep (0-based) and the number of runs. */
  readonly task: number;
  readonly of: number;
  readonly key: string;
  readonly value: unknown;
  /** The run's replay arguments: data file paths as the driver named them (a worker resolves relative ones in its own directory). */
  readonly args: ReplayArgs;
  /** The run's whole config (the driver's `--config` file with the swept field set): workers need no config file. */
  readonly cfg: ReplayConfig;
  readonly results: string;
}

/** One run's outcome, as stored in the results bucket. */
export interface QueueResult {
  readonly sweep: string;
  readonly task: number;
  readonly worker: string;
  /** JetStream's delivery count of the task when this worker ran it (1: the first). */
  readonly delivery: number;
  readonly wall_ms: number;
  readonly ok: boolean;
  readonly report?: ReplayReport;
  /** Why the run failed, in one line (a missing file names the flag and the path). */
  readonly error?: string;
}

export interface QueueConnection {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  close(): Promise<void>;
}

/** Connects to `servers` (reconnecting for ever once connected). A first connection that fails is a ConfigError naming them. */
export async function connectQueue(servers: readonly string[], name: string): Promise<QueueConnection> {
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: [...servers], name, timeout: 5000, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  } catch (e) {
    throw new ConfigError(`cannot reach the queue at ${servers.join(',')} (${(e as Error).message}); is nats-server -js running there?`);
  }
  try {
    const jsm = await jetstreamManager(nc);
    return { nc, js: jetstream(nc), jsm, async close() { await nc.drain().catch(() => nc.close()); } };
  } catch (e) {
    await nc.close();
    throw new ConfigError(`the NATS server at ${servers.join(',')} has no JetStream (${(e as Error).message}); start it with -js`);
  }
}

const notFound = (e: unknown, code: number): boolean => e instanceof JetStreamApiError && e.code === code;

/**
 * Creates the work-queue stream and the workers' consumer when missing, or checks the ones there. With
 * `ackWaitS`, a consumer whose ack wait differs is updated to it (the last worker started with `--ack-wait`
 * sets it for all; workers send `working` every second whatever it is). Returns the consumer's ack wait, s.
 */
export async function ensureQueue(jsm: JetStreamManager, ackWaitS?: number): Promise<number> {
  try {
    const info = await jsm.streams.info(QUEUE_STREAM);
    if (info.config.retention !== RetentionPolicy.Workqueue) throw new ConfigError(`stream ${QUEUE_STREAM} exists and is not a work-queue stream; remove it or use another NATS account`);
  } catch (e) {
    if (!notFound(e, JetStreamApiCodes.StreamNotFound)) throw e;
    await jsm.streams.add({
      name: QUEUE_STREAM, subjects: [taskSubject('*')], retention: RetentionPolicy.Workqueue, storage: StorageType.File,
      duplicate_window: 120 * 1e9,
    }).catch(async (err: unknown) => { await jsm.streams.info(QUEUE_STREAM).catch(() => { throw err; }); });
  }
  const wanted = (ackWaitS ?? DEFAULT_ACK_WAIT_S) * 1e9;
  try {
    const ci = await jsm.consumers.info(QUEUE_STREAM, QUEUE_CONSUMER);
    if (ackWaitS !== undefined && ci.config.ack_wait !== wanted) {
      await jsm.consumers.update(QUEUE_STREAM, QUEUE_CONSUMER, { ack_wait: wanted });
      return ackWaitS;
    }
    return (ci.config.ack_wait ?? wanted) / 1e9;
  } catch (e) {
    if (!notFound(e, JetStreamApiCodes.ConsumerNotFound)) throw e;
    await jsm.consumers.add(QUEUE_STREAM, {
      durable_name: QUEUE_CONSUMER, ack_policy: AckPolicy.Explicit, ack_wait: wanted, max_deliver: MAX_DELIVER,
    }).catch(async (err: unknown) => { await jsm.consumers.info(QUEUE_STREAM, QUEUE_CONSUMER).catch(() => { throw err; }); });
    return wanted / 1e9;
  }
}

/** A new sweep id: the UTC time and 6 random hex digits (letters, digits and `-` only: it names a subject and a bucket). */
export function newSweepId(now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `${t}-${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0')}`;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
export const encodeJson = (x: unknown): Uint8Array => enc.encode(JSON.stringify(x));
export const decodeJson = <T>(b: Uint8Array): T => JSON.parse(dec.decode(b)) as T;
