/**
 * The driver of a sweep across machines: `replay … --sweep key=a,b,c --queue nats://host:port[,…]`. It
 * publishes one task per value on the work queue (./sweep-queue.ts), collects one result per task from the
 * sweep's results bucket, and returns the same SweepResult a local pool gives for the same tasks (same runs,
 * same table, in the values' order), plus where each run ran. Progress lines go to stderr.
 *
 * Guarantees: every task's result is the first one stored under its name (a task that ran twice, because its
 * first worker died after storing but before acking, is counted once); a task that failed on a worker fails the
 * sweep with that worker's one-line error; a task handed out MAX_DELIVER times without a result, the timeout
 * and an abort (SIGINT) fail it too. Whatever the outcome, the sweep's tasks still queued are purged and its
 * results bucket is removed before this returns, so no worker runs an abandoned task.
 */
import { performance } from 'node:perf_hooks';
import { Objm, type ObjectStore } from '@nats-io/obj';
import type { Subscription } from '@nats-io/transport-node';
import { ConfigError } from '../core/invariant.js';
import type { ReplayArgs } from './replay-args.js';
import type { ReplayConfig } from './replay-config.js';
import { planSweep, sweepResult, type SweepPlan, type SweepResult } from './sweep.js';
import { connectQueue, decodeJson, encodeJson, ensureQueue, MAX_DELIVERIES_ADVISORY, newSweepId, QUEUE_CONSUMER, QUEUE_STREAM,
  type QueueConnection, type QueueResult, type QueueTask, resultName, resultsBucket, RESULTS_TTL_MS, taskSubject } from './sweep-queue.js';

export interface DriverIo {
  readonly stderr: { write(s: string): boolean };
  /** Aborting it (SIGINT) stops waiting, removes the sweep's tasks and fails the sweep. */
  readonly signal?: AbortSignal;
}

/** Default `--queue-timeout`, seconds. */
export const DEFAULT_QUEUE_TIMEOUT_S = 3600;
/** Seconds without a result between two lines of queue state on stderr. */
const QUIET_S = 10;

/** Runs the sweep `args.sweep` over `base` on the workers of the queue `args.queue`. @allocates */
export async function runQueueSweep(args: ReplayArgs, base: ReplayConfig, io: DriverIo): Promise<SweepResult> {
  const plan = planSweep(args, base);
  const id = newSweepId();
  const q = await connectQueue(args.queue!, `ringmatch sweep ${id}`);
  const say = (s: string): void => { io.stderr.write(`sweep ${id}: ${s}\n`); };
  let bucket: ObjectStore | undefined;
  let stop = (): void => undefined;
  try {
    await ensureQueue(q.jsm);
    bucket = await new Objm(q.js).create(resultsBucket(id), { ttl: RESULTS_TTL_MS * 1e6 });
    const collecting = collect(q, bucket, plan, id, args.queueTimeout ?? DEFAULT_QUEUE_TIMEOUT_S, say, io.signal);
    stop = () => { collecting.stop(); };
    const t0 = performance.now();
    const label = (k: number): string => `${resultName(k)} (${plan.key}=${String(plan.values[k])})`;
    const seqs = await Promise.all(plan.tasks.map(async (t, k) => {
      const task: QueueTask = { v: 1, sweep: id, task: k, of: plan.tasks.length, key: plan.key, value: plan.values[k], args: t.args, cfg: t.cfg, results: resultsBucket(id) };
      return (await q.js.publish(taskSubject(id), encodeJson(task), { msgID: `${id}:${k}` })).seq;
    }));
    collecting.published(seqs, label);
    say(`published ${plan.tasks.length} tasks on ${QUEUE_STREAM} at ${args.queue!.join(',')}; waiting for results (timeout ${args.queueTimeout ?? DEFAULT_QUEUE_TIMEOUT_S} s)`);
    const results = await collecting.done;
    const wallMs = performance.now() - t0;
    const kept = plan.tasks.map((_, k) => results.get(k)!);
    return await sweepResult(args, plan, kept.map((r) => r.report!), wallMs, new Set(kept.map((r) => r.worker)).size, {
      id, redelivered: kept.filter((r) => r.delivery > 1).length,
      tasks: kept.map((r) => ({ task: r.task, worker: r.worker, delivery: r.delivery, wall_ms: r.wall_ms })),
    });
  } finally {
    stop();
    await q.jsm.streams.purge(QUEUE_STREAM, { filter: taskSubject(id) }).catch(() => undefined);
    await bucket?.destroy().catch(() => undefined);
    await q.close();
  }
}

