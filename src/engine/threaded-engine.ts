/**
 * The threaded runner: the ledger thread (this one) sequences, journals and runs R1 and R2; N market-shard
 * workers own the books and match. One SPSC ring each way per shard.
 *
 * Flow: `submit` queues a command (intake). `pump` takes intake in order: stamps it, runs R1 and, for book
 * commands, writes it to its shard's ring. `poll` reads results strictly in global sequence order — the
 * oldest in-flight command's shard is the only ring read — and runs R2, then calls the command's callback.
 * So R2 effects (fills, fees, trade ids, account-book entries) happen in exactly the inline order.
 *
 * Serial products (futures: BookProduct.serial) keep their books on this thread ("local books"): their
 * commands run alone anyway, so a round trip through a shard would only add a wake-up per command (tens of
 * µs) while everything behind waits. A local book command runs R1, the book and R2 in one step, exactly as
 * the inline runner does, once nothing is in flight.
 *
 * Determinism (same commands → same events → same state hash as InlineEngine):
 * - funds commands are barriers: they wait until nothing is in flight; PutRecords waits while a command in
 *   flight carries records (those land in its R2), so records are put in sequence order; a serial product's
 *   book command (futures) waits until nothing is in flight, and runs to completion before the next;
 * - a BalanceNotEnough with commands in flight waits for them and retries (R2 only adds funds, so the retry
 *   gets the inline answer); amends reserve pessimistically while their market has commands in flight;
 * - an amend waits while an earlier amend of the same order is in flight (Exchange.amendInFlight: that
 *   amend's R2 resets the order's hold, so R1 must see its result first).
 * Backpressure: a full intake answers Busy at submit; a full ring just leaves commands queued.
 * The thread that calls pump/poll never blocks: `run()` awaits with Atomics.waitAsync.
 * Replies: callbacks fire when R2 completes, which may be before the journal holds the command durably; a
 * front that journals replies only after `flush()` (or the sequencer's flush) resolves.
 * Callbacks run after the engine has moved past their command: one that throws leaves the engine consistent
 * (the exception propagates out of pump/poll to the caller, and the command is not applied again).
 *
 * Failure: a worker that throws, or exits without being asked to (`close`) (ShardFailure), or an invariant
 * broken while the exchange applies a command (EngineFailure: the state may be half-applied) fails the whole
 * engine, once: `onFailure` is called, `failure` holds it, `submit` answers Busy, pump/poll do nothing and
 * `run`/`stateHash` reject with it. Callbacks of commands still queued or in flight are not called by the
 * engine (their results are unknown, not false) until the owner calls `abandon(code)`, which answers them
 * all with that code; those commands were journaled when stamped, so a restart (restart.ts) replays them,
 * and a client learns the outcome from the recovered state. `close` on a failed engine
 * terminates the surviving workers.
 *
 * Recovery (restart.ts): a fresh engine, started from a snapshot's books and exchange state or empty, takes
 * the journaled records through `submitReplayed` (recorded seq and time, no re-stamping, no re-journaling)
 * and its own pump/poll path, so books and ledger end where the journal left them.
 */
