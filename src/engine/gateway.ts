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
 * - Durability: with a journal, `output` (OutputGate) holds every reply and push until the journal covers
 *   what it shows; fronts send through it. Without one it passes everything through.
 * - Failure is loud and safe: an invariant broken while a command is applied (a bug: state may be
 *   half-applied), a shard worker that dies, or a journal write/sync error stops intake for good. From then
 *   on `stopped` says why, every submit answers its code at once (EngineStopped or JournalFailed, 503
 *   TOO_BUSY), commands still queued or in flight are answered with it too, reads keep working, the stop
 *   listeners are told once, and `close()` never hangs. After a journal failure, a command that completes
 *   but did not become durable is answered JournalFailed, whatever it did in memory. A restart recovers the
 *   journaled state.
 * - A `done` or observer that throws is a bug of its front: it is logged and the engine goes on (the
 *   command is not applied twice).
 *
 * InlineGateway runs the InlineEngine: synchronous, deterministic, no threads (tests, replays, the embedded
 * API). ThreadedGateway (threaded-gateway.ts) runs the ThreadedEngine behind the same interface: the
 * simulator's default.
 */
import type { Clock } from '../core/clock.js';
import { Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { BookEvents } from '../core/matching/book-events.js';
import { ResultCode } from '../core/result-code.js';
import { type BookFactory, InlineEngine } from './inline-engine.js';
import type { JournalWriter } from './journal/writer.js';
import { OutputGate } from './output-gate.js';
import type { SnapshotData } from '../protocol/snapshot-codec.js';
import { captureSnapshot } from './snapshot/capture.js';

/** `cmd` carries what the engine stamped (seq, time, a new order's id); it and `events` are valid during the call only. */
export type CommandDone = (code: ResultCode, cmd: Command, events: BookEvents) => void;

/** One command of a group and its callback. */
export type GroupEntry = readonly [Command, CommandDone];

/** Why a gateway stopped taking commands. */
export interface GatewayStop {
  /** What submits answer now: EngineStopped or JournalFailed. */
  readonly code: ResultCode;
  /** One line: what broke and where (the journal's file and errno, the broken invariant). */
  readonly reason: string;
  /** Wall-clock ms when it stopped. */
  readonly atMs: number;
}

export interface ExchangeGateway {
  readonly exchange: Exchange;
  readonly clock: Clock;
  /** Holds replies and pushes until the journal covers what they show (see OutputGate). */
  readonly output: OutputGate;
  /** The journal commands are appended to, if any. */
  readonly journal: JournalWriter | undefined;
  /** Why intake stopped, or undefined while the gateway takes commands. */
  readonly stopped: GatewayStop | undefined;
  submit(cmd: Command, done: CommandDone): void;
  /**
   * Submits commands that belong together as one journal group: after a crash, either all of them are
   * recovered or none (journal/format.ts). Each is applied as if submitted alone (one failing does not stop
   * the others) and gets its own `done`. Nothing else is sequenced between them.
   */
  submitGroup(group: readonly GroupEntry[]): void;
  /** Calls `listener` after every command, before the command's own `done` (market data, logs). */
  observe(listener: CommandDone): void;
  /** Calls `listener` once when intake stops (see GatewayStop). */
  onStop(listener: (stop: GatewayStop) => void): void;
  /** Writes up to `limit` levels of `side` of `market` into `prices`/`lots` (ticks, lots); returns the count. */
  depth(market: number, side: number, limit: number, prices: Float64Array, lots: Float64Array): number;
  /** Registers a user (a sub-account of `mainUid` when non-zero) through an AddUser command, so it is journaled. */
  addUser(uid: number, mainUid: number, done: (code: ResultCode) => void): void;
  /** Resolves when every command submitted so far has completed. */
  settled(): Promise<void>;
  /** The state hash once every command submitted so far has completed. */
  stateHash(): Promise<string>;
  /**
   * The state hash now, at a quiet point between commands, and the seq of the last command it covers: what a
   * replay of the journal up to `seq` must reach. Unlike `stateHash` it does not wait for the gateway to go
   * idle (which a server under load never does).
   */
  stateAt(): Promise<{ hash: string; seq: number }>;
  /**
   * The whole state after the last command applied, for a snapshot, taken between commands (and journal
   * groups); `createdTime` is the engine clock's. The threaded runner pauses intake while its shards copy
   * their books. @allocates
   */
  capture(): Promise<SnapshotData>;
  /** Completes what it can, stops the engine and closes the journal. Never hangs on a stopped gateway. */
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

/**
 * What both gateways share: the journal, the output gate, the stop state and its listeners, and the
 * isolation of the fronts' callbacks. The runner-specific part is `submit` and its engine.
 */
export abstract class GatewayCore {
  readonly journal: JournalWriter | undefined;
  readonly output: OutputGate;
  readonly #stopListeners: ((stop: GatewayStop) => void)[] = [];
  protected readonly listeners: CommandDone[] = [];
  #stopped: GatewayStop | undefined;
  /** After a journal failure: the last seq the journal holds durably (later commands are answered JournalFailed). */
  #durableAtFailure = Infinity;

  protected constructor(journal: JournalWriter | undefined) {
    this.journal = journal;
    this.output = new OutputGate(journal, (e) => {
      this.#durableAtFailure = journal!.durableSeq;
      this.stop(ResultCode.JournalFailed, e.message);
    });
  }

  get stopped(): GatewayStop | undefined {
    return this.#stopped;
  }

  observe(listener: CommandDone): void {
    this.listeners.push(listener);
  }

  onStop(listener: (stop: GatewayStop) => void): void {
    this.#stopListeners.push(listener);
  }

  /**
   * Stops intake for good with `code` (EngineStopped or JournalFailed) and `reason`; the first call wins.
   * Runners extend it to answer what they still hold.
   */
  stop(code: ResultCode, reason: string): void {
    if (this.#stopped !== undefined) return;
    const stop = { code, reason, atMs: Date.now() };
    this.#stopped = stop;
    for (const l of this.#stopListeners) guarded(() => l(stop), 'a stop listener');
    this.onStopped(stop);
  }

  /** Runner hook: answer what is queued, stop the engine. */
  protected abstract onStopped(stop: GatewayStop): void;

  /**
   * Runs the observers and `done` for a completed command, each isolated (see the module header). On the
   * path of every command: calls each callback in a try of its own, no closure per callback (allocates nothing).
   */
  protected complete(code: ResultCode, c: Command, events: BookEvents, done: CommandDone): void {
    // A command that completed after the journal failed, and never became durable, is not acknowledged.
    const final = c.seq > this.#durableAtFailure && code !== ResultCode.JournalFailed ? ResultCode.JournalFailed : code;
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]!(final, c, events);
      } catch (e) {
        reportThrown(e, 'an observer');
      }
    }
    try {
      done(final, c, events);
    } catch (e) {
      reportThrown(e, 'a command callback');
    }
  }

  /** Closes the journal (after the engine); a failed journal closes without a flush error. */
  protected async closeJournal(): Promise<void> {
    try {
      await this.journal?.close();
    } catch (e) {
      if (this.journal?.failure === null) throw e;
    }
  }
}

/** Runs `f`; an exception is a bug of the front that gave `f`: logged, never let into the engine. */
export function guarded(f: () => void, what: string): void {
  try {
    f();
  } catch (e) {
    reportThrown(e, what);
  }
}

/** Logs an exception a front's callback threw (`what` names the callback); the engine goes on. */
function reportThrown(e: unknown, what: string): void {
  console.error(`ringmatch: ${what} threw (the engine goes on):`, e);
}

export interface InlineGatewayOptions {
  readonly bookFactory?: BookFactory | undefined;
  /** An engine to wrap (one a journal was replayed into); default a fresh one for the definition. */
  readonly engine?: InlineEngine | undefined;
  /** The journal the engine appends to (it must be the engine's own); the gateway closes it. */
  readonly journal?: JournalWriter | undefined;
}

export class InlineGateway extends GatewayCore implements ExchangeGateway {
  readonly engine: InlineEngine;
  readonly clock: Clock;
  readonly #none = new BookEvents(1);
  /** Commands submitted while another one's callbacks run, with their `done`s and group flags (re-entrancy). */
  readonly #queued: [Command, CommandDone, boolean][] = [];
  #running = false;

  /** A fresh engine for `def`, or `options.engine` (e.g. one a journal was replayed into). */
  constructor(def: ExchangeDefinition, clock: Clock, options: InlineGatewayOptions = {}) {
    super(options.journal);
    this.engine = options.engine ?? new InlineEngine(def, { clock, bookFactory: options.bookFactory, journal: options.journal });
    this.clock = clock;
  }

  get exchange(): Exchange {
    return this.engine.exchange;
  }

  /** One command: applied now, or queued behind the command whose callbacks run. Allocates nothing when applied now. */
  submit(cmd: Command, done: CommandDone): void {
    const stop = this.stopped;
    if (stop !== undefined) return done(stop.code, cmd, this.#none);
    if (this.#running) {
      this.#queued.push([new Command().copyFrom(cmd), done, false]);
      return;
    }
    this.#running = true;
    try {
      this.#apply(cmd, done, false);
      this.#drain();
    } finally {
      this.#running = false;
      this.#queued.length = 0;
    }
  }

  /** Applies `group` (one journal group) now, or queues it behind the command whose callbacks run. */
  submitGroup(group: readonly GroupEntry[]): void {
    const stop = this.stopped;
    if (stop !== undefined) {
      for (const [cmd, done] of group) done(stop.code, cmd, this.#none);
      return;
    }
    const last = group.length - 1;
    if (this.#running) {
      group.forEach(([cmd, done], i) => this.#queued.push([new Command().copyFrom(cmd), done, i < last]));
      return;
    }
    this.#running = true;
    try {
      group.forEach(([cmd, done], i) => this.#apply(cmd, done, i < last));
      this.#drain();
    } finally {
      this.#running = false;
      this.#queued.length = 0;
    }
  }

  /** Applies what callbacks submitted meanwhile, in order (queued groups keep their group flags). */
  #drain(): void {
    for (let q = this.#queued.shift(); q !== undefined; q = this.#queued.shift()) {
      if (this.stopped !== undefined) this.complete(this.stopped.code, q[0], this.#none, q[1]);
      else this.#apply(q[0], q[1], q[2]);
    }
  }

  #apply(cmd: Command, done: CommandDone, continues: boolean): void {
    let code: ResultCode;
    try {
      code = this.engine.submit(cmd, continues);
    } catch (e) {
      // A broken invariant: the state may be half-applied. Nothing more is taken.
      this.stop(ResultCode.EngineStopped, `applying command seq ${cmd.seq} (type ${cmd.type}) broke an invariant: ${e instanceof Error ? e.message : String(e)}`);
      console.error('ringmatch: the engine stopped:', e);
      return this.complete(ResultCode.EngineStopped, cmd, this.#none, done);
    }
    this.complete(code, cmd, this.engine.events, done);
  }

  protected onStopped(): void {
    // Synchronous runner: nothing is in flight; queued re-entrant submits are answered by `submit`.
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

  stateAt(): Promise<{ hash: string; seq: number }> {
    // Synchronous: every call runs between commands.
    return Promise.resolve({ hash: this.engine.stateHash(), seq: this.engine.sequencer.lastSeq });
  }

  capture(): Promise<SnapshotData> {
    // Called from a task of its own, never inside a submit: between commands and groups by construction.
    return Promise.resolve(captureSnapshot(this.engine, { createdTime: this.clock.nowUs() }));
  }

  close(): Promise<void> {
    return this.closeJournal();
  }
}
