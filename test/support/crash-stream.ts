// What the crash tests share between the process that runs an engine and the one that checks it: the exchange,
// a seeded endless command stream, and a clock that makes a command's time a function of its sequence number.
import type { Clock } from '../../src/core/clock.js';
import type { Command } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { ENGINE_DEFINITION, EngineStream } from './engine-stream.js';

export const CRASH_T0 = 1_767_225_600_000_000;

/** Four markets, so that two shards each own two. */
export const CRASH_DEFINITION: ExchangeDefinition = {
  ...ENGINE_DEFINITION,
  markets: [
    ...ENGINE_DEFINITION.markets,
    { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 2, amount_precision: 1, fee: '0.1' },
    { id: 'BTC_ETH', base: 'BTC', quote: 'ETH', precision: 1, amount_precision: 2, fee: '0.3', maker_fee_rate: '0' },
  ],
};

/**
 * Advances 5 µs on every read. The sequencer reads the clock exactly once per stamp, so the command with
 * sequence k gets time CRASH_T0 + 5k under any runner and any scheduling; `ticks` resumes after a known seq.
 */
export class TickClock implements Clock {
  #ticks: number;
  constructor(ticks = 0) {
    this.#ticks = ticks;
  }
  nowUs(): number {
    return CRASH_T0 + 5 * ++this.#ticks;
  }
}

/** The seeded stream: opening deposits, then random commands spread over the four markets. Endless. */
export function* crashStream(seed: number): Generator<Command> {
  const s = new EngineStream(seed);
  yield* s.openings();
  for (let i = 0; ; i++) {
    const c = s.next();
    c.market = (c.market * 2 + (i % 2)) % 4;
    yield c;
  }
}

/** The first `n` commands of `crashStream(seed)`. @allocates */
export function crashPrefix(seed: number, n: number): Command[] {
  const out: Command[] = [];
  for (const c of crashStream(seed)) {
    if (out.length === n) break;
    out.push(c);
  }
  return out;
}
