// Reference ledger for differential tests: decimal balances in big.js, maps keyed by strings, no cleverness.
// Mirrors Ledger's contract (codes and their order, holds, settlement, fees) in the most direct form.
import Big from 'big.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { LedgerCode } from '../../src/core/ledger/ledger-codes.js';
import type { Market } from '../../src/core/market.js';
import { OrderType, Side } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';

interface RefCurrency { readonly code: string; readonly scale: number; readonly max: Big; supply: Big }
interface RefMarket { readonly m: Market; readonly base: string; readonly quote: string }
interface RefBalance { available: Big; locked: Big }
export interface RefHold { readonly uid: number; readonly market: number; readonly side: number; readonly pays: string; remaining: Big }

const MAX_SAFE = new Big(Number.MAX_SAFE_INTEGER);
const ZERO = new Big(0);
const isPosInt = (n: number): boolean => Number.isSafeInteger(n) && n > 0;
const unit = (scale: number): Big => new Big(`1e-${scale}`);

export class ReferenceLedger {
  readonly currencies = new Map<string, RefCurrency>();
  readonly markets: RefMarket[] = [];
  readonly users = new Map<number, number>([[0, 0]]);
  readonly balancesByKey = new Map<string, RefBalance>();
  readonly holds = new Map<number, RefHold>();

  registerCurrency(code: string, scale: number, maxSupply: string): void {
    this.currencies.set(code, { code, scale, max: new Big(maxSupply), supply: ZERO });
  }

  registerMarket(m: Market, base: string, quote: string): void {
    this.markets.push({ m, base, quote });
  }

  addUser(uid: number, main: number): number {
    if (!Number.isInteger(uid) || uid <= 0 || uid >= 2 ** 31 || main === uid) return ResultCode.InvalidParam;
    if (this.users.has(uid)) return LedgerCode.UserExists;
    if (main !== 0) {
      const mm = this.users.get(main);
      if (mm === undefined) return LedgerCode.MainUserNotFound;
      if (mm !== 0) return LedgerCode.NestedSubAccount;
    }
    this.users.set(uid, main);
    return ResultCode.Ok;
  }

  /** The balance of an account (zeros when never touched). */
  get(uid: number, kind: number, sub: number, cur: string): RefBalance {
    return this.balancesByKey.get(`${uid}|${kind}|${sub}|${cur}`) ?? { available: ZERO, locked: ZERO };
  }

