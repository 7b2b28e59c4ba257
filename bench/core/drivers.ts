/**
 * The engines' drivers and the side-by-side scenarios, built the same way by the in-process run (main.ts) and by
 * the isolated passes (isolated-pass.ts), so a child process replays exactly the stream the parent does.
 *
 * Allocates: every call builds its streams (hundreds of MB for the full-size scenarios); call once per process.
 */
import { defineMarket } from '../../src/core/market.js';
import type { OrderBook } from '../../src/core/matching/order-book.js';
import { generateEc, type EcResult } from './ec-generator.js';
import type { EngineDriver } from './measure.js';
import { nobScenarios } from './nob-scenarios.js';
import { type MoveSemantics, OursRunner, createBook, l2Ours } from './ours-adapter.js';
import { type PeerMoveSemantics, PeerRunner, createPeerBook, l2Peer } from './peer-adapter.js';
import type { CommandStream } from './stream.js';

export const SEED = 1;

export const market = defineMarket({ id: 'BENCH_USD', base: 'BENCH', quote: 'USD', precision: 0, amount_precision: 0 });

/** Counts and passes of a full and of a `--quick` run. */
export const benchConfig = (quick: boolean) => (quick
  ? { warmup: 1, passes: 3, ecCommands: 50_000, pairCommands: 50_000, pairWarmup: 1, pairPasses: 3, resting: 50_000 }
  : { warmup: 3, passes: 10, ecCommands: 3_000_000, pairCommands: 1_000_000, pairWarmup: 2, pairPasses: 6, resting: 1_000_000 });

export type OursDriver = EngineDriver<OrderBook> & { runner: OursRunner; keepAlive: OrderBook };
export type PeerDriver = EngineDriver<ReturnType<typeof createPeerBook>> & {
  runner: PeerRunner;
  keepAlive: ReturnType<typeof createPeerBook>;
};

/** Commands after the pre-fill that a driver's keep-alive book replays. */
const KEEP_ALIVE_COMMANDS = 1000;

/**
 * A small book of the driver's engine that lives as long as the driver, built before anything is timed: the
 * pre-fill and the first KEEP_ALIVE_COMMANDS commands, replayed by a runner of its own (the measured runner's
 * counters are untouched). It keeps the engine's hidden classes alive between passes when a pass replays a single
 * book (see lastBook in measure.ts for why that matters and for passes of several books).
 */
function keepAliveBook<B>(fresh: () => B, replay: (book: B, from: number, to: number) => unknown, s: CommandStream): B {
  const book = fresh();
  replay(book, 0, Math.min(s.length, s.prefill + KEEP_ALIVE_COMMANDS));
  return book;
}

export function oursDriver(s: CommandStream, semantics: MoveSemantics): OursDriver {
  const runner = new OursRunner(s, semantics);
  const own = new OursRunner(s, semantics);
  return {
    engine: 'ringmatch', runner,
    keepAlive: keepAliveBook(() => createBook(market), (b, from, to) => own.run(b, from, to), s),
    fresh: () => createBook(market),
    prefill: (b) => { runner.run(b, 0, s.prefill); },
    run: (b) => runner.run(b, s.prefill, s.length),
    runTimed: (b, rec) => runner.runTimed(b, s.prefill, s.length, rec),
    l2: (b) => { const l = l2Ours(b); return `${l.bids}|${l.asks}`; },
  };
}

export function peerDriver(s: CommandStream, semantics: PeerMoveSemantics): PeerDriver {
  const runner = new PeerRunner(s, semantics);
  const own = new PeerRunner(s, semantics);
  return {
    engine: 'nodejs-order-book', runner,
    keepAlive: keepAliveBook(createPeerBook, (b, from, to) => own.run(b, from, to), s),
    fresh: createPeerBook,
    prefill: (b) => { runner.run(b, 0, s.prefill); },
    run: (b) => runner.run(b, s.prefill, s.length),
    runTimed: (b, rec) => runner.runTimed(b, s.prefill, s.length, rec),
    l2: (b) => { const l = l2Peer(b); return `${l.bids}|${l.asks}`; },
  };
}

/** A side-by-side scenario: one stream, both drivers, the commands one replay times, warm-up and passes. */
export interface PairScenario {
  readonly name: string;
  readonly title: string;
  readonly stream: CommandStream;
  readonly reps: number;
  readonly opsPerRep: number;
  readonly warmup: number;
  readonly passes: number;
  readonly ours: OursDriver;
  readonly peer: PeerDriver;
  /** The EC generator's result (ec-steady, ec-steady-stp): its reference L2 and realised mix. */
  readonly ec?: EcResult;
}

/** The ec-mirror stream: exchange-core's generator, seed SEED, native amend semantics, ringmatch only. */
export const ecMirrorStream = (quick: boolean): EcResult =>
  generateEc(market, { seed: SEED, commands: benchConfig(quick).ecCommands, targetOrders: 1000, users: 1000, semantics: 'native', stp: false });

/** The names of the side-by-side scenarios, in run order. */
export const PAIR_NAMES = ['nob-spam-limits', 'nob-spam-orders', 'nob-spam-cancel', 'nob-occasional-market',
  'nob-constant-market', 'ec-steady', 'ec-steady-stp'] as const;

/** Builds the named side-by-side scenario (S1–S5 from nob-scenarios.ts; ec-steady and ec-steady-stp from the EC generator). */
export function pairScenario(name: string, quick: boolean): PairScenario {
  const cfg = benchConfig(quick);
  if (name === 'ec-steady' || name === 'ec-steady-stp') {
    const stp = name === 'ec-steady-stp';
    const g = generateEc(market, { seed: SEED, commands: cfg.pairCommands, targetOrders: 1000, users: 1000, semantics: 'replace', stp });
    return {
      name, title: name, stream: g.stream, reps: 1, opsPerRep: g.stream.length - g.stream.prefill,
      warmup: cfg.pairWarmup, passes: cfg.pairPasses,
      ours: oursDriver(g.stream, 'replace'), peer: peerDriver(g.stream, stp ? 'replace' : 'modify'), ec: g,
    };
  }
  const sc = nobScenarios(quick, SEED).find((s) => s.name === name);
  if (sc === undefined) throw new Error(`unknown scenario ${name}`);
  return {
    name, title: sc.title, stream: sc.stream, reps: sc.reps, opsPerRep: sc.stream.length, warmup: cfg.warmup, passes: cfg.passes,
    ours: oursDriver(sc.stream, 'native'), peer: peerDriver(sc.stream, 'modify'),
  };
}
