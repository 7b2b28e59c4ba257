/**
 * Piscina task of a parameter sweep: one replay with one configuration. Stateless. Loaded through
 * `sweep.worker.mjs` when running from TypeScript sources (see ../engine/snapshot/snapshotter.ts for why).
 */
import type { ReplayArgs } from './replay-args.js';
import { replayOnce } from './replay-command.js';
import type { ReplayConfig } from './replay-config.js';
import type { ReplayReport } from './report.js';

export interface SweepTask {
  readonly args: ReplayArgs;
  readonly cfg: ReplayConfig;
}

export default function sweepTask(task: SweepTask): Promise<ReplayReport> {
  return replayOnce(task.args, task.cfg);
}
