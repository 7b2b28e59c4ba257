/**
 * The leader's side of the replicated log: a JournalTap that publishes every buffer the journal writes as one
 * JetStream message (group commit: one message per batch of commands, records unchanged), and tells the
 * journal what JetStream acknowledged, so the output gate releases a reply only once its command is both
 * in the local file (under its fsync policy) and acknowledged by the stream.
 *
 * Ordering and fencing: message i of this leader is expected at stream seq `base + i`; each publish says so
 * (`expect.lastSequence = base + i − 1`) and carries `Nats-Msg-Id = <epoch>:<first engine seq>`. Up to
 * `window` publishes are in flight. The first refusal or error (a newer leader appended: err 10071; a lost
 * connection; an ack at another seq) fails the journal for good (JournalWriter.replicaFailed, code EFENCED or
 * EREPLICA): intake stops, every held reply answers 503, and the owner (sim/follower-node.ts) steps down.
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
  #inFlight = 0;
  /** Acked stream seqs not yet contiguous with `#ackedStream`, and the boundary each carries. */
  readonly #acked = new Map<number, number>();
  #ackedStream: number;
  #failed: string | undefined;
  /** Batches and commands acknowledged, checkpoints sent (status). */
  batches = 0;
  checkpoints = 0;
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

  #pump(): void {
    while (this.#failed === undefined && this.#inFlight < this.#window && this.#queue.length > 0) {
      const m = this.#queue.shift()!;
      this.#inFlight++;
      this.#o.js.publish(this.#o.subject, m.data, { msgID: m.msgID, expect: { lastSequence: m.streamSeq - 1 }, headers: m.headers })
        .then((ack) => {
          this.#inFlight--;
          if (ack.seq !== m.streamSeq) return this.#fail(`stream seq ${ack.seq} acknowledged, ${m.streamSeq} expected`, false);
          this.#ack(m.streamSeq, m.boundary);
          this.#pump();
        }, (e: unknown) => {
          this.#inFlight--;
          const fenced = isWrongLastSequence(e);
          this.#fail(fenced ? `publish at stream seq ${m.streamSeq} refused: another leader appended (epoch ${this.#o.epoch} is deposed)`
            : `publish at stream seq ${m.streamSeq} failed: ${e instanceof Error ? e.message : String(e)}`, fenced);
        });
    }
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
    while (this.#failed === undefined && (this.#queue.length > 0 || this.#inFlight > 0) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
