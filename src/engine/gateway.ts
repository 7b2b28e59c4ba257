/**
 * The boundary between a front (HTTP, control plane, market maker) and an engine runner.
 *
 * Contract:
 * - `submit(cmd, done)` takes the command's fields at the call (the caller may reuse `cmd` afterwards) and
 *   calls `done` exactly once with the final result code, the stamped command and, for book commands, the
 *   book events (both valid during the call only). A runner may call `done` synchronously (inline) or later (threaded).
 * - `exchange` is the read model: whenever no callback is running, it reflects every command whose `done`
 *   has been called. Reads allocate only what the caller renders.
 * - `depth` reads one side of a market's book (levels best first) into the caller's arrays.
 *
 * - `settled()` resolves once every command submitted so far has called its `done`.
 * - `submit` may be called from an observer or a `done` (a trigger placing an order): the command is
 *   queued and runs after the current one, before the outermost `submit` returns (inline) or in intake
 *   order (threaded).
 *
 * InlineGateway runs the InlineEngine: synchronous, deterministic, no threads (tests, replays, the embedded
 * API). ThreadedGateway (threaded-gateway.ts) runs the ThreadedEngine behind the same interface: the
 * simulator's default.
 */
import type { Clock } from '../core/clock.js';
import { Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import type { BookEvents } from '../core/matching/book-events.js';
import type { ResultCode } from '../core/result-code.js';
import { type BookFactory, InlineEngine } from './inline-engine.js';

/** `cmd` carries what the engine stamped (seq, time, a new order's id); it and `events` are valid during the call only. */
export type CommandDone = (code: ResultCode, cmd: Command, events: BookEvents) => void;

export interface ExchangeGateway {
  readonly exchange: Exchange;
  readonly clock: Clock;
  submit(cmd: Command, done: CommandDone): void;
  /** Calls `listener` after every command, before the command's own `done` (market data, logs). */
  observe(listener: CommandDone): void;
  /** Writes up to `limit` levels of `side` of `market` into `prices`/`lots` (ticks, lots); returns the count. */
  depth(market: number, side: number, limit: number, prices: Float64Array, lots: Float64Array): number;
  /** Registers a user (a sub-account of `mainUid` when non-zero) through an AddUser command, so it is journaled. */
  addUser(uid: number, mainUid: number, done: (code: ResultCode) => void): void;
  /** Resolves when every command submitted so far has completed. */
  settled(): Promise<void>;
  stateHash(): Promise<string>;
  close(): Promise<void>;
}

/** The AddUser command of `uid` under `mainUid` (a fresh object: gateways copy it on submit). @allocates */
export function addUserCommand(uid: number, mainUid: number): Command {
  const c = new Command();
  c.type = CommandType.AddUser;
  c.uid = uid;
  c.toUid = mainUid;
  return c;
}

export class InlineGateway implements ExchangeGateway {
  readonly engine: InlineEngine;
  readonly clock: Clock;
  readonly #listeners: CommandDone[] = [];
  /** Commands submitted while another one's callbacks run, with their `done`s (re-entrancy). */
  readonly #queued: [Command, CommandDone][] = [];
  #running = false;

  /** A fresh engine for `def`, or `engine` (e.g. one a journal was replayed into). */
  constructor(def: ExchangeDefinition, clock: Clock, bookFactory?: BookFactory, engine?: InlineEngine) {
    this.engine = engine ?? new InlineEngine(def, { clock, bookFactory });
    this.clock = clock;
  }

  get exchange(): Exchange {
    return this.engine.exchange;
  }

  submit(cmd: Command, done: CommandDone): void {
    if (this.#running) {
      this.#queued.push([new Command().copyFrom(cmd), done]);
      return;
    }
    this.#running = true;
    try {
      this.#apply(cmd, done);
      for (let q = this.#queued.shift(); q !== undefined; q = this.#queued.shift()) this.#apply(q[0], q[1]);
    } finally {
      this.#running = false;
      this.#queued.length = 0;
    }
  }

  #apply(cmd: Command, done: CommandDone): void {
    const code = this.engine.submit(cmd);
    for (const l of this.#listeners) l(code, cmd, this.engine.events);
    done(code, cmd, this.engine.events);
  }

  observe(listener: CommandDone): void {
    this.#listeners.push(listener);
  }

  depth(market: number, side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    return this.engine.books[market]!.depth(side, limit, prices, lots);
  }

  addUser(uid: number, mainUid: number, done: (code: ResultCode) => void): void {
    this.submit(addUserCommand(uid, mainUid), (code) => done(code));
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  stateHash(): Promise<string> {
    return Promise.resolve(this.engine.stateHash());
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
