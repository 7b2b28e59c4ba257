/**
 * Public pushes of the options WebSocket endpoint, rendered after each applied command from the options market
 * data the REST routes serve (market-data/options-market-data.ts) and the exchange's options state, and the first
 * push a new subscriber gets (`firstFrame`), rendered by the same code as the pushes that follow it.
 *
 *   options.contract_tickers       the REST OptionsTicker (an object): on subscribe, after a trade, a change of the
 *                                  best levels, a new index of its underlying, or a new journaled mark (OptionsSetMark,
 *                                  which follows an index step: mark, IV and greeks move with it)
 *   options.ul_tickers             `{name, trade_put, trade_call, index_price}`: on subscribe, after a trade of one of
 *                                  its contracts, on a new index
 *   options.trades                 per command with fills: `[{contract, create_time, create_time_ms, id, price, size,
 *                                  underlying}]` (size signed by the taker's side)
 *   options.ul_trades              the same for every contract of the underlying, with `is_call`
 *   options.ul_price               `{underlying, price, time, time_ms}`: on subscribe (once there is an index), on a new index
 *   options.mark_price(s)          `{contract, price, time, time_ms}`: on subscribe, and when its journaled mark moved (OptionsSetMark)
 *   options.settlements            per contract settled by an OptionsSettle (options-push-shapes.ts settlementPush)
 *   options.contracts              the contract's terms (contractPush): on subscribe (they never change here)
 *   options.contract_candlesticks  `[{t, v, c, h, l, o, a, n}]` the current bucket (n "1m_<contract>"): on subscribe (once
 *                                  it traded) and after each trade
 *   options.ul_candlesticks        the same from the underlying's index source spot market (n "1m_<underlying>")
 *   options.order_book, options.order_book_update, options.book_ticker: contract-books.ts (levels {p, s})
 *
 * Book versions are the REST book's `id` (GET /options/order_book?with_id=true), so increments chain on the REST
 * book as on the futures endpoint. Costs per command with no subscribers: a few topic lookups; a new index walks
 * the underlying's contracts (topic lookups, a model evaluation per subscribed contract).
 */
import { type Command, CommandType } from '../../core/command.js';
import { isBookCommand } from '../../core/exchange/exchange.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { formatSigned } from '../../core/futures/futures-math.js';
import { markOf, renderOptionTicker, renderUnderlying } from '../../gate/options-shapes.js';
import type { OptionsMarketData } from '../market-data/options-market-data.js';
import { topicOf } from './channels.js';
import { ContractBooks } from './contract-books.js';
import { updateFrame } from './envelope.js';
import { OP_BOOK_LEVELS, OPTIONS_INTERVALS, type OpTarget } from './options-channels.js';
import {
  candleRow, contractPush, markPush, settlementPush, tradePush, underlyingPricePush,
} from './options-push-shapes.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';

const MARK_CHANNELS = ['options.mark_price', 'options.mark_prices'] as const;

export class OptionsPushes extends PushObserver {
  readonly #ex: Exchange;
  readonly #data: OptionsMarketData;
  readonly #out: Publisher;
  readonly #books: ContractBooks;
  /** Per contract: the book version seen at the last command, and the mark (ticks) last pushed (NaN: none). */
  readonly #versions: Float64Array;
  readonly #marks: Float64Array;
  /** Multiplier text per underlying (a contract candle's `a`: premium value). */
  readonly #multipliers: readonly string[];

