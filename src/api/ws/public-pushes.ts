/**
 * Public pushes of one applied command: spot.trades (one object per trade), spot.candlesticks (the current
 * bucket of each subscribed interval), spot.tickers and spot.book_ticker (on a trade or a change of the best
 * levels), spot.obu and spot.order_book_update (window increments, see book-window.ts); and the first push a
 * new subscriber gets (`firstFrame`), rendered by the same code as the pushes that follow it.
 *
 * First pushes: every channel that describes a state (book, ticker, best levels, candle) sends that state to a
 * new subscriber at once, so a client never waits for the market to move before it has something to show.
 * Event streams (spot.trades, the private channels) start with the next event.
 *
 * Book versions: `u` of an increment is the market's book version after the command (the REST book's `id`,
 * book-versions.ts); `U` is the previous increment's `u` + 1 on the same topic, so increments chain without
 * gaps. A window is mirrored only while its topic has subscribers; the first subscriber opens it.
 * Times come from the command (engine clock: simulated time in replays).
 * Costs per command with no subscribers: a Map lookup per channel, no allocation. With subscribers: one render and one
 * JSON.stringify per topic, whatever the number of subscribers (uWebSockets.js fans out).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import type { Market } from '../../core/market.js';
import { Side } from '../../core/matching/order-types.js';
import { formatUnits } from '../../core/units.js';
import { renderPublicTrade } from '../../gate/shapes.js';
import type { DepthSource } from '../market-data/depth-source.js';
import { INTERVAL_NAMES } from '../market-data/intervals.js';
import type { MarketDataFeed } from '../market-data/market-data-feed.js';
import { BookWindow, type WindowChanges } from './book-window.js';
import { LEGACY_WINDOWS, type Target, topicOf } from './channels.js';
import { updateFrame } from './envelope.js';
import type { Publisher } from './publisher.js';

const LEGACY_INTERVAL: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(LEGACY_WINDOWS).map(([k, v]) => [v, k]));

/** The topic a window of `depth` levels feeds: spot.obu for 50 and 400, the legacy channel for 20 and 100. */
export function windowTopic(pair: string, depth: number): string {
  const legacy = LEGACY_INTERVAL[depth];
  return legacy === undefined ? topicOf('spot.obu', `ob.${pair}.${depth}`) : topicOf('spot.order_book_update', `${pair}.${legacy}`);
}

const pairs = (m: Market, flat: number[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let k = 0; k < flat.length; k += 2) out.push([formatUnits(flat[k]!, m.priceScale), formatUnits(flat[k + 1]!, m.amountScale)]);
  return out;
};

export class PublicPushes {
  readonly #ex: Exchange;
  readonly #feed: MarketDataFeed;
  readonly #out: Publisher;
  readonly #bookOf: (m: number) => DepthSource;
  /** Open windows per market. */
  readonly #windows: BookWindow[][];
  /** Last best levels seen per market: bid price, bid lots, ask price, ask lots. */
  readonly #top: Float64Array;
  /** Scratch of #readBest: bid price, bid lots, ask price, ask lots (lots 0 for an empty side). */
  readonly #best = new Float64Array(4);
  readonly #p = new Float64Array(1);
  readonly #l = new Float64Array(1);

  constructor(ex: Exchange, feed: MarketDataFeed, out: Publisher, bookOf: (m: number) => DepthSource) {
    this.#ex = ex;
    this.#feed = feed;
    this.#out = out;
    this.#bookOf = bookOf;
    this.#windows = ex.markets.map(() => []);
    this.#top = new Float64Array(ex.markets.length * 4);
  }

