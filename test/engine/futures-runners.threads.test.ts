// The threaded runner on a futures stream: the seeded stream of test/core/futures/futures-stream.ts (generated
// against the inline runner, its oracle) submitted to a ThreadedEngine with 1 and 2 shards gives the same result
// codes, the same futures state and the same state hash. Futures commands are serial in the threaded runner.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { FuturesStream, openStream, STREAM_USERS } from '../core/futures/futures-stream.js';
import { FuturesDriver, futuresDefinition, T0 } from '../support/futures-driver.js';
import { StepClock } from '../support/pipeline-stream.js';
import { recordCodes, replayThreaded } from '../support/threaded-replay.js';

const STEP = 60_000_000;
const DEF = futuresDefinition(STREAM_USERS.length);

describe('ThreadedEngine on futures', () => {
  // The oracle: the inline run that generates the stream; codes as the inline runner answered them.
  const d = new FuturesDriver(DEF, { clock: new StepClock(T0, STEP), record: true });
  const codes = recordCodes(d);
  openStream(d);
  const s = new FuturesStream(d, new Prng(31));
  for (let i = 0; i < 2500; i++) s.step();
  const hash = d.engine.stateHash();

  it.each([1, 2])('reaches the inline state hash with %i shard(s)', async (shards) => {
    expect(s.stats.liquidate?.[0] ?? 0).toBeGreaterThan(0);
    const engine = ThreadedEngine.start(DEF, { clock: new StepClock(T0, STEP), shards });
    try {
      const got = await replayThreaded(engine, d.sent, 60_000);
      expect(got).toEqual(codes);
      expect(engine.exchange.futures.exportData()).toEqual(d.ex.futures.exportData());
      expect(await engine.stateHash()).toBe(hash);
    } finally {
      await engine.close();
    }
  });
});
