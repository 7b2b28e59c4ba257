/**
 * The exchange side of a market-data replay. The public book is the L2 book rebuilt from data; our users'
 * orders live in the real engine (InlineEngine: R1 holds, the real book, R2 settlement and fees), and the
 * replayed market reaches them only through a liquidity account (LIQUIDITY_UID), so every fill, fee and
 * balance change of ours is a live engine command:
 *
 * - Our order crossing the public book (taker): the displayed levels it can reach, less what we already
 *   consumed, are placed as the liquidity account's resting orders just before it, and withdrawn right after
 *   (one cancel-all). The real book then applies price-time matching, partial fills, IOC/FOK/POC and STP
 *   exactly as live; what we took counts as consumed at those levels.
 * - Our resting orders (maker): a public trade through or at our price, or a book that crosses it, fills the
 *   amount the queue model allows (./own-orders.ts); the liquidity account sends one IOC counter-order for it,
 *   at our price, so fills happen at our limit price with the maker fee.
 *
 * On a perpetual (the definition's one contract is market 0) every order is a futures order of the settle
 * currency's futures account, a market buy's amount is contracts, and the futures services' commands come in
 * through `system`: a liquidator's order meets the displayed book as our taking orders do.
 *
 * Notes about our orders (accepted, fill, finished, rejected) go to `sink` at the exchange time they happen;
 * the replay delays them by the ack latency. Allocation: per our order and note, not per data row.
 */
import type { SimClock } from '../core/clock.js';
import { Command, CommandType } from '../core/command.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { PositionSlot } from '../core/futures/position-store.js';
import { INSURANCE_UID } from '../core/ledger/futures-funds.js';
import { EventKind } from '../core/matching/book-events.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import { ResultCode } from '../core/result-code.js';
import { InlineEngine } from '../engine/inline-engine.js';
import { L2Book } from './l2-book.js';
import type { QueueModel } from './models/queue.js';
import { Consumption, OwnOrders } from './own-orders.js';

/** The account that stands for the replayed market. */
export const LIQUIDITY_UID = 1;

export type NoteKind = 'accepted' | 'rejected' | 'fill' | 'finished' | 'cancel_rejected';

/** What happened to one of our orders, in integer units (ticks, lots, currency units). */
export interface OrderNote {
  readonly kind: NoteKind;
  readonly ref: number;
  readonly uid: number;
  readonly orderId: number;
  readonly side: number;
  /** Fill price (fill), limit price (accepted). */
  readonly price: number;
  /** Fill lots (fill), amount (accepted), lots left unfilled (finished). */
  readonly lots: number;
  /** Fee of a fill, units of the currency received; 0 otherwise. */
  readonly fee: number;
  readonly role: 'maker' | 'taker' | '';
  /** ResultCode of a rejection, or FinishAs of a finish. */
  readonly code: number;
  /** Exchange time, µs. */
  readonly time: number;
}

export interface PlaceRequest {
  readonly ref: number;
  readonly uid: number;
  readonly side: number;
  readonly type: number;
  readonly tif: number;
  /** Ticks (0 for market orders). */
  readonly price: number;
  /** Lots, or the quote budget in notional units for a market buy. */
  readonly amount: number;
  readonly text: string;
}

export interface SimModels {
  readonly queue: QueueModel;
  /** Liquidity consumption (default on). */
  readonly consume: boolean;
}

export class MarketSim {
  readonly engine: InlineEngine;
  readonly book = new L2Book();
  readonly own = new OwnOrders();
  readonly consumed = new Consumption();
  readonly refOf = new Map<number, number>();
  readonly stats = { maker_fills_trade: 0, maker_fills_cross: 0, taker_orders: 0, injected_levels: 0, injected_rejected: 0, queue_ahead_at_rest_sum: 0, rested: 0 };
  readonly #cmd = new Command();
  readonly #injected = new Set<number>();
  readonly #clock: SimClock;
  readonly #models: SimModels;
  readonly #sink: (n: OrderNote) => void;
  /** True on a perpetual: orders carry the futures account (kind Futures, sub the settle currency). */
  readonly perp: boolean;
  readonly #settleCur: number;

  constructor(def: ExchangeDefinition, clock: SimClock, models: SimModels, sink: (n: OrderNote) => void) {
    this.engine = new InlineEngine(def, { clock });
    this.#clock = clock;
    this.#models = models;
    this.#sink = sink;
    const F = this.engine.exchange.futures;
    this.perp = F.contracts.length > 0 && F.marketOf[0] === 0;
    this.#settleCur = this.perp ? F.settleCur[0]! : 0;
  }

