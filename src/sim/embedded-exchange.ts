/**
 * The embedded API: the exchange in-process, for bots and tests written in TypeScript, without HTTP.
 * Every call takes and returns what Gate's REST API v4 does (request bodies with decimal strings; Order,
 * SpotAccount, SpotAccountBook and Trade objects), and fails with the same label and status, thrown as a
 * GateApiError. It runs on the inline runner with a simulated clock unless given another clock.
 *
 *   const ex = EmbeddedExchange.create({ currency_pairs: [...], users: [{ uid: 1, balances: { spot: { USDT: '1000' } } }] });
 *   const order = ex.createOrder(1, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '60000' });
 *
 * The engine clock's services run as the server runs them, without timers: futures prices, funding and liquidation,
 * and the options index and expiry settlement. What the clock made due runs before each call's command, or at
 * `poll()` (after moving a simulated clock, say). Options are traded with `createOptionsOrder` and read with
 * `optionsPositions` and `optionsAccount` (POST /options/orders, GET /options/positions, GET /options/accounts).
 */
import { type Clock, SimClock } from '../core/clock.js';
import { Command, CommandType } from '../core/command.js';
import { type Exchange , spotMarketIndexes } from '../core/exchange/exchange.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { Side } from '../core/matching/order-types.js';
import { ResultCode } from '../core/result-code.js';
import { gateError } from '../gate/error-catalogue.js';
import { parseAmendOrder, parseCreateOrder, parseOrderId, parsePair } from '../gate/spot-order-request.js';
import {
  type GateAccountBookEntry, type GateOrder, type GateOrderBook, type GateSpotAccount, type GateTrade,
  accountBookCode, orderOfRole, renderOrder, renderOrderBook, userTrades,
} from '../gate/shapes.js';
import { type BookFactory, InlineEngine } from '../engine/inline-engine.js';
import { InlineGateway } from '../engine/gateway.js';
import { FuturesServices } from '../engine/futures/futures-services.js';
import { OptionsServices } from '../engine/options/options-services.js';
import { parseOptionsOrder } from '../gate/options-request.js';
import { renderOptionOrder, renderOptionPosition, renderOptionsAccount } from '../gate/options-shapes.js';
import { futuresServiceOptions } from './futures-config.js';
import { optionsServiceOptions } from './options-config.js';
import { definitionFromConfig, openingAccount, type SimConfig } from './sim-config.js';

/** A rejection, as the REST API would answer it. */
export class GateApiError extends Error {
  override readonly name = 'GateApiError';
  constructor(readonly label: string, readonly status: number, message: string) {
    super(`${label}: ${message}`);
  }

  static of(code: number): GateApiError {
    const e = gateError(code);
    return new GateApiError(e.label, e.status, e.message);
  }
}

export interface EmbeddedOptions {
  readonly clock?: Clock;
  readonly bookFactory?: BookFactory;
}

type Body = Readonly<Record<string, unknown>>;

export class EmbeddedExchange {
  readonly engine: InlineEngine;
  readonly clock: Clock;
  readonly #cmd = new Command();
  /**
   * Futures prices, funding and liquidation (docs/futures.md) on the exchange's clock, without a timer: what the
   * clock made due runs before each call's command, or at `futures.poll()`; undefined without contracts.
   */
  futures: FuturesServices | undefined;
  /** The options index and expiry settlement (docs/derivatives.md) on the exchange's clock, likewise; undefined without options. */
  options: OptionsServices | undefined;

  private constructor(engine: InlineEngine, clock: Clock) {
    this.engine = engine;
    this.clock = clock;
  }

  /** Builds an exchange from a simulator config and credits its opening balances. Throws ConfigError. */
  static create(config: SimConfig, options: EmbeddedOptions = {}): EmbeddedExchange {
    const clock = options.clock ?? new SimClock(Date.UTC(2026, 0, 1) * 1000);
    const { definition, balances } = definitionFromConfig(config, Math.floor(clock.nowUs() / 1000));
    const ex = new EmbeddedExchange(new InlineEngine(definition, { clock, bookFactory: options.bookFactory }), clock);
    for (const b of balances) {
      const to = openingAccount(b.account, ex.exchange.currencyIndex(b.currency));
      ex.#credit(b.uid, to.kind, b.currency, b.amount, to.sub);
    }
    const futures = futuresServiceOptions(config.futures);
    const opts = optionsServiceOptions(config.options);
    const gateway = futures === undefined && opts === undefined ? undefined : new InlineGateway(definition, clock, { engine: ex.engine });
    if (futures !== undefined) ex.futures = new FuturesServices(gateway!, { ...futures, checkMs: 0 });
    if (opts !== undefined) ex.options = new OptionsServices(gateway!, { ...opts, checkMs: 0 });
    ex.poll();
    return ex;
  }

