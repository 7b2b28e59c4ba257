/**
 * The sequencer: gives every state-changing command its global sequence number and its time (from the
 * injected clock) before anything applies it, and appends it to the journal when one is attached.
 * State is a pure fold of the sequenced log, so a journal replays to the same state hash.
 *
 * Sequence numbers are safe integers from 1 (they are not ring sequences and never wrap).
 */
import type { Clock } from '../core/clock.js';
import { type Command, CommandType } from '../core/command.js';
import type { JournalWriter } from './journal/writer.js';

export class Sequencer {
  #seq: number;
  readonly #clock: Clock;
  #journal: JournalWriter | undefined;

  /** `lastSeq`: the last sequence already applied (after recovery), 0 for a new log. */
  constructor(clock: Clock, journal?: JournalWriter, lastSeq = 0) {
    this.#clock = clock;
    this.#journal = journal;
    this.#seq = lastSeq;
  }

  /** Attaches the journal commands are appended to from now on (recovery opens it after the replay). */
  attach(journal: JournalWriter): void {
    if (this.#journal !== undefined) throw new Error('the sequencer already has a journal');
    this.#journal = journal;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  /** Continues numbering after `seq` (recovery): later stamps are seq + 1, … */
  resumeAfter(seq: number): void {
    if (seq > this.#seq) this.#seq = seq;
  }

  /**
   * Stamps `seq` and `time` and journals the command (as the client sent it: derived fields are not kept).
   * `continues`: the next command stamped belongs to the same journal group (all or nothing after a crash).
   */
  stamp(cmd: Command, continues = false): void {
    cmd.seq = ++this.#seq;
    cmd.time = this.#clock.nowUs();
    if (cmd.type === CommandType.PlaceOrder) cmd.orderId = 0;
    cmd.stpId = 0;
    cmd.reserved = 0;
    this.#journal?.append(cmd, continues);
  }

  /** Resolves when every stamped command is durable under the journal's policy (at once without a journal). */
  flush(): Promise<void> {
    return this.#journal === undefined ? Promise.resolve() : this.#journal.flush();
  }
}
