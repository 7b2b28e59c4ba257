/**
 * Parameter sweeps: `--sweep key=v1,v2,…` runs one replay per value of a config field (a dotted path, e.g.
 * `latency.entry.us`, `market.maker_fee_rate`, `queue.model`, `seed`) and returns every run's report plus a
 * comparison table. Values that read as numbers are numbers, others strings. Runs are independent and
 * deterministic, so the table does not depend on where they ran: on a local piscina pool of `--workers`
 * threads (`runSweep`), or on sweep-worker processes behind a JetStream work queue (`--queue`,
 * ./sweep-driver.ts). With `--out DIR`, each run's JSON report is written there as run-<k>.json; with
 * `--html DIR`, its HTML report as run-<k>.html (the two may be the same directory).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ConfigError } from '../core/invariant.js';
import { renderHtml } from './html-report.js';
import type { ReplayArgs } from './replay-args.js';
import { type ReplayConfig, withField } from './replay-config.js';
import { reportJson, type ReplayReport } from './report.js';
import type { SweepTask } from './sweep.worker.js';

export interface SweepRun {
  readonly value: unknown;
  readonly report: ReplayReport;
}

/** Where each run of a `--queue` sweep ran (absent from local sweeps). */
export interface QueueSummary {
  /** The sweep id: it names the task subject and the results bucket. */
  readonly id: string;
  /** Deliveries beyond the first (a worker died or gave a task back before it finished). */
  readonly redelivered: number;
  /** Per run, in order: the worker whose result was kept, its delivery number and the replay's wall time. */
  readonly tasks: readonly { readonly task: number; readonly worker: string; readonly delivery: number; readonly wall_ms: number }[];
}

export interface SweepResult {
  readonly sweep: string;
  /** The local pool's size; for a `--queue` sweep, the number of distinct workers whose results were kept. */
  readonly workers: number;
  readonly runs: readonly SweepRun[];
  /** One row per run: the value, state hash, events and per-user fill ratio, fees and PnL. */
  readonly table: readonly Record<string, unknown>[];
  readonly wall_ms: number;
  readonly events_per_sec: number;
  readonly queue?: QueueSummary;
}

/** The runs of a sweep: the field, its values and one task (replay arguments and config) per value, in order. */
export interface SweepPlan {
  readonly key: string;
  readonly values: readonly unknown[];
  readonly tasks: readonly SweepTask[];
}

export function parseSweep(spec: string): { key: string; values: unknown[] } {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw new ConfigError(`--sweep "${spec}": expected key=v1,v2,…`);
  const key = spec.slice(0, eq);
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/.test(key)) throw new ConfigError(`--sweep: "${key}" is not a config field path`);
  const values = spec.slice(eq + 1).split(',').map((v) => (/^-?[0-9]+(\.[0-9]+)?$/.test(v) && !/^-?0[0-9]/.test(v) && key !== 'market.fee' && key !== 'market.maker_fee_rate' ? Number(v) : v));
  return { key, values };
}

/**
 * The tasks of the sweep `args.sweep` over `base`: each run's arguments are the sweep's without the sweep
 * itself, the output files, the pool or the queue (a run prints one JSON report), and its config is `base`
 * with the field set to the run's value. @allocates
 */
export function planSweep(args: ReplayArgs, base: ReplayConfig): SweepPlan {
  const { key, values } = parseSweep(args.sweep!);
  const one: ReplayArgs = { ...args, json: true };
  for (const k of ['sweep', 'workers', 'out', 'html', 'queue', 'queueTimeout'] as const) delete one[k];
  return { key, values, tasks: values.map((v) => ({ args: one, cfg: withField(base, key, v) })) };
}

/** The piscina file of sweep tasks: the built JavaScript, or the TypeScript loader when running from sources. */
export function sweepWorkerFile(): string {
  const js = new URL('./sweep.worker.js', import.meta.url);
  return fileURLToPath(existsSync(js) ? js : new URL('./sweep.worker.mjs', import.meta.url));
}

/** Runs the sweep `args.sweep` over `base` on `workers` threads. @allocates */
export async function runSweep(args: ReplayArgs, base: ReplayConfig, workers: number): Promise<SweepResult> {
  const plan = planSweep(args, base);
  const pool = new Piscina<SweepTask, ReplayReport>({ filename: sweepWorkerFile(), minThreads: workers, maxThreads: workers });
  const t0 = performance.now();
  try {
    const reports = await Promise.all(plan.tasks.map((t) => pool.run(t)));
    return await sweepResult(args, plan, reports, performance.now() - t0, workers);
  } finally {
    await pool.destroy();
  }
}

/**
 * The result of a sweep whose runs gave `reports` (in the plan's order) in `wallMs`: writes the per-run files
 * `--out` and `--html` ask for and builds the comparison table. Shared by local and queue sweeps, so both
 * print the same table from the same reports. @allocates
 */
export async function sweepResult(args: ReplayArgs, plan: SweepPlan, reports: readonly ReplayReport[], wallMs: number, workers: number,
  queue?: QueueSummary): Promise<SweepResult> {
  const runs = plan.values.map((value, k) => ({ value, report: reports[k]! }));
  for (const [dir, ext, render] of [[args.out, 'json', reportJson], [args.html, 'html', renderHtml]] as const) {
    if (dir === undefined) continue;
    await mkdir(dir, { recursive: true });
    for (const [k, r] of runs.entries()) await writeFile(join(dir, `run-${k}.${ext}`), render(r.report));
  }
  const events = reports.reduce((a, r) => a + r.events, 0);
  return {
    sweep: plan.key, workers, runs, table: runs.map(row), wall_ms: Number(wallMs.toFixed(3)), events_per_sec: Math.round(events / (wallMs / 1000)),
    ...(queue === undefined ? {} : { queue }),
  };
}

function row(run: SweepRun): Record<string, unknown> {
  const users = (run.report.result.users ?? []) as Record<string, unknown>[];
  return {
    value: run.value, state_hash: run.report.state_hash, events: run.report.events,
    users: users.map((u) => ({ uid: u.uid, fill_ratio: u.fill_ratio, maker_fills: u.maker_fills, taker_fills: u.taker_fills, fees: u.fees, pnl: u.pnl })),
  };
}

/** The comparison table as text: a header line (where and how fast it ran), then the Markdown table. */
export function sweepText(r: SweepResult): string {
  const where = r.queue === undefined ? '' : ` (queue sweep ${r.queue.id}${r.queue.redelivered > 0 ? `, ${r.queue.redelivered} redelivered` : ''})`;
  const lines = [`sweep ${r.sweep} over ${r.runs.length} runs on ${r.workers} workers${where}: ${(r.wall_ms / 1000).toFixed(3)} s, ${r.events_per_sec.toLocaleString('en-US')} events/s`];
  lines.push('| value | state hash | events | uid | fill ratio | maker / taker fills | fees | PnL |', '|---|---|---:|---:|---:|---|---|---:|');
  for (const t of r.table) {
    const users = t.users as Record<string, unknown>[];
    if (users.length === 0) lines.push(`| ${String(t.value)} | ${String(t.state_hash)} | ${String(t.events)} | | | | | |`);
    for (const u of users) {
      lines.push(`| ${String(t.value)} | ${String(t.state_hash)} | ${String(t.events)} | ${String(u.uid)} | ${String(u.fill_ratio)} | `
        + `${String(u.maker_fills)} / ${String(u.taker_fills)} | ${JSON.stringify(u.fees)} | ${String(u.pnl)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
