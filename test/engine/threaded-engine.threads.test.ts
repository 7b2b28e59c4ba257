// The threaded runner (market shards in worker threads over SAB rings) produces the same results and the
// same state hash as the inline runner on the same command stream, with 1, 2 and 4 shards.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import type { Command } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';
import { submitThreaded } from '../support/threaded-replay.js';

const T0 = 1_767_225_600_000_000;

/** Four markets so that shards have work of their own. */
const DEF: ExchangeDefinition = {
  ...ENGINE_DEFINITION,
  markets: [
    ...ENGINE_DEFINITION.markets,
    { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 2, amount_precision: 1, fee: '0.1' },
    { id: 'BTC_ETH', base: 'BTC', quote: 'ETH', precision: 1, amount_precision: 2, fee: '0.3', maker_fee_rate: '0' },
  ],
};

function stream(seed: number, n: number): Command[] {
  const s = new EngineStream(seed);
  const out = [...s.openings()];
  for (let i = 0; i < n; i++) {
    const c = s.next();
    c.market = (c.market * 2 + (i % 2)) % 4;
    out.push(c);
  }
  return out;
}

describe('ThreadedEngine', () => {
  const commands = stream(11, 100_000);
  const clockTimes = commands.map((_, i) => T0 + i * 5);

  const inline = (() => {
    const clock = new SimClock(T0);
    const e = new InlineEngine(DEF, { clock });
    const codes = commands.map((c, i) => { clock.advanceTo(clockTimes[i]!); return e.submit(c); });
    return { codes, hash: e.stateHash(), trades: e.exchange.trades.count };
  })();

  it.each([1, 2, 4])('matches the inline runner on 100k commands with %i shard(s)', async (shards) => {
    const clock = new SimClock(T0);
    const engine = ThreadedEngine.start(DEF, { clock, shards, commandRing: 256, eventRing: 512, intake: 1024 });
    try {
      const codes = await submitThreaded(engine, commands.length, (k) => {
        clock.advanceTo(clockTimes[k]!);
        return commands[k]!;
      }, 60_000);
      expect(codes).toEqual(inline.codes);
      expect(engine.exchange.trades.count).toBe(inline.trades);
      expect(await engine.stateHash()).toBe(inline.hash);
    } finally {
      await engine.close();
    }
  });
});
