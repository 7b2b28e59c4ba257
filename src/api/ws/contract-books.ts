/**
 * The book channels of contract markets, shared by the futures endpoints (`futures.*`) and the options one
 * (`options.*`): one instance per endpoint family, over its contracts (index i → book market `marketOf[i]`,
 * name `names[i]`) and the market-data feed's book versions (the REST book's `id`).
 *
 *   <prefix>.order_book         event "all": `{t, contract, id, asks, bids}` levels `{p, s}`, the best `level`
 *                               levels: on subscribe and after every change of the book
 *   <prefix>.order_book_update  `{t, s, U, u, b, a}` window increments (book-window.ts; `s` 0 removes a level);
 *                               on subscribe the whole window with `full: true` and U = u = the window's version
 *   <prefix>.obu                first `{t, full: true, s: "ob.<contract>.<depth>", u, b, a}`, then increments
 *                               `{t, s, U, u, b, a}`; levels `[price, size]` strings, size "0" removes a level
 *   <prefix>.book_ticker        `{t, u, s, b, B, a, A}` (sizes as numbers, "" / 0 for an empty side): on subscribe
 *                               and when the best levels change; `u` is the book version
 *
 * Topic keys (channels.ts topicOf): order_book `contract.level.interval`, order_book_update
 * `contract.interval.level`, obu `ob.contract.depth`, book_ticker `contract` — the endpoint's resolver builds them.
 * A window is mirrored only while its topic has subscribers. Costs per book change with no subscribers: a few topic
 * lookups; with subscribers one depth read and one JSON text per topic.
 */
import type { Market } from '../../core/market.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { Side } from '../../core/matching/order-types.js';
import { formatUnits } from '../../core/units.js';
import type { DepthReader } from '../../engine/futures/futures-prices.js';
import type { BookVersions } from '../market-data/book-versions.js';
import type { DepthSource } from '../market-data/depth-source.js';
import { BookWindow } from './book-window.js';
import { topicOf } from './channels.js';
import { updateFrame } from './envelope.js';
import type { Publisher } from './publisher.js';

type Level = { p: string; s: number };
/** A mirrored window of one order_book_update or obu topic. */
interface ContractWindow { readonly topic: string; readonly window: BookWindow }

export class ContractBooks {
  readonly #ex: Exchange;
  readonly #versions: BookVersions;
  readonly #out: Publisher;
  readonly #prefix: string;
  readonly #names: readonly string[];
  readonly #marketOf: readonly number[];
  readonly #levels: readonly number[];
  readonly #books: readonly DepthSource[];
  readonly #windows: ContractWindow[][];
  /** Per contract: the best levels last seen (bid price, bid lots, ask price, ask lots). */
  readonly #top: Float64Array;
  readonly #p = new Float64Array(1);
  readonly #l = new Float64Array(1);

  /** `levels`: the order_book levels the endpoint accepts (each subscribed one is pushed after a change). */
  constructor(ex: Exchange, versions: BookVersions, depth: DepthReader, out: Publisher, prefix: string, names: readonly string[],
    marketOf: readonly number[], levels: readonly number[]) {
    this.#ex = ex;
    this.#versions = versions;
    this.#out = out;
    this.#prefix = prefix;
    this.#names = names;
    this.#marketOf = marketOf;
    this.#levels = levels;
    this.#books = marketOf.map((m) => ({ depth: (side, limit, prices, lots) => depth(m, side, limit, prices, lots) }));
    this.#windows = marketOf.map(() => []);
    this.#top = new Float64Array(marketOf.length * 4);
  }

  /** The book version of contract `i` (the REST book's id). */
  version(i: number): number {
    return this.#versions.version[this.#marketOf[i]!]!;
  }

  /** The first push of a new subscriber of a book channel's topic, or undefined for another channel. */
  firstFrame(channel: string, topic: string, i: number, depth: number, nowUs: number): string | undefined {
    const p = this.#prefix;
    switch (channel.slice(p.length + 1)) {
      case 'order_book': return this.snapshotFrame(i, depth, nowUs);
      case 'book_ticker':
        this.#readBest(i);
        return this.#bookTickerFrame(i, nowUs);
      case 'order_book_update': {
        const w = this.#window(i, topic, depth);
        const s = w.snapshot();
        const market = this.#market(i);
        return updateFrame(`${p}.order_book_update`, {
          t: Math.floor(nowUs / 1000), full: true, s: this.#names[i], U: w.lastU, u: w.lastU,
          b: levels(market, s.bids), a: levels(market, s.asks),
        }, nowUs);
      }
      case 'obu': {
        const w = this.#window(i, topic, depth);
        const s = w.snapshot();
        const market = this.#market(i);
        return updateFrame(`${p}.obu`, {
          t: Math.floor(nowUs / 1000), full: true, s: `ob.${this.#names[i]}.${depth}`, u: w.lastU, b: pairs(market, s.bids), a: pairs(market, s.asks),
        }, nowUs);
      }
      default: return undefined;
    }
  }

