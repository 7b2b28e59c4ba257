/**
 * `sweep-worker --queue nats://host:port[,…]`: runs the tasks of distributed sweeps (./sweep-queue.ts) on this
 * machine, on a piscina pool of `--concurrency` threads (the event loop stays free for acks and signals).
 *
 * Per task: pull one message (never more than free threads: a task waiting in a worker's buffer would run out
 * its ack wait there), send `working` every second while the replay runs so it is not handed to another
 * worker, store the result in the sweep's bucket, then ack (double ack: the server confirms). A replay that
 * fails (a data file missing here, bad data, a strategy that throws) stores an error result naming the flag
 * and path, and the task is terminated, not retried. A task whose sweep is gone (its driver ended) is dropped.
 * If the result cannot be stored, or the replay thread dies, the task is given back (nak) for another worker.
 * On abort (SIGINT/SIGTERM) it stops pulling, gives back the tasks it is running (nak: redelivered at once)
 * and returns; with `idleExitS` it returns after that long with nothing to do.
 */
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JsMsg } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { Piscina } from 'piscina';
import { ConfigError } from '../core/invariant.js';
import { parseQueueServers, parseSeconds, replayArgv } from './replay-args.js';
import { sweepWorkerFile } from './sweep.js';
import type { SweepTask, TaskError, TaskOutcome } from './sweep.worker.js';
import { connectQueue, encodeJson, ensureQueue, QUEUE_CONSUMER, QUEUE_STREAM, type QueueResult, type QueueTask, resultName,
  WORKING_EVERY_MS } from './sweep-queue.js';

export interface SweepWorkerOptions {
  readonly servers: readonly string[];
  readonly concurrency: number;
  /** Return after this many seconds with no task (none running, none arriving); default: never. */
  readonly idleExitS?: number;
  /** Set the queue's ack wait to this (seconds); default: keep the queue's (30 s when this worker creates it). */
  readonly ackWaitS?: number;
  /** Named in results and logs; default host:pid. */
  readonly name: string;
}

export interface WorkerIo {
  /** One log line (without a newline). */
  log(line: string): void;
  /** A failed replay's error as one line; `argv` is the run's flags (to name the flag a missing file came from). */
  explain?(error: TaskError, argv: readonly string[]): string;
  readonly signal: AbortSignal;
}

export interface WorkerSummary {
  done: number;
  failed: number;
  /** Tasks handed back to the queue: running at an abort, or whose result could not be stored. */
  given_back: number;
}

export const SWEEP_WORKER_HELP = `usage: npm run sweep-worker -- --queue nats://HOST:PORT[,…] [options]
       ringmatch sweep-worker --queue nats://HOST:PORT[,…] [options]

Runs the tasks of sweeps started elsewhere with npm run replay -- … --sweep key=a,b,c --queue nats://…,
pulling them from a JetStream work queue, on this machine. Each task is one replay; its data files are read
here at the paths the driver was given (relative ones from this directory), so this machine needs the data.
A task whose worker dies is handed to another after the queue's ack wait; a task that fails here (a missing
file, bad data) fails the sweep with this worker's error.

Options:
  --queue nats://HOST:PORT[,…]  the NATS servers (nats-server -js) the driver published to (required)
  --concurrency N      tasks run at once, each on its own thread (default 1)
  --idle-exit S        exit after S seconds with no task (default: run until SIGINT or SIGTERM)
  --ack-wait S         set the queue's ack wait: how long a dead worker's task waits before another worker
                       gets it (default: keep the queue's; 30 when the queue is created; at least 2)
  --name NAME          this worker's name in results and logs (default: host:pid)
  --help, -h           this text

SIGINT or SIGTERM: stop pulling, give the running tasks back to the queue (another worker gets them at once),
exit 0. Details: docs/scale-out.md (Sweeps across machines), docs/replay.md.
`;

