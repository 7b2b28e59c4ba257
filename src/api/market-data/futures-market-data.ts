/**
 * Public market data of perpetual contracts, kept current from the engine's per-command results: trade, mark
 * and index candles (futures-candles.ts), 24 h ticker statistics, book versions and traded contracts per
 * contract; and the read side of GET /futures/{settle}/order_book, trades, candlesticks, tickers, contracts.
 *
 * Wiring: `gateway.observe((code, cmd, events) => feed.onResult(code, cmd, events))` (the route module does it),
 * after `replayTradeLog()` on a fresh feed. Fills of contract markets make trade candles and tickers;
 * an applied FuturesSetPrices makes one mark sample (its `price`, when > 0) and one index sample (its `amount`,
 * when > 0) at the command's time — the read-side record of the prices the engine holds, whatever computes them
 * (the price clock, the control plane, a replay). At construction the state's current mark and index (after
 * recovery) are sampled once at `nowUs`, so candles exist from the start when prices do.
 * Costs: onResult O(events × intervals), no allocation in steady state; last trade ids and prices per market
 * follow the trade log incrementally (O(new trades) per read); queries allocate their answers.
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { isDelivery, valueAt } from '../../core/futures/contract.js';
import { renderDeliveryContract } from '../../gate/delivery-shapes.js';
import { formatSigned } from '../../core/futures/futures-math.js';
import type { Market } from '../../core/market.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import { formatUnits } from '../../core/units.js';
import {
  fundingRateText, indexTicks, markTicks, openInterest, priceText, renderContract, renderFuturesTrade,
} from '../../gate/futures-market-shapes.js';
import { BookVersions } from './book-versions.js';
import type { DepthSource } from './depth-source.js';
import { CandleKind, FuturesCandles, type GateFuturesCandle } from './futures-candles.js';
import { orderBookView } from './order-book-view.js';
import { type Answer, answer, intParam, type QueryParams, reject, secondsParamUs } from './query.js';
import { TickerStats } from './tickers.js';

/** Gate's FuturesOrderBook: times in seconds (fractional), levels `{p, s}` with integer sizes. */
export interface GateFuturesOrderBook {
  id?: number; current: number; update: number;
  asks: { p: string; s: number }[]; bids: { p: string; s: number }[];
}

const MAX_TRADES = 1000;
const EMPTY_BOOK: DepthSource = { depth: () => 0 };

export class FuturesMarketData {
  readonly exchange: Exchange;
  readonly candles: FuturesCandles;
  /** 24 h statistics per contract: base = contracts, quote = settle value (units of 10^-settleScale). */
  readonly tickers: TickerStats;
  readonly versions: BookVersions;
  /** Contracts traded per contract since start (replayed trades included), and the last price (ticks, 0 none). */
  readonly tradeSize: Float64Array;
  readonly lastTicks: Float64Array;
  /** Seconds: when this feed first listed the contracts (Contract create_time). */
  readonly createTime: number;
  /** Per market (spot and contract): the newest trade id and price seen in the trade log, up to id `#scanned`. */
  readonly #lastId: Float64Array;
  readonly #lastPrice: Float64Array;
  #scanned = 0;

  /** @allocates */
  constructor(exchange: Exchange, nowUs: number, capacity?: number) {
    this.exchange = exchange;
    const S = exchange.futures;
    this.candles = new FuturesCandles(S.contracts.map((c) => ({ priceScale: c.priceScale, sumScale: c.inverse ? 0 : c.settleScale })), capacity);
    const markets: Market[] = S.contracts.map((c, i) => ({ ...exchange.markets[S.marketOf[i]!]!, notionalScale: c.settleScale }));
    this.tickers = new TickerStats(markets);
    this.versions = new BookVersions(exchange.markets.length);
    this.tradeSize = new Float64Array(S.contracts.length);
    this.lastTicks = new Float64Array(S.contracts.length);
    this.createTime = Math.floor(nowUs / 1e6);
    this.#lastId = new Float64Array(exchange.markets.length);
    this.#lastPrice = new Float64Array(exchange.markets.length);
    for (let ci = 0; ci < S.contracts.length; ci++) {
      if (S.mark[ci]! > 0) this.candles.record(ci, CandleKind.Mark, nowUs, S.mark[ci]!, 0, 0);
      if (S.index[ci]! > 0) this.candles.record(ci, CandleKind.Index, nowUs, S.index[ci]!, 0, 0);
    }
  }

