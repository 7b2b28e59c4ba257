/**
 * Which runner serves when the config leaves `engine.runner` out (or says "auto"): the threaded runner on a
 * machine with at least AUTO_THREADED_CORES cores, else the inline one.
 *
 * Why: the threaded runner keeps the HTTP front and the ledger on the main thread and the books on shard
 * workers; it gains only when those threads have cores of their own, with room left for the clients and the
 * kernel. On two cores the inline runner was faster in every measured row (README, Benchmarks: HTTP
 * front 26,738 against 21,092 signed requests/s; engine 1.89M against 1.33M commands/s), since the shard
 * worker and the front share one core there. Where cores are plenty, books in workers scale with them.
 */
import os from 'node:os';

export type RunnerSetting = 'threaded' | 'inline' | 'auto';

/** Cores from which "auto" picks the threaded runner. */
export const AUTO_THREADED_CORES = 4;

/** The runner `setting` (absent: auto) stands for on a machine with `cores` cores. */
export function resolveRunner(setting: RunnerSetting | undefined, cores: number = os.availableParallelism()): 'threaded' | 'inline' {
  if (setting === 'threaded' || setting === 'inline') return setting;
  return cores >= AUTO_THREADED_CORES ? 'threaded' : 'inline';
}