  get exchange(): Exchange {
    return this.engine.exchange;
  }

  /** Credits `amount` (decimal) of `currency` to a user's spot account. */
  deposit(uid: number, currency: string, amount: string): void {
    this.#credit(uid, AccountKind.Spot, currency, amount);
  }

  /** Credits an account (the lending pool is the platform's Unified account). */
  #credit(uid: number, kind: number, currency: string, amount: string, sub = 0): void {
    const ex = this.exchange;
    const units = ex.ledger.parse(currency, amount);
    if (typeof units === 'number' && units < 0) throw GateApiError.of(units);
    const c = this.#cmd.clear();
    c.type = CommandType.Credit;
    c.uid = uid; c.kind = kind; c.sub = sub; c.currency = ex.currencyIndex(currency);
    if (typeof units === 'bigint') c.text = units.toString();
    else c.amount = units;
    this.#submit(c);
  }

  /** POST /spot/orders. */
  createOrder(uid: number, body: Body): GateOrder {
    const c = this.#cmd;
    this.#check(parseCreateOrder(this.exchange, uid, body, c));
    this.#submit(c);
    return renderOrder(this.exchange, this.exchange.orders.find(c.orderId));
  }

  /** PATCH /spot/orders/{order_id}. */
  amendOrder(uid: number, orderId: string, body: Body): GateOrder {
    const id = this.#orderId(orderId);
    const c = this.#cmd;
    this.#check(parseAmendOrder(this.exchange, uid, id, body, c));
    this.#submit(c);
    return renderOrder(this.exchange, this.exchange.orders.find(id));
  }

  /** DELETE /spot/orders/{order_id}. */
  cancelOrder(uid: number, orderId: string, currencyPair: string): GateOrder {
    const id = this.#orderId(orderId);
    const c = this.#cmd.clear();
    c.type = CommandType.CancelOrder;
    c.uid = uid; c.market = this.#pair(currencyPair); c.orderId = id;
    this.#submit(c);
    return renderOrder(this.exchange, this.exchange.orders.find(id));
  }

  /** DELETE /spot/orders: every open order of the user (in one pair, one side, or all). */
  cancelAllOrders(uid: number, currencyPair?: string, side?: 'buy' | 'sell'): GateOrder[] {
    const ex = this.exchange;
    const markets = currencyPair === undefined ? spotMarketIndexes(ex) : [this.#pair(currencyPair)];
    const sideCode = side === undefined ? 0 : side === 'buy' ? Side.Buy : side === 'sell' ? Side.Sell : -1;
    if (sideCode < 0) throw GateApiError.of(ResultCode.InvalidParam);
    const out: GateOrder[] = [];
    for (const m of markets) {
      const c = this.#cmd.clear();
      c.type = CommandType.CancelAll;
      c.uid = uid; c.market = m; c.side = sideCode;
      this.#submit(c);
      const ev = this.engine.events;
      for (let i = 0; i < ev.count; i++) out.push(renderOrder(ex, ex.orders.find(ev.orderId[i]!)));
    }
    return out;
  }

  /** GET /spot/orders/{order_id}. */
  getOrder(uid: number, orderId: string, currencyPair: string): GateOrder {
    const ex = this.exchange;
    const r = ex.orders.find(this.#orderId(orderId));
    if (r < 0 || ex.orders.uid[r] !== uid || ex.orders.market[r] !== this.#pair(currencyPair)) throw GateApiError.of(ResultCode.OrderNotFound);
    return renderOrder(ex, r);
  }

  /** GET /spot/orders: open orders in entry order, or finished ones newest first; page from 1. */
  listOrders(uid: number, q: { currency_pair: string; status: 'open' | 'finished'; limit?: number; page?: number }): GateOrder[] {
    const ex = this.exchange;
    const m = this.#pair(q.currency_pair);
    const records = q.status === 'open' ? ex.orders.openOf(uid, m) : ex.orders.finishedOf(uid, m);
    const limit = q.limit ?? 100;
    const from = ((q.page ?? 1) - 1) * limit;
    return records.slice(from, from + limit).map((r) => renderOrder(ex, r));
  }

  /** GET /spot/accounts. */
  spotAccounts(uid: number, currency?: string): GateSpotAccount[] {
    return this.exchange.ledger.balances(uid, AccountKind.Spot, 0)
      .filter((b) => currency === undefined || b.currency === currency)
      .map((b) => ({ currency: b.currency, available: b.available, locked: b.locked, update_id: 0 }));
  }

  /** GET /spot/account_book (newest first). */
  accountBook(uid: number, q: { currency?: string; limit?: number } = {}): GateAccountBookEntry[] {
    return this.exchange.ledger.accountBook(uid, { kind: AccountKind.Spot, sub: 0, currency: q.currency, limit: q.limit ?? 100 })
      .map((e) => ({
        id: String(e.id), time: Math.floor(e.time / 1000), currency: e.currency, change: e.change, balance: e.balance,
        type: e.type, code: accountBookCode(e.type), text: e.text,
      }));
  }

  /** GET /spot/my_trades (newest first). */
  myTrades(uid: number, q: { currency_pair?: string; order_id?: string; limit?: number } = {}): GateTrade[] {
    const ex = this.exchange;
    const T = ex.trades;
    const m = q.currency_pair === undefined ? -1 : this.#pair(q.currency_pair);
    const order = q.order_id === undefined ? -1 : this.#orderId(q.order_id);
    return userTrades(ex, uid, (i, role) => (m < 0 ? T.market[i]! < ex.spotMarkets : T.market[i] === m) && (order < 0 || orderOfRole(ex, i, role) === order),
      q.limit ?? 100);
  }

  /** POST /options/orders (the user's options account must be funded: config `balances.options`). */
  createOptionsOrder(uid: number, body: Body): Record<string, unknown> {
    const ex = this.exchange;
    const cur = ex.currencyIndex('USDT');
    if (cur < 0 || !ex.ledger.options.hasAccount(uid, cur)) throw GateApiError.of(ResultCode.UserNotFound);
    const c = this.#cmd;
    this.#check(parseOptionsOrder(ex, uid, body, c));
    this.#submit(c);
    return renderOptionOrder(ex, ex.orders.find(c.orderId));
  }

  /** GET /options/positions: the user's open option positions. */
  optionsPositions(uid: number): Record<string, unknown>[] {
    const ex = this.exchange;
    const out: Record<string, unknown>[] = [];
    ex.options.rows.forEach((p, row) => { if (p.uid === uid && p.size !== 0) out.push(renderOptionPosition(ex, row, this.clock.nowUs())); });
    return out;
  }

  /** GET /options/accounts. */
  optionsAccount(uid: number): Record<string, unknown> {
    const ex = this.exchange;
    const cur = ex.currencyIndex('USDT');
    if (cur < 0 || !ex.ledger.options.hasAccount(uid, cur)) throw GateApiError.of(ResultCode.UserNotFound);
    return renderOptionsAccount(ex, uid, 'USDT');
  }

  /** Runs what the engine clock made due (futures and options services), as the server's timers would. */
  poll(): void {
    this.futures?.poll();
    this.options?.poll();
  }

  /** GET /spot/order_book. */
  orderBook(currencyPair: string, limit = 10): GateOrderBook {
    const m = this.#pair(currencyPair);
    return renderOrderBook(this.exchange, m, this.engine.books[m]!, limit, this.clock.nowUs());
  }

  stateHash(): string {
    return this.engine.stateHash();
  }

  /** Runs what the clock made due (futures and options services) first, as the server's timers would have, then `c`. */
  #submit(c: Command): void {
    this.poll();
    this.#check(this.engine.submit(c));
  }

  #check(code: number): void {
    if (code !== ResultCode.Ok) throw GateApiError.of(code);
  }

  #pair(v: string): number {
    const m = parsePair(this.exchange, v);
    if (m < 0) throw GateApiError.of(m);
    return m;
  }

  #orderId(v: string): number {
    const id = parseOrderId(v);
    if (id < 0) throw GateApiError.of(id);
    return id;
  }
}
