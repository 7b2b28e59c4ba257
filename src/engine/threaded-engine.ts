/**
 * The threaded runner: the ledger thread (this one) sequences, journals and runs R1 and R2; N market-shard
 * workers own the books and match. One SPSC ring each way per shard.
 *
 * Flow: `submit` queues a command (intake). `pump` takes intake in order: stamps it, runs R1 and, for book
 * commands, writes it to its shard's ring. `poll` reads results strictly in global sequence order — the
 * oldest in-flight command's shard is the only ring read — and runs R2, then calls the command's callback.
 * So R2 effects (fills, fees, trade ids, account-book entries) happen in exactly the inline order.
 *
 * Determinism (same commands → same events → same state hash as InlineEngine):
 * - funds commands are barriers: they wait until nothing is in flight;
 * - a BalanceNotEnough with commands in flight waits for them and retries (R2 only adds funds, so the retry
 *   gets the inline answer); amends reserve pessimistically while their market has commands in flight.
 * Backpressure: a full intake answers Busy at submit; a full ring just leaves commands queued.
 * The thread that calls pump/poll never blocks: `run()` awaits with Atomics.waitAsync.
 */
import type { Clock } from '../core/clock.js';
import { Command } from '../core/command.js';
import { invariant } from '../core/invariant.js';
import { Exchange, isBookCommand } from '../core/exchange/exchange.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { BookEvents, EventKind } from '../core/matching/book-events.js';
import { ResultCode } from '../core/result-code.js';
import type { JournalWriter } from './journal/writer.js';
import { seqLt } from './ring/layout.js';
import { NO_SEQ, SpscRing } from './ring/spsc-ring.js';
import { AsyncWait } from './ring/wait-strategy.js';
import { Sequencer } from './sequencer.js';
import {
  CMD_SLOT_F64, CTRL_HASH, CTRL_STOP, E_CODE, E_END, E_KIND, E_LOTS, E_MAKER, E_MAKER_USER, E_ORDER, E_PRICE, E_USER,
  EVENT_SLOT_F64, writeCommand,
} from './shard/shard-protocol.js';
import type { ShardData } from './shard/market-shard.worker.js';
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
}

interface Shard {
  readonly worker: Worker;
  readonly commands: SpscRing;
  readonly events: SpscRing;
}

const noop: ResultCallback = () => undefined;

/** A fixed-capacity FIFO of reusable Commands with a callback each. */
class CommandQueue {
  readonly cmds: Command[];
  readonly done: ResultCallback[];
  head = 0;
  size = 0;
  constructor(readonly capacity: number) {
    this.cmds = Array.from({ length: capacity }, () => new Command());
    this.done = new Array<ResultCallback>(capacity).fill(noop);
  }
  /** The slot to fill for a new tail entry (caller then calls commit). */
  tailSlot(): number { return (this.head + this.size) % this.capacity; }
  commit(): void { this.size++; }
  pop(): void { this.head = (this.head + 1) % this.capacity; this.size--; }
}

export class ThreadedEngine {
  readonly exchange: Exchange;
  readonly sequencer: Sequencer;
  readonly #shards: Shard[];
  readonly #shardOf: number[];
  readonly #intake: CommandQueue;
  readonly #pending: CommandQueue;
  readonly #inFlight: Int32Array;
  /** Intake head already stamped (waiting to retry R1 or for ring space). */
  #headStamped = false;
  /** Events of the oldest in-flight command, accumulated as its shard publishes them. */
  readonly #events = new BookEvents(1024);
  /** The (empty) events passed with answers that never reached a book. */
  readonly #none = new BookEvents(1);
  readonly #wait = new AsyncWait({ timeoutMs: 50 });
  #failed: Error | undefined;

