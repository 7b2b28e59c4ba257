// Drives a ThreadedEngine the way the server does: bursts of submits before any result is read, pumps and
// polls at random points, awaits only when nothing can move. Shared by the pipelining test and soak:engine.
import type { Command } from '../../src/core/command.js';
import type { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { PIPE_DEFINITION, StepClock } from './pipeline-stream.js';

export const T0_PIPE = 1_767_225_600_000_000;
/** 0.2 s per command: interest accrues every 18,000 commands. */
export const STEP_PIPE = 200_000;

export interface PipelineRun {
  readonly codes: number[];
  readonly hash: string;
  readonly trades: number;
  readonly failure: Error | undefined;
}

/** Applies `commands` through a fresh threaded engine with `shards` shards; bounded by `budgetMs`. @allocates */
export async function runThreadedPipeline(commands: readonly Command[], shards: number, rng: Prng, budgetMs: number): Promise<PipelineRun> {
  const engine = ThreadedEngine.start(PIPE_DEFINITION, {
    clock: new StepClock(T0_PIPE, STEP_PIPE), shards, commandRing: 256, eventRing: 1024, intake: 2048,
  });
  const codes = new Array<number>(commands.length).fill(Number.NaN);
  const deadline = Date.now() + budgetMs;
  try {
    let i = 0;
    while (i < commands.length) {
      if (Date.now() > deadline) throw new Error(`pipeline run over ${budgetMs} ms at command ${i}`);
      const burst = 1 + rng.nextInt(48);
      for (let b = 0; b < burst && i < commands.length; b++) {
        const k = i;
        if (engine.submit(commands[k]!, (code) => { codes[k] = code; }) === ResultCode.Busy) {
          if (engine.failure !== undefined) throw engine.failure;
          await engine.run();
          break;
        }
        i++;
      }
      engine.pump();
      if (rng.chance(0.6)) engine.poll();
      if (rng.chance(0.03)) await engine.waitForProgress();
    }
    await engine.run();
    engine.exchange.assertInvariants();
    return { codes, hash: await engine.stateHash(), trades: engine.exchange.trades.count, failure: engine.failure };
  } finally {
    await engine.close();
  }
}