  /** The window of `depth` levels of market `m`, opened (mirroring the current book) if needed. */
  window(m: number, depth: number): BookWindow {
    const list = this.#windows[m]!;
    let w = list.find((x) => x.depth === depth);
    if (w === undefined) {
      w = new BookWindow(m, depth, this.#bookOf(m), this.#feed.versions.version[m]!);
      list.push(w);
    }
    return w;
  }

  /** spot.obu's first push: the full window with `full: true`. */
  obuSnapshot(m: number, depth: number, nowUs: number): string {
    const market = this.#ex.markets[m]!;
    const w = this.window(m, depth);
    const s = w.snapshot();
    return updateFrame('spot.obu', {
      t: Math.floor(nowUs / 1000), full: true, s: `ob.${market.id}.${depth}`, u: w.lastU, b: pairs(market, s.bids), a: pairs(market, s.asks),
    }, nowUs);
  }

  /**
   * The first push of `channel` for a new subscriber of target `t` at `nowUs`, or undefined when the channel
   * has none: spot.obu the full window; spot.order_book a snapshot; spot.tickers the ticker (`last` "0"
   * before the market's first trade); spot.book_ticker the best levels (empty strings for an empty side);
   * spot.candlesticks the current bucket (a flat candle at the last close when nothing traded in it; none
   * before the market's first trade, as GET /spot/candlesticks). spot.order_book_update opens its window and
   * sends nothing: like Gate it carries increments only, to apply to the REST book (`with_id=true`).
   * spot.trades and the private channels are event streams and have no first push.
   */
  firstFrame(channel: string, t: Target, nowUs: number): string | undefined {
    switch (channel) {
      case 'spot.obu': return this.obuSnapshot(t.market, t.depth, nowUs);
      case 'spot.order_book': return this.bookSnapshot(t.market, t.depth, nowUs);
      case 'spot.order_book_update':
        this.window(t.market, t.depth);
        return undefined;
      case 'spot.tickers': return this.#tickerFrame(t.market, nowUs);
      case 'spot.book_ticker':
        this.#readBest(t.market);
        return this.#bookTickerFrame(t.market, nowUs);
      case 'spot.candlesticks': return this.#candleFrame(t.market, t.interval, nowUs);
      default: return undefined;
    }
  }

  /** Pushes for market `m` after a command at `timeUs` with `fills` trades ending at trade id `lastTrade`. */
  onCommand(m: number, timeUs: number, fills: number, lastTrade: number, bookChanged: boolean): void {
    const market = this.#ex.markets[m]!;
    const pair = market.id;
    if (fills > 0) {
      const topic = this.#out.active('spot.trades') ? topicOf('spot.trades', pair) : '';
      if (topic !== '' && this.#out.subscribers(topic) > 0) {
        for (let id = lastTrade - fills + 1; id <= lastTrade; id++) {
          const t = renderPublicTrade(this.#ex, id);
          if (t !== undefined) this.#out.publish(topic, updateFrame('spot.trades', t, timeUs));
        }
      }
      this.#candles(m, pair, timeUs);
    }
    if (bookChanged) this.#books(m, market, timeUs);
    if (fills > 0 || bookChanged) this.#tops(m, pair, timeUs, fills > 0);
  }

  #candles(m: number, pair: string, timeUs: number): void {
    if (!this.#out.active('spot.candlesticks')) return;
    for (const iv of INTERVAL_NAMES) {
      const topic = topicOf('spot.candlesticks', `${iv}_${pair}`);
      if (this.#out.subscribers(topic) === 0) continue;
      const frame = this.#candleFrame(m, iv, timeUs);
      if (frame !== undefined) this.#out.publish(topic, frame);
    }
  }

  /** The bucket of interval `iv` holding `timeUs` (carried flat when it has no fill), or undefined before any trade. */
  #candleFrame(m: number, iv: string, timeUs: number): string | undefined {
    const a = this.#feed.candles.query(m, { interval: iv, limit: '1' }, timeUs);
    if (!a.ok || a.value.length === 0) return undefined;
    const [t, v, c, h, l, o, base, closed] = a.value[a.value.length - 1]!;
    const n = `${iv}_${this.#ex.markets[m]!.id}`;
    return updateFrame('spot.candlesticks', { t, v, c, h, l, o, n, a: base, w: closed === 'true' }, timeUs);
  }

  #books(m: number, market: Market, timeUs: number): void {
    const list = this.#windows[m]!;
    const version = this.#feed.versions.version[m]!;
    for (let k = list.length - 1; k >= 0; k--) {
      const w = list[k]!;
      const topic = windowTopic(market.id, w.depth);
      if (this.#out.subscribers(topic) === 0) {
        list.splice(k, 1);
        continue;
      }
      const changes = w.diff(this.#bookOf(m));
      if (changes === undefined) continue;
      const U = w.lastU + 1;
      w.lastU = Math.max(version, U);
      this.#out.publish(topic, this.#increment(market, w, changes, U, timeUs));
    }
  }

  #increment(market: Market, w: BookWindow, c: WindowChanges, U: number, timeUs: number): string {
    const t = Math.floor(timeUs / 1000);
    const b = pairs(market, c.bids);
    const a = pairs(market, c.asks);
    if (LEGACY_INTERVAL[w.depth] === undefined) {
      return updateFrame('spot.obu', { t, s: `ob.${market.id}.${w.depth}`, U, u: w.lastU, b, a }, timeUs);
    }
    return updateFrame('spot.order_book_update', { t, e: 'depthUpdate', E: Math.floor(timeUs / 1e6), s: market.id, U, u: w.lastU, b, a }, timeUs);
  }

  #tops(m: number, pair: string, timeUs: number, traded: boolean): void {
    if (!this.#out.active('spot.tickers') && !this.#out.active('spot.book_ticker')) return;
    const tickerTopic = topicOf('spot.tickers', pair);
    const bookTopic = topicOf('spot.book_ticker', pair);
    const tickers = this.#out.subscribers(tickerTopic) > 0;
    const bookTicker = this.#out.subscribers(bookTopic) > 0;
    if (!tickers && !bookTicker) return;
    const best = this.#readBest(m);
    const top = this.#top;
    const o = m * 4;
    let moved = false;
    for (let k = 0; k < 4; k++) {
      if (top[o + k] !== best[k]) moved = true;
      top[o + k] = best[k]!;
    }
    if (tickers && (traded || moved)) this.#out.publish(tickerTopic, this.#tickerFrame(m, timeUs));
    if (bookTicker && moved) this.#out.publish(bookTopic, this.#bookTickerFrame(m, timeUs));
  }

  /** spot.tickers' frame: the REST ticker of market `m` at `timeUs`. */
  #tickerFrame(m: number, timeUs: number): string {
    return updateFrame('spot.tickers', this.#feed.tickers.ticker(m, timeUs, this.#bookOf(m)), timeUs);
  }

  /** Reads market `m`'s best levels into #best (bid price, bid lots, ask price, ask lots; lots 0 = empty side). */
  #readBest(m: number): Float64Array {
    const book = this.#bookOf(m);
    const b = this.#best;
    const bids = book.depth(Side.Buy, 1, this.#p, this.#l);
    b[0] = bids > 0 ? this.#p[0]! : 0;
    b[1] = bids > 0 ? this.#l[0]! : 0;
    const asks = book.depth(Side.Sell, 1, this.#p, this.#l);
    b[2] = asks > 0 ? this.#p[0]! : 0;
    b[3] = asks > 0 ? this.#l[0]! : 0;
    return b;
  }

  /** spot.book_ticker's frame from #best (read by #readBest); `u` is the book version. */
  #bookTickerFrame(m: number, timeUs: number): string {
    const market = this.#ex.markets[m]!;
    const b = this.#best;
    const price = (t: number, l: number): string => (l > 0 ? formatUnits(t, market.priceScale) : '');
    const size = (l: number): string => (l > 0 ? formatUnits(l, market.amountScale) : '');
    return updateFrame('spot.book_ticker', {
      t: Math.floor(timeUs / 1000), u: this.#feed.versions.version[m]!, s: market.id,
      b: price(b[0]!, b[1]!), B: size(b[1]!), a: price(b[2]!, b[3]!), A: size(b[3]!),
    }, timeUs);
  }

  /** spot.order_book's periodic snapshot of `depth` levels. */
  bookSnapshot(m: number, depth: number, nowUs: number): string {
    const market = this.#ex.markets[m]!;
    const book = this.#bookOf(m);
    const p = new Float64Array(depth);
    const l = new Float64Array(depth);
    const side = (s: number): [string, string][] => {
      const n = book.depth(s, depth, p, l);
      const out: [string, string][] = [];
      for (let k = 0; k < n; k++) out.push([formatUnits(p[k]!, market.priceScale), formatUnits(l[k]!, market.amountScale)]);
      return out;
    };
    return updateFrame('spot.order_book', {
      t: Math.floor(nowUs / 1000), lastUpdateId: this.#feed.versions.version[m]!, s: market.id, bids: side(Side.Buy), asks: side(Side.Sell),
    }, nowUs);
  }
}
