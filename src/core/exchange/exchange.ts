/**
 * The exchange as a pure state machine: ledger, order records, trade history and the fronts' records, folded
 * over commands. This file is the pipeline, as exchange-core's: each command goes to the product that owns it
 * (products.ts), through the same three steps:
 *
 *   R1  `pre(cmd)`            the product checks and holds (a book product stamps the order id); a rejection ends it.
 *                             A CommandProduct's command (funds, users, loans, records) completes here.
 *   ME  `applyToBook(...)`    the market's book matches (inline, or in a shard worker behind a ring).
 *   R2  `post(cmd, code, ev)` the market's book product settles fills and fees, releases holds, updates records.
 *
 * Records a command carries (`Command.record`, records/record-table.ts) are applied when it succeeds: in R1 for
 * commands that complete there, in R2 for book commands the book accepted; a malformed record text rejects the
 * command (InvalidParam) before anything changes. Products see the exchange through ExchangeContext
 * (context.ts), never this class. Pipelining rules (what a runner may run ahead of R2) are the book products'
 * (spot-orders.ts); the runner asks `amendInFlight`.
 *
 * Allocation: none per command on narrow currencies once records exist (wide currencies use BigInt).
 */
import type { Command } from '../command.js';
import { CommandType } from '../command.js';
import { invariant } from '../invariant.js';
import { Ledger } from '../ledger/ledger.js';
import { defineMarket, type Market } from '../market.js';
import type { BookEvents } from '../matching/book-events.js';
import type { OrderBook } from '../matching/order-book.js';
import type { PlaceOrder } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import { StateHasher } from '../state-hash.js';
import type { BookProduct, CommandProduct, ExchangeContext } from './context.js';
import { bookMarketSpecs, type ExchangeDefinition, marketFees } from './exchange-definition.js';
import { assertFuturesInvariants, defineFutures } from '../futures/futures-setup.js';
import type { FuturesState } from '../futures/futures-state.js';
import { assertOptionsInvariants, defineOptions } from '../options/options-setup.js';
import type { OptionsState } from '../options/options-state.js';
import { type ExchangeState, exportOrders, exportTrades, importOrders, importTrades } from './exchange-state.js';
import { OrderStore } from './order-store.js';
import { bookProducts, COMMAND_PRODUCTS } from './products.js';
import { TradeLog } from './trade-log.js';
import { resolveUnifiedParams } from '../unified/unified-params.js';
import { UnifiedState } from '../unified/unified-state.js';
import { parseRecords, RecordTable } from '../records/record-table.js';

/** Indexes of the spot markets (they come first; contracts' markets follow). @allocates */
export const spotMarketIndexes = (ex: { readonly spotMarkets: number }): number[] => Array.from({ length: ex.spotMarkets }, (_, i) => i);

/** True for commands that go to a market's book after R1. */
export const isBookCommand = (type: number): boolean => type >= CommandType.PlaceOrder && type <= CommandType.CancelAll;

/** The matching step: applies a book-bound command that passed R1 to its market's book. */
export function applyToBook(book: OrderBook, c: Command, place: PlaceOrder, ev: BookEvents): ResultCode {
  switch (c.type) {
    case CommandType.PlaceOrder:
      place.set(c.orderId, c.uid, c.side, c.orderType, c.tif, c.price, c.amount, c.iceberg, c.stpId, c.stpAct);
      return book.place(place, ev);
    case CommandType.AmendOrder:
      return book.amend(c.orderId, c.price, c.amount, ev);
    case CommandType.CancelOrder:
      return book.cancel(c.orderId, ev);
    case CommandType.CancelAll:
      return book.cancelAll(c.uid, c.side, ev);
    default:
      return ResultCode.InvalidParam;
  }
}

export class Exchange implements ExchangeContext {
  readonly definition: ExchangeDefinition;
  readonly ledger: Ledger;
  readonly orders: OrderStore;
  readonly trades: TradeLog;
  /** Unified-account modes, accrual hour and loan records (loans themselves are ledger columns). */
  readonly unified: UnifiedState;
  /** The fronts' records (API keys, wallet records, price triggers …), put by commands. */
  readonly records = new RecordTable();
  readonly futures: FuturesState;
  readonly options: OptionsState;
  readonly markets: readonly Market[];
  readonly spotMarkets: number;
  /** Currency codes by index (the `currency` field of commands). */
  readonly currencies: readonly string[];
  readonly #takerPpm: readonly number[];
  readonly #makerPpm: readonly number[];
  readonly #stp = new Map<number, number>();
  /** Product of each command type that completes in R1 (by type; undefined: none). */
  readonly #byType: (CommandProduct | undefined)[] = [];
  /** Book product of each market. */
  readonly #bookOf: readonly BookProduct[];
  #lastOrderId = 0;