  /** Marks `c` (a PlaceOrder on market 0) as a futures order on a perpetual; nothing on a spot market. */
  #account(c: Command): void {
    if (!this.perp) return;
    c.kind = AccountKind.Futures; c.sub = this.#settleCur;
  }

  /**
   * A command of the futures services (prices, funding, liquidation): applied as is, except that the
   * liquidator's closing order first gets the displayed levels it can reach (less what we consumed), as our
   * taking orders do, withdrawn right after. Fills and finishes of our users' orders become notes.
   */
  system(c: Command): ResultCode {
    const book = c.type === CommandType.PlaceOrder || c.type === CommandType.CancelAll;
    if (c.type === CommandType.PlaceOrder && c.uid === INSURANCE_UID && c.market === 0) {
      const P = this.engine.exchange.futures.positions;
      const r = P.find(INSURANCE_UID, 0, PositionSlot.Single);
      const lots = r < 0 ? 0 : Math.abs(P.size[r]!);
      const side = r >= 0 && P.size[r]! > 0 ? Side.Sell : Side.Buy;
      if (lots > 0) this.#inject({ ref: 0, uid: INSURANCE_UID, side, type: OrderType.Market, tif: TimeInForce.Ioc, price: 0, amount: lots, text: '' },
        side === Side.Buy ? Side.Sell : Side.Buy);
    }
    const before = this.engine.exchange.trades.count;
    const code = this.engine.submit(c);
    if (book && code === ResultCode.Ok) this.#collect(before);
    this.#withdraw();
    return code;
  }

  /** Submits a funds or any other command as is. */
  submit(c: Command): number {
    return this.engine.submit(c);
  }

  /** One depth row (absolute size; 0 removes the level). */
  depth(side: number, price: number, size: number): void {
    const prev = this.book.set(side, price, size);
    if (this.own.size > 0) this.own.depth(side, price, prev, size, this.#models.queue);
    this.consumed.depth(side, price, prev, size);
  }

  /** A new snapshot begins: the public book and consumption start over. */
  resetBook(): void {
    this.book.clear();
    this.consumed.clear();
  }

  /** After a snapshot: no order of ours can have more ahead than its level now shows. */
  clampQueues(): void {
    for (const r of this.own.byId.values()) r.ahead = Math.min(r.ahead, this.book.sizeAt(r.side, r.price));
  }

  /** A public trade; `aggSide` 0 (unknown) is inferred from the book, or the trade is left alone. */
  trade(aggSide: number, price: number, amount: number): void {
    if (this.own.size === 0) return;
    let agg = aggSide;
    if (agg === 0) agg = price >= this.book.best(Side.Sell) ? Side.Buy : price <= this.book.best(Side.Buy) ? Side.Sell : 0;
    if (agg === 0) return;
    const total = this.own.allocateTrade(agg, price, amount, this.#models.consume);
    if (total === 0) return;
    this.stats.maker_fills_trade += this.own.chosen.length;
    this.#counter(agg, this.own.chosen[this.own.chosen.length - 1]!.price, total);
  }

  /** After a depth batch: fills our orders the public book now reaches. */
  cross(): void {
    if (this.own.size === 0) return;
    for (const side of [Side.Buy, Side.Sell]) {
      const total = this.own.allocateCross(side, this.book, this.consumed, this.#models.consume);
      if (total === 0) continue;
      this.stats.maker_fills_cross += this.own.chosen.length;
      this.#counter(side === Side.Buy ? Side.Sell : Side.Buy, this.own.chosen[this.own.chosen.length - 1]!.price, total);
    }
  }

  /** An order of ours arriving at the exchange. */
  place(p: PlaceRequest): void {
    const opp = p.side === Side.Buy ? Side.Sell : Side.Buy;
    const best = this.book.best(opp);
    const crosses = p.type === OrderType.Market || (p.side === Side.Buy ? p.price >= best : p.price <= best);
    if (crosses) this.#inject(p, opp);
    const c = this.#cmd.clear();
    c.type = CommandType.PlaceOrder;
    c.uid = p.uid; c.market = 0; c.side = p.side; c.orderType = p.type; c.tif = p.tif; c.price = p.price;
    c.amount = p.amount; c.text = p.text;
    this.#account(c);
    const before = this.engine.exchange.trades.count;
    const code = this.engine.submit(c);
    if (code !== ResultCode.Ok) {
      this.#note('rejected', p.ref, p.uid, 0, p.side, p.price, p.amount, 0, '', code);
    } else {
      const id = c.orderId;
      this.refOf.set(id, p.ref);
      if (crosses) this.stats.taker_orders++;
      this.#collect(before);
      const o = this.engine.exchange.orders;
      const r = o.find(id);
      if (r >= 0 && o.finishAs[r] === 0) {
        const ahead = this.book.sizeAt(p.side, p.price);
        this.own.add(id, p.uid, p.ref, p.side, p.price, o.left[r]!, ahead);
        this.stats.queue_ahead_at_rest_sum += ahead;
        this.stats.rested++;
      }
    }
    this.#withdraw();
  }

  /** Withdraws the injected levels that are left (one cancel-all of the liquidity account). */
  #withdraw(): void {
    if (this.#injected.size === 0) return;
    const k = this.#cmd.clear();
    k.type = CommandType.CancelAll;
    k.uid = LIQUIDITY_UID; k.market = 0;
    const b = this.engine.exchange.trades.count;
    this.engine.submit(k);
    this.#collect(b);
    this.#injected.clear();
  }

  /** A cancel of ours arriving at the exchange. */
  cancel(uid: number, ref: number, orderId: number): void {
    const c = this.#cmd.clear();
    c.type = CommandType.CancelOrder;
    c.uid = uid; c.market = 0; c.orderId = orderId;
    const before = this.engine.exchange.trades.count;
    const code = this.engine.submit(c);
    if (code !== ResultCode.Ok) this.#note('cancel_rejected', ref, uid, orderId, 0, 0, 0, 0, '', code);
    else this.#collect(before);
  }

  /** Places the reachable displayed levels (less consumption) as the liquidity account's resting orders. */
  #inject(p: PlaceRequest, opp: number): void {
    const b = this.book;
    let lots = 0;
    let notional = 0;
    for (let k = 0; k < b.levels(opp); k++) {
      const price = b.priceAt(opp, k);
      if (p.type === OrderType.Limit && (opp === Side.Sell ? price > p.price : price < p.price)) break;
      const avail = b.sizeAtLevel(opp, k) - this.consumed.get(opp, price);
      if (avail <= 0) continue;
      const c = this.#cmd.clear();
      c.type = CommandType.PlaceOrder;
      c.uid = LIQUIDITY_UID; c.market = 0; c.side = opp; c.orderType = OrderType.Limit; c.tif = TimeInForce.Gtc;
      c.price = price; c.amount = avail;
      this.#account(c);
      if (this.engine.submit(c) === ResultCode.Ok) {
        this.#injected.add(c.orderId);
        this.stats.injected_levels++;
      } else {
        this.stats.injected_rejected++;
      }
      lots += avail;
      notional += avail * price;
      const enough = p.type === OrderType.Market && p.side === Side.Buy && !this.perp ? notional >= p.amount : lots >= p.amount;
      if (enough) break;
    }
  }

  /** The liquidity account's IOC against our resting orders. */
  #counter(side: number, price: number, lots: number): void {
    const c = this.#cmd.clear();
    c.type = CommandType.PlaceOrder;
    c.uid = LIQUIDITY_UID; c.market = 0; c.side = side; c.orderType = OrderType.Limit; c.tif = TimeInForce.Ioc;
    c.price = price; c.amount = lots;
    this.#account(c);
    const before = this.engine.exchange.trades.count;
    if (this.engine.submit(c) === ResultCode.Ok) this.#collect(before);
  }

  /** Walks the last command's book events: notes for our users, own-order and consumption bookkeeping. */
  #collect(tradesBefore: number): void {
    const ev = this.engine.events;
    const T = this.engine.exchange.trades;
    let tradeId = tradesBefore;
    for (let i = 0; i < ev.count; i++) {
      const kind = ev.kind[i];
      const id = ev.orderId[i]!;
      if (kind === EventKind.Accepted) {
        const uid = ev.userId[i]!;
        if (uid !== LIQUIDITY_UID) this.#note('accepted', this.refOf.get(id) ?? 0, uid, id, ev.code[i]!, ev.price[i]!, ev.lots[i]!, 0, '', 0);
      } else if (kind === EventKind.Fill) {
        const slot = T.slotOf(++tradeId);
        const maker = ev.makerOrderId[i]!;
        const lots = ev.lots[i]!;
        const price = ev.price[i]!;
        const makerSide = ev.code[i]!;
        const own = this.own.byId.get(maker);
        if (own !== undefined) own.left -= lots;
        if (this.#models.consume && this.#injected.has(maker)) this.consumed.add(makerSide, price, lots);
        const takerUid = ev.userId[i]!;
        const makerUid = ev.makerUserId[i]!;
        if (takerUid !== LIQUIDITY_UID) {
          this.#note('fill', this.refOf.get(id) ?? 0, takerUid, id, makerSide === Side.Buy ? Side.Sell : Side.Buy, price, lots, Number(T.takerFee[slot]!), 'taker', 0);
        }
        if (makerUid !== LIQUIDITY_UID) {
          this.#note('fill', this.refOf.get(maker) ?? 0, makerUid, maker, makerSide, price, lots, Number(T.makerFee[slot]!), 'maker', 0);
        }
      } else if (kind === EventKind.Finished) {
        const uid = ev.userId[i]!;
        this.own.remove(id);
        if (uid !== LIQUIDITY_UID) {
          this.#note('finished', this.refOf.get(id) ?? 0, uid, id, 0, 0, ev.lots[i]!, 0, '', ev.code[i]!);
          this.refOf.delete(id);
        }
      }
    }
  }

  #note(kind: NoteKind, ref: number, uid: number, orderId: number, side: number, price: number, lots: number,
    fee: number, role: OrderNote['role'], code: number): void {
    this.#sink({ kind, ref, uid, orderId, side, price, lots, fee, role, code, time: this.#clock.nowUs() });
  }
}
