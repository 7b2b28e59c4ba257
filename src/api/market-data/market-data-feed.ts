/**
 * The public market data the REST routes serve — candles, 24 h tickers, book versions — kept current from
 * the engine's per-command results, plus the four route handlers over it.
 *
 * Wiring: after every applied command, with the command and its book events —
 *   InlineEngine:   const code = engine.submit(cmd); feed.onResult(cmd, engine.events);
 *   ThreadedEngine: engine.submit(cmd, (code, c, events) => { feed.onResult(c, events); reply(code); });
 * At start-up after recovery, `replayTradeLog()` rebuilds candles and tickers from the retained trades.
 * Handlers take the decoded query record and `now` (µs), and answer a value or a rejection code.
 * Costs: onResult O(events × intervals), no allocation in steady state; handlers allocate their answers.
 */
import type { Command } from '../../core/command.js';
import { type Exchange , spotMarketIndexes } from '../../core/exchange/exchange.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import type { GateOrderBook, GatePublicTrade } from '../../gate/shapes.js';
import { BookVersions } from './book-versions.js';
import { CandleStore } from './candles.js';
import type { DepthSource } from './depth-source.js';
import { orderBookView } from './order-book-view.js';
import { publicTrades } from './public-trades.js';
import { type Answer, answer, marketParam, type QueryParams, reject } from './query.js';
import { type GateTicker, TickerStats } from './tickers.js';

export interface MarketDataOptions {
  /** Traded buckets kept per market and interval (default 1024). */
  readonly candleCapacity?: number;
  /** Starting book version (e.g. the recovered sequence number). */
  readonly initialVersion?: number;
}

/** The book of a market to read depth from (see depth-source.ts); undefined hides book fields. */
export type BookOf = (market: number) => DepthSource | undefined;

export class MarketDataFeed {
  readonly exchange: Exchange;
  readonly candles: CandleStore;
  readonly tickers: TickerStats;
  readonly versions: BookVersions;

  /** @allocates */
  constructor(exchange: Exchange, options: MarketDataOptions = {}) {
    this.exchange = exchange;
    this.candles = new CandleStore(exchange.markets, options.candleCapacity);
    this.tickers = new TickerStats(exchange.markets);
    this.versions = new BookVersions(exchange.markets.length, options.initialVersion ?? 0);
  }

  /** Feeds one applied command (any type, any outcome) and its book events. */
  onResult(cmd: Command, events: BookEvents): void {
    if (events.count === 0) return;
    const m = cmd.market;
    for (let i = 0; i < events.count; i++) {
      if (events.kind[i] !== EventKind.Fill) continue;
      const price = events.price[i]!;
      const lots = events.lots[i]!;
      this.#record(m, cmd.time, price, lots);
    }
    this.versions.onResult(cmd, events);
  }

  /** Rebuilds candles and tickers from the trades the exchange retains (start-up, on a fresh feed). */
  replayTradeLog(): void {
    const T = this.exchange.trades;
    for (let id = Math.max(1, T.count - T.capacity + 1); id <= T.count; id++) {
      const s = T.slotOf(id);
      this.#record(T.market[s]!, T.time[s]!, T.price[s]!, T.lots[s]!);
    }
  }

  /** GET /spot/tickers: one market with `currency_pair`, else every market (always an array). @allocates */
  spotTickers(q: QueryParams, nowUs: number, bookOf: BookOf): Answer<GateTicker[]> {
    if (q.currency_pair === undefined || q.currency_pair === '') {
      return answer(spotMarketIndexes(this.exchange).map((m) => this.tickers.ticker(m, nowUs, bookOf(m))));
    }
    const m = marketParam(this.exchange, q);
    return m < 0 ? reject(m) : answer([this.tickers.ticker(m, nowUs, bookOf(m))]);
  }

  /** GET /spot/order_book. @allocates */
  spotOrderBook(q: QueryParams, nowUs: number, bookOf: BookOf): Answer<GateOrderBook> {
    const m = marketParam(this.exchange, q);
    if (m < 0) return reject(m);
    const book = bookOf(m) ?? EMPTY_BOOK;
    return orderBookView(this.exchange.markets[m]!, book, q, this.versions.version[m]!, this.versions.updateUs[m]!, nowUs);
  }

  /** GET /spot/trades. @allocates */
  spotTrades(q: QueryParams): Answer<GatePublicTrade[]> {
    const m = marketParam(this.exchange, q);
    return m < 0 ? reject(m) : publicTrades(this.exchange, m, q);
  }

  /** GET /spot/candlesticks. @allocates */
  spotCandlesticks(q: QueryParams, nowUs: number): Answer<string[][]> {
    const m = marketParam(this.exchange, q);
    return m < 0 ? reject(m) : this.candles.query(m, q, nowUs);
  }

  #record(m: number, time: number, price: number, lots: number): void {
    const notional = price * lots;
    this.candles.record(m, time, price, lots, notional);
    this.tickers.record(m, time, price, lots, notional);
  }
}

const EMPTY_BOOK: DepthSource = { depth: () => 0 };
