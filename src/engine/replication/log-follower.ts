/**
 * A follower of the replicated log: reads the stream in order (an ordered consumer from a given stream seq)
 * and applies every record to a FollowerGateway, with the journal's own frame parser (RecordScanner: CRC,
 * decode, groups handed out only whole). Each applied record is also appended to a local journal file
 * (the leader's format), which becomes the journal of this node if it is promoted.
 *
 * Rules:
 * - Records at or below the last applied seq are skipped (a retried batch, a bootstrap from a snapshot that
 *   starts inside a batch); a record that skips a seq is a gap: fatal.
 * - An `epoch` message raises the epoch; batches of an older epoch are dropped (a deposed leader's), and
 *   records of a group the previous leader left unfinished are discarded (the new leader never applied them).
 * - A batch carrying `Rm-State-Hash` is a checkpoint: after applying it, the follower's state hash must be
 *   the leader's. A mismatch (non-determinism, a torn batch) stops the follower loudly: it applies nothing
 *   more, its gateway answers EngineStopped, and `status` and the log say why.
 * - Every `snapshotEvery` commands the follower puts a snapshot of its state in the object store (the stream
 *   seq to resume from in its description), and keeps the newest two; late followers start from it.
 */
import { DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { Command } from '../../core/command.js';
import { ResultCode } from '../../core/result-code.js';
import type { JournalWriter } from '../journal/writer.js';
import { RecordScanner } from '../journal/reader.js';
import { captureSnapshot } from '../snapshot/capture.js';
import { storeSnapshot } from './bootstrap.js';
import type { FollowerGateway } from './follower-gateway.js';
import { HDR_EPOCH, HDR_HASH, HDR_HASH_SEQ, HDR_KIND, type LogStream } from './log-stream.js';

export interface FollowerOptions {
  /** First stream seq to read. */
  readonly fromStreamSeq: number;
  /** Records at or below this engine seq are already applied (a snapshot's). */
  readonly afterSeq: number;
  /** The local journal applied records are appended to. */
  readonly journal?: JournalWriter | undefined;
  readonly snapshotEvery: number;
  readonly log: (m: string) => void;
  /** No message for this long while the stream holds more: the consumer is reopened (default 2000 ms). */
  readonly stallMs?: number | undefined;
}

export interface FollowerStatus {
  readonly appliedSeq: number;
  readonly appliedStreamSeq: number;
  readonly epoch: number;
  readonly lagMessages: number;
  readonly lagMs: number;
  readonly checkpointsVerified: number;
  readonly lastCheckpoint: { readonly seq: number; readonly hash: string } | undefined;
  readonly droppedStale: number;
  readonly snapshotsTaken: number;
  readonly restarts: number;
  readonly failure: string | undefined;
}

interface Waiter { readonly seq: number; readonly resolve: (applied: boolean) => void; readonly timer: NodeJS.Timeout }

export class LogFollower {
  readonly #ls: LogStream;
  readonly #gw: FollowerGateway;
  readonly #o: FollowerOptions;
  #scanner = new RecordScanner(0);
  readonly #cmd = new Command();
  #messages: ConsumerMessages | undefined;
  #loop: Promise<void> | undefined;
  #appliedSeq: number;
  #appliedStream = 0;
  /** Stream seq of the message holding the last applied record (a snapshot resumes there). */
  #streamOfApplied = 0;
  #epoch = 0;
  #lagMessages = 0;
  #lagMs = 0;
  #verified = 0;
  #lastCheckpoint: { seq: number; hash: string } | undefined;
  #dropped = 0;
  #snapshots = 0;
  #lastSnapshotSeq: number;
  #snapshotting = false;
  #failure: string | undefined;
  #current = 0;
  readonly #stallMs: number;
  #lastMessageAt = 0;
  #watchdog: NodeJS.Timeout | undefined;
  #reopening = false;
  #stopped = false;
  /** Times the watchdog replaced a stalled consumer. */
  restarts = 0;
  /** Reads waiting for an engine seq (whenApplied). */
  readonly #waiters: Waiter[] = [];

  constructor(ls: LogStream, gateway: FollowerGateway, options: FollowerOptions) {
    this.#ls = ls;
    this.#gw = gateway;
    this.#o = options;
    this.#appliedSeq = options.afterSeq;
    this.#lastSnapshotSeq = options.afterSeq;
    this.#appliedStream = options.fromStreamSeq - 1;
    this.#stallMs = options.stallMs ?? 2000;
  }

  get appliedSeq(): number { return this.#appliedSeq; }
  get appliedStreamSeq(): number { return this.#appliedStream; }
  get epoch(): number { return this.#epoch; }
  get failure(): string | undefined { return this.#failure; }

  status(): FollowerStatus {
    return {
      appliedSeq: this.#appliedSeq, appliedStreamSeq: this.#appliedStream, epoch: this.#epoch, lagMessages: this.#lagMessages,
      lagMs: this.#lagMs, checkpointsVerified: this.#verified, lastCheckpoint: this.#lastCheckpoint, droppedStale: this.#dropped,
      snapshotsTaken: this.#snapshots, restarts: this.restarts, failure: this.#failure,
    };
  }

  /** Starts reading the stream, and the watchdog that restarts the reading when it stalls. */
  async start(): Promise<void> {
    await this.#open(Math.max(1, this.#o.fromStreamSeq));
    this.#watchdog = setInterval(() => void this.#checkStalled(), Math.max(250, Math.floor(this.#stallMs / 2)));
    this.#watchdog.unref();
  }

  /** An ordered consumer from stream seq `from`, and the loop that handles its messages. */
  async #open(from: number): Promise<void> {
    const consumer = await this.#ls.js.consumers.get(this.#ls.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from });
    const messages = await consumer.consume({ max_messages: 256, expires: 5000 });
    this.#messages = messages;
    this.#lastMessageAt = Date.now();
    this.#loop = (async () => {
      for await (const m of messages) {
        if (this.#failure !== undefined) break;
        try {
          this.#handle(m);
        } catch (e) {
          this.#fail(`stream seq ${m.seq}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    })();
  }

  /**
   * The watchdog: when no message arrived for `stallMs` while the stream holds messages past the last one
   * handled, the consumer is replaced by a new one from the next stream seq. The client's ordered consumer
   * recovers by itself from most losses, but not always from the loss of the NATS server that hosted it
   * (its consumer-info requests then go unanswered), and a follower that stops reading cannot be promoted.
   * Messages up to the last handled one were applied, and a group still held by the scanner stays held, so
   * nothing is applied twice or skipped.
   */
  async #checkStalled(): Promise<void> {
    if (this.#reopening || this.#stopped || this.#failure !== undefined || Date.now() - this.#lastMessageAt < this.#stallMs) return;
    this.#reopening = true;
    try {
      const last = await this.#ls.lastSeq().catch(() => 0);
      if (last <= this.#appliedStream || this.#stopped || Date.now() - this.#lastMessageAt < this.#stallMs) return;
      this.#o.log(`replication: reading stalled at stream seq ${this.#appliedStream} of ${last} for ${Date.now() - this.#lastMessageAt} ms; `
        + 'reopening the consumer');
      this.#messages?.stop();
      await this.#loop?.catch(() => undefined);
      if (this.#stopped) return;
      this.restarts++;
      await this.#open(this.#appliedStream + 1);
    } catch (e) {
      this.#o.log(`replication: reopening the consumer failed (${(e as Error).message}); retried`);
    } finally {
      this.#reopening = false;
    }
  }

  /**
   * Resolves true once engine seq `seq` is applied, false when `timeoutMs` passed first or the follower failed
   * (read-your-writes: api/server.ts holds a read carrying X-Rm-Min-Seq on it). Waiters are woken after each
   * stream message, not per record.
   */
  whenApplied(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.#appliedSeq >= seq) return Promise.resolve(true);
    if (this.#failure !== undefined || this.#stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const w = { seq, resolve, timer: setTimeout(() => this.#unwait(w, false), timeoutMs) };
      this.#waiters.push(w);
    });
  }

  #unwait(w: Waiter, result: boolean): void {
    const i = this.#waiters.indexOf(w);
    if (i < 0) return;
    this.#waiters.splice(i, 1);
    clearTimeout(w.timer);
    w.resolve(result);
  }

  /** Wakes the waiters whose seq is applied (all of them, false, once the follower failed or stopped). */
  #wake(): void {
    for (const w of [...this.#waiters]) {
      if (this.#appliedSeq >= w.seq) this.#unwait(w, true);
      else if (this.#failure !== undefined || this.#stopped) this.#unwait(w, false);
    }
  }

  /** Resolves once every message up to stream seq `seq` was handled (or the follower failed); bounded. */
  async caughtUp(seq: number, timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (this.#appliedStream < seq && this.#failure === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    return this.#appliedStream >= seq && this.#failure === undefined;
  }

  /** Stops reading (the state stays as applied). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#watchdog !== undefined) clearInterval(this.#watchdog);
    while (this.#reopening) await new Promise((r) => setTimeout(r, 5));
    this.#messages?.stop();
    await this.#loop?.catch(() => undefined);
    this.#wake();
    while (this.#snapshotting) await new Promise((r) => setTimeout(r, 5));
  }

  #handle(m: JsMsg): void {
    const kind = m.headers?.get(HDR_KIND) ?? '';
    this.#lastMessageAt = Date.now();
    if (m.seq <= this.#appliedStream) return; // Redelivered after a reopening.
    this.#current = m.seq;
    this.#lagMessages = m.info.pending;
    this.#lagMs = Math.max(0, performance.timeOrigin + performance.now() - m.info.timestampNanos / 1e6);
    // The header (stream seq 1) was checked when the node started.
    if (kind === 'epoch') {
      const e = Number(m.headers!.get(HDR_EPOCH));
      if (e > this.#epoch) {
        this.#epoch = e;
        // A group the previous leader left unfinished never reached its engine: drop it here too.
        this.#scanner = new RecordScanner(0);
        this.#o.log(`replication: epoch ${e} began at stream seq ${m.seq} (after engine seq ${this.#appliedSeq})`);
      }
    } else if (kind === 'batch') {
      const e = Number(m.headers!.get(HDR_EPOCH));
      if (e < this.#epoch) {
        this.#dropped++;
        this.#o.log(`replication: dropped stream seq ${m.seq} of deposed epoch ${e} (current ${this.#epoch})`);
      } else {
        if (e > this.#epoch) this.#epoch = e;
        const data = m.data;
        const used = this.#scanner.scan(data, 0, data.length, 0, this.#apply);
        if (this.#scanner.reason !== undefined || used !== data.length) throw new Error(`batch holds a bad frame (${this.#scanner.reason ?? 'torn'})`);
        const hash = m.headers!.get(HDR_HASH);
        if (hash !== '') this.#verify(Number(m.headers!.get(HDR_HASH_SEQ)), hash);
      }
    }
    this.#appliedStream = m.seq;
    if (this.#waiters.length > 0) this.#wake();
    this.#maybeSnapshot();
  }

  readonly #apply = (c: Command): void => {
    if (c.seq <= this.#appliedSeq) return;
    if (c.seq !== this.#appliedSeq + 1) throw new Error(`gap: engine seq ${c.seq} after ${this.#appliedSeq}`);
    const cmd = this.#cmd.copyFrom(c);
    this.#gw.applyReplicated(cmd);
    this.#o.journal?.append(cmd);
    this.#appliedSeq = cmd.seq;
    this.#streamOfApplied = this.#current;
  };

  #verify(seq: number, leaderHash: string): void {
    if (seq !== this.#appliedSeq) throw new Error(`checkpoint at engine seq ${seq} but ${this.#appliedSeq} is applied`);
    const mine = this.#gw.engine.stateHash();
    if (mine !== leaderHash) {
      throw new Error(`STATE HASH MISMATCH at engine seq ${seq}: leader ${leaderHash}, follower ${mine}`);
    }
    this.#verified++;
    this.#lastCheckpoint = { seq, hash: mine };
  }

  #fail(reason: string): void {
    if (this.#failure !== undefined) return;
    this.#failure = reason;
    this.#wake();
    this.#gw.stop(ResultCode.EngineStopped, `replication follower stopped: ${reason}`);
    console.error(`ringmatch: REPLICATION FOLLOWER STOPPED: ${reason}; nothing more is applied (GET /sim/replication)`);
    this.#messages?.stop();
  }

  #maybeSnapshot(): void {
    const every = this.#o.snapshotEvery;
    if (every <= 0 || this.#snapshotting || this.#appliedSeq - this.#lastSnapshotSeq < every) return;
    const seq = this.#appliedSeq;
    this.#lastSnapshotSeq = seq;
    this.#snapshotting = true;
    const data = captureSnapshot(this.#gw.engine, { createdTime: this.#gw.clock.nowUs() });
    const streamSeq = this.#streamOfApplied;
    void (async () => {
      try {
        const bytes = await storeSnapshot(this.#ls.snapshots, data, streamSeq);
        this.#snapshots++;
        this.#o.log(`replication: snapshot at engine seq ${seq} (stream seq ${streamSeq}, ${bytes} bytes) stored`);
      } catch (e) {
        this.#o.log(`replication: snapshot at engine seq ${seq} not stored: ${(e as Error).message}`);
      } finally {
        this.#snapshotting = false;
      }
    })();
  }
}