  constructor(gateway: ExchangeGateway, data: OptionsMarketData, out: Publisher) {
    super('options websocket push');
    const ex = this.#ex = gateway.exchange;
    this.#data = data;
    this.#out = out;
    const S = ex.options;
    this.#books = new ContractBooks(ex, data.feed.versions, (m, side, limit, p, l) => gateway.depth(m, side, limit, p, l), out, 'options',
      S.contracts.map((k) => k.name), S.marketOf, OP_BOOK_LEVELS);
    this.#versions = Float64Array.from(S.marketOf, (m) => data.feed.versions.version[m]!);
    this.#marks = new Float64Array(S.contracts.length).fill(Number.NaN);
    this.#multipliers = S.underlyings.map((u) => formatSigned(u.mUnits, u.mScale));
  }

  override onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.stopped || code !== ResultCode.Ok) return;
    const t = cmd.time;
    if (cmd.type === CommandType.OptionsSetIndex) return this.#index(cmd.sub, t);
    if (cmd.type === CommandType.OptionsSetMark) {
      const ci = this.#ex.options.contractOf(cmd.market);
      if (ci >= 0) this.#mark(ci, t);
      return;
    }
    if (cmd.type === CommandType.OptionsSettle) return this.#settled(cmd.sub, cmd.amount, t);
    if (!isBookCommand(cmd.type)) return;
    let fills = 0;
    for (let i = 0; i < events.count; i++) if (events.kind[i] === EventKind.Fill) fills++;
    const ci = this.#ex.options.contractOf(cmd.market);
    if (ci < 0) {
      if (fills > 0) this.#underlyingCandles(cmd.market, t);
      return;
    }
    const version = this.#data.feed.versions.version[cmd.market]!;
    const bookChanged = version !== this.#versions[ci];
    this.#versions[ci] = version;
    if (fills > 0) this.#trades(ci, fills, t);
    if (bookChanged) this.#books.onBookChange(ci, t);
    if (fills > 0 || bookChanged) {
      const topic = topicOf('options.contract_tickers', this.#name(ci));
      const watched = this.#out.subscribers(topic) > 0;
      const moved = this.#books.tops(ci, t, watched);
      if (watched && (fills > 0 || moved)) this.#out.publish(topic, this.#tickerFrame(ci, t));
    }
  }

  /** The first push of a new subscriber of `topic`, or undefined (trades and settlements are event streams). */
  firstFrame(channel: string, topic: string, x: OpTarget, nowUs: number): string | undefined {
    const ex = this.#ex;
    switch (channel) {
      case 'options.contract_tickers': return this.#tickerFrame(x.contract, nowUs);
      case 'options.ul_tickers': return this.#ulTickerFrame(x.underlying, nowUs);
      case 'options.ul_price': return ex.options.index[x.underlying]! > 0 ? updateFrame(channel, underlyingPricePush(ex, x.underlying, nowUs), nowUs) : undefined;
      case 'options.mark_price':
      case 'options.mark_prices': {
        const mark = markOf(ex, x.contract, nowUs);
        this.#marks[x.contract] = mark;
        return updateFrame(channel, markPush(ex, x.contract, mark, nowUs), nowUs);
      }
      case 'options.contracts': return updateFrame(channel, contractPush(ex, x.contract, nowUs, this.#data.figures(x.contract)), nowUs);
      case 'options.contract_candlesticks': return this.#candleFrame(channel, ex.options.marketOf[x.contract]!, x.interval, this.#name(x.contract),
        this.#multipliers[ex.options.contracts[x.contract]!.u]!, nowUs);
      case 'options.ul_candlesticks': {
        const u = ex.options.underlyings[x.underlying]!;
        const m = ex.marketIndex(u.indexSource);
        return m < 0 ? undefined : this.#candleFrame(channel, m, x.interval, u.name, '1', nowUs);
      }
      default: return this.#books.firstFrame(channel, topic, x.contract, x.depth, nowUs);
    }
  }

  #name(ci: number): string {
    return this.#ex.options.contracts[ci]!.name;
  }

  #tickerFrame(ci: number, timeUs: number): string {
    return updateFrame('options.contract_tickers', renderOptionTicker(this.#ex, ci, timeUs, this.#data.figures(ci)), timeUs);
  }

  #ulTickerFrame(ui: number, timeUs: number): string {
    const t = this.#data.underlyingTraded(ui);
    return updateFrame('options.ul_tickers', { trade_put: t.puts, trade_call: t.calls, index_price: renderUnderlying(this.#ex, ui).index_price,
      name: this.#ex.options.underlyings[ui]!.name }, timeUs);
  }

  /** A new index of underlying `ui`: its price, its ticker, and the tickers of its live contracts (their index price). */
  #index(ui: number, timeUs: number): void {
    const ex = this.#ex;
    const S = ex.options;
    const name = S.underlyings[ui]!.name;
    const price = topicOf('options.ul_price', name);
    if (this.#out.subscribers(price) > 0) this.#out.publish(price, updateFrame('options.ul_price', underlyingPricePush(ex, ui, timeUs), timeUs));
    const ticker = topicOf('options.ul_tickers', name);
    if (this.#out.subscribers(ticker) > 0) this.#out.publish(ticker, this.#ulTickerFrame(ui, timeUs));
    if (!this.#out.active('options.contract_tickers')) return;
    for (let ci = 0; ci < S.contracts.length; ci++) {
      if (S.contracts[ci]!.u !== ui || S.settled[ci] !== 0) continue;
      const tickerTopic = topicOf('options.contract_tickers', this.#name(ci));
      if (this.#out.subscribers(tickerTopic) > 0) this.#out.publish(tickerTopic, this.#tickerFrame(ci, timeUs));
    }
  }

  /**
   * A journaled mark of contract `ci` (OptionsSetMark, which the options services issue after an index step or as
   * time moves the model): the mark channels when it moved, and the contract's ticker.
   */
  #mark(ci: number, timeUs: number): void {
    const ex = this.#ex;
    const k = this.#name(ci);
    const tickerTopic = topicOf('options.contract_tickers', k);
    if (this.#out.subscribers(tickerTopic) > 0) this.#out.publish(tickerTopic, this.#tickerFrame(ci, timeUs));
    const topics = MARK_CHANNELS.map((c) => topicOf(c, k));
    if (topics.every((topic) => this.#out.subscribers(topic) === 0)) return;
    const mark = markOf(ex, ci, timeUs);
    if (mark === this.#marks[ci]) return;
    for (const [i, c] of MARK_CHANNELS.entries()) {
      const topic = topics[i]!;
      if (this.#out.subscribers(topic) === 0) continue;
      this.#marks[ci] = mark;
      this.#out.publish(topic, updateFrame(c, markPush(ex, ci, mark, timeUs), timeUs));
    }
  }

  /** The contracts of (`ui`, `expiration`) an OptionsSettle settled: a settlement push each. */
  #settled(ui: number, expiration: number, timeUs: number): void {
    const ex = this.#ex;
    const S = ex.options;
    const t = Math.floor(timeUs / 1e6);
    for (let ci = 0; ci < S.contracts.length; ci++) {
      const k = S.contracts[ci]!;
      if (k.u !== ui || k.expiration !== expiration) continue;
      const topic = topicOf('options.settlements', k.name);
      if (this.#out.subscribers(topic) === 0) continue;
      // The long size it settled: this settlement's rows of the contract (positions are empty now).
      let open = 0;
      for (let i = S.userSettlements.length - 1; i >= 0; i--) {
        const r = S.userSettlements[i]!;
        if (r.t !== t) break;
        if (r.ci === ci && r.size > 0) open += r.size;
      }
      this.#out.publish(topic, updateFrame('options.settlements', settlementPush(ex, ci, S.settled[ci]!, open, timeUs, this.#data.figures(ci)), timeUs));
    }
  }

  /** Trades of contract `ci` (the last `fills` of the trade log): trades, ul_trades, candles, the underlying's ticker. */
  #trades(ci: number, fills: number, timeUs: number): void {
    const ex = this.#ex;
    const S = ex.options;
    const k = S.contracts[ci]!;
    const u = S.underlyings[k.u]!;
    const last = ex.trades.count;
    for (const [channel, key, withType] of [['options.trades', k.name, false], ['options.ul_trades', u.name, true]] as const) {
      const topic = topicOf(channel, key);
      if (this.#out.subscribers(topic) === 0) continue;
      const rows: Record<string, unknown>[] = [];
      for (let id = last - fills + 1; id <= last; id++) rows.push(tradePush(ex, id, withType));
      this.#out.publish(topic, updateFrame(channel, rows, timeUs));
    }
    const m = S.marketOf[ci]!;
    for (const iv of OPTIONS_INTERVALS) {
      const topic = topicOf('options.contract_candlesticks', `${iv}_${k.name}`);
      if (this.#out.subscribers(topic) === 0) continue;
      const frame = this.#candleFrame('options.contract_candlesticks', m, iv, k.name, this.#multipliers[k.u]!, timeUs);
      if (frame !== undefined) this.#out.publish(topic, frame);
    }
    const ticker = topicOf('options.ul_tickers', u.name);
    if (this.#out.subscribers(ticker) > 0) this.#out.publish(ticker, this.#ulTickerFrame(k.u, timeUs));
  }

  /** After trades on spot market `m`: the ul_candlesticks of the underlyings whose index it is. */
  #underlyingCandles(m: number, timeUs: number): void {
    const ex = this.#ex;
    ex.options.underlyings.forEach((u) => {
      if (ex.marketIndex(u.indexSource) !== m) return;
      for (const iv of OPTIONS_INTERVALS) {
        const topic = topicOf('options.ul_candlesticks', `${iv}_${u.name}`);
        if (this.#out.subscribers(topic) === 0) continue;
        const frame = this.#candleFrame('options.ul_candlesticks', m, iv, u.name, '1', timeUs);
        if (frame !== undefined) this.#out.publish(topic, frame);
      }
    });
  }

  /** The current bucket of market `m`'s `iv` candles as a push (none before the market's first trade). */
  #candleFrame(channel: string, m: number, iv: string, name: string, valueScale: string, timeUs: number): string | undefined {
    const a = this.#data.feed.candles.query(m, { interval: iv, limit: '1' }, timeUs);
    if (!a.ok || a.value.length === 0) return undefined;
    return updateFrame(channel, [candleRow(a.value[a.value.length - 1]!, `${iv}_${name}`, valueScale)], timeUs);
  }
}
