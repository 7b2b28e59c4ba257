/**
 * Piscina tasks of a parameter sweep: one replay with one configuration. Stateless. Loaded through
 * `sweep.worker.mjs` when running from TypeScript sources (see ../engine/snapshot/snapshotter.ts for why).
 * - `default`: the report, or a rejection (a local sweep fails as a single replay would).
 * - `queueTask` (a sweep-worker's): never rejects for the replay's own errors; it returns the error's name,
 *   message, code and path, which a structured clone of the Error would drop, so the worker can name the file
 *   that is missing on its machine.
 */
import type { ReplayArgs } from './replay-args.js';
import { replayOnce } from './replay-command.js';
import type { ReplayConfig } from './replay-config.js';
import type { ReplayReport } from './report.js';

export interface SweepTask {
  readonly args: ReplayArgs;
  readonly cfg: ReplayConfig;
}

/** What a failed replay threw, in plain fields. */
export interface TaskError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly path?: string;
}

export type TaskOutcome = { readonly ok: true; readonly report: ReplayReport } | { readonly ok: false; readonly error: TaskError };

export default function sweepTask(task: SweepTask): Promise<ReplayReport> {
  return replayOnce(task.args, task.cfg);
}

export async function queueTask(task: SweepTask): Promise<TaskOutcome> {
  try {
    return { ok: true, report: await replayOnce(task.args, task.cfg) };
  } catch (e) {
    const err: NodeJS.ErrnoException = e instanceof Error ? e : new Error(String(e));
    return {
      ok: false,
      error: { name: err.name, message: err.message, ...(typeof err.code === 'string' ? { code: err.code } : {}), ...(typeof err.path === 'string' ? { path: err.path } : {}) },
    };
  }
}