const USAGE = 'usage: sweep-worker --queue nats://HOST:PORT[,…] [--concurrency N] [--idle-exit S] [--ack-wait S] [--name NAME]';

/** Parses `sweep-worker` flags (argv after the command name). Throws ConfigError with the usage line. */
export function parseSweepWorkerArgs(argv: readonly string[]): SweepWorkerOptions {
  const v = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (!['--queue', '--concurrency', '--idle-exit', '--ack-wait', '--name'].includes(flag)) throw new ConfigError(`unknown argument ${flag} (${USAGE})`);
    const value = argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    v.set(flag, value);
  }
  const queue = v.get('--queue');
  if (queue === undefined) throw new ConfigError(`--queue is required (${USAGE})`);
  const concurrency = v.get('--concurrency') ?? '1';
  if (!/^[1-9][0-9]{0,2}$/.test(concurrency)) throw new ConfigError(`--concurrency: "${concurrency}" is not a positive integer`);
  const idle = v.get('--idle-exit');
  const ackWait = v.get('--ack-wait');
  const ackWaitS = ackWait === undefined ? undefined : parseSeconds(ackWait, '--ack-wait');
  if (ackWaitS !== undefined && ackWaitS < 2) throw new ConfigError('--ack-wait: at least 2 seconds (a running task is confirmed every second)');
  const name = v.get('--name') ?? `${hostname()}:${process.pid}`;
  if (!/^[\x21-\x7e]{1,100}$/.test(name)) throw new ConfigError(`--name: "${name}" must be 1 to 100 printable characters without spaces`);
  return {
    servers: parseQueueServers(queue, '--queue'), concurrency: Number(concurrency), name,
    ...(idle === undefined ? {} : { idleExitS: parseSeconds(idle, '--idle-exit') }), ...(ackWaitS === undefined ? {} : { ackWaitS }),
  };
}

/** Pulls and runs sweep tasks until `io.signal` aborts or the idle exit. @allocates */
export async function runSweepWorker(opts: SweepWorkerOptions, io: WorkerIo): Promise<WorkerSummary> {
  const q = await connectQueue(opts.servers, `ringmatch sweep-worker ${opts.name}`);
  const summary: WorkerSummary = { done: 0, failed: 0, given_back: 0 };
  const { signal } = io;
  let pool: Piscina<SweepTask, TaskOutcome> | undefined;
  try {
    const ackWaitS = await ensureQueue(q.jsm, opts.ackWaitS);
    const consumer = await q.js.consumers.get(QUEUE_STREAM, QUEUE_CONSUMER);
    pool = new Piscina<SweepTask, TaskOutcome>({ filename: sweepWorkerFile(), name: 'queueTask', minThreads: opts.concurrency, maxThreads: opts.concurrency });
    const run = runner(pool, new Objm(q.js), opts.name, io, summary);
    io.log(`pulling tasks from ${QUEUE_STREAM} at ${opts.servers.join(',')} (concurrency ${opts.concurrency}, ack wait ${ackWaitS} s`
      + `${opts.idleExitS === undefined ? '' : `, idle exit ${opts.idleExitS} s`})`);
    const running = new Map<JsMsg, Promise<void>>();
    const aborted = new Promise<void>((resolve) => { if (signal.aborted) resolve(); else signal.addEventListener('abort', () => resolve(), { once: true }); });
    let lastActivity = performance.now();
    let failing = false;
    while (!signal.aborted) {
      if (running.size >= opts.concurrency) {
        await Promise.race([...running.values(), aborted]);
        continue;
      }
      let msg: JsMsg | null;
      try {
        msg = await consumer.next({ expires: 1000 });
        if (failing) io.log('pulling again');
        failing = false;
      } catch (e) {
        if (signal.aborted) break;
        // The server is away (the client reconnects by itself): one line per outage, not one per retry.
        if (!failing) io.log(`pull failed (${(e as Error).message}); retrying every second`);
        failing = true;
        await sleep(1000);
        continue;
      }
      if (msg === null) {
        if (opts.idleExitS !== undefined && running.size === 0 && performance.now() - lastActivity >= opts.idleExitS * 1000) {
          io.log(`no task for ${opts.idleExitS} s: exiting`);
          break;
        }
        continue;
      }
      if (signal.aborted) {
        msg.nak();
        summary.given_back++;
        break;
      }
      const m = msg;
      running.set(m, run(m).finally(() => { running.delete(m); lastActivity = performance.now(); }));
    }
    if (signal.aborted) {
      for (const m of running.keys()) { m.nak(); summary.given_back++; }
      await q.nc.flush().catch(() => undefined);
      if (running.size > 0) io.log(`${String(signal.reason ?? 'stopped')}: gave ${running.size} running task${running.size > 1 ? 's' : ''} back to the queue`);
      // Ends the replays still running: their pool.run rejects and their handlers return (the tasks were given back).
      await pool.destroy();
      pool = undefined;
    }
    await Promise.all(running.values());
    return summary;
  } finally {
    await pool?.destroy();
    await q.close();
  }
}

