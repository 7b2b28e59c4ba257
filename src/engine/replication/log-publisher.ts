/**
 * The leader's side of the replicated log: a JournalTap that publishes every buffer the journal writes as one
 * JetStream message (group commit: one message per batch of commands, records unchanged), and tells the
 * journal what JetStream acknowledged, so the output gate releases a reply only once its command is both
 * in the local file (under its fsync policy) and acknowledged by the stream.
 *
 * Ordering and fencing: message i of this leader is expected at stream seq `base + i`; each publish says so
 * (`expect.lastSequence = base + i − 1`) and carries `Nats-Msg-Id = <epoch>:<first engine seq>`. Up to
 * `window` publishes are in flight. A refusal of the oldest unacknowledged batch (err 10071: a newer leader
 * appended) fails the journal for good (JournalWriter.replicaFailed, code EFENCED): intake stops, every held
 * reply answers 503, and the owner (sim/follower-node.ts) steps down. Any other error (a timeout, a lost
 * connection, a NATS leader change) is retried: the unacknowledged batches are re-sent in order with their
 * ids and expected sequences for up to `retryMs` (JetStream's dedup answers one that had landed), and only
 * then fails the journal (EREPLICA). Replies wait meanwhile.
 *
 * Checkpoints: when at least `checkpointEvery` commands passed since the last one and the buffer ends on a
 * group boundary, `stateHash(tailSeq)` (the leader's hash with exactly that seq applied, or undefined when
 * it cannot tell: the threaded runner) rides on the batch as `Rm-State-Hash`/`Rm-Hash-Seq`.
 *
 * Cost: one copy of each buffer (it is reused by the writer), one publish per buffer; nothing per command.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import type { JournalTap, JournalWriter } from '../journal/writer.js';
import { HDR_EPOCH, HDR_FIRST, HDR_HASH, HDR_HASH_SEQ, HDR_LAST, isWrongLastSequence, logHeaders } from './log-stream.js';

export interface PublisherOptions {
  readonly js: JetStreamClient;
  readonly subject: string;
  readonly epoch: number;
  /** The stream's last sequence before this leader's first batch. */
  readonly lastStreamSeq: number;
  /** The last engine seq already in the stream. */
  readonly lastSeq: number;
  readonly checkpointEvery: number;
  readonly stateHash?: ((seq: number) => string | undefined) | undefined;
  /**
   * How long failed publishes are retried before the publisher gives up (not for a fencing); default 30000 ms,
   * well above the several seconds a NATS cluster takes to elect a new stream leader after losing a server.
   */
  readonly retryMs?: number | undefined;
  /** How long one publish waits for JetStream's acknowledgement before it counts as failed (and is retried); default 2000 ms. */
  readonly publishTimeoutMs?: number | undefined;
  /** Publishes in flight at most; default 16. */
  readonly window?: number | undefined;
  /**
   * Told of each buffer that ends on a group boundary, as it is queued: its last seq and the stream seq it
   * will have (the leader takes its snapshots there: sim/follower-node.ts).
   */
  readonly onBoundary?: ((tailSeq: number, streamSeq: number) => void) | undefined;
  /** Told once when a publish is refused or fails (after the journal was failed). */
  readonly onFailure?: ((reason: string, fenced: boolean) => void) | undefined;
}

interface Pending { readonly streamSeq: number; readonly data: Uint8Array; readonly boundary: number; readonly headers: ReturnType<typeof logHeaders>; readonly msgID: string }

export class LogPublisher implements JournalTap {
  readonly #o: PublisherOptions;
  readonly #window: number;
  #journal: JournalWriter | undefined;
  #nextStream: number;
  #tailSeq: number;
  #lastHashSeq: number;
  readonly #queue: Pending[] = [];
  /** Published and not yet acknowledged, in stream order (re-sent in order after an error). */
  readonly #sent: Pending[] = [];
  #retrying = false;
  #inFlight = 0;
  /** Acked stream seqs not yet contiguous with `#ackedStream`, and the boundary each carries. */
  readonly #acked = new Map<number, number>();
  #ackedStream: number;
  #failed: string | undefined;
  /** Batches and commands acknowledged, checkpoints sent (status). */
  batches = 0;
  checkpoints = 0;
  /** Times a failed publish was retried (not fenced). */
  retries = 0;
  ackedSeq: number;

  constructor(options: PublisherOptions) {
    this.#o = options;
    this.#window = options.window ?? 16;
    this.#nextStream = options.lastStreamSeq + 1;
    this.#ackedStream = options.lastStreamSeq;
    this.#tailSeq = options.lastSeq;
    this.#lastHashSeq = options.lastSeq;
    this.ackedSeq = options.lastSeq;
  }

