// Drives a ThreadedEngine the way the server does: bursts of submits before any result is read, pumps and
// polls at random points, awaits only when nothing can move. Shared by the pipelining test (one stream in
// one feed) and `npm run soak:engine` (long streams fed chunk by chunk, so no stream is ever held whole).
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

/**
 * A fresh threaded engine over PIPE_DEFINITION (StepClock from T0_PIPE), fed in any number of `feed` calls;
 * across calls it is one stream (the engine drains at the end of each call, nothing else differs).
 */
export class PipelineDriver {
  readonly engine: ThreadedEngine;
  readonly #rng: Prng;

  constructor(shards: number, rng: Prng) {
    this.engine = ThreadedEngine.start(PIPE_DEFINITION, {
      clock: new StepClock(T0_PIPE, STEP_PIPE), shards, commandRing: 256, eventRing: 1024, intake: 2048,
    });
    this.#rng = rng;
  }

  /**
   * Submits `commands` in random bursts and drains; `codes[offset + k]` gets command k's result code.
   * Throws the engine's failure, or an Error once the wall clock passes `deadline` (ms since the epoch).
   */
  async feed(commands: readonly Command[], codes: number[], offset: number, deadline: number): Promise<void> {
    const engine = this.engine;
    const rng = this.#rng;
    let i = 0;
    while (i < commands.length) {
      if (Date.now() > deadline) throw new Error(`pipeline run over its time budget at command ${offset + i}`);
      const burst = 1 + rng.nextInt(48);
      for (let b = 0; b < burst && i < commands.length; b++) {
        const k = offset + i;
        if (engine.submit(commands[i]!, (code) => { codes[k] = code; }) === ResultCode.Busy) {
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
  }

  /** Checks the exchange's invariants (throws InvariantError) and returns the state hash. @allocates */
  async check(): Promise<{ hash: string; trades: number; failure: Error | undefined }> {
    await this.engine.run();
    this.engine.exchange.assertInvariants();
    return { hash: await this.engine.stateHash(), trades: this.engine.exchange.trades.count, failure: this.engine.failure };
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}

/** Applies `commands` through a fresh threaded engine with `shards` shards; bounded by `budgetMs`. @allocates */
export async function runThreadedPipeline(commands: readonly Command[], shards: number, rng: Prng, budgetMs: number): Promise<PipelineRun> {
  const driver = new PipelineDriver(shards, rng);
  const codes = new Array<number>(commands.length).fill(Number.NaN);
  try {
    await driver.feed(commands, codes, 0, Date.now() + budgetMs);
    return { codes, ...(await driver.check()) };
  } finally {
    await driver.close();
  }
}
