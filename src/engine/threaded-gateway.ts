/**
 * The ExchangeGateway over the threaded runner: books in shard workers, ledger, R1/R2 and the read model on
 * this thread. `submit` queues the command and starts the drive loop if it is not running; the loop pumps
 * and polls until nothing is outstanding, awaiting (never blocking) the shards' rings, so the event loop
 * keeps serving requests while shards match. A funds command (no book) completes within `submit`; a book
 * command completes when its shard's result has been applied (R2), in global sequence order.
 *
 * Depth comes from a BookMirror kept from the results (the books themselves are in the workers).
 * Observers see every completed command before its own `done`, in sequence order, after the mirror.
 *
 * Failure (see gateway.ts): an engine failure (a shard dies, an invariant breaks inside pump/poll) stops the
 * gateway with EngineStopped: the drive loop ends, every command still queued or in flight is answered at
 * once, later submits too, and `close` terminates the workers. A journal failure stops intake (JournalFailed)
 * but lets what is in flight complete, so nothing is left half-applied.
 */
import type { Clock } from '../core/clock.js';
import type { Command } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { BookMirror } from '../core/exchange/book-mirror.js';
import { bookMarketSpecs, type ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { BookEvents } from '../core/matching/book-events.js';
import { ResultCode } from '../core/result-code.js';
import { addUserCommand, type CommandDone, type ExchangeGateway, GatewayCore, type GatewayStop, type GroupEntry } from './gateway.js';
import type { JournalWriter } from './journal/writer.js';
import type { SnapshotData } from '../protocol/snapshot-codec.js';
import { EngineFailure, ThreadedEngine } from './threaded-engine.js';

export interface ThreadedGatewayOptions {
  /** Shard workers; default 1. Markets are spread over them (market % shards). */
  readonly shards?: number | undefined;
  /** The journal the engine appends to; the gateway closes it. */
  readonly journal?: JournalWriter | undefined;
}

/** Completed commands between voluntary yields of the drive loop to I/O. */
const YIELD_EVERY = 256;
const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class ThreadedGateway extends GatewayCore implements ExchangeGateway {
  readonly engine: ThreadedEngine;
  readonly clock: Clock;
  readonly mirror: BookMirror;
  readonly #none = new BookEvents(1);
  #driving: Promise<void> | undefined;
  #active = false;

  /**
   * Starts shard workers for `def`, or wraps an engine a restart rebuilt (restart.ts) with the mirror kept on
   * the way (its owner routes the engine's failures to this gateway's `stop`).
   */
  constructor(def: ExchangeDefinition, clock: Clock, options: ThreadedGatewayOptions = {}, recovered?: { engine: ThreadedEngine; mirror: BookMirror }) {
    super(options.journal);
    const onFailure = (f: EngineFailure): void => this.stop(ResultCode.EngineStopped, f.message);
    this.engine = recovered?.engine
      ?? ThreadedEngine.start(def, { clock, shards: options.shards ?? 1, journal: options.journal, onFailure });
    this.clock = clock;
    this.mirror = recovered?.mirror ?? new BookMirror(bookMarketSpecs(def).length);
  }

  get exchange(): Exchange {
    return this.engine.exchange;
  }

  submit(cmd: Command, done: CommandDone): void {
    const stop = this.stopped;
    if (stop !== undefined) return done(stop.code, cmd, this.#none);
    const code = this.engine.submit(cmd, this.#completion(done));
    if (code !== ResultCode.Ok) return done(code, cmd, this.#none);
    this.#drive();
  }

  /** The engine callback of a command: the depth mirror, then the observers and `done`. @allocates a closure */
  #completion(done: CommandDone): (code: ResultCode, c: Command, events: BookEvents) => void {
    return (final, c, events) => {
      // The mirror is the read model: an error there is the engine's, not a front's (it stops the gateway).
      if (final === ResultCode.Ok) this.mirror.apply(c, events, this.engine.exchange.orders);
      this.complete(final, c, events, done);
    };
  }

  submitGroup(group: readonly GroupEntry[]): void {
    const stop = this.stopped;
    if (stop !== undefined) {
      for (const [cmd, done] of group) done(stop.code, cmd, this.#none);
      return;
    }
    const code = this.engine.submitGroup(group.map(([c]) => c), group.map(([, done]) => this.#completion(done)));
    if (code !== ResultCode.Ok) {
      for (const [cmd, done] of group) done(code, cmd, this.#none);
      return;
    }
    this.#drive();
  }

  protected onStopped(stop: GatewayStop): void {
    if (this.engine.failure !== undefined) this.engine.abandon(stop.code);
    else this.engine.closeIntake(stop.code);
  }

  depth(market: number, side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    return this.mirror.depth(market, side, limit, prices, lots);
  }

  addUser(uid: number, mainUid: number, done: (code: ResultCode) => void): void {
    this.submit(addUserCommand(uid, mainUid), (code) => done(code));
  }

  async settled(): Promise<void> {
    while (this.#driving !== undefined) await this.#driving;
  }

  async stateHash(): Promise<string> {
    await this.settled();
    return this.engine.stateHash();
  }

  stateAt(): Promise<{ hash: string; seq: number }> {
    return this.engine.stateAt();
  }

  capture(): Promise<SnapshotData> {
    return this.engine.capture({ createdTime: this.clock.nowUs() });
  }

  async close(): Promise<void> {
    await this.settled();
    await this.engine.close();
    await this.closeJournal();
  }

  /** Starts the drive loop unless it runs; its first pump happens now (funds commands complete at once). */
  #drive(): void {
    // The flag is set before the loop's first (synchronous) pump and poll: a submit from a callback they
    // run must only queue, never start a second loop inside the first.
    if (this.#active) return;
    this.#active = true;
    this.#driving = this.#loop().finally(() => {
      this.#active = false;
      this.#driving = undefined;
      // Commands submitted while the finished loop was settling (same tick) still need a pump.
      if (this.engine.outstanding > 0 && this.engine.failure === undefined) this.#drive();
    });
  }

  async #loop(): Promise<void> {
    const e = this.engine;
    let sinceYield = 0;
    try {
      for (;;) {
        const progressed = e.pump() + e.poll();
        if (e.outstanding === 0 || e.failure !== undefined) return;
        sinceYield += progressed;
        if (progressed === 0) {
          // Nothing in flight, yet intake waits: a capture holds it while it asks the shards for their books,
          // an answer only a message event brings. Yield to I/O then; awaiting waitForProgress (which resolves
          // at once with nothing in flight) would spin in microtasks and starve the whole process.
          if (e.inFlight === 0) await yieldToIo();
          else await e.waitForProgress();
        } else if (sinceYield >= YIELD_EVERY) {
          sinceYield = 0;
          await yieldToIo();
        }
      }
    } catch (err) {
      // The engine reported its failures through onFailure (the gateway is stopped). Anything else escaping
      // pump/poll broke the read model (the mirror): stop too, so nothing runs on a state no one trusts.
      if (!(err instanceof EngineFailure)) {
        console.error('ringmatch: the engine drive loop stopped:', err);
        const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        this.#failHard(`the drive loop stopped: ${reason}`);
      }
    }
  }

  /** Marks the engine failed (so it takes nothing more) and stops the gateway. */
  #failHard(reason: string): void {
    this.engine.failNow(new EngineFailure(reason));
    this.stop(ResultCode.EngineStopped, reason);
  }
}