  /** After a change of contract `i`'s book: the window increments and the order_book snapshots of its subscribed topics. */
  onBookChange(i: number, timeUs: number): void {
    const name = this.#names[i]!;
    const market = this.#market(i);
    const list = this.#windows[i]!;
    const version = this.version(i);
    const p = this.#prefix;
    for (let k = list.length - 1; k >= 0; k--) {
      const { topic, window: w } = list[k]!;
      if (this.#out.subscribers(topic) === 0) {
        list.splice(k, 1);
        continue;
      }
      const changes = w.diff(this.#books[i]!);
      if (changes === undefined) continue;
      const U = w.lastU + 1;
      w.lastU = Math.max(version, U);
      const t = Math.floor(timeUs / 1000);
      this.#out.publish(topic, topic.startsWith(`${p}.obu|`)
        ? updateFrame(`${p}.obu`, { t, s: `ob.${name}.${w.depth}`, U, u: w.lastU, b: pairs(market, changes.bids), a: pairs(market, changes.asks) }, timeUs)
        : updateFrame(`${p}.order_book_update`, { t, s: name, U, u: w.lastU, b: levels(market, changes.bids), a: levels(market, changes.asks) }, timeUs));
    }
    for (const depth of this.#levels) {
      const topic = topicOf(`${p}.order_book`, `${name}.${depth}.0`);
      if (this.#out.subscribers(topic) > 0) this.#out.publish(topic, this.snapshotFrame(i, depth, timeUs));
    }
  }

  /**
   * After a command that may have moved contract `i`'s best levels: pushes book_ticker when they changed; true when
   * they did. `watched` (the caller's ticker channel has subscribers) makes it read the book even when nobody holds
   * book_ticker; with neither, nothing is read and false is answered.
   */
  tops(i: number, timeUs: number, watched: boolean): boolean {
    const bookTopic = topicOf(`${this.#prefix}.book_ticker`, this.#names[i]!);
    const bookTicker = this.#out.subscribers(bookTopic) > 0;
    if (!bookTicker && !watched) return false;
    const moved = this.#readBest(i);
    if (bookTicker && moved) this.#out.publish(bookTopic, this.#bookTickerFrame(i, timeUs));
    return moved;
  }

  /** `<prefix>.order_book`'s full snapshot (event "all") of `depth` levels. */
  snapshotFrame(i: number, depth: number, nowUs: number): string {
    const market = this.#market(i);
    const book = this.#books[i]!;
    const p = new Float64Array(depth);
    const l = new Float64Array(depth);
    const side = (s: number): Level[] => {
      const n = book.depth(s, depth, p, l);
      const out: Level[] = [];
      for (let k = 0; k < n; k++) out.push({ p: formatUnits(p[k]!, market.priceScale), s: Number(formatUnits(l[k]!, market.amountScale)) });
      return out;
    };
    return updateFrame(`${this.#prefix}.order_book`, {
      t: Math.floor(nowUs / 1000), contract: this.#names[i], id: this.version(i), asks: side(Side.Sell), bids: side(Side.Buy),
    }, nowUs, 'all');
  }

  #market(i: number): Market {
    return this.#ex.markets[this.#marketOf[i]!]!;
  }

  #window(i: number, topic: string, depth: number): BookWindow {
    const list = this.#windows[i]!;
    let w = list.find((x) => x.topic === topic);
    if (w === undefined) {
      w = { topic, window: new BookWindow(this.#marketOf[i]!, depth, this.#books[i]!, this.version(i)) };
      list.push(w);
    }
    return w.window;
  }

  /** Reads contract `i`'s best levels into its #top slots; true when they differ from what was there. */
  #readBest(i: number): boolean {
    const book = this.#books[i]!;
    const o = i * 4;
    const bids = book.depth(Side.Buy, 1, this.#p, this.#l);
    const bp = bids > 0 ? this.#p[0]! : 0;
    const bl = bids > 0 ? this.#l[0]! : 0;
    const asks = book.depth(Side.Sell, 1, this.#p, this.#l);
    const ap = asks > 0 ? this.#p[0]! : 0;
    const al = asks > 0 ? this.#l[0]! : 0;
    const T = this.#top;
    const moved = T[o] !== bp || T[o + 1] !== bl || T[o + 2] !== ap || T[o + 3] !== al;
    T[o] = bp; T[o + 1] = bl; T[o + 2] = ap; T[o + 3] = al;
    return moved;
  }

  /** book_ticker of the best levels last read. */
  #bookTickerFrame(i: number, timeUs: number): string {
    const market = this.#market(i);
    const T = this.#top;
    const o = i * 4;
    const price = (t: number, l: number): string => (l > 0 ? formatUnits(t, market.priceScale) : '');
    const size = (l: number): number => Number(formatUnits(l, market.amountScale));
    return updateFrame(`${this.#prefix}.book_ticker`, {
      t: Math.floor(timeUs / 1000), u: this.version(i), s: this.#names[i], b: price(T[o]!, T[o + 1]!), B: size(T[o + 1]!),
      a: price(T[o + 2]!, T[o + 3]!), A: size(T[o + 3]!),
    }, timeUs);
  }
}

/** (ticks, lots) pairs as `{p, s}` levels (integer contract sizes). */
function levels(market: Market, flat: readonly number[]): Level[] {
  const out: Level[] = [];
  for (let k = 0; k < flat.length; k += 2) out.push({ p: formatUnits(flat[k]!, market.priceScale), s: Number(formatUnits(flat[k + 1]!, market.amountScale)) });
  return out;
}

/** (ticks, lots) pairs as obu's `[price, size]` strings. */
function pairs(market: Market, flat: readonly number[]): [string, string][] {
  const out: [string, string][] = [];
  for (let k = 0; k < flat.length; k += 2) out.push([formatUnits(flat[k]!, market.priceScale), formatUnits(flat[k + 1]!, market.amountScale)]);
  return out;
}
