/**
 * Public pushes of the perpetual-futures WebSocket endpoint, rendered from the futures market-data feed (the
 * one GET /futures/{settle}/… serves) after each applied command of a contract market, and the first push a
 * new subscriber gets (`firstFrame`), rendered by the same code as the pushes that follow it.
 *
 *   futures.trades             per command with fills: an array of the trades `{id, create_time, create_time_ms,
 *                              contract, size (signed by the taker's side: + buy, − sell), price, is_internal}`
 *   futures.tickers            `[FuturesTicker]` (the REST ticker): on subscribe, after a trade, a change of the
 *                              best levels, or new mark / index prices
 *   futures.candlesticks       `[{t, v, c, h, l, o, n, a}]`, the current bucket (n: "1m_BTC_USDT", "1m_mark_BTC_USDT"):
 *                              on subscribe (once the series has a candle), after a trade (trade candles) or a
 *                              price update (mark_, index_)
 *   futures.order_book, futures.order_book_update, futures.obu, futures.book_ticker: contract-books.ts
 *
 * Book versions are the REST book's `id` (`GET /futures/{settle}/order_book?with_id=true`), so a client applies
 * the increments with `u` > id to the REST book; the first push restates the window at subscription time, which
 * a client holding a REST book read after subscribing discards (its u is not above the REST id), and which lets a
 * client that waits for a first push before reading the REST book (ccxt.pro) start on a quiet market.
 * Costs per command with no subscribers: a few topic lookups.
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { renderFuturesTrade } from '../../gate/futures-market-shapes.js';
import type { DepthSource } from '../market-data/depth-source.js';
import { CandleKind } from '../market-data/futures-candles.js';
import type { FuturesMarketData } from '../market-data/futures-market-data.js';
import { INTERVAL_NAMES } from '../market-data/intervals.js';
import { topicOf } from './channels.js';
import { ContractBooks } from './contract-books.js';
import { updateFrame } from './envelope.js';
import { FX_BOOK_LEVELS, type FxTarget } from './futures-channels.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';

const KIND_PREFIX: readonly string[] = ['', 'mark_', 'index_'];

export class FuturesPushes extends PushObserver {
  readonly #ex: Exchange;
  readonly #feed: FuturesMarketData;
  readonly #out: Publisher;
  readonly #books: ContractBooks;
  /** Per contract: its book, for the ticker's best levels. */
  readonly #sources: readonly DepthSource[];
  /** Per contract: the book version seen at the last command (a difference means the book changed). */
  readonly #versions: Float64Array;

  constructor(gateway: ExchangeGateway, feed: FuturesMarketData, out: Publisher) {
    super('futures websocket push');
    this.#ex = gateway.exchange;
    this.#feed = feed;
    this.#out = out;
    const S = this.#ex.futures;
    this.#books = new ContractBooks(this.#ex, feed.versions, (m, side, limit, p, l) => gateway.depth(m, side, limit, p, l), out, 'futures',
      S.contracts.map((c) => c.name), S.marketOf, FX_BOOK_LEVELS);
    this.#versions = Float64Array.from(S.contracts, (_, ci) => feed.versions.version[S.marketOf[ci]!]!);
    this.#sources = S.marketOf.map((m) => ({ depth: (side, limit, p, l) => gateway.depth(m, side, limit, p, l) }));
  }

  override onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.stopped) return;
    const ci = this.#ex.futures.contractOf(cmd.market);
    if (ci < 0) return;
    const t = cmd.time;
    if (cmd.type === CommandType.FuturesSetPrices) {
      if (code !== ResultCode.Ok) return;
      if (cmd.price > 0) this.#candles(ci, CandleKind.Mark, t);
      if (cmd.amount > 0) this.#candles(ci, CandleKind.Index, t);
      this.#tops(ci, t, true);
      return;
    }
    let fills = 0;
    for (let i = 0; i < events.count; i++) if (events.kind[i] === EventKind.Fill) fills++;
    const version = this.#feed.versions.version[cmd.market]!;
    const bookChanged = version !== this.#versions[ci];
    this.#versions[ci] = version;
    if (fills > 0) {
      this.#trades(ci, fills, t);
      this.#candles(ci, CandleKind.Trade, t);
    }
    if (bookChanged) this.#books.onBookChange(ci, t);
    if (fills > 0 || bookChanged) this.#tops(ci, t, fills > 0);
  }

  /** The first push of a new subscriber of `topic`, or undefined (futures.trades: an event stream). */
  firstFrame(channel: string, topic: string, x: FxTarget, nowUs: number): string | undefined {
    switch (channel) {
      case 'futures.tickers': return this.#tickerFrame(x.contract, nowUs);
      case 'futures.candlesticks': return this.#candleFrame(x.contract, x.kind, x.interval, nowUs);
      default: return this.#books.firstFrame(channel, topic, x.contract, x.depth, nowUs);
    }
  }

  #trades(ci: number, fills: number, timeUs: number): void {
    const c = this.#ex.futures.contracts[ci]!;
    const topic = topicOf('futures.trades', c.name);
    if (this.#out.subscribers(topic) === 0) return;
    const last = this.#ex.trades.count;
    const out: Record<string, unknown>[] = [];
    for (let id = last - fills + 1; id <= last; id++) {
      const r = renderFuturesTrade(this.#ex, c, id);
      if (r === undefined) continue;
      // Gate's push: whole seconds and whole milliseconds (REST has fractions).
      out.push({ ...r, create_time: Math.floor(r.create_time as number), create_time_ms: Math.floor(r.create_time_ms as number) });
    }
    if (out.length > 0) this.#out.publish(topic, updateFrame('futures.trades', out, timeUs));
  }

  #candles(ci: number, kind: CandleKind, timeUs: number): void {
    const name = this.#ex.futures.contracts[ci]!.name;
    for (const iv of INTERVAL_NAMES) {
      const topic = topicOf('futures.candlesticks', `${iv}_${KIND_PREFIX[kind]}${name}`);
      if (this.#out.subscribers(topic) === 0) continue;
      const frame = this.#candleFrame(ci, kind, iv, timeUs);
      if (frame !== undefined) this.#out.publish(topic, frame);
    }
  }

  #candleFrame(ci: number, kind: CandleKind, iv: string, timeUs: number): string | undefined {
    const a = this.#feed.candlesticks(ci, kind, { interval: iv, limit: '1' }, timeUs);
    if (!a.ok || a.value.length === 0) return undefined;
    const k = a.value[a.value.length - 1]!;
    const n = `${iv}_${KIND_PREFIX[kind]}${this.#ex.futures.contracts[ci]!.name}`;
    const row = kind === CandleKind.Trade ? { t: k.t, v: Number(k.v), c: k.c, h: k.h, l: k.l, o: k.o, n, a: k.sum } : { t: k.t, c: k.c, h: k.h, l: k.l, o: k.o, n };
    return updateFrame('futures.candlesticks', [row], timeUs);
  }

  /** book_ticker when the best levels moved; the ticker then, or always with `force` (a trade, new prices). */
  #tops(ci: number, timeUs: number, force: boolean): void {
    const tickerTopic = topicOf('futures.tickers', this.#ex.futures.contracts[ci]!.name);
    const tickers = this.#out.subscribers(tickerTopic) > 0;
    const moved = this.#books.tops(ci, timeUs, tickers);
    if (tickers && (force || moved)) this.#out.publish(tickerTopic, this.#tickerFrame(ci, timeUs));
  }

  #tickerFrame(ci: number, timeUs: number): string {
    return updateFrame('futures.tickers', [this.#feed.ticker(ci, timeUs, this.#sources[ci])], timeUs);
  }
}