  /** Feeds one applied command (any type, any outcome) and its book events. */
  onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    const ci = this.exchange.futures.contractOf(cmd.market);
    if (ci < 0) return;
    if (cmd.type === CommandType.FuturesSetPrices) {
      if (code !== ResultCode.Ok) return;
      if (cmd.price > 0) this.candles.record(ci, CandleKind.Mark, cmd.time, cmd.price, 0, 0);
      if (cmd.amount > 0) this.candles.record(ci, CandleKind.Index, cmd.time, cmd.amount, 0, 0);
      return;
    }
    if (events.count === 0) return;
    for (let i = 0; i < events.count; i++) {
      if (events.kind[i] === EventKind.Fill) this.#record(ci, cmd.time, events.price[i]!, events.lots[i]!);
    }
    this.versions.onResult(cmd, events);
  }

  /** Rebuilds trade candles, tickers and traded sizes from the retained trades (start-up, on a fresh feed). */
  replayTradeLog(): void {
    const T = this.exchange.trades;
    for (let id = Math.max(1, T.count - T.capacity + 1); id <= T.count; id++) {
      const s = T.slotOf(id);
      const ci = this.exchange.futures.contractOf(T.market[s]!);
      if (ci >= 0) this.#record(ci, T.time[s]!, T.price[s]!, T.lots[s]!);
    }
  }

  /** The id of the newest trade of contract `ci` (0 when none). O(trades since the last call) amortised. */
  lastTradeId(ci: number): number {
    this.#catchUp();
    return this.#lastId[this.exchange.futures.marketOf[ci]!]!;
  }

  /**
   * The price a contract shows as mark and index before the engine set any (ticks, 0 none): its last trade, else
   * the last trade of its index source spot market (`index_source`, default the spot market of its name),
   * converted to the contract's ticks (rounded down). O(retained trades) at worst.
   */
  referenceTicks(ci: number): number {
    if (this.lastTicks[ci]! > 0) return this.lastTicks[ci]!;
    const ex = this.exchange;
    const c = ex.futures.contracts[ci]!;
    const m = ex.marketIndex(c.spec.index_source ?? c.name);
    if (m < 0) return 0;
    this.#catchUp();
    const p = this.#lastPrice[m]!;
    const shift = c.priceScale - ex.markets[m]!.priceScale;
    return shift >= 0 ? p * 10 ** shift : Math.floor(p / 10 ** -shift);
  }

  /** Gate's Contract object of contract `ci`. @allocates */
  contract(ci: number, nowUs: number): Record<string, unknown> {
    const ex = this.exchange;
    const ref = this.referenceTicks(ci);
    const nowSec = Math.floor(nowUs / 1e6);
    const base = renderContract(ex, ci, {
      lastTicks: this.lastTicks[ci]!, referenceTicks: ref, tradeId: this.lastTradeId(ci), orderbookId: this.versions.version[ex.futures.marketOf[ci]!]!,
      tradeSize: this.tradeSize[ci]!, createTime: this.createTime, nowSec,
    });
    if (!isDelivery(ex.futures.contracts[ci]!)) return base;
    return renderDeliveryContract(ex, ci, base, markTicks(ex, ci, ref), indexTicks(ex, ci, ref), nowSec);
  }

  /** GET /futures/{settle}/order_book of contract `ci` (query as received: limit, interval, with_id). @allocates */
  orderBook(ci: number, q: QueryParams, nowUs: number, book: DepthSource | undefined): Answer<GateFuturesOrderBook> {
    const m = this.exchange.futures.marketOf[ci]!;
    const a = orderBookView(this.exchange.markets[m]!, book ?? EMPTY_BOOK, q, this.versions.version[m]!, this.versions.updateUs[m]!, nowUs);
    if (!a.ok) return a;
    const v = a.value;
    const levels = (side: readonly [string, string][]): { p: string; s: number }[] => side.map(([p, s]) => ({ p, s: Number(s) }));
    const out: GateFuturesOrderBook = { current: v.current / 1000, update: v.update / 1000, asks: levels(v.asks), bids: levels(v.bids) };
    return answer(v.id === undefined ? out : { id: v.id, ...out });
  }

  /**
   * GET /futures/{settle}/trades of contract `ci`: newest first; `limit` 1..1000 (default 100), `offset` skips
   * matches, `last_id` keeps ids below it (paging back), `from`/`to` (s) bound the time, inclusive. @allocates
   */
  trades(ci: number, q: QueryParams): Answer<Record<string, unknown>[]> {
    const limit = intParam(q, 'limit', 100, 1, MAX_TRADES);
    const offset = intParam(q, 'offset', 0, 0, 1_000_000);
    const lastId = intParam(q, 'last_id', 0, 0, Number.MAX_SAFE_INTEGER);
    const from = secondsParamUs(q, 'from', 0);
    const to = secondsParamUs(q, 'to', Number.MAX_SAFE_INTEGER);
    if (limit < 0 || offset < 0 || lastId < 0 || from < 0 || to < 0 || from > to) return reject(ResultCode.InvalidParam);
    const S = this.exchange.futures;
    const c = S.contracts[ci]!;
    const m = S.marketOf[ci]!;
    const T = this.exchange.trades;
    const out: Record<string, unknown>[] = [];
    let skip = offset;
    const top = lastId > 0 ? Math.min(T.count, lastId - 1) : T.count;
    for (let id = top; id >= 1 && id > T.count - T.capacity && out.length < limit; id--) {
      const s = T.slotOf(id);
      const t = T.time[s]!;
      if (t < from) break;
      if (T.market[s] !== m || t > to) continue;
      if (skip > 0) { skip--; continue; }
      out.push(renderFuturesTrade(this.exchange, c, id)!);
    }
    return answer(out);
  }

  /** GET /futures/{settle}/candlesticks of contract `ci` and a kind (trade, mark_, index_). @allocates */
  candlesticks(ci: number, kind: CandleKind, q: QueryParams, nowUs: number): Answer<GateFuturesCandle[]> {
    return this.candles.query(ci, kind, q, nowUs);
  }

  /** Gate's FuturesTicker of contract `ci` at `nowUs`, with the best levels of `book`. @allocates */
  ticker(ci: number, nowUs: number, book: DepthSource | undefined): Record<string, unknown> {
    const ex = this.exchange;
    const S = ex.futures;
    const c = S.contracts[ci]!;
    const t = this.tickers.ticker(ci, nowUs, book);
    const lastTicks = this.lastTicks[ci]!;
    const reference = this.referenceTicks(ci);
    const nowMin = Math.floor(nowUs / 60e6);
    const changePrice = (minute: number): string => {
      const ref = this.tickers.priceAt(ci, minute);
      return lastTicks > 0 && ref > 0 ? formatUnits(lastTicks - ref, c.priceScale) : '0';
    };
    const day = Math.floor(nowMin / 1440) * 1440;
    const day8 = Math.floor((nowMin + 480) / 1440) * 1440 - 480;
    const contracts = t.base_volume;
    const settleVolume = t.quote_volume;
    const baseVolume = c.inverse ? settleVolume : scaledText(contracts, c.qUnits, c.qScale);
    const quoteVolume = c.inverse ? contracts : settleVolume;
    return {
      contract: c.name, last: t.last, change_percentage: t.change_percentage, total_size: String(openInterest(ex, ci).size),
      low_24h: t.low_24h, high_24h: t.high_24h, volume_24h: contracts,
      volume_24h_btc: c.base === 'BTC' ? baseVolume : '0', volume_24h_usd: /^USD/.test(c.quote) ? quoteVolume : '0',
      volume_24h_base: baseVolume, volume_24h_quote: quoteVolume, volume_24h_settle: settleVolume,
      mark_price: priceText(c, markTicks(ex, ci, reference)), index_price: priceText(c, indexTicks(ex, ci, reference)),
      funding_rate: fundingRateText(S.fundingRate[ci]!.toString()),
      funding_rate_indicative: fundingRateText(S.indicativeRate[ci]!.toString()), quanto_base_rate: '',
      lowest_ask: t.lowest_ask, lowest_size: t.lowest_size, highest_bid: t.highest_bid, highest_size: t.highest_size,
      change_utc0: t.change_utc0, change_utc8: t.change_utc8,
      change_price: changePrice(nowMin - 1439), change_utc0_price: changePrice(day), change_utc8_price: changePrice(day8),
    };
  }

  /** Brings the per-market last trade id and price up to the trade log (trades evicted unseen are skipped). */
  #catchUp(): void {
    const T = this.exchange.trades;
    for (let id = Math.max(this.#scanned + 1, T.count - T.capacity + 1); id <= T.count; id++) {
      const s = T.slotOf(id);
      const m = T.market[s]!;
      this.#lastId[m] = id;
      this.#lastPrice[m] = T.price[s]!;
    }
    this.#scanned = T.count;
  }

  #record(ci: number, time: number, price: number, lots: number): void {
    const c = this.exchange.futures.contracts[ci]!;
    const settle = Number(valueAt(c, BigInt(lots), BigInt(price)));
    this.candles.record(ci, CandleKind.Trade, time, price, lots, c.inverse ? lots : settle);
    this.tickers.record(ci, time, price, lots, settle);
    this.tradeSize[ci] = this.tradeSize[ci]! + lots;
    this.lastTicks[ci] = price;
  }
}

/** An integer decimal string × units × 10^-scale, exactly (the 24 h contracts × quanto). */
function scaledText(integer: string, units: bigint, scale: number): string {
  return /^[0-9]+$/.test(integer) ? formatSigned(BigInt(integer) * units, scale) : '0';
}
