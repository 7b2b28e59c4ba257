/**
 * Public pushes of one applied command: spot.trades (one object per trade), spot.candlesticks (the current
 * bucket of each subscribed interval), spot.tickers and spot.book_ticker (on a trade or a change of the best
 * levels), spot.obu and spot.order_book_update (window increments, see book-window.ts).
 *
 * Book versions: `u` of an increment is the market's book version after the command (the REST book's `id`,
 * book-versions.ts); `U` is the previous increment's `u` + 1 on the same topic, so increments chain without
 * gaps. A window is mirrored only while its topic has subscribers; the first subscriber opens it.
 * Times come from the command (engine clock: simulated time in replays).
 * Costs per command with no subscribers: a few topic lookups. With subscribers: one render and one
 * JSON.stringify per topic, whatever the number of subscribers (uWebSockets.js fans out).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import type { Market } from '../../core/market.js';
import { Side } from '../../core/matching/order-types.js';
import { formatUnits } from '../../core/units.js';
import { renderPublicTrade } from '../../engine/gate-shapes.js';
import type { DepthSource } from '../market-data/depth-source.js';
import { INTERVAL_NAMES } from '../market-data/intervals.js';
import type { MarketDataFeed } from '../market-data/market-data-feed.js';
import { BookWindow, type WindowChanges } from './book-window.js';
import { LEGACY_WINDOWS, topicOf } from './channels.js';
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

  /** Pushes for market `m` after a command at `timeUs` with `fills` trades ending at trade id `lastTrade`. */
  onCommand(m: number, timeUs: number, fills: number, lastTrade: number, bookChanged: boolean): void {
    const market = this.#ex.markets[m]!;
    const pair = market.id;
    if (fills > 0) {
      const topic = topicOf('spot.trades', pair);
      if (this.#out.subscribers(topic) > 0) {
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
    for (const iv of INTERVAL_NAMES) {
      const n = `${iv}_${pair}`;
      const topic = topicOf('spot.candlesticks', n);
      if (this.#out.subscribers(topic) === 0) continue;
      const a = this.#feed.candles.query(m, { interval: iv, limit: '1' }, timeUs);
      if (!a.ok || a.value.length === 0) continue;
      const [t, v, c, h, l, o, base, closed] = a.value[a.value.length - 1]!;
      this.#out.publish(topic, updateFrame('spot.candlesticks', { t, v, c, h, l, o, n, a: base, w: closed === 'true' }, timeUs));
    }
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
    const tickerTopic = topicOf('spot.tickers', pair);
    const bookTopic = topicOf('spot.book_ticker', pair);
    const tickers = this.#out.subscribers(tickerTopic) > 0;
    const bookTicker = this.#out.subscribers(bookTopic) > 0;
    if (!tickers && !bookTicker) return;
    const book = this.#bookOf(m);
    const top = this.#top;
    const o = m * 4;
    const bidN = book.depth(Side.Buy, 1, this.#p, this.#l);
    const bidP = bidN > 0 ? this.#p[0]! : 0;
    const bidL = bidN > 0 ? this.#l[0]! : 0;
    const askN = book.depth(Side.Sell, 1, this.#p, this.#l);
    const askP = askN > 0 ? this.#p[0]! : 0;
    const askL = askN > 0 ? this.#l[0]! : 0;
    const moved = top[o] !== bidP || top[o + 1] !== bidL || top[o + 2] !== askP || top[o + 3] !== askL;
    top[o] = bidP; top[o + 1] = bidL; top[o + 2] = askP; top[o + 3] = askL;
    if (tickers && (traded || moved)) {
      this.#out.publish(tickerTopic, updateFrame('spot.tickers', this.#feed.tickers.ticker(m, timeUs, book), timeUs));
    }
    if (bookTicker && moved) {
      const market = this.#ex.markets[m]!;
      const price = (t: number, n: number): string => (n > 0 ? formatUnits(t, market.priceScale) : '');
      const size = (l: number, n: number): string => (n > 0 ? formatUnits(l, market.amountScale) : '');
      this.#out.publish(bookTopic, updateFrame('spot.book_ticker', {
        t: Math.floor(timeUs / 1000), u: this.#feed.versions.version[m]!, s: pair,
        b: price(bidP, bidN), B: size(bidL, bidN), a: price(askP, askN), A: size(askL, askN),
      }, timeUs));
    }
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
