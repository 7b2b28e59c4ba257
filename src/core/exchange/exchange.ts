/**
 * The exchange as a pure state machine: ledger, order records and trade history, folded over commands.
 *
 * A book-bound command (place, amend, cancel, cancel-all) goes through three steps, the exchange-core pipeline:
 *   R1  `pre(cmd)`            checks and holds funds, stamps the order id and STP group; a rejection ends it.
 *   ME  `applyToBook(...)`    the market's book matches (inline, or in a shard worker behind a ring).
 *   R2  `post(cmd, code, ev)` settles fills and fees, releases holds of finished orders, updates records.
 * Funds commands (credit, debit, transfer) complete in `pre`. Records a command carries (`Command.record`,
 * records/record-table.ts) are applied when it succeeds: in `pre` for commands that complete there, in
 * `post` for book commands the book accepted; a malformed record text rejects the command (InvalidParam)
 * before anything changes.
 *
 * Pipelining (the threaded runner runs R1 of later commands before R2 of earlier ones) is safe because R2 only
 * ever adds to available balances: a pipelined R1 sees at most the funds an inline one would, so whatever
 * it accepts inline accepts too, and a runner that retries a BalanceNotEnough after draining gets the inline
 * answer. An amend's R1 with fills in flight (`pessimistic`) reserves as if its whole remainder were about to
 * trade at its current price, and R2 settles the hold to the exact figure, so it never needs more later.
 * That reasoning needs the order's price and amount as R1 sees them to be the book's: fills in flight only
 * shrink what is left, but an earlier amend in flight moves the price and amount, and its R2 sets the hold to
 * its own exact figure, taking back what a later amend's R1 reserved. So a runner must not run R1 of an amend
 * while an earlier amend of the same order is in flight (`amendInFlight`); it waits for that amend's R2.
 *
 * Allocation: none per command on narrow currencies once records exist (wide currencies use BigInt).
 */
import type { Command} from '../command.js';
import { CommandType } from '../command.js';
import { invariant } from '../invariant.js';
import { type Amount, isZeroAmount, subAmount } from '../ledger/amount.js';
import { BookType } from '../ledger/account-book.js';
import { Ledger } from '../ledger/ledger.js';
import { defineMarket, type Market } from '../market.js';
import type { BookEvents } from '../matching/book-events.js';
import { EventKind } from '../matching/book-events.js';
import { validatePlace } from '../matching/book-rules.js';
import type { OrderBook } from '../matching/order-book.js';
import { FinishAs, OrderType, PlaceOrder, Side } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import { StateHasher } from '../state-hash.js';
import { type ExchangeDefinition, marketFees } from './exchange-definition.js';
import { type ExchangeState, exportOrders, exportTrades, importOrders, importTrades } from './exchange-state.js';
import { accountKindOf, OrderFlag, OrderStore, packAccount } from './order-store.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { TradeLog } from './trade-log.js';
import { applyMargin } from '../margin/margin-commands.js';
import { applyUnified } from '../unified/unified-commands.js';
import { unifiedOutflow } from '../unified/unified-outflow.js';
import { resolveUnifiedParams } from '../unified/unified-params.js';
import { UnifiedState } from '../unified/unified-state.js';
import { parseRecords, RecordTable } from '../records/record-table.js';

/**
 * The packed account byte (order-store.ts packAccount) of a PlaceOrder's `kind`, `sub` and flags (`toKind`),
 * or -1: kind 0 or Spot (no flags kept), Margin with `sub` its market, CrossMargin with `sub` 0.
 */
function orderAccount(c: Command): number {
  if ((c.toKind | 0) !== c.toKind || c.toKind < 0 || c.toKind > (OrderFlag.AutoBorrow | OrderFlag.AutoRepay)) return -1;
  if (c.kind === 0 || c.kind === AccountKind.Spot) return c.sub === 0 ? AccountKind.Spot : -1;
  if (c.kind === AccountKind.Margin) return c.sub === c.market ? packAccount(AccountKind.Margin, c.toKind) : -1;
  if (c.kind === AccountKind.CrossMargin) return c.sub === 0 ? packAccount(AccountKind.CrossMargin, c.toKind) : -1;
  return -1;
}

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

