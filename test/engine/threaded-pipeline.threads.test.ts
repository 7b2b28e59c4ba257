// The threaded runner under pipelining as the server drives it: commands of every kind (test/support/
// pipeline-stream.ts) submitted in random bursts before the shards answer, with polls at random points, so
// R1 of later commands runs ahead of R2 of earlier ones (back-to-back amends of one order included). It must
// give the inline runner's codes, state hash and invariants with 1, 2 and 4 shards, and the same state hash at
// checkpoints along the way. `npm run soak:engine` runs the same comparison on longer streams and more seeds.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { Command } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import { generatePipeline, PIPE_DEFINITION, PipelineGenerator, StepClock } from '../support/pipeline-stream.js';
import { PipelineDriver, runThreadedPipeline, T0_PIPE, STEP_PIPE } from '../support/pipeline-driver.js';

const N = 30_000;

describe('ThreadedEngine under pipelining', () => {
  for (const seed of [1, 2]) {
    const inline = (() => {
      const e = new InlineEngine(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE) });
      const g = generatePipeline(seed, N, e);
      e.assertInvariants();
      return { ...g, hash: e.stateHash(), trades: e.exchange.trades.count };
    })();

    it.each([1, 2, 4])(`seed ${seed}: gives the inline codes, trades and state hash with %i shard(s)`, async (shards) => {
      const r = await runThreadedPipeline(inline.commands, shards, new Prng(seed * 7919 + shards), 60_000);
      const first = r.codes.findIndex((c, i) => c !== inline.codes[i]);
      expect(first, first < 0 ? '' : `command ${first} (type ${inline.commands[first]!.type}): threaded ${r.codes[first]} inline ${inline.codes[first]}`).toBe(-1);
      expect(r.trades).toBe(inline.trades);
      expect(r.hash).toBe(inline.hash);
      expect(r.failure).toBeUndefined();
    });
  }

  it('agrees with the inline runner at every checkpoint, not only at the end (a divergence can heal later)', async () => {
    const inline = new InlineEngine(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE) });
    const gen = new PipelineGenerator(2, inline);
    const driver = new PipelineDriver(1, new Prng(2));
    try {
      let at = 0;
      for (let chunk = gen.openings(); at < 10_000; chunk = gen.next(250)) {
        const codes: number[] = [];
        await driver.feed(chunk.commands, codes, 0, Date.now() + 60_000);
        at += chunk.commands.length;
        expect(codes).toEqual(chunk.codes);
        expect(await driver.engine.stateHash(), `after command ${at - 1}`).toBe(inline.stateHash());
      }
    } finally {
      await driver.close();
    }
  });

  it('a state hash taken under load covers exactly the commands up to the seq it reports', async () => {
    const e = new InlineEngine(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE) });
    const { commands } = generatePipeline(6, 8_000, e);
    const engine = ThreadedEngine.start(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE), shards: 2, commandRing: 256, eventRing: 1024, intake: 2048 });
    const samples: Promise<{ hash: string; seq: number }>[] = [];
    try {
      let i = 0;
      while (i < commands.length) {
        for (let b = 0; b < 40 && i < commands.length; b++) {
          if (engine.submit(commands[i]!) === ResultCode.Busy) { await engine.run(); break; }
          i++;
        }
        engine.pump();
        engine.poll();
        // Hashes asked for while commands keep arriving, not after the engine went idle.
        if (i % 1_000 < 40) samples.push(engine.stateAt());
        if (i % 200 < 40) await new Promise((r) => setImmediate(r));
      }
      await engine.run();
      const got = await Promise.all(samples);
      expect(got.length).toBeGreaterThan(4);
      const want = new Map(got.map((g) => [g.seq, '']));
      const oracle = new InlineEngine(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE) });
      if (want.has(0)) want.set(0, oracle.stateHash());
      for (const c of commands) {
        oracle.submit(new Command().copyFrom(c));
        if (want.has(oracle.sequencer.lastSeq)) want.set(oracle.sequencer.lastSeq, oracle.stateHash());
      }
      for (const g of got) expect(g.hash, `seq ${g.seq}`).toBe(want.get(g.seq));
    } finally {
      await engine.close();
    }
  });

  it('the stream reaches the books with amends of one order back to back (the case that used to break R2)', () => {
    const e = new InlineEngine(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE) });
    const { commands, codes } = generatePipeline(3, 5_000, e);
    let amendsOk = 0;
    let backToBack = 0;
    for (let i = 1; i < commands.length; i++) {
      if (commands[i]!.type !== 2) continue;
      if (codes[i] === 0) amendsOk++;
      if (commands[i - 1]!.type === 2 && commands[i - 1]!.orderId === commands[i]!.orderId) backToBack++;
    }
    expect(amendsOk).toBeGreaterThan(200);
    expect(backToBack).toBeGreaterThan(100);
  });
});