import type { Clock } from '../core/clock.js';
import { Command, CommandType } from '../core/command.js';
import { invariant } from '../core/invariant.js';
import { applyToBook, Exchange, isBookCommand } from '../core/exchange/exchange.js';
import { bookMarketSpecs, type ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { defineMarket } from '../core/market.js';
import { ArrayOrderBook } from '../core/matching/array-order-book.js';
import { BookEvents, EventKind } from '../core/matching/book-events.js';
import type { OrderBook } from '../core/matching/order-book.js';
import { PlaceOrder } from '../core/matching/order-types.js';
import { ResultCode } from '../core/result-code.js';
import type { JournalWriter } from './journal/writer.js';
import { seqLt } from './ring/layout.js';
import { NO_SEQ, SpscRing } from './ring/spsc-ring.js';
import { AsyncWait } from './ring/wait-strategy.js';
import { Sequencer } from './sequencer.js';
import {
  CMD_SLOT_F64, CTRL_CAPTURE, CTRL_CRASH, CTRL_HASH, CTRL_STOP, E_CODE, E_END, E_KIND, E_LOTS, E_MAKER, E_MAKER_USER, E_ORDER, E_PRICE, E_USER,
  EVENT_SLOT_F64, writeCommand,
} from './shard/shard-protocol.js';
import type { ShardData } from './shard/market-shard.worker.js';
import type { BookState, SnapshotData } from '../protocol/snapshot-codec.js';
import { SNAPSHOT_VERSION } from './snapshot/format.js';
import { captureBook, restoreBook } from './snapshot/capture.js';
import { spawnWorker } from './workers/spawn-worker.js';
import type { Worker } from 'node:worker_threads';

/** Called once per command with its final code; `events` (book commands) is valid during the call only. */
export type ResultCallback = (code: ResultCode, cmd: Command, events: BookEvents) => void;

export interface ThreadedEngineOptions {
  readonly clock: Clock;
  readonly shards: number;
  readonly journal?: JournalWriter | undefined;
  /** Market index → shard; default market % shards. */
  readonly assign?: ((market: number) => number) | undefined;
  /** Ring capacities (powers of two). */
  readonly commandRing?: number | undefined;
  readonly eventRing?: number | undefined;
  /** Commands queued before submit answers Busy. */
  readonly intake?: number | undefined;
  /**
   * Called once, from an event of the worker's, when the first shard worker fails (see the module header).
   * Must not throw. The engine is unusable afterwards: close it and restart from the journal (restart.ts).
   */
  readonly onFailure?: ((failure: EngineFailure) => void) | undefined;
  /**
   * A snapshot to start from (recovery): every market's resting orders, restored in the shards before the
   * first command, and the exchange state; the sequencer continues after `seq`.
   */
  readonly snapshot?: SnapshotData | undefined;
}

/** Why an engine stopped: an invariant broke while a command was applied (`cause`), so state may be half-applied. */
export class EngineFailure extends Error {
  override readonly name: string = 'EngineFailure';
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

/** Why a threaded engine stopped: shard `shard`'s worker threw (`cause`) or exited (`exitCode`). */
export class ShardFailure extends EngineFailure {
  override readonly name = 'ShardFailure';
  constructor(readonly shard: number, readonly exitCode: number | undefined, cause?: unknown) {
    super(cause instanceof Error ? `shard ${shard} failed: ${cause.message}` : `shard ${shard} exited with code ${exitCode}`, cause);
  }
}

/** The failure an exception thrown while applying command `c` means (an EngineFailure is kept as it is). */
function applyFailure(e: unknown, c: Command): EngineFailure {
  if (e instanceof EngineFailure) return e;
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new EngineFailure(`applying command seq ${c.seq} (type ${c.type}) broke an invariant: ${what}`, e);
}

interface Shard {
  readonly worker: Worker;
  readonly commands: SpscRing;
  readonly events: SpscRing;
}

const noop: ResultCallback = () => undefined;
/** Commands dispatched between publishes of the shard rings (power of two minus one). */
const PUBLISH_SLICE_MASK = 63;

/** A fixed-capacity FIFO of reusable Commands with a callback each. */
class CommandQueue {
  readonly cmds: Command[];
  readonly done: ResultCallback[];
  /** 1 where the entry is a journaled command being replayed (already stamped, not journaled again). */
  readonly replayed: Uint8Array;
  /** 1 where the next entry belongs to the same journal group (see journal/format.ts). */
  readonly continues: Uint8Array;
  head = 0;
  size = 0;
  constructor(readonly capacity: number) {
    this.cmds = Array.from({ length: capacity }, () => new Command());
    this.done = new Array<ResultCallback>(capacity).fill(noop);
    this.replayed = new Uint8Array(capacity);
    this.continues = new Uint8Array(capacity);
  }
  /** The slot to fill for a new tail entry (caller then calls commit). */
  tailSlot(): number { return (this.head + this.size) % this.capacity; }
  commit(): void { this.size++; }
  /**
   * Drops the head entry. Its callback slot is cleared: a completed command's callback (and the reply, socket
   * wrapper and closures it holds) must not stay reachable until the slot is reused, which on a queue of
   * 16,384 slots kept that many finished requests alive.
   */
  pop(): void {
    this.done[this.head] = noop;
    this.head = (this.head + 1) % this.capacity;
    this.size--;
  }
}

export class ThreadedEngine {
  readonly exchange: Exchange;
  readonly sequencer: Sequencer;
  readonly #shards: Shard[];
  /** Market index → shard, or -1 for a local book (a serial product's, on this thread). */
  readonly #shardOf: number[];
  /** The local books by market index (undefined where a shard owns the market). */
  readonly #local: (OrderBook | undefined)[];
  readonly #place = new PlaceOrder();
  readonly #intake: CommandQueue;
  readonly #pending: CommandQueue;
  readonly #inFlight: Int32Array;
  /** Commands in flight (dispatched, R2 not yet applied) that carry records: their records land in R2. */
  #recordsInFlight = 0;
  /** Intake head already stamped (waiting to retry R1 or for ring space). */
  #headStamped = false;
  /** Events of the oldest in-flight command, accumulated as its shard publishes them. */
  readonly #events = new BookEvents(1024);
  /** The (empty) events passed with answers that never reached a book. */
  readonly #none = new BookEvents(1);
  readonly #wait = new AsyncWait({ timeoutMs: 50 });
  #failed: EngineFailure | undefined;
  /** Set while a capture or a state hash waits: pump takes nothing more once it is between groups. */
  #paused = false;
  /** The turn of the last quiet-point operation (they run one at a time). */
  #quiet: Promise<void> = Promise.resolve();
  /** The last command stamped belongs to a group whose next command has not been stamped yet. */
  #midGroup = false;
  /** Set by closeIntake: submits answer Busy. */
  #intakeClosed = false;
  /** Set by close: worker exits from then on are expected. */
  #closing = false;
  readonly #onFailure: ((failure: EngineFailure) => void) | undefined;

  private constructor(exchange: Exchange, options: ThreadedEngineOptions, shards: Shard[], shardOf: number[],
    local: (OrderBook | undefined)[]) {
    this.exchange = exchange;
    this.sequencer = new Sequencer(options.clock, options.journal);
    this.#shards = shards;
    this.#shardOf = shardOf;
    this.#local = local;
    this.#intake = new CommandQueue(options.intake ?? 1 << 14);
    const pendingCap = shards.reduce((n, s) => n + s.commands.capacity, 0);
    this.#pending = new CommandQueue(pendingCap);
    this.#inFlight = new Int32Array(shardOf.length);
    this.#onFailure = options.onFailure;
    shards.forEach((s, i) => {
      s.worker.on('error', (e) => this.#fail(new ShardFailure(i, undefined, e)));
      s.worker.on('exit', (code) => {
        if (code !== 0 || !this.#closing) this.#fail(new ShardFailure(i, code));
      });
    });
  }

  /** Starts the shard workers and builds the local books. @allocates */
  static start(def: ExchangeDefinition, options: ThreadedEngineOptions): ThreadedEngine {
    const n = Math.max(1, options.shards);
    const assign = options.assign ?? ((m: number) => m % n);
    const exchange = new Exchange(def);
    const specs = bookMarketSpecs(def);
    const isLocal = (m: number): boolean => exchange.isSerial(CommandType.PlaceOrder, m);
    const shardOf = specs.map((_, m) => (isLocal(m) ? -1 : assign(m)));
    const local = specs.map((spec, m) => {
      if (!isLocal(m)) return undefined;
      const book = new ArrayOrderBook(defineMarket(spec));
      const restored = options.snapshot?.books[m];
      if (restored !== undefined) restoreBook(book, restored);
      return book;
    });
    const commandCapacity = options.commandRing ?? 1 << 12;
    const eventCapacity = options.eventRing ?? 1 << 14;
    const shards: Shard[] = [];
    for (let i = 0; i < n; i++) {
      const commands = SpscRing.create({ capacity: commandCapacity, slotWords: CMD_SLOT_F64 * 2 });
      const events = SpscRing.create({ capacity: eventCapacity, slotWords: EVENT_SLOT_F64 * 2 });
      const markets = shardOf.flatMap((s, m) => (s === i ? [m] : []));
      const snap = options.snapshot;
      const data: ShardData = {
        definition: def,
        markets,
        rings: { commands: commands.sab, events: events.sab, commandCapacity, eventCapacity },
        ...(snap === undefined ? {} : { books: Object.fromEntries(markets.map((m) => [m, snap.books[m]!])) }),
      };
      const worker = spawnWorker(new URL('./shard/market-shard.worker.js', import.meta.url), data);
      shards.push({ worker, commands, events });
    }
    const engine = new ThreadedEngine(exchange, options, shards, shardOf, local);
    if (options.snapshot !== undefined) {
      engine.exchange.importState(options.snapshot.exchange);
      engine.sequencer.resumeAfter(options.snapshot.seq);
    }
    return engine;
  }

  /** The failure that stopped this engine, if any. */
  get failure(): EngineFailure | undefined {
    return this.#failed;
  }

  /** Commands dispatched to the shards whose results have not been applied yet (R2 pending). */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Commands accepted but not yet answered. */
  get outstanding(): number {
    return this.#intake.size + this.#pending.size;
  }

  /** Queues a command (copied); returns Busy when the intake is full or the engine has failed, else Ok. */
  submit(cmd: Command, done: ResultCallback = noop): ResultCode {
    return this.#enqueue(cmd, done, 0, 0);
  }

  /**
   * Queues commands that form one journal group (all or nothing after a crash; journal/format.ts), one
   * after another in intake so nothing comes between them; each gets its own callback. Returns Busy (none
   * queued) when they do not all fit or the engine has failed, else Ok.
   */
  submitGroup(cmds: readonly Command[], done: readonly ResultCallback[]): ResultCode {
    const n = cmds.length;
    if (this.#failed !== undefined || this.#intakeClosed || this.#intake.capacity - this.#intake.size < n) return ResultCode.Busy;
    for (let i = 0; i < n; i++) this.#enqueue(cmds[i]!, done[i] ?? noop, 0, i < n - 1 ? 1 : 0);
    return ResultCode.Ok;
  }

  /**
   * Recovery only: queues a journaled command for replay; it keeps its seq and time and is not journaled
   * again. Busy when the intake is full (run, then retry).
   */
  submitReplayed(cmd: Command, done: ResultCallback = noop): ResultCode {
    return this.#enqueue(cmd, done, 1, 0);
  }

  #enqueue(cmd: Command, done: ResultCallback, replayed: number, continues: number): ResultCode {
    if (this.#failed !== undefined || this.#intakeClosed || this.#intake.size === this.#intake.capacity) return ResultCode.Busy;
    const i = this.#intake.tailSlot();
    this.#intake.cmds[i]!.copyFrom(cmd);
    this.#intake.done[i] = done;
    this.#intake.replayed[i] = replayed;
    this.#intake.continues[i] = continues;
    this.#intake.commit();
    return ResultCode.Ok;
  }

  /** Moves intake into the shards as far as barriers and ring space allow; returns commands dispatched. */
  pump(): number {
    const q = this.#intake;
    let moved = 0;
    while (q.size > 0 && this.#failed === undefined) {
      // A capture waits for a moment between groups (see capture()).
      if (this.#paused && !this.#midGroup) break;
      const c = q.cmds[q.head]!;
      const book = isBookCommand(c.type);
      // Funds commands are barriers (R2 in flight may change what they read). PutRecords touches no balance,
      // but its records land in R1: it waits while a command in flight still has records to land in R2, so
      // that records are put in sequence order (the same key written by both ends as the log says).
      if (!book && this.#pending.size > 0 && (c.type !== CommandType.PutRecords || this.#recordsInFlight > 0)) break;
      // A local book's command (a serial product's: futures) waits until nothing is in flight, then completes here.
      const shardIndex = book ? (this.#shardOf[c.market] ?? 0) : 0;
      const local = shardIndex < 0;
      if (local && this.#pending.size > 0) break;
      if (book && !local && this.#shards[shardIndex]!.commands.freeSlots() === 0) break;
      if (book && !local && this.#pending.size === this.#pending.capacity) break;
      if (!this.#headStamped) {
        this.#midGroup = q.continues[q.head] === 1;
        if (q.replayed[q.head] === 0) {
          this.sequencer.stamp(c, this.#midGroup);
        } else {
          invariant(c.seq > this.sequencer.lastSeq, 'replayed command out of sequence order');
          this.sequencer.resumeAfter(c.seq);
        }
        this.#headStamped = true;
      }
      if (c.type === CommandType.AmendOrder && this.#pending.size > 0 && this.exchange.amendInFlight(c.orderId)) break;
      const market = c.market;
      let code: ResultCode;
      try {
        code = this.exchange.pre(c, book && market >= 0 && market < this.#inFlight.length && this.#inFlight[market]! > 0);
      } catch (e) {
        throw this.#fail(applyFailure(e, c));
      }
      if (code === ResultCode.BalanceNotEnough && this.#pending.size > 0) break; // retry once drained
      this.#headStamped = false;
      const done = q.done[q.head]!;
      if (code !== ResultCode.Ok || !book) {
        // Popped after the callback (a submit from inside it must not take this slot); popped even if it throws.
        try {
          done(code, c, this.#none);
        } finally {
          q.pop();
        }
      } else if (local) {
        this.#runLocal(c, done);
      } else {
        this.#dispatch(c, done);
        q.pop();
      }
      // Publish in slices so a shard starts matching while this thread runs R1 on the rest.
      if ((++moved & PUBLISH_SLICE_MASK) === 0) this.#publishAll();
    }
    this.#publishAll();
    return moved;
  }

  /** Applies every available result in sequence order (R2) and calls back; returns commands completed. */
  poll(): number {
    const p = this.#pending;
    const ev = this.#events;
    let completed = 0;
    while (p.size > 0 && this.#failed === undefined) {
      const c = p.cmds[p.head]!;
      const ring = this.#shards[this.#shardOf[c.market]!]!.events;
      const last = ring.available();
      let s = (ring.consumed + 1) | 0;
      let code: number | undefined;
      const f = ring.slots64;
      for (; !seqLt(last, s); s = (s + 1) | 0) {
        const at = ring.f64Offset(s);
        const kind = f[at + E_KIND]!;
        if (kind === E_END) { code = f[at + E_CODE]!; break; }
        readEvent(ev, kind, f, at);
      }
      if (code === undefined) {
        if (seqLt(ring.consumed, last)) ring.release(last); // partial result: keep what was read in `ev`
        break;
      }
      ring.release(s);
      let final: ResultCode;
      try {
        final = this.exchange.post(c, code as ResultCode, ev);
      } catch (e) {
        throw this.#fail(applyFailure(e, c));
      }
      this.#inFlight[c.market]!--;
      if (c.record !== '') this.#recordsInFlight--;
      const done = p.done[p.head]!;
      // The slot's Command stays intact until a later dispatch (pump), which a callback cannot reach.
      p.pop();
      completed++;
      try {
        done(final, c, ev);
      } finally {
        ev.clear();
      }
    }
    return completed;
  }

  /** Pumps and polls until nothing is outstanding, awaiting (never blocking) while shards work. */
  async run(): Promise<void> {
    for (;;) {
      if (this.#failed !== undefined) throw this.#failed;
      const progressed = this.pump() + this.poll();
      if (this.outstanding === 0) return;
      if (progressed === 0 && this.#pending.size > 0) {
        const c = this.#pending.cmds[this.#pending.head]!;
        const ring = this.#shards[this.#shardOf[c.market]!]!.events;
        await this.#wait.waitFor(ring, (ring.consumed + 1) | 0);
      } else if (progressed === 0) {
        // Nothing in flight, yet intake waits: a capture holds it until the shards' books arrive as message
        // events. Let them in rather than loop without ever yielding.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /**
   * Awaits (never blocks) until the oldest in-flight command's shard publishes something, or at once when
   * nothing is in flight. For drivers that keep submitting while results arrive; see `run` to drain.
   */
  async waitForProgress(): Promise<void> {
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#pending.size === 0) return;
    const c = this.#pending.cmds[this.#pending.head]!;
    const ring = this.#shards[this.#shardOf[c.market]!]!.events;
    await this.#wait.waitFor(ring, (ring.consumed + 1) | 0);
  }

  /**
   * Captures the whole state (snapshots): stops taking commands from intake at the next moment between groups,
   * lets everything in flight complete, asks every shard for its books, and copies the exchange state; then
   * intake resumes. Commands submitted meanwhile wait in intake (a full intake answers Busy). `seq` is the
   * last command applied (a command stamped but waiting to retry is not in the capture). @allocates
   */
  async capture(options: { createdTime?: number } = {}): Promise<SnapshotData> {
    return this.#quiesced(async (seq) => {
      const replies = this.#shards.map((s) => this.#reply<{ books: [number, BookState][] }>(s, (m) => 'books' in m));
      const ctrl = new Command();
      ctrl.type = CTRL_CAPTURE;
      for (const s of this.#shards) this.#control(s, ctrl);
      const books: BookState[] = [];
      for (const r of await Promise.all(replies)) for (const [m, b] of r.books) books[m] = b;
      this.#local.forEach((b, m) => { if (b !== undefined) books[m] = captureBook(b); });
      return {
        formatVersion: SNAPSHOT_VERSION,
        seq,
        createdTime: options.createdTime ?? Date.now() * 1000,
        definitionJson: JSON.stringify(this.exchange.definition),
        exchange: this.exchange.exportState(),
        books,
      };
    });
  }

  /**
   * Runs `f` at a quiet point: intake stops at the next moment between groups, everything in flight completes,
   * then `f` gets the seq of the last command applied (a command stamped but waiting to retry is not applied)
   * and may talk to the shards; intake resumes when it settles. One at a time (later calls wait their turn).
   */
  async #quiesced<T>(f: (seq: number) => Promise<T>): Promise<T> {
    const turn = this.#quiet.then(async () => {
      this.#throwIfFailed();
      this.#paused = true;
      try {
        for (;;) {
          this.#throwIfFailed();
          const progressed = this.pump() + this.poll();
          if (this.#pending.size === 0 && !this.#midGroup) break;
          if (progressed === 0) await this.waitForProgress();
        }
        return await f(this.sequencer.lastSeq - (this.#headStamped ? 1 : 0));
      } finally {
        this.#paused = false;
      }
    });
    this.#quiet = turn.then(() => undefined, () => undefined);
    return turn;
  }

  #throwIfFailed(): void {
    const f = this.#failed;
    if (f !== undefined) throw f;
  }

  /** The shard's next message passing `pred`; rejects when it exits first. */
  #reply<T>(s: Shard, pred: (m: object) => boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onExit = (): void => { s.worker.off('message', onMessage); reject(this.#failed ?? new Error('shard exited before answering')); };
      const onMessage = (m: object): void => {
        if (!pred(m)) return;
        s.worker.off('message', onMessage);
        s.worker.off('exit', onExit);
        resolve(m as T);
      };
      s.worker.once('exit', onExit);
      s.worker.on('message', onMessage);
    });
  }

  /** Dispatches what intake allows (stamping journals it), then resolves when the journal has it durable. */
  flush(): Promise<void> {
    this.pump();
    return this.sequencer.flush();
  }

  /** The state hash, after everything submitted has completed. */
  async stateHash(): Promise<string> {
    return (await this.stateAt()).hash;
  }

  /**
   * The state hash at a quiet point (see #quiesced: no command is applied while the shards hash their books,
   * whatever keeps arriving) and the seq of the last command it covers.
   */
  stateAt(): Promise<{ hash: string; seq: number }> {
    return this.#quiesced(async (seq) => {
      const replies = this.#shards.map((s) => this.#reply<{ hashes: [number, string][] }>(s, (m) => 'hashes' in m).then((m) => m.hashes));
      const ctrl = new Command();
      ctrl.type = CTRL_HASH;
      for (const s of this.#shards) this.#control(s, ctrl);
      const hashes: string[] = [];
      for (const list of await Promise.all(replies)) for (const [m, h] of list) hashes[m] = h;
      this.#local.forEach((b, m) => { if (b !== undefined) hashes[m] = b.stateHash(); });
      return { hash: this.exchange.stateHash(hashes), seq };
    });
  }

  /**
   * Completes everything outstanding, stops the workers and waits for them to exit. On a failed engine
   * (or one that fails meanwhile) it completes nothing and terminates the workers still running.
   */
  async close(): Promise<void> {
    if (this.#failed === undefined) {
      try {
        await this.run();
      } catch {
        // The engine failed while draining: fall through to terminating the workers.
      }
    }
    this.#closing = true;
    if (this.#failed !== undefined) {
      await Promise.all(this.#shards.map((s) => s.worker.terminate()));
      return;
    }
    const ctrl = new Command();
    ctrl.type = CTRL_STOP;
    await Promise.all(this.#shards.map((s) => {
      const exited = new Promise<void>((resolve) => s.worker.once('exit', () => resolve()));
      this.#control(s, ctrl);
      return exited;
    }));
  }

  /**
   * TEST ONLY (fault injection): makes shard `shard`'s worker throw once it reaches this point of its
   * command stream (after the commands already dispatched to it), as a bug in the worker would. The engine
   * then fails as described in the module header. Returns false when the shard's ring has no free slot.
   */
  crashShardForTesting(shard: number): boolean {
    const s = this.#shards[shard];
    invariant(s !== undefined, `no shard ${shard}`);
    if (s.commands.freeSlots() === 0) return false;
    const ctrl = new Command();
    ctrl.type = CTRL_CRASH;
    this.#control(s, ctrl);
    return true;
  }

  /**
   * Fails the engine from outside (its owner found the read model it keeps beside the engine broken): as
   * any failure, reported once through onFailure; no-op once failed.
   */
  failNow(failure: EngineFailure): void {
    this.#fail(failure);
  }

  /** Records the first failure and reports it once; returns the failure that stopped the engine. */
  #fail(failure: EngineFailure): EngineFailure {
    if (this.#failed !== undefined || this.#closing) return this.#failed ?? failure;
    this.#failed = failure;
    // Nothing more will be read: close the result rings so that a wait on one (run, waitForProgress) returns.
    for (const s of this.#shards) s.events.close();
    this.#onFailure?.(failure);
    return failure;
  }

  /**
   * Stops taking commands without failing: every queued command not yet stamped (so not journaled) is
   * answered with `code` and dropped; later submits answer Busy; commands already stamped or in flight
   * complete as usual. Returns how many were answered. (A journal that fails stops intake this way: what
   * is in flight is applied, so nothing is left half-applied.)
   */
  closeIntake(code: ResultCode): number {
    this.#intakeClosed = true;
    const q = this.#intake;
    const keep = this.#headStamped ? 1 : 0;
    let answered = 0;
    while (q.size > keep) {
      // Take from the tail: the head may be stamped and must stay.
      const i = (q.head + q.size - 1) % q.capacity;
      q.size--;
      answered++;
      guardedCall(q.done[i]!, code, q.cmds[i]!, this.#none);
    }
    return answered;
  }

  /**
   * After a failure: answers every command still queued or in flight with `code` (their outcome is whatever
   * the journal holds; see the module header) and empties the queues. Returns how many were answered.
   * A callback that throws is logged and does not stop the others.
   */
  abandon(code: ResultCode): number {
    invariant(this.#failed !== undefined, 'abandon is for a failed engine');
    let answered = 0;
    for (const q of [this.#pending, this.#intake]) {
      while (q.size > 0) {
        const c = q.cmds[q.head]!;
        const done = q.done[q.head]!;
        q.pop();
        answered++;
        guardedCall(done, code, c, this.#none);
      }
    }
    this.#headStamped = false;
    this.#recordsInFlight = 0;
    return answered;
  }

  #publishAll(): void {
    for (const s of this.#shards) if (s.commands.claimed !== s.commands.published) s.commands.publish(s.commands.claimed);
  }

  #dispatch(c: Command, done: ResultCallback): void {
    const shard = this.#shards[this.#shardOf[c.market]!]!;
    const seq = shard.commands.tryClaim(1); // space was checked before R1
    writeCommand(shard.commands.slots64, shard.commands.f64Offset(seq), c);
    const i = this.#pending.tailSlot();
    this.#pending.cmds[i]!.copyFrom(c);
    this.#pending.done[i] = done;
    this.#pending.commit();
    this.#inFlight[c.market]!++;
    if (c.record !== '') this.#recordsInFlight++;
  }

  /**
   * A local book's command after R1 (nothing in flight): the book step and R2 here, then the callback, as the
   * inline runner does. The intake head is popped after the callback (a submit from inside it must not take
   * this slot), even when it throws.
   */
  #runLocal(c: Command, done: ResultCallback): void {
    const ev = this.#events;
    let final: ResultCode;
    try {
      const code = applyToBook(this.#local[c.market]!, c, this.#place, ev);
      final = this.exchange.post(c, code, ev);
    } catch (e) {
      ev.clear();
      this.#intake.pop();
      throw this.#fail(applyFailure(e, c));
    }
    try {
      done(final, c, ev);
    } finally {
      ev.clear();
      this.#intake.pop();
    }
  }

  /** Sends a control command; called only when nothing is outstanding, so the ring has room. */
  #control(s: Shard, c: Command): void {
    const seq = s.commands.tryClaim(1);
    invariant(seq !== NO_SEQ, 'control command found a full ring');
    writeCommand(s.commands.slots64, s.commands.f64Offset(seq), c);
    s.commands.publish(seq);
  }
}

/** Calls an answer of closeIntake or abandon; one that throws is logged and does not stop the others. */
function guardedCall(done: ResultCallback, code: ResultCode, c: Command, ev: BookEvents): void {
  try {
    done(code, c, ev);
  } catch (e) {
    console.error('ringmatch: a command callback threw:', e);
  }
}

/** Appends one event slot to `ev`. */
function readEvent(ev: BookEvents, kind: number, f: Float64Array, at: number): void {
  const id = f[at + E_ORDER]!;
  const user = f[at + E_USER]!;
  const code = f[at + E_CODE]!;
  if (kind === EventKind.Fill) ev.fill(id, user, f[at + E_MAKER]!, f[at + E_MAKER_USER]!, code, f[at + E_PRICE]!, f[at + E_LOTS]!);
  else if (kind === EventKind.Finished) ev.finished(id, user, code, f[at + E_LOTS]!);
  else if (kind === EventKind.Amended) ev.amended(id, user, code, f[at + E_PRICE]!, f[at + E_LOTS]!);
  else ev.accepted(id, user, code, f[at + E_PRICE]!, f[at + E_LOTS]!);
}

