// Delivery through expiry on every runner: the linear scenario (trades, delisting, index samples, cancels,
// settlement) run inline is the oracle; the same commands at the same times replayed on a fresh inline engine
// and on the threaded runner (1 and 2 shards) give the same result codes, futures state and state hash.
import { describe, expect, it } from 'vitest';
import { Command } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { deliveryDefinition, linearScenario, ListClock, RecordingClock } from '../core/futures/delivery-helpers.js';
import { FuturesDriver } from '../support/futures-driver.js';
import { recordCodes, replayThreaded } from '../support/threaded-replay.js';

const DEF = deliveryDefinition();

describe('delivery settlement on every runner', () => {
  const clock = new RecordingClock();
  const d = new FuturesDriver(DEF, { clock, record: true });
  const codes = recordCodes(d);
  linearScenario(d, clock);
  const hash = d.engine.stateHash();

  it('has settled (the oracle is not trivial)', () => {
    expect(d.ex.futures.settlements.length).toBe(3);
    expect(codes).toContain(ResultCode.ContractInDelisting);
  });

  it('a replay of the commands on a fresh inline engine reaches the same state hash', () => {
    const r = new FuturesDriver(DEF, { clock: new ListClock(clock.given) });
    const got = d.sent.map((c) => r.submit(new Command().copyFrom(c)));
    expect(got).toEqual(codes);
    expect(r.ex.futures.exportData()).toEqual(d.ex.futures.exportData());
    expect(r.engine.stateHash()).toBe(hash);
  });

  it.each([1, 2])('the threaded runner with %i shard(s) reaches the same state hash', async (shards) => {
    const engine = ThreadedEngine.start(DEF, { clock: new ListClock(clock.given), shards });
    try {
      const got = await replayThreaded(engine, d.sent, 30_000);
      expect(got).toEqual(codes);
      expect(engine.exchange.futures.exportData()).toEqual(d.ex.futures.exportData());
      expect(await engine.stateHash()).toBe(hash);
    } finally {
      await engine.close();
    }
  });
});