/** The handler of one task message: run it on `pool`, store its result, then ack (or term, or give it back). */
function runner(pool: Piscina<SweepTask, TaskOutcome>, objm: Objm, worker: string, io: WorkerIo, summary: WorkerSummary): (msg: JsMsg) => Promise<void> {
  const explain = (e: TaskError, argv: readonly string[]): string => (io.explain === undefined ? e.message : io.explain(e, argv));
  return async (msg) => {
    let task: QueueTask;
    try {
      task = msg.json<QueueTask>();
      if (task.v !== 1 || typeof task.sweep !== 'string' || typeof task.results !== 'string' || !Number.isInteger(task.task)) throw new Error('not a task');
    } catch {
      io.log(`dropped stream message ${msg.seq}: not a sweep task`);
      msg.term('not a sweep task');
      return;
    }
    const label = `${task.sweep} ${resultName(task.task)} (${task.key}=${String(task.value)})`;
    let bucket: ObjectStore;
    try {
      bucket = await objm.open(task.results);
    } catch {
      io.log(`${label}: dropped, its sweep is gone (its driver ended)`);
      msg.term('sweep gone');
      return;
    }
    const delivery = msg.info.deliveryCount;
    io.log(`${label}: started${delivery > 1 ? ` (delivery ${delivery})` : ''}`);
    const working = setInterval(() => { msg.working(); }, WORKING_EVERY_MS);
    const t0 = performance.now();
    try {
      const out = await pool.run({ args: task.args, cfg: task.cfg });
      if (io.signal.aborted) return;
      const head = { sweep: task.sweep, task: task.task, worker, delivery, wall_ms: Number((performance.now() - t0).toFixed(3)) };
      const result: QueueResult = out.ok ? { ...head, ok: true, report: out.report } : { ...head, ok: false, error: explain(out.error, replayArgv(task.args)) };
      await bucket.putBlob({ name: resultName(task.task) }, encodeJson(result));
      if (result.ok) {
        await msg.ackAck();
        summary.done++;
        io.log(`${label}: done in ${(head.wall_ms / 1000).toFixed(2)} s`);
      } else {
        msg.term(result.error!.slice(0, 200));
        summary.failed++;
        io.log(`${label}: failed: ${result.error!}`);
      }
    } catch (e) {
      if (io.signal.aborted) return;
      // Gone: the driver removed the bucket. Any other failure (a lost connection) gives the task back; if even
      // the nak is lost, the ack wait hands it out again.
      if (await bucket.status().then(() => false, (err: unknown) => /not found/i.test((err as Error).message))) {
        io.log(`${label}: dropped, its sweep ended meanwhile`);
        msg.term('sweep gone');
        return;
      }
      io.log(`${label}: ${(e as Error).message}; given back to the queue`);
      msg.nak(1000);
      summary.given_back++;
    } finally {
      clearInterval(working);
    }
  };
}