  private constructor(def: ExchangeDefinition, options: ThreadedEngineOptions, shards: Shard[], shardOf: number[]) {
    this.exchange = new Exchange(def);
    this.sequencer = new Sequencer(options.clock, options.journal);
    this.#shards = shards;
    this.#shardOf = shardOf;
    this.#intake = new CommandQueue(options.intake ?? 1 << 14);
    const pendingCap = shards.reduce((n, s) => n + s.commands.capacity, 0);
    this.#pending = new CommandQueue(pendingCap);
    this.#inFlight = new Int32Array(def.markets.length);
    for (const s of shards) {
      s.worker.on('error', (e) => { this.#failed = e; });
      s.worker.on('exit', (code) => { if (code !== 0 && this.#failed === undefined) this.#failed = new Error(`shard exited with ${code}`); });
    }
  }

  /** Starts the shard workers. @allocates */
  static start(def: ExchangeDefinition, options: ThreadedEngineOptions): ThreadedEngine {
    const n = Math.max(1, options.shards);
    const assign = options.assign ?? ((m: number) => m % n);
    const shardOf = def.markets.map((_, m) => assign(m));
    const commandCapacity = options.commandRing ?? 1 << 12;
    const eventCapacity = options.eventRing ?? 1 << 14;
    const shards: Shard[] = [];
    for (let i = 0; i < n; i++) {
      const commands = SpscRing.create({ capacity: commandCapacity, slotWords: CMD_SLOT_F64 * 2 });
      const events = SpscRing.create({ capacity: eventCapacity, slotWords: EVENT_SLOT_F64 * 2 });
      const data: ShardData = {
        definition: def,
        markets: shardOf.flatMap((s, m) => (s === i ? [m] : [])),
        rings: { commands: commands.sab, events: events.sab, commandCapacity, eventCapacity },
      };
      const worker = spawnWorker(new URL('./shard/market-shard.worker.js', import.meta.url), data);
      shards.push({ worker, commands, events });
    }
    return new ThreadedEngine(def, options, shards, shardOf);
  }

  /** Commands accepted but not yet answered. */
  get outstanding(): number {
    return this.#intake.size + this.#pending.size;
  }

  /** Queues a command (copied); returns Busy when the intake is full or the engine has failed, else Ok. */
  submit(cmd: Command, done: ResultCallback = noop): ResultCode {
    if (this.#failed !== undefined || this.#intake.size === this.#intake.capacity) return ResultCode.Busy;
    const i = this.#intake.tailSlot();
    this.#intake.cmds[i]!.copyFrom(cmd);
    this.#intake.done[i] = done;
    this.#intake.commit();
    return ResultCode.Ok;
  }

  /** Moves intake into the shards as far as barriers and ring space allow; returns commands dispatched. */
  pump(): number {
    const q = this.#intake;
    let moved = 0;
    while (q.size > 0) {
      const c = q.cmds[q.head]!;
      const book = isBookCommand(c.type);
      if (!book && this.#pending.size > 0) break; // funds commands are barriers
      if (book && this.#shards[this.#shardOf[c.market] ?? 0]!.commands.freeSlots() === 0) break;
      if (book && this.#pending.size === this.#pending.capacity) break;
      if (!this.#headStamped) {
        this.sequencer.stamp(c);
        this.#headStamped = true;
      }
      const market = c.market;
      const code = this.exchange.pre(c, book && market >= 0 && market < this.#inFlight.length && this.#inFlight[market]! > 0);
      if (code === ResultCode.BalanceNotEnough && this.#pending.size > 0) break; // retry once drained
      this.#headStamped = false;
      const done = q.done[q.head]!;
      if (code !== ResultCode.Ok || !book) {
        done(code, c, this.#none);
      } else {
        this.#dispatch(c, done);
      }
      q.pop();
      moved++;
    }
    for (const s of this.#shards) s.commands.publish(s.commands.claimed);
    return moved;
  }

  /** Applies every available result in sequence order (R2) and calls back; returns commands completed. */
  poll(): number {
    const p = this.#pending;
    const ev = this.#events;
    let completed = 0;
    while (p.size > 0) {
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
      const final = this.exchange.post(c, code as ResultCode, ev);
      this.#inFlight[c.market]!--;
      p.done[p.head]!(final, c, ev);
      ev.clear();
      p.pop();
      completed++;
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
      }
    }
  }

  /** The state hash, after everything submitted has completed. */
  async stateHash(): Promise<string> {
    await this.run();
    const replies = this.#shards.map((s) => new Promise<[number, string][]>((resolve) => {
      s.worker.once('message', (m: { hashes: [number, string][] }) => resolve(m.hashes));
    }));
    const ctrl = new Command();
    ctrl.type = CTRL_HASH;
    for (const s of this.#shards) this.#control(s, ctrl);
    const hashes: string[] = [];
    for (const list of await Promise.all(replies)) for (const [m, h] of list) hashes[m] = h;
    return this.exchange.stateHash(hashes);
  }

  /** Completes everything outstanding, stops the workers and waits for them to exit. */
  async close(): Promise<void> {
    if (this.#failed === undefined) await this.run();
    const ctrl = new Command();
    ctrl.type = CTRL_STOP;
    await Promise.all(this.#shards.map((s) => {
      const exited = new Promise<void>((resolve) => s.worker.once('exit', () => resolve()));
      this.#control(s, ctrl);
      return exited;
    }));
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
  }

  /** Sends a control command; called only when nothing is outstanding, so the ring has room. */
  #control(s: Shard, c: Command): void {
    const seq = s.commands.tryClaim(1);
    invariant(seq !== NO_SEQ, 'control command found a full ring');
    writeCommand(s.commands.slots64, s.commands.f64Offset(seq), c);
    s.commands.publish(seq);
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

