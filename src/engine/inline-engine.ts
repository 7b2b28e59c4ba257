/**
 * The inline runner: sequencer, exchange (ledger, records) and every market's book in one thread,
 * synchronously. Tests, replays and the embedded API use it; the threaded runner must match it exactly
 * (same commands → same events → same state hash).
 *
 * `submit` applies one command completely and leaves its book events in `events` until the next call.
 * With a journal, callers reply only after `flush()` resolves (see JournalWriter's contract).
 */
import type { Clock } from '../core/clock.js';
import type { Command } from '../core/command.js';
import { applyToBook, Exchange, isBookCommand } from '../core/exchange/exchange.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { ArrayOrderBook } from '../core/matching/array-order-book.js';
import { BookEvents } from '../core/matching/book-events.js';
import type { OrderBook } from '../core/matching/order-book.js';
import { PlaceOrder } from '../core/matching/order-types.js';
import type { Market } from '../core/market.js';
import { ResultCode } from '../core/result-code.js';
import type { JournalWriter } from './journal/writer.js';
import { Sequencer } from './sequencer.js';

export type BookFactory = (market: Market) => OrderBook;

export interface InlineEngineOptions {
  readonly clock: Clock;
  readonly journal?: JournalWriter | undefined;
  /** Builds each market's book; default ArrayOrderBook. */
  readonly bookFactory?: BookFactory | undefined;
  /** Sequence already applied (recovery continues after it). */
  readonly lastSeq?: number | undefined;
}

export class InlineEngine {
  readonly exchange: Exchange;
  readonly books: readonly OrderBook[];
  readonly sequencer: Sequencer;
  /** Book events of the last submitted command. */
  readonly events = new BookEvents(1024);
  readonly #place = new PlaceOrder();

  constructor(def: ExchangeDefinition, options: InlineEngineOptions) {
    this.exchange = new Exchange(def);
    const make = options.bookFactory ?? ((m: Market) => new ArrayOrderBook(m));
    this.books = this.exchange.markets.map(make);
    this.sequencer = new Sequencer(options.clock, options.journal, options.lastSeq ?? 0);
  }

  /**
   * Sequences, journals and applies one command; returns its result code. `continues`: the next command
   * submitted belongs to the same journal group (see journal/format.ts).
   */
  submit(cmd: Command, continues = false): ResultCode {
    this.sequencer.stamp(cmd, continues);
    return this.apply(cmd);
  }

  /** Applies an already sequenced command (journal replay): R1, book, R2. */
  apply(cmd: Command): ResultCode {
    this.events.clear();
    const pre = this.exchange.pre(cmd);
    if (pre !== ResultCode.Ok || !isBookCommand(cmd.type)) return pre;
    const code = applyToBook(this.books[cmd.market]!, cmd, this.#place, this.events);
    return this.exchange.post(cmd, code, this.events);
  }

  /** Resolves when every submitted command is durable under the journal's policy. */
  flush(): Promise<void> {
    return this.sequencer.flush();
  }

  stateHash(): string {
    return this.exchange.stateHash(this.books.map((b) => b.stateHash()));
  }

  assertInvariants(): void {
    this.exchange.assertInvariants();
    for (const b of this.books) b.assertInvariants();
  }
}
