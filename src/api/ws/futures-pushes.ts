/**
 * Public pushes of the perpetual-futures WebSocket endpoint, rendered from the futures market-data feed (the
 * one GET /futures/{settle}/… serves) after each applied command of a contract market, and the first push a
 * new subscriber gets (`firstFrame`), rendered by the same code as the pushes that follow it.
 *
 *   futures.trades             per command with fills: an array of the trades `{id, create_time, create_time_ms,
 *                              contract, size (signed by the taker's side: + buy, − sell), price, is_internal}`
 *   futures.tickers            `[FuturesTicker]` (the REST ticker): on subscribe, after a trade, a change of the
 *                              best levels, or new mark / index prices
 *   futures.book_ticker        `{t, u, s, b, B, a, A}` (sizes as integers, "" / 0 for an empty side): on subscribe
 *                              and when the best levels change; `u` is the book version
 *   futures.candlesticks       `[{t, v, c, h, l, o, n, a}]`, the current bucket (n: "1m_BTC_USDT", "1m_mark_BTC_USDT"):
 *                              on subscribe (once the series has a candle), after a trade (trade candles) or a
 *                              price update (mark_, index_)
 *   futures.order_book         event "all": `{t, contract, id, asks, bids}` levels `{p, s}`, the best `level`
 *                              levels: on subscribe and after every change of the book
 *   futures.order_book_update  `{t, s, U, u, b, a}` window increments (book-window.ts; `s` 0 removes a level);
 *                              on subscribe the whole window with `full: true` and U = u = the window's version
 *   futures.obu                first `{t, full: true, s: "ob.<contract>.<depth>", u, b, a}`, then increments
 *                              `{t, s, U, u, b, a}`; levels `[price, size]` strings, size "0" removes a level
 *
 * Book versions are the REST book's `id` (`GET /futures/{settle}/order_book?with_id=true`), so a client applies
 * the increments with `u` > id to the REST book; the first push restates the window at subscription time, which
 * a client holding a REST book read after subscribing discards (its u is not above the REST id), and which lets a
 * client that waits for a first push before reading the REST book (ccxt.pro) start on a quiet market.
 * Costs per command with no subscribers: a few topic lookups.
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import type { Market } from '../../core/market.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { formatUnits } from '../../core/units.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { renderFuturesTrade } from '../../gate/futures-market-shapes.js';
import type { DepthSource } from '../market-data/depth-source.js';
import { CandleKind } from '../market-data/futures-candles.js';
import type { FuturesMarketData } from '../market-data/futures-market-data.js';
import { INTERVAL_NAMES } from '../market-data/intervals.js';
import { BookWindow } from './book-window.js';
import { topicOf } from './channels.js';
import { updateFrame } from './envelope.js';
import type { FxTarget } from './futures-channels.js';
import type { Publisher } from './publisher.js';

type Level = { p: string; s: number };
const KIND_PREFIX: readonly string[] = ['', 'mark_', 'index_'];

/** A mirrored window of one futures.order_book_update or futures.obu topic. */
interface FxWindow { readonly topic: string; readonly window: BookWindow }

export class FuturesPushes {
  readonly #ex: Exchange;
  readonly #feed: FuturesMarketData;
  readonly #out: Publisher;
  readonly #books: readonly DepthSource[];
  /** Per contract: the windows of its subscribed order_book_update and obu topics. */
  readonly #windows: FxWindow[][];
  /** Per contract: the book version seen at the last command, and the best levels last pushed. */
  readonly #versions: Float64Array;
  readonly #top: Float64Array;
  readonly #p = new Float64Array(1);
  readonly #l = new Float64Array(1);
  #stopped = false;