interface Collecting {
  /** Resolves with one result per task (all ok), or rejects with the reason the sweep failed. */
  readonly done: Promise<Map<number, QueueResult>>;
  /** The tasks' stream sequences (for the max-deliveries advisory) and how to name a task. */
  published(seqs: readonly number[], label: (k: number) => string): void;
  stop(): void;
}

/** Watches the results bucket (and the advisories) until every task has a result, one fails, the timeout or an abort. */
function collect(q: QueueConnection, bucket: ObjectStore, plan: SweepPlan, id: string, timeoutS: number, say: (s: string) => void,
  signal: AbortSignal | undefined): Collecting {
  const total = plan.tasks.length;
  const results = new Map<number, QueueResult>();
  const taskOfSeq = new Map<number, number>();
  let label = (k: number): string => resultName(k);
  let resolve!: (r: Map<number, QueueResult>) => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<Map<number, QueueResult>>((res, rej) => { resolve = res; reject = rej; });
  // Awaited once the tasks are published; a failure before that (an abort) is not an unhandled rejection.
  done.catch(() => undefined);
  let lastNews = performance.now();
  const fail = (why: string): void => { reject(new ConfigError(`sweep ${id}: ${why}`)); };

  const onResult = async (name: string): Promise<void> => {
    const k = /^run-([0-9]+)$/.exec(name) === null ? -1 : Number(name.slice(4));
    if (k < 0 || k >= total || results.has(k)) return;
    const blob = await bucket.getBlob(name);
    if (blob === null || results.has(k)) return;
    const r = decodeJson<QueueResult>(blob);
    if (r.sweep !== id || r.task !== k) return;
    if (!r.ok || r.report === undefined) { fail(`${label(k)} failed on worker ${r.worker}: ${r.error ?? 'no report'}`); return; }
    results.set(k, r);
    lastNews = performance.now();
    say(`${results.size}/${total} done: ${label(k)} on ${r.worker}${r.delivery > 1 ? ` (delivery ${r.delivery})` : ''}, ${(r.wall_ms / 1000).toFixed(2)} s`);
    if (results.size === total) resolve(results);
  };
  let watching: { stop(): void } | undefined;
  void bucket.watch({ includeHistory: true, ignoreDeletes: true }).then(async (w) => {
    watching = w;
    for await (const info of w) {
      // A result being replaced by a second run of the same task may be read half-purged: the next update has it.
      await onResult(info.name).catch((e: unknown) => { if (!(e instanceof Error && /digest|chunk|not found/i.test(e.message))) fail(`reading ${info.name}: ${String(e)}`); });
    }
  }, (e: unknown) => { fail(`cannot watch the results bucket: ${String(e)}`); });

  const advisories: Subscription = q.nc.subscribe(MAX_DELIVERIES_ADVISORY, {
    callback: (_err, m) => {
      const a = m.json<{ stream_seq?: number; deliveries?: number }>();
      const k = taskOfSeq.get(a.stream_seq ?? -1);
      if (k !== undefined && !results.has(k)) {
        fail(`${label(k)} was handed out ${a.deliveries ?? '?'} times and no worker finished it (each worker died or was stopped while running it)`);
      }
    },
  });
  const timer = setTimeout(() => {
    const missing = plan.tasks.map((_, k) => k).filter((k) => !results.has(k));
    fail(`${missing.length} of ${total} results did not arrive within ${timeoutS} s (${missing.slice(0, 5).map(label).join(', ')}${missing.length > 5 ? ', …' : ''}); `
      + 'its tasks were removed from the queue (--queue-timeout sets the wait)');
  }, timeoutS * 1000);
  const quiet = setInterval(() => {
    if (performance.now() - lastNews < QUIET_S * 1000) return;
    lastNews = performance.now();
    q.jsm.consumers.info(QUEUE_STREAM, QUEUE_CONSUMER).then((ci) => {
      const idle = ci.num_ack_pending === 0 && ci.num_waiting === 0;
      say(`${results.size}/${total} done; queue (all sweeps): ${ci.num_pending} waiting, ${ci.num_ack_pending} running, ${ci.num_waiting} idle pulls`
        + (idle ? '; no worker is pulling: start one with npm run sweep-worker -- --queue URL' : ''));
    }, () => undefined);
  }, 1000);
  const onAbort = (): void => { fail(`interrupted (${String(signal?.reason ?? 'aborted')}); its tasks were removed from the queue`); };
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted === true) onAbort();
  return {
    done,
    published(seqs, name) {
      label = name;
      seqs.forEach((s, k) => taskOfSeq.set(s, k));
    },
    stop() {
      clearTimeout(timer);
      clearInterval(quiet);
      signal?.removeEventListener('abort', onAbort);
      advisories.unsubscribe();
      watching?.stop();
    },
  };
}
