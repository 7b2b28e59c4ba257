/**
 * `replay` command: runs one replay (or a sweep) and prints the report. With `--json`, stdout receives
 * exactly one JSON document and nothing else; otherwise a short summary (./replay-summary.ts). The progress
 * bar goes to stderr, only on a terminal and never with `--json`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidRows } from './csv/invalid-rows.js';
import { renderHtml } from './html-report.js';
import { replayJournal } from './journal-replay.js';
import { replayLobster } from './lobster-replay.js';
import { gateInputs, tardisInputs } from './md-inputs.js';
import { runMarketReplay } from './md-replay.js';
import { Progress } from './progress.js';
import type { ReplayArgs } from './replay-args.js';
import { readReplayConfig, type ReplayConfig } from './replay-config.js';
import { reportJson, type ReplayReport } from './report.js';
import { reportsLine, summary } from './replay-summary.js';
import { loadStrategy, type Strategy } from './strategy.js';

export interface ReplayIo {
  readonly stdout: { write(s: string): boolean };
  readonly stderr: { readonly isTTY?: boolean; write(s: string): boolean };
  /** A `--queue` sweep stops waiting when it is aborted (SIGINT), removing its tasks from the queue. */
  readonly signal?: AbortSignal;
}

/** Runs the replay `args` describe; returns its report. */
export async function runReplay(args: ReplayArgs, io: ReplayIo): Promise<ReplayReport> {
  const progress = new Progress(io.stderr, !args.json);
  if (args.sweep !== undefined) {
    const { runSweep, sweepText } = await import('./sweep.js');
    const result = args.queue === undefined
      ? await runSweep(args, configOf(args), args.workers ?? 2)
      : await (await import('./sweep-driver.js')).runQueueSweep(args, configOf(args), { stderr: io.stderr, signal: io.signal });
    io.stdout.write(args.json ? `${JSON.stringify(result)}\n` : sweepText(result) + sweepFiles(args));
    return result.runs[0]!.report;
  }
  const report = await replayByFormat(args, progress);
  if (args.out !== undefined) await writeFile(args.out, reportJson(report));
  if (args.html !== undefined) await writeFile(args.html, renderHtml(report));
  if (args.json) io.stdout.write(reportJson(report));
  else io.stdout.write(summary(report, { json: args.out, html: args.html }));
  return report;
}

/** Where a sweep wrote its reports (run-<k>.json in the `--out` directory, run-<k>.html in the `--html` one). */
function sweepFiles(args: ReplayArgs): string {
  const json = args.out === undefined ? undefined : join(args.out, 'run-<k>.json');
  const html = args.html === undefined ? undefined : join(args.html, 'run-<k>.html');
  return `${reportsLine({ json, html })}\n`;
}

/** The config file (if any) with `--seed` applied; `--ticker` makes it a perpetual's (a `contract` section). */
export function configOf(args: ReplayArgs): ReplayConfig {
  const file = args.config === undefined ? {} : readReplayConfig(args.config);
  const cfg = args.ticker === undefined || file.contract !== undefined ? file : { ...file, contract: {} };
  return args.seed === undefined ? cfg : { ...cfg, seed: args.seed };
}

/** A fresh counter of skipped rows with `--skip-invalid`, else undefined (strict). */
export function invalidRowsOf(args: ReplayArgs): InvalidRows | undefined {
  return args.skipInvalid === true ? new InvalidRows() : undefined;
}

async function strategyOf(args: ReplayArgs, cfg: ReplayConfig): Promise<Strategy | undefined> {
  const module = args.strategy ?? cfg.strategy?.module;
  return module === undefined ? undefined : loadStrategy(module, cfg.strategy?.options ?? {});
}

async function replayByFormat(args: ReplayArgs, progress: Progress): Promise<ReplayReport> {
  if (args.format === 'journal') return (await replayJournal(args.journal!, progress)).report;
  return replayOnce(args, configOf(args), progress);
}

/** One replay of `args`' inputs under `cfg` (journal replays ignore `cfg`). Used by sweeps on pool threads. */
export async function replayOnce(args: ReplayArgs, cfg: ReplayConfig, progress?: Progress): Promise<ReplayReport> {
  switch (args.format) {
    case 'journal': return (await replayJournal(args.journal!, progress)).report;
    case 'lobster': return (await replayLobster(args.messages!, cfg, progress, invalidRowsOf(args))).report;
    default: break;
  }
  const strategy = await strategyOf(args, cfg);
  const withModule = args.strategy === undefined ? cfg : { ...cfg, strategy: { ...cfg.strategy, module: args.strategy } };
  const invalid = invalidRowsOf(args);
  const inputs = args.format === 'tardis'
    ? await tardisInputs(args.trades!, args.book!, cfg, invalid, args.ticker)
    : await gateInputs(args.gateKind!, args.trades!, args.book!, cfg, invalid, args.ticker);
  return (await runMarketReplay(inputs, withModule, strategy, progress)).report;
}