export class Exchange {
  readonly definition: ExchangeDefinition;
  readonly ledger: Ledger;
  readonly orders: OrderStore;
  readonly trades: TradeLog;
  /** Unified-account modes, accrual hour and loan records (loans themselves are ledger columns). */
  readonly unified: UnifiedState;
  /** The fronts' records (API keys, wallet records, price triggers …), put by commands. */
  readonly records = new RecordTable();
  readonly markets: readonly Market[];
  /** Currency codes by index (the `currency` field of commands). */
  readonly currencies: readonly string[];
  readonly #takerPpm: readonly number[];
  readonly #makerPpm: readonly number[];
  readonly #stp = new Map<number, number>();
  readonly #place = new PlaceOrder();
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
    this.markets = def.markets.map((spec) => {
      const m = defineMarket(spec);
      this.ledger.registerMarket(m, spec.base, spec.quote);
      return m;
    });
    const fees = def.markets.map(marketFees);
    this.#takerPpm = fees.map((f) => f.taker);
    this.#makerPpm = fees.map((f) => f.maker);
    for (const u of def.users ?? []) {
      const code = this.ledger.addUser(u.uid, u.main_uid ?? 0);
      invariant(code === ResultCode.Ok, `user ${u.uid} cannot be added (code ${code})`);
    }
    for (const g of def.stp_groups ?? []) for (const uid of g.users) this.#stp.set(uid, g.id);
  }

  /** Index of a market id (e.g. "BTC_USDT"), or -1. */
  marketIndex(id: string): number {
    return this.markets.findIndex((m) => m.id === id);
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
   * later amend of the same order until then (see the header).
   */
  amendInFlight(orderId: number): boolean {
    const r = this.orders.find(orderId);
    return r >= 0 && this.orders.amending[r] !== 0;
  }

  /** The last order id issued. */
  get lastOrderId(): number {
    return this.#lastOrderId;
  }

  /**
   * R1. Returns Ok when a book-bound command must now go to its market's book (or a funds command is done),
   * else the rejection (nothing changed). `pessimistic`: fills of this market may be in flight (see header).
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
    switch (c.type) {
      case CommandType.PlaceOrder: return this.#prePlace(c);
      case CommandType.AmendOrder: {
        const code = this.#preAmend(c, pessimistic);
        if (code === ResultCode.Ok) this.#markAmending(c.orderId, 1);
        return code;
      }
      case CommandType.CancelOrder: return this.#ownOpenOrder(c) < 0 ? this.#goneCode(c) : ResultCode.Ok;
      case CommandType.CancelAll: return this.#validMarket(c.market) ? ResultCode.Ok : ResultCode.InvalidMarket;
      case CommandType.Credit: return this.#funds(c);
      case CommandType.Debit:
      case CommandType.Transfer: return unifiedOutflow(this, c) !== ResultCode.Ok ? ResultCode.BalanceNotEnough : this.#funds(c);
      case CommandType.WithdrawHold: return unifiedOutflow(this, c) !== ResultCode.Ok ? ResultCode.BalanceNotEnough : this.#withdrawal(c);
      case CommandType.WithdrawSettle:
      case CommandType.WithdrawRelease: return this.#withdrawal(c);
      case CommandType.AddUser: return this.ledger.addUser(c.uid, c.toUid);
      case CommandType.PutRecords: return ResultCode.Ok;
      case CommandType.UnifiedBorrow:
      case CommandType.UnifiedRepay:
      case CommandType.UnifiedAccrue:
      case CommandType.UnifiedSetMode: return applyUnified(this, c);
      case CommandType.MarginBorrow:
      case CommandType.MarginRepay: return applyMargin(this, c);
      default: return ResultCode.InvalidParam;
    }
  }

  /** R2 for a book-bound command that passed R1: applies the book's answer and events. Returns the final code. */
  post(c: Command, code: ResultCode, ev: BookEvents): ResultCode {
    if (c.type === CommandType.AmendOrder) this.#markAmending(c.orderId, 0);
    if (code !== ResultCode.Ok) {
      this.#undoPre(c);
      // A fill in flight may have finished the order after R1 saw it open: answer as inline R1 would.
      return code === ResultCode.OrderNotFound && c.type !== CommandType.PlaceOrder ? this.#goneCode(c) : code;
    }
    if (c.record !== '') this.records.apply(parseRecords(c.record)!, c.seq, c.type === CommandType.PlaceOrder ? c.orderId : 0);
    const m = c.market;
    const time = c.time;
    const L = this.ledger;
    const O = this.orders;
    for (let i = 0; i < ev.count; i++) {
      const kind = ev.kind[i];
      const id = ev.orderId[i]!;
      if (kind === EventKind.Fill) {
        const maker = ev.makerOrderId[i]!;
        const price = ev.price[i]!;
        const lots = ev.lots[i]!;
        const takerSide = ev.code[i] === Side.Buy ? Side.Sell : Side.Buy;
        const rc = L.settleFill(time, m, id, maker, takerSide, price, lots, this.#takerPpm[m]!, this.#makerPpm[m]!);
        invariant(rc === ResultCode.Ok, 'fill could not settle');
        const rt = O.find(id);
        const rm = O.find(maker);
        const takerFee = L.lastTakerFee;
        const makerFee = L.lastMakerFee;
        O.fill(rt, lots, price, takerFee, time, O.type[rt] === OrderType.Market && takerSide === Side.Buy);
        O.fill(rm, lots, price, makerFee, time, false);
        this.trades.append(time, m, id, maker, O.uid[rt]!, O.uid[rm]!, takerSide, price, lots, takerFee, makerFee);
      } else if (kind === EventKind.Finished) {
        L.releaseOrder(time, id);
        O.finish(O.find(id), ev.code[i]!, ev.lots[i]!, time);
      } else if (kind === EventKind.Amended) {
        const r = O.find(id);
        const price = ev.price[i]!;
        const left = ev.lots[i]!;
        O.amend(r, price, left, time, c.text);
        if (c.amount !== 0 || O.side[r] === Side.Buy) {
          const rc = L.resizeHold(time, id, L.holdUnits(m, O.side[r]!, OrderType.Limit, price, left));
          invariant(rc === ResultCode.Ok, 'amend hold could not settle');
        }
      }
    }
    return code;
  }

  /** Hash of ledger, order records, counters and the books' hashes (in market order). @allocates */
  stateHash(bookHashes: readonly string[]): string {
    const h = new StateHasher();
    h.addString(this.ledger.stateHash());
    this.orders.hashInto(h);
    h.add(this.#lastOrderId).add(this.trades.count);
    this.unified.hashInto(h);
    this.records.hashInto(h);
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
  }

  assertInvariants(): void {
    this.ledger.assertInvariants();
    invariant(this.orders.openCount === this.ledger.holdCount - this.ledger.withdrawalHoldCount, 'open orders and holds differ');
  }

  #prePlace(c: Command): ResultCode {
    if (!this.#validMarket(c.market)) return ResultCode.InvalidMarket;
    const market = this.markets[c.market]!;
    const candidate = this.#lastOrderId + 1;
    c.stpId = this.stpOf(c.uid);
    const price = c.orderType === OrderType.Market ? 0 : c.price;
    const p = this.#place.set(candidate, c.uid, c.side, c.orderType, c.tif, price, c.amount, c.iceberg, c.stpId, c.stpAct);
    const valid = validatePlace(market, p);
    if (valid !== ResultCode.Ok) return valid;
    const account = orderAccount(c);
    if (account < 0) return ResultCode.InvalidParam;
    const kind = accountKindOf(account);
    const held = this.ledger.holdOrder(c.time, candidate, c.uid, c.market, c.side, c.orderType, price, c.amount, kind,
      kind === AccountKind.Margin ? c.market : 0);
    if (held !== ResultCode.Ok) return held;
    this.#lastOrderId = candidate;
    c.orderId = candidate;
    c.price = price;
    const received = c.side === Side.Buy ? market.spec.base : market.spec.quote;
    this.orders.open(candidate, c.uid, c.market, c.side, c.orderType, c.tif, price, c.amount, c.iceberg, c.stpId,
      c.stpAct, c.text, c.time, this.ledger.isWide(received) ? 0n : 0, account);
    return ResultCode.Ok;
  }

  #preAmend(c: Command, pessimistic: boolean): ResultCode {
    const r = this.#ownOpenOrder(c);
    if (r < 0) return this.#goneCode(c);
    c.reserved = 0;
    const O = this.orders;
    // A sell holds exactly its remaining lots, whatever its price: a price-only move changes no hold.
    if (c.amount === 0 && O.side[r] === Side.Sell) return ResultCode.Ok;
    const newPrice = c.price === 0 ? O.price[r]! : c.price;
    const newLeft = c.amount === 0 ? O.left[r]! : c.amount - O.filledLots[r]!;
    if (!Number.isSafeInteger(newPrice) || newPrice <= 0 || !Number.isSafeInteger(newLeft) || newLeft <= 0) {
      return ResultCode.Ok; // the book rejects it with the right code
    }
    const L = this.ledger;
    const need = L.holdUnits(c.market, O.side[r]!, OrderType.Limit, newPrice, newLeft);
    if (typeof need === 'number' && need < 0) return ResultCode.Ok; // out of range: the book says which bound
    const held = L.heldFor(c.orderId)!;
    let floor: Amount = held;
    if (pessimistic) floor = subAmount(held, L.holdUnits(c.market, O.side[r]!, OrderType.Limit, O.price[r]!, O.left[r]!));
    const reserve = subAmount(need, floor);
    if (reserve <= 0 || isZeroAmount(reserve)) return ResultCode.Ok;
    const rc = L.resizeHold(c.time, c.orderId, typeof held === 'number' ? held + (reserve as number) : held + (reserve as bigint));
    if (rc !== ResultCode.Ok) return rc;
    c.reserved = reserve;
    return ResultCode.Ok;
  }

  /** Sets the amend-in-flight mark of an order's record (1 after an amend's R1, 0 at its R2). */
  #markAmending(orderId: number, v: number): void {
    const r = this.orders.find(orderId);
    invariant(r >= 0, 'amended order has no record');
    invariant(this.orders.amending[r] !== v, v === 1 ? 'an amend of this order is already in flight' : 'no amend of this order in flight');
    this.orders.amending[r] = v;
  }

  /** Reverses what R1 did for a command the book rejected. */
  #undoPre(c: Command): void {
    if (c.type === CommandType.PlaceOrder) {
      this.ledger.releaseOrder(c.time, c.orderId);
      this.orders.discard(this.orders.find(c.orderId));
    } else if (c.type === CommandType.AmendOrder && !isZeroAmount(c.reserved)) {
      const held = this.ledger.heldFor(c.orderId);
      if (held !== undefined) this.ledger.resizeHold(c.time, c.orderId, subAmount(held, c.reserved));
    }
  }

  /** Why `c.orderId` cannot be cancelled or amended: the user's finished order, or no such order of theirs. */
  #goneCode(c: Command): ResultCode {
    const O = this.orders;
    const r = O.find(c.orderId);
    if (r < 0 || O.uid[r] !== c.uid || O.market[r] !== c.market || O.finishAs[r] === 0) return ResultCode.OrderNotFound;
    return O.finishAs[r] === FinishAs.Filled ? ResultCode.OrderClosed : ResultCode.OrderCancelled;
  }

  /** The order record of an open order of `c.uid` in `c.market`, or -1. */
  #ownOpenOrder(c: Command): number {
    const r = this.orders.find(c.orderId);
    const O = this.orders;
    if (r < 0 || O.uid[r] !== c.uid || O.market[r] !== c.market || O.finishAs[r] !== 0) return -1;
    return r;
  }

  #validMarket(m: number): boolean {
    return (m | 0) === m && m >= 0 && m < this.markets.length;
  }

  /** The command's amount in units of currency `code`: `amount`, or `text` (integer units) when wide; -1 if malformed. */
  #units(c: Command, code: string): number | bigint {
    if (!this.ledger.isWide(code)) return c.amount;
    if (c.text !== '' && !/^[0-9]{1,40}$/.test(c.text)) return -1;
    return c.text !== '' ? BigInt(c.text) : Number.isSafeInteger(c.amount) ? BigInt(c.amount) : -1n;
  }

  /** Withdrawal hold, settle (amount = fee) and release, keyed by the withdrawal id in `orderId`. */
  #withdrawal(c: Command): ResultCode {
    const L = this.ledger;
    if (c.type === CommandType.WithdrawRelease) return L.releaseWithdrawal(c.time, c.orderId, c.uid);
    const code = this.currencies[c.currency];
    if (code === undefined) return ResultCode.CurrencyNotFound;
    const units = this.#units(c, code);
    if (units === -1) return ResultCode.InvalidParam;
    if (c.type === CommandType.WithdrawHold) return L.holdWithdrawal(c.time, c.orderId, c.uid, c.currency, units);
    return L.settleWithdrawal(c.time, c.orderId, c.uid, units);
  }

  /**
   * Credit, debit and transfer. The amount is `amount` units, or `text` (integer units) beyond 2^53; a Transfer's
   * `side` is its purpose (TransferPurpose: which account-book types it writes).
   */
  #funds(c: Command): ResultCode {
    const code = this.currencies[c.currency];
    if (code === undefined) return ResultCode.CurrencyNotFound;
    const amount = this.#units(c, code);
    if (amount === -1) return ResultCode.InvalidParam;
    const L = this.ledger;
    if (c.type === CommandType.Credit) return L.credit(c.time, c.uid, c.kind, c.sub, code, amount, BookType.Deposit, '');
    if (c.type === CommandType.Debit) return L.debit(c.time, c.uid, c.kind, c.sub, code, amount, BookType.Withdraw, '');
    return L.transfer(c.time, c.uid, c.kind, c.sub, c.toUid, c.toKind, c.toSub, code, amount, '', c.side);
  }
}