  #set(uid: number, kind: number, sub: number, cur: string, b: RefBalance): void {
    this.balancesByKey.set(`${uid}|${kind}|${sub}|${cur}`, b);
  }

  #validAccount(kind: number, sub: number): boolean {
    if (!Number.isInteger(kind) || kind < AccountKind.Spot || kind > AccountKind.Options || !Number.isInteger(sub) || sub < 0) return false;
    if (kind === AccountKind.Margin) return sub < this.markets.length;
    if (kind === AccountKind.Futures || kind === AccountKind.Delivery) return sub < this.currencies.size;
    return sub === 0;
  }

  /** Units (an integer) → decimal of `cur`, or a code. */
  #amount(c: RefCurrency, units: number | bigint): Big | number {
    if (typeof units === 'number' && (!Number.isSafeInteger(units) || units <= 0)) return ResultCode.InvalidParam;
    if (typeof units === 'bigint' && units <= 0n) return ResultCode.InvalidParam;
    const v = new Big(units.toString()).times(unit(c.scale));
    return v.gt(c.max) ? ResultCode.AmountTooMuch : v;
  }

  credit(uid: number, kind: number, sub: number, code: string, units: number | bigint): number {
    if (!this.#validAccount(kind, sub)) return ResultCode.InvalidParam;
    const c = this.currencies.get(code);
    if (c === undefined) return LedgerCode.CurrencyNotFound;
    const v = this.#amount(c, units);
    if (typeof v === 'number') return v;
    if (!this.users.has(uid)) return LedgerCode.UserNotFound;
    if (c.supply.plus(v).gt(c.max)) return ResultCode.AmountTooMuch;
    const b = this.get(uid, kind, sub, code);
    this.#set(uid, kind, sub, code, { available: b.available.plus(v), locked: b.locked });
    c.supply = c.supply.plus(v);
    return ResultCode.Ok;
  }

  debit(uid: number, kind: number, sub: number, code: string, units: number | bigint): number {
    if (!this.#validAccount(kind, sub)) return ResultCode.InvalidParam;
    const c = this.currencies.get(code);
    if (c === undefined) return LedgerCode.CurrencyNotFound;
    const v = this.#amount(c, units);
    if (typeof v === 'number') return v;
    if (!this.users.has(uid)) return LedgerCode.UserNotFound;
    const b = this.get(uid, kind, sub, code);
    if (b.available.lt(v)) return LedgerCode.BalanceNotEnough;
    this.#set(uid, kind, sub, code, { available: b.available.minus(v), locked: b.locked });
    c.supply = c.supply.minus(v);
    return ResultCode.Ok;
  }

  transfer(fu: number, fk: number, fs: number, tu: number, tk: number, ts: number, code: string, units: number | bigint): number {
    if (!this.#validAccount(fk, fs) || !this.#validAccount(tk, ts) || (fu === tu && fk === tk && fs === ts)) return ResultCode.InvalidParam;
    const c = this.currencies.get(code);
    if (c === undefined) return LedgerCode.CurrencyNotFound;
    const v = this.#amount(c, units);
    if (typeof v === 'number') return v;
    if (!this.users.has(fu) || !this.users.has(tu)) return LedgerCode.UserNotFound;
    const from = this.get(fu, fk, fs, code);
    if (from.available.lt(v)) return LedgerCode.BalanceNotEnough;
    this.#set(fu, fk, fs, code, { available: from.available.minus(v), locked: from.locked });
    const to = this.get(tu, tk, ts, code);
    this.#set(tu, tk, ts, code, { available: to.available.plus(v), locked: to.locked });
    return ResultCode.Ok;
  }

  holdOrder(orderId: number, uid: number, market: number, side: number, type: number, price: number, amount: number): number {
    if (!isPosInt(orderId) || (side !== Side.Buy && side !== Side.Sell) || (type !== OrderType.Limit && type !== OrderType.Market)
      || !isPosInt(amount) || (type === OrderType.Limit && !isPosInt(price))) return ResultCode.InvalidParam;
    const rm = this.markets[market];
    if (rm === undefined) return ResultCode.InvalidMarket;
    if (!this.users.has(uid)) return LedgerCode.UserNotFound;
    if (this.holds.has(orderId)) return LedgerCode.HoldExists;
    const m = rm.m;
    const buy = side === Side.Buy;
    let need: Big;
    if (!buy) need = new Big(amount).times(unit(m.amountScale));
    else if (type === OrderType.Market) need = new Big(amount).times(unit(m.notionalScale));
    else {
      const notional = new Big(price).times(amount);
      if (notional.gt(MAX_SAFE)) return ResultCode.AmountTooMuch;
      need = notional.times(unit(m.notionalScale));
    }
    const pays = buy ? rm.quote : rm.base;
    if (need.gt(this.currencies.get(pays)!.max)) return ResultCode.AmountTooMuch;
    const b = this.get(uid, AccountKind.Spot, 0, pays);
    if (b.available.lt(need)) return LedgerCode.BalanceNotEnough;
    this.#set(uid, AccountKind.Spot, 0, pays, { available: b.available.minus(need), locked: b.locked.plus(need) });
    this.holds.set(orderId, { uid, market, side, pays, remaining: need });
    return ResultCode.Ok;
  }

  /** `units` of the held currency. */
  resizeHold(orderId: number, units: number | bigint): number {
    if (typeof units === 'number' ? !Number.isSafeInteger(units) || units < 0 : units < 0n) return ResultCode.InvalidParam;
    const h = this.holds.get(orderId);
    if (h === undefined) return LedgerCode.HoldNotFound;
    const c = this.currencies.get(h.pays)!;
    const next = new Big(units.toString()).times(unit(c.scale));
    if (next.gt(c.max)) return ResultCode.AmountTooMuch;
    const delta = next.minus(h.remaining);
    const b = this.get(h.uid, AccountKind.Spot, 0, h.pays);
    if (delta.gt(0) && b.available.lt(delta)) return LedgerCode.BalanceNotEnough;
    this.#set(h.uid, AccountKind.Spot, 0, h.pays, { available: b.available.minus(delta), locked: b.locked.plus(delta) });
    h.remaining = next;
    return ResultCode.Ok;
  }

  releaseOrder(orderId: number): number {
    const h = this.holds.get(orderId);
    if (h === undefined) return LedgerCode.HoldNotFound;
    const b = this.get(h.uid, AccountKind.Spot, 0, h.pays);
    this.#set(h.uid, AccountKind.Spot, 0, h.pays, { available: b.available.plus(h.remaining), locked: b.locked.minus(h.remaining) });
    this.holds.delete(orderId);
    return ResultCode.Ok;
  }

  settleFill(market: number, takerId: number, makerId: number, takerSide: number, price: number, lots: number,
    takerPpm: number, makerPpm: number): number {
    const rate = (r: number): boolean => Number.isInteger(r) && r >= 0 && r <= 1_000_000;
    if ((takerSide !== Side.Buy && takerSide !== Side.Sell) || !isPosInt(price) || !isPosInt(lots) || !rate(takerPpm)
      || !rate(makerPpm) || takerId === makerId) return ResultCode.InvalidParam;
    if (new Big(price).times(lots).gt(MAX_SAFE)) return ResultCode.AmountTooMuch;
    const rm = this.markets[market];
    if (rm === undefined) return ResultCode.InvalidMarket;
    const taker = this.holds.get(takerId);
    const maker = this.holds.get(makerId);
    if (taker === undefined || maker === undefined) return LedgerCode.HoldNotFound;
    if (taker.market !== market || maker.market !== market || taker.side !== takerSide || maker.side === takerSide) {
      return LedgerCode.HoldMismatch;
    }
    const buyer = takerSide === Side.Buy ? taker : maker;
    const seller = takerSide === Side.Buy ? maker : taker;
    const quote = new Big(price).times(lots).times(unit(rm.m.notionalScale));
    const base = new Big(lots).times(unit(rm.m.amountScale));
    if (buyer.remaining.lt(quote) || seller.remaining.lt(base)) return LedgerCode.HoldExceeded;
    const buyerPpm = takerSide === Side.Buy ? takerPpm : makerPpm;
    const sellerPpm = takerSide === Side.Buy ? makerPpm : takerPpm;
    this.#side(buyer, quote, rm.base, base, buyerPpm);
    this.#side(seller, base, rm.quote, quote, sellerPpm);
    return ResultCode.Ok;
  }

  #side(h: RefHold, paid: Big, gets: string, received: Big, ppm: number): void {
    h.remaining = h.remaining.minus(paid);
    const b = this.get(h.uid, AccountKind.Spot, 0, h.pays);
    this.#set(h.uid, AccountKind.Spot, 0, h.pays, { available: b.available, locked: b.locked.minus(paid) });
    const scale = this.currencies.get(gets)!.scale;
    const fee = received.times(ppm).times('0.000001').round(scale, Big.roundDown);
    const r = this.get(h.uid, AccountKind.Spot, 0, gets);
    this.#set(h.uid, AccountKind.Spot, 0, gets, { available: r.available.plus(received).minus(fee), locked: r.locked });
    const f = this.get(0, AccountKind.Spot, 0, gets);
    this.#set(0, AccountKind.Spot, 0, gets, { available: f.available.plus(fee), locked: f.locked });
  }
}

/** Canonical decimal text of a Big (no exponent, no trailing zeros), as Ledger formats units. */
export const refText = (v: Big): string => v.toFixed();
