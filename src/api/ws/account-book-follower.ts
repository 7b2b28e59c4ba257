/**
 * The account-book entries the private balance channels push (futures.balances, options.balances): per subscribed
 * topic a (user, account kind, sub-account, currency), and the entries written since the last command, read once
 * per command from the ledger's book. Topics nobody holds any more are dropped at the next step.
 * Costs per command: one comparison when no entry was written (no allocation: the push callback is given once,
 * at construction); else one account-book read per subscribed topic.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import type { AccountBookEntry } from '../../core/ledger/queries.js';
import type { Publisher } from './publisher.js';

interface Followed { readonly uid: number; readonly kind: number; readonly sub: number; readonly currency: string }

/** Pushes `entries` (oldest first) of followed `topic` of `uid`, written by the command at `timeUs`. */
export type BookEntriesPush = (topic: string, uid: number, entries: readonly AccountBookEntry[], timeUs: number) => void;

export class AccountBookFollower {
  readonly #ex: Exchange;
  readonly #out: Publisher;
  readonly #push: BookEntriesPush;
  readonly #topics = new Map<string, Followed>();
  /** The newest account-book entry already considered. */
  #seen: number;

  constructor(ex: Exchange, out: Publisher, push: BookEntriesPush) {
    this.#ex = ex;
    this.#out = out;
    this.#push = push;
    this.#seen = ex.ledger.bookLastId;
  }

  /** Follows `topic`: the entries of `uid`'s account (kind, sub) in `currency` from the book's current end on. */
  follow(topic: string, uid: number, kind: number, sub: number, currency: string): void {
    this.#topics.set(topic, { uid, kind, sub, currency });
  }

  /** After the command at `timeUs`: the push callback per followed topic the command wrote entries for. */
  step(timeUs: number): void {
    const L = this.#ex.ledger;
    const after = this.#seen;
    this.#seen = L.bookLastId;
    if (after === this.#seen || this.#topics.size === 0) return;
    for (const [topic, f] of this.#topics) {
      if (this.#out.subscribers(topic) === 0) {
        this.#topics.delete(topic);
        continue;
      }
      const entries = L.accountBook(f.uid, { kind: f.kind, sub: f.sub, currency: f.currency, afterId: after, limit: Number.MAX_SAFE_INTEGER });
      if (entries.length > 0) this.#push(topic, f.uid, entries.reverse(), timeUs);
    }
  }
}