  constructor(gateway: ExchangeGateway, feed: FuturesMarketData, out: Publisher) {
    this.#ex = gateway.exchange;
    this.#feed = feed;
    this.#out = out;
    const S = this.#ex.futures;
    this.#books = S.contracts.map((_, ci) => {
      const m = S.marketOf[ci]!;
      return { depth: (side, limit, prices, lots) => gateway.depth(m, side, limit, prices, lots) };
    });
    this.#windows = S.contracts.map(() => []);
    this.#versions = Float64Array.from(S.contracts, (_, ci) => feed.versions.version[S.marketOf[ci]!]!);
    this.#top = new Float64Array(S.contracts.length * 4);
  }

  /** Observes the gateway (after the feed, which must observe first); `stop()` makes the observer inert. */
  attach(gateway: ExchangeGateway): this {
    gateway.observe((code, cmd, events) => {
      try {
        this.onResult(code, cmd, events);
      } catch (e) {
        console.error('ringmatch: futures websocket push failed:', e);
      }
    });
    return this;
  }

  stop(): void {
    this.#stopped = true;
  }

  onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.#stopped) return;
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
    if (bookChanged) this.#bookPushes(ci, t);
    if (fills > 0 || bookChanged) this.#tops(ci, t, fills > 0);
  }

  /** The first push of a new subscriber of `topic`, or undefined (futures.trades: an event stream). */
  firstFrame(channel: string, topic: string, x: FxTarget, nowUs: number): string | undefined {
    switch (channel) {
      case 'futures.tickers': return this.#tickerFrame(x.contract, nowUs);
      case 'futures.book_ticker': return this.#bookTickerFrame(x.contract, nowUs);
      case 'futures.candlesticks': return this.#candleFrame(x.contract, x.kind, x.interval, nowUs);
      case 'futures.order_book': return this.#snapshotFrame(x.contract, x.depth, nowUs);
      case 'futures.order_book_update': {
        const w = this.#window(x.contract, topic, x.depth);
        const s = w.snapshot();
        const market = this.#market(x.contract);
        return updateFrame('futures.order_book_update', {
          t: Math.floor(nowUs / 1000), full: true, s: market.id, U: w.lastU, u: w.lastU, b: levels(market, s.bids), a: levels(market, s.asks),
        }, nowUs);
      }
      case 'futures.obu': {
        const w = this.#window(x.contract, topic, x.depth);
        const s = w.snapshot();
        const market = this.#market(x.contract);
        return updateFrame('futures.obu', {
          t: Math.floor(nowUs / 1000), full: true, s: `ob.${market.id}.${x.depth}`, u: w.lastU, b: pairs(market, s.bids), a: pairs(market, s.asks),
        }, nowUs);
      }
      default: return undefined;
    }
  }

  #market(ci: number): Market {
    return this.#ex.markets[this.#ex.futures.marketOf[ci]!]!;
  }

  #window(ci: number, topic: string, depth: number): BookWindow {
    const list = this.#windows[ci]!;
    let w = list.find((x) => x.topic === topic);
    if (w === undefined) {
      w = { topic, window: new BookWindow(this.#ex.futures.marketOf[ci]!, depth, this.#books[ci]!, this.#feed.versions.version[this.#ex.futures.marketOf[ci]!]!) };
      list.push(w);
    }
    return w.window;
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

  #bookPushes(ci: number, timeUs: number): void {
    const name = this.#ex.futures.contracts[ci]!.name;
    const market = this.#market(ci);
    const list = this.#windows[ci]!;
    const version = this.#feed.versions.version[this.#ex.futures.marketOf[ci]!]!;
    for (let k = list.length - 1; k >= 0; k--) {
      const { topic, window: w } = list[k]!;
      if (this.#out.subscribers(topic) === 0) {
        list.splice(k, 1);
        continue;
      }
      const changes = w.diff(this.#books[ci]!);
      if (changes === undefined) continue;
      const U = w.lastU + 1;
      w.lastU = Math.max(version, U);
      const t = Math.floor(timeUs / 1000);
      this.#out.publish(topic, topic.startsWith('futures.obu|')
        ? updateFrame('futures.obu', { t, s: `ob.${name}.${w.depth}`, U, u: w.lastU, b: pairs(market, changes.bids), a: pairs(market, changes.asks) }, timeUs)
        : updateFrame('futures.order_book_update', { t, s: name, U, u: w.lastU, b: levels(market, changes.bids), a: levels(market, changes.asks) }, timeUs));
    }
    for (const depth of [1, 5, 10, 20, 50, 100]) {
      const topic = topicOf('futures.order_book', `${name}.${depth}.0`);
      if (this.#out.subscribers(topic) > 0) this.#out.publish(topic, this.#snapshotFrame(ci, depth, timeUs));
    }
  }

  /** futures.order_book's full snapshot (event "all") of `depth` levels. */
  #snapshotFrame(ci: number, depth: number, nowUs: number): string {
    const market = this.#market(ci);
    const book = this.#books[ci]!;
    const p = new Float64Array(depth);
    const l = new Float64Array(depth);
    const side = (s: number): Level[] => {
      const n = book.depth(s, depth, p, l);
      const out: Level[] = [];
      for (let k = 0; k < n; k++) out.push({ p: formatUnits(p[k]!, market.priceScale), s: Number(formatUnits(l[k]!, market.amountScale)) });
      return out;
    };
    return updateFrame('futures.order_book', {
      t: Math.floor(nowUs / 1000), contract: market.id, id: this.#feed.versions.version[this.#ex.futures.marketOf[ci]!]!,
      asks: side(Side.Sell), bids: side(Side.Buy),
    }, nowUs, 'all');
  }

  #tops(ci: number, timeUs: number, force: boolean): void {
    const name = this.#ex.futures.contracts[ci]!.name;
    const tickerTopic = topicOf('futures.tickers', name);
    const bookTopic = topicOf('futures.book_ticker', name);
    const tickers = this.#out.subscribers(tickerTopic) > 0;
    const bookTicker = this.#out.subscribers(bookTopic) > 0;
    if (!tickers && !bookTicker) return;
    const best = this.#readBest(ci);
    let moved = false;
    for (let k = 0; k < 4; k++) {
      if (this.#top[ci * 4 + k] !== best[k]) moved = true;
      this.#top[ci * 4 + k] = best[k]!;
    }
    if (tickers && (force || moved)) this.#out.publish(tickerTopic, this.#tickerFrame(ci, timeUs));
    if (bookTicker && moved) this.#out.publish(bookTopic, this.#bookTickerFrame(ci, timeUs));
  }

  #tickerFrame(ci: number, timeUs: number): string {
    return updateFrame('futures.tickers', [this.#feed.ticker(ci, timeUs, this.#books[ci])], timeUs);
  }

  /** Best bid price, bid lots, ask price, ask lots (lots 0 = empty side). @allocates */
  #readBest(ci: number): number[] {
    const book = this.#books[ci]!;
    const bids = book.depth(Side.Buy, 1, this.#p, this.#l);
    const b = [bids > 0 ? this.#p[0]! : 0, bids > 0 ? this.#l[0]! : 0];
    const asks = book.depth(Side.Sell, 1, this.#p, this.#l);
    return [...b, asks > 0 ? this.#p[0]! : 0, asks > 0 ? this.#l[0]! : 0];
  }

  #bookTickerFrame(ci: number, timeUs: number): string {
    const market = this.#market(ci);
    const [bp, bl, ap, al] = this.#readBest(ci) as [number, number, number, number];
    const price = (t: number, l: number): string => (l > 0 ? formatUnits(t, market.priceScale) : '');
    const size = (l: number): number => Number(formatUnits(l, market.amountScale));
    return updateFrame('futures.book_ticker', {
      t: Math.floor(timeUs / 1000), u: this.#feed.versions.version[this.#ex.futures.marketOf[ci]!]!, s: market.id,
      b: price(bp, bl), B: size(bl), a: price(ap, al), A: size(al),
    }, timeUs);
  }
}

/** (ticks, lots) pairs as Gate's futures levels `{p, s}` (integer contract sizes). */
function levels(market: Market, flat: readonly number[]): Level[] {
  const out: Level[] = [];
  for (let k = 0; k < flat.length; k += 2) out.push({ p: formatUnits(flat[k]!, market.priceScale), s: Number(formatUnits(flat[k + 1]!, market.amountScale)) });
  return out;
}

/** (ticks, lots) pairs as futures.obu's `[price, size]` strings. */
function pairs(market: Market, flat: readonly number[]): [string, string][] {
  const out: [string, string][] = [];
  for (let k = 0; k < flat.length; k += 2) out.push([formatUnits(flat[k]!, market.priceScale), formatUnits(flat[k + 1]!, market.amountScale)]);
  return out;
}