  get failure(): string | undefined { return this.#failed; }
  get lastStreamSeq(): number { return this.#ackedStream; }
  get epoch(): number { return this.#o.epoch; }

  /** Taps `journal`: from now on its writes are published (JournalWriter.tap). */
  attach(journal: JournalWriter): void {
    this.#journal = journal;
    journal.tap(this);
  }

  batch(bytes: Uint8Array, tailSeq: number, boundarySeq: number): void {
    if (this.#failed !== undefined) return;
    const first = this.#tailSeq + 1;
    this.#tailSeq = tailSeq;
    const fields: Record<string, string | number> = { [HDR_EPOCH]: this.#o.epoch, [HDR_FIRST]: first, [HDR_LAST]: tailSeq };
    const every = this.#o.checkpointEvery;
    if (every > 0 && tailSeq === boundarySeq && tailSeq - this.#lastHashSeq >= every) {
      const hash = this.#o.stateHash?.(tailSeq);
      if (hash !== undefined) {
        fields[HDR_HASH] = hash;
        fields[HDR_HASH_SEQ] = tailSeq;
        this.#lastHashSeq = tailSeq;
        this.checkpoints++;
      }
    }
    const streamSeq = this.#nextStream++;
    this.#queue.push({ streamSeq, data: bytes.slice(), boundary: boundarySeq, headers: logHeaders('batch', fields),
      msgID: `${this.#o.epoch}:${first}` });
    this.#pump();
    if (tailSeq === boundarySeq) this.#o.onBoundary?.(tailSeq, streamSeq);
  }

  #publish(m: Pending): Promise<{ seq: number }> {
    return this.#o.js.publish(this.#o.subject, m.data, { msgID: m.msgID, expect: { lastSequence: m.streamSeq - 1 }, headers: m.headers,
      timeout: this.#o.publishTimeoutMs ?? 2000 });
  }

  #pump(): void {
    while (this.#failed === undefined && !this.#retrying && this.#inFlight < this.#window && this.#queue.length > 0) {
      const m = this.#queue.shift()!;
      this.#sent.push(m);
      this.#inFlight++;
      this.#publish(m).then((ack) => {
        this.#inFlight--;
        if (ack.seq !== m.streamSeq) return this.#fail(`stream seq ${ack.seq} acknowledged, ${m.streamSeq} expected`, false);
        this.#done(m);
        this.#pump();
      }, (e: unknown) => {
        this.#inFlight--;
        // A refusal of the oldest unacknowledged batch: someone else appended. A refusal of a later one may only
        // mean an earlier one was lost in transit (a NATS leader change): retried in order like any error.
        if (isWrongLastSequence(e) && this.#sent[0] === m && !this.#retrying) return this.#fenced(m);
        this.#startRetry();
      });
    }
  }

  #done(m: Pending): void {
    const i = this.#sent.indexOf(m);
    if (i >= 0) this.#sent.splice(i, 1);
    this.#ack(m.streamSeq, m.boundary);
  }

  #fenced(m: Pending): void {
    this.#fail(`publish at stream seq ${m.streamSeq} refused: another leader appended (epoch ${this.#o.epoch} is deposed)`, true);
  }

  #startRetry(): void {
    if (this.#retrying || this.#failed !== undefined) return;
    this.#retrying = true;
    this.retries++;
    void this.#retry();
  }

  /**
   * After a failed publish that was not a fencing: waits for what is in flight, then re-sends every
   * unacknowledged batch in order, one at a time, with its own `Nats-Msg-Id` and expected sequence (JetStream
   * answers a batch that did land with its seq, as a duplicate), every 200 ms until `retryMs` passed.
   */
  async #retry(): Promise<void> {
    const until = Date.now() + (this.#o.retryMs ?? 30_000);
    while (this.#inFlight > 0) await new Promise((r) => setTimeout(r, 5));
    while (this.#failed === undefined && this.#sent.length > 0) {
      const m = this.#sent[0]!;
      try {
        const ack = await this.#publish(m);
        if (ack.seq !== m.streamSeq) return this.#fail(`stream seq ${ack.seq} acknowledged, ${m.streamSeq} expected`, false);
        this.#done(m);
      } catch (e) {
        if (isWrongLastSequence(e)) return this.#fenced(m);
        if (Date.now() > until) {
          return this.#fail(`publish at stream seq ${m.streamSeq} failed for ${this.#o.retryMs ?? 30_000} ms: ${e instanceof Error ? e.message : String(e)}`, false);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    this.#retrying = false;
    this.#pump();
  }

  #ack(streamSeq: number, boundary: number): void {
    this.#acked.set(streamSeq, boundary);
    let b = -1;
    for (let s = this.#ackedStream + 1; this.#acked.has(s); s++) {
      b = this.#acked.get(s)!;
      this.#acked.delete(s);
      this.#ackedStream = s;
      this.batches++;
    }
    if (b >= 0 && b > this.ackedSeq) {
      this.ackedSeq = b;
      this.#journal?.replicated(b);
    }
  }

  #fail(reason: string, fenced: boolean): void {
    if (this.#failed !== undefined) return;
    this.#failed = reason;
    this.#queue.length = 0;
    this.#sent.length = 0;
    this.#journal?.replicaFailed(fenced ? 'EFENCED' : 'EREPLICA', new Error(`replicated log: ${reason}`));
    this.#o.onFailure?.(reason, fenced);
  }

  /** Resolves true once stream seq `streamSeq` is acknowledged, false if the publisher failed or `timeoutMs` passed. */
  async whenAcked(streamSeq: number, timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (this.#ackedStream < streamSeq && this.#failed === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    return this.#ackedStream >= streamSeq;
  }

  /** Resolves once nothing is queued or in flight (or the publisher failed); bounded by `timeoutMs`. */
  async drain(timeoutMs = 5000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.#failed === undefined && (this.#queue.length > 0 || this.#sent.length > 0) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