  /** Builds the exchange of a definition. Throws ConfigError on a definition that cannot work. @allocates */
  constructor(def: ExchangeDefinition) {
    this.definition = def;
    this.ledger = new Ledger({ accountBookCapacity: def.accountBookCapacity });
    this.orders = new OrderStore(def.finishedOrders ?? 100_000);
    this.trades = new TradeLog(def.trades ?? 1 << 16);
    for (const c of def.currencies) this.ledger.registerCurrency(c);
    this.currencies = def.currencies.map((c) => c.code);
    this.unified = new UnifiedState(resolveUnifiedParams(def.unified, new Map(def.currencies.map((c) => [c.code, c.scale]))));
    const spot = def.markets.map((spec) => {
      const m = defineMarket(spec);
      this.ledger.registerMarket(m, spec.base, spec.quote);
      return m;
    });
    this.spotMarkets = spot.length;
    this.markets = [...spot, ...bookMarketSpecs(def).slice(spot.length).map(defineMarket)];
    this.futures = defineFutures(def, this.ledger, this.currencies, this.markets.length);
    this.options = defineOptions(def, this.ledger, this.currencies, this.spotMarkets + this.futures.contracts.length, this.markets.length);
    // Seed 4.6: a unified account's USDT futures settle in, and take margin from, its unified (Spot) USDT.
    const usdt = this.currencies.indexOf('USDT');
    this.ledger.futures.marginOnSpot((uid, cur) => cur === usdt && this.unified.carriesUsdtFutures(uid));
    const fees = def.markets.map(marketFees);
    this.#takerPpm = fees.map((f) => f.taker);
    this.#makerPpm = fees.map((f) => f.maker);
    for (const u of def.users ?? []) {
      const code = this.ledger.addUser(u.uid, u.main_uid ?? 0);
      invariant(code === ResultCode.Ok, `user ${u.uid} cannot be added (code ${code})`);
    }
    for (const g of def.stp_groups ?? []) for (const uid of g.users) this.#stp.set(uid, g.id);
    for (const p of COMMAND_PRODUCTS) for (const t of p.commands) this.#byType[t] = p;
    this.#bookOf = bookProducts(this.spotMarkets, this.futures.contracts.length, this.options.contracts.length);
  }

  /** Index of a spot market id (e.g. "BTC_USDT"), or -1 (a contract's market is found through `futures`). */
  marketIndex(id: string): number {
    for (let m = 0; m < this.spotMarkets; m++) if (this.markets[m]!.id === id) return m;
    return -1;
  }

