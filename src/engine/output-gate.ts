/**
 * OutputGate: holds everything that leaves the process (HTTP replies, WebSocket replies and pushes) until
 * the journal covers every command applied before it was rendered, so that no client ever sees an effect
 * that a crash could take back. This is where "a reply leaves only after the journal covers its command"
 * is kept, for every front at once.
 *
 * `hold(send, refuse)`: the output was rendered from the current state, which reflects every command
 * appended to the journal so far; `send` runs once the journal reports durable the last seq appended at the
 * call (at once when it already is, or when nothing is journaled), in call order: outputs never overtake
 * one another. Group commit does the rest: one write (and one sync, under `batch`) releases everything held
 * meanwhile.
 *
 * Replication (engine/replication, docs/scale-out.md): with a replicated log tapping the journal, "durable"
 * also means acknowledged by the log (JournalWriter.tap), so an output waits for both the local policy and
 * the replica; a replica that refuses the leader (fenced) fails the journal like a disk error.
 *
 * Journal failure: everything held is refused (`refuse` runs instead of `send`: the effect it shows may be
 * lost), and from then on `hold` sends at once: reads keep working from memory, while the gateway answers
 * every command that did not become durable with JournalFailed (so no write is acknowledged).
 *
 * Costs: without a journal, one branch. With one, a comparison when nothing is pending; otherwise two array
 * slots per held output (the closures are the caller's). Released in FIFO order; a `send` that throws is
 * logged and does not stop the others.
 */
import type { JournalWriter } from './journal/writer.js';

const noop = (): void => undefined;

export class OutputGate {
  readonly #journal: JournalWriter | undefined;
  /** FIFO of held outputs from `#head`: the seq each waits for, what to run, what to run on failure. */
  #targets: number[] = [];
  #sends: (() => void)[] = [];
  #refusals: (() => void)[] = [];
  #head = 0;
  #failed = false;

  /** A gate over `journal`'s progress (it becomes the journal's watcher), or a pass-through without one. */
  constructor(journal: JournalWriter | undefined, onJournalFailure?: (e: Error) => void) {
    this.#journal = journal;
    journal?.watch({
      durable: (seq) => this.#release(seq),
      failed: (e) => {
        this.#fail();
        onJournalFailure?.(e);
      },
    });
  }

  /** Outputs held now. */
  get held(): number {
    return this.#targets.length - this.#head;
  }

  /**
   * True when an output rendered now may leave at once (no journal, a failed one, or nothing held and
   * everything appended durable): callers check it first to skip the closures `hold` needs.
   */
  passes(): boolean {
    const j = this.#journal;
    return j === undefined || this.#failed || (this.#head === this.#targets.length && j.durableSeq >= j.appendedSeq);
  }

  /** Sends `send` once what it shows is durable (see the module header); `refuse` instead if the journal fails first. */
  hold(send: () => void, refuse: () => void = noop): void {
    const j = this.#journal;
    if (j === undefined || this.#failed) return send();
    const target = j.appendedSeq;
    if (this.#head === this.#targets.length && j.durableSeq >= target) return send();
    this.#targets.push(target);
    this.#sends.push(send);
    this.#refusals.push(refuse);
  }

  #release(durableSeq: number): void {
    const t = this.#targets;
    let i = this.#head;
    while (i < t.length && t[i]! <= durableSeq) {
      const send = this.#sends[i]!;
      this.#sends[i] = noop;
      this.#refusals[i] = noop;
      this.#head = ++i;
      run(send);
    }
    this.#compact();
  }

  #fail(): void {
    this.#failed = true;
    const refusals = this.#refusals.slice(this.#head);
    this.#targets = [];
    this.#sends = [];
    this.#refusals = [];
    this.#head = 0;
    for (const r of refusals) run(r);
  }

  /** Drops released slots once they are the bulk of the arrays (amortised O(1) per output). */
  #compact(): void {
    if (this.#head === this.#targets.length) {
      this.#targets.length = 0;
      this.#sends.length = 0;
      this.#refusals.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#targets.length) {
      this.#targets.splice(0, this.#head);
      this.#sends.splice(0, this.#head);
      this.#refusals.splice(0, this.#head);
      this.#head = 0;
    }
  }
}

function run(f: () => void): void {
  try {
    f();
  } catch (e) {
    console.error('ringmatch: an output failed after the journal released it:', e);
  }
}