  /** True when commands of `type` on `market` must run alone (see BookProduct.serial); funds and other R1 commands are the runner's own barriers. */
  isSerial(type: number, market: number): boolean {
    return isBookCommand(type) && (this.#bookOf[market]?.serial ?? false);
  }

  /** Index of a currency code, or -1. */
  currencyIndex(code: string): number {
    return this.currencies.indexOf(code);
  }

  /** STP group of a user; 0 for none. */
  stpOf(uid: number): number {
    return this.#stp.get(uid) ?? 0;
  }

  /** Taker and maker fee rates of a market, in parts per million. */
  feesOf(market: number): { taker: number; maker: number } {
    return { taker: this.#takerPpm[market]!, maker: this.#makerPpm[market]! };
  }

  /**
   * True while an amend of `orderId` has passed R1 and its R2 has not run: a pipelining runner must hold a
   * later amend of the same order until then (spot-orders.ts).
   */
  amendInFlight(orderId: number): boolean {
    const r = this.orders.find(orderId);
    return r >= 0 && this.#bookOf[this.orders.market[r]!]!.amendInFlight(this, orderId);
  }

  /** The last order id issued. */
  get lastOrderId(): number {
    return this.#lastOrderId;
  }

  issueOrderId(id: number): void {
    invariant(id === this.#lastOrderId + 1, 'order ids are issued in order');
    this.#lastOrderId = id;
  }

  retractOrderId(id: number): void {
    invariant(id === this.#lastOrderId, 'only the last order id can be taken back');
    this.#lastOrderId = id - 1;
  }

  /**
   * R1. Returns Ok when a book-bound command must now go to its market's book (or a command that completes in R1
   * is done), else the rejection (nothing changed). `pessimistic`: fills of this market may be in flight.
   */
  pre(c: Command, pessimistic = false): ResultCode {
    if (c.record === '') return this.#pre(c, pessimistic);
    const puts = parseRecords(c.record);
    if (puts === undefined) return ResultCode.InvalidParam;
    const code = this.#pre(c, pessimistic);
    // A book command's records wait for its final answer in R2: R1 may pass on a stale view (a pipelined
    // cancel of an order already filled) where the final answer is the inline one.
    if (code === ResultCode.Ok && !isBookCommand(c.type)) this.records.apply(puts, c.seq, 0);
    return code;
  }

  #pre(c: Command, pessimistic: boolean): ResultCode {
    if (isBookCommand(c.type)) {
      // A market index out of range goes to the first book product, which answers it as it answers any market.
      return (this.#bookOf[c.market] ?? this.#bookOf[0]!).pre(this, c, pessimistic);
    }
    const product = this.#byType[c.type];
    return product === undefined ? ResultCode.InvalidParam : product.apply(this, c);
  }

  /** R2 for a book-bound command that passed R1: applies the book's answer and events. Returns the final code. */
  post(c: Command, code: ResultCode, ev: BookEvents): ResultCode {
    const final = this.#bookOf[c.market]!.post(this, c, code, ev);
    if (final === ResultCode.Ok && c.record !== '') {
      this.records.apply(parseRecords(c.record)!, c.seq, c.type === CommandType.PlaceOrder ? c.orderId : 0);
    }
    return final;
  }

  /** Hash of ledger, order records, counters and the books' hashes (in market order). @allocates */
  stateHash(bookHashes: readonly string[]): string {
    const h = new StateHasher();
    h.addString(this.ledger.stateHash());
    this.orders.hashInto(h);
    h.add(this.#lastOrderId).add(this.trades.count);
    this.unified.hashInto(h);
    this.records.hashInto(h);
    // A definition without contracts hashes as it did before futures existed.
    if (this.futures.contracts.length > 0) this.futures.hashInto(h);
    if (this.options.contracts.length > 0) this.options.hashInto(h);
    for (const b of bookHashes) h.addString(b);
    return h.digest();
  }

  /** Copies ledger, order records, trades and the order-id counter into columns (snapshots). @allocates */
  exportState(): ExchangeState {
    return {
      ledger: this.ledger.exportState(),
      orders: exportOrders(this.orders),
      trades: exportTrades(this.trades),
      lastOrderId: this.#lastOrderId,
      unified: this.unified.exportData(),
      records: this.records.exportData(),
      futures: this.futures.contracts.length > 0 ? this.futures.exportData() : undefined,
      options: this.options.contracts.length > 0 ? this.options.exportData() : undefined,
    };
  }

  /**
   * Restores an exported state into this exchange, which must be freshly built from the same definition
   * (no command applied). Throws InvariantError on a state that does not fit. @allocates
   */
  importState(state: ExchangeState): void {
    this.ledger.importState(state.ledger);
    importOrders(this.orders, state.orders);
    importTrades(this.trades, state.trades);
    this.#lastOrderId = state.lastOrderId;
    if (state.unified !== undefined) this.unified.importData(state.unified);
    if (state.records !== undefined) this.records.importData(state.records);
    if (state.futures !== undefined) this.futures.importData(state.futures);
    if (state.options !== undefined) this.options.importData(state.options);
  }

  assertInvariants(): void {
    this.ledger.assertInvariants();
    // Futures and options position holds (both of the futures position type) belong to no order.
    const futuresHolds = this.futures.contracts.length + this.options.contracts.length > 0 ? this.ledger.futures.holdCounts().positions : 0;
    invariant(this.orders.openCount === this.ledger.holdCount - this.ledger.withdrawalHoldCount - futuresHolds,
      'open orders and holds differ');
    if (this.futures.contracts.length > 0) assertFuturesInvariants(this);
    if (this.options.contracts.length > 0) assertOptionsInvariants(this);
  }
}
