/**
 * Options money in the ledger. A user's options account for settle currency `cur` is the record (uid, Options,
 * 0, cur) (funded by wallet transfers); its `available` is free, its `locked` the sum of its holds:
 * - an order hold per open options order (key = the order id): a buy's premium and fee bound, a sell's
 *   initial margin;
 * - a position hold per short position (a negative key from core/options): its initial margin and premium.
 * They reuse the futures hold types (HoldType.FuturesOrder / FuturesPosition, futures-funds.ts): a margin hold
 * that locks and "receives" its own record's currency, which is what the audit checks; moves between holds and
 * closing one are the futures functions (moveMargin, closeMarginHold), which know nothing of the account kind.
 *
 * Money moves (each with account-book entries on both sides, each rejecting without a change):
 * - `pay`: a premium from the buyer (a hold or available) to the seller's available (entries OrderFill,
 *   which the options account book names `prem`);
 * - `fee`: to the platform fee account (FuturesFee / FeeIncome; `fee`);
 * - `clear`: a signed amount between a user's available and the currency's clearing balance (FuturesPnl; the
 *   options account book names it `set`): expiry payoffs. Settlement of one expiry nets clearing back to
 *   where it was within its command (core/options/options-commands.ts), so the futures identity on clearing holds;
 * - `fundCover`: from the **options insurance fund** into clearing, the part of an expiry shortfall it covers.
 * The options insurance fund is the options account of the reserved liquidator user (INSURANCE_UID, whose
 * futures accounts are the futures insurance funds): it takes over liquidated option positions
 * (core/options/options-liquidation.ts), trades them out and settles what it still holds at expiry.
 * Costs: BigInt arithmetic; no allocation once the records exist.
 */
import { ResultCode } from '../result-code.js';
import { AccountKind } from './account-kinds.js';
import { BookType } from './account-book.js';
import { type Amount, addAmount } from './amount.js';
import { closeMarginHold, HoldType, INSURANCE_UID, marginHeld, moveMargin, NO_HOLD, openHoldOn } from './futures-funds.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { FEE_KIND, FEE_SUB, isValidTime, type LedgerParts, PLATFORM_UID } from './parts.js';

const asAmount = (p: LedgerParts, cur: number, v: bigint): Amount => (p.currencies.wide[cur] === true ? v : Number(v));
const big = (v: Amount): bigint => (typeof v === 'bigint' ? v : BigInt(v));

export class OptionsFunds {
  readonly #p: LedgerParts;

  constructor(p: LedgerParts) {
    this.#p = p;
  }

  /** The options record of (uid, cur), or -1 (never funded). */
  record(uid: number, cur: number): number {
    return this.#p.store.findRecord(uid, AccountKind.Options, 0, cur);
  }

  hasAccount(uid: number, cur: number): boolean {
    return this.record(uid, cur) >= 0;
  }

  available(uid: number, cur: number): bigint {
    const r = this.record(uid, cur);
    return r < 0 ? 0n : big(this.#p.store.available(r));
  }

  /** available + locked. */
  total(uid: number, cur: number): bigint {
    const r = this.record(uid, cur);
    return r < 0 ? 0n : big(this.#p.store.total(r));
  }

  /** What hold `key` has left, or -1n when there is none. */
  held(key: number): bigint {
    return marginHeld(this.#p, key);
  }

  /** Opens hold `key` (an order: `position` false; a short position: true) of `units` from available. */
  openHold(time: number, key: number, uid: number, cur: number, market: number, position: boolean, units: bigint): LedgerOutcome {
    const p = this.#p;
    if (!isValidTime(time) || !Number.isSafeInteger(key) || key === NO_HOLD || units < 0n) return ResultCode.InvalidParam;
    const rec = this.record(uid, cur);
    if (rec < 0) return LedgerCode.UserNotFound;
    return openHoldOn(p, rec, cur, key, market, position ? HoldType.FuturesPosition : HoldType.FuturesOrder, units);
  }

  /** Moves `units` between holds of one account (NO_HOLD: its available); see moveMargin. */
  move(from: number, to: number, units: bigint): LedgerOutcome {
    return moveMargin(this.#p, from, to, units);
  }

  /** Returns what is left of hold `key` to available and closes it. */
  closeHold(key: number): LedgerOutcome {
    return closeMarginHold(this.#p, key);
  }

  /** Adds signed `delta` to hold `key` of record `rec` (or its available); false when it would go below 0. */
  #apply(rec: number, key: number, delta: bigint): boolean {
    const p = this.#p;
    const s = p.store;
    const amt = asAmount(p, s.recCur[rec]!, delta);
    if (key !== NO_HOLD) {
      const slot = p.holds.find(key);
      if (slot < 0 || p.holds.rec[slot] !== rec) return false;
      const next = addAmount(p.holds.remainingOf(slot), amt);
      if (next < 0) return false;
      p.holds.setRemaining(slot, next);
      s.setLocked(rec, addAmount(s.lockedOf(rec), amt));
      return true;
    }
    const next = addAmount(s.available(rec), amt);
    if (next < 0) return false;
    s.setAvailable(rec, next);
    return true;
  }

  /**
   * A premium of `units` ≥ 0 from (fromUid, cur)'s hold `fromKey` (or available) to (toUid, cur)'s hold `toKey`
   * (or available). Codes: InvalidParam, UserNotFound, BalanceNotEnough.
   */
  pay(time: number, fromUid: number, fromKey: number, toUid: number, toKey: number, cur: number, units: bigint, text: string,
    ref: number): LedgerOutcome {
    if (!isValidTime(time) || units < 0n) return ResultCode.InvalidParam;
    if (units === 0n) return ResultCode.Ok;
    const from = this.record(fromUid, cur);
    const to = this.record(toUid, cur);
    if (from < 0 || to < 0) return LedgerCode.UserNotFound;
    if (!this.#apply(from, fromKey, -units)) return LedgerCode.BalanceNotEnough;
    if (!this.#apply(to, toKey, units)) {
      this.#apply(from, fromKey, units);
      return LedgerCode.HoldNotFound;
    }
    const p = this.#p;
    p.book.append(time, from, BookType.OrderFill, asAmount(p, cur, -units), p.store.total(from), text, ref);
    p.book.append(time, to, BookType.OrderFill, asAmount(p, cur, units), p.store.total(to), text, ref);
    return ResultCode.Ok;
  }

  /** A fee `fee` ≥ 0 of (uid, cur) from hold `key` (or available) to the platform fee account. */
  fee(time: number, uid: number, cur: number, key: number, fee: bigint, text: string, ref: number): LedgerOutcome {
    if (!isValidTime(time) || fee < 0n) return ResultCode.InvalidParam;
    if (fee === 0n) return ResultCode.Ok;
    const rec = this.record(uid, cur);
    if (rec < 0) return LedgerCode.UserNotFound;
    if (!this.#apply(rec, key, -fee)) return LedgerCode.BalanceNotEnough;
    const p = this.#p;
    const feeRec = p.store.record(PLATFORM_UID, FEE_KIND, FEE_SUB, cur, p.currencies.wide[cur] === true);
    this.#apply(feeRec, NO_HOLD, fee);
    p.book.append(time, rec, BookType.FuturesFee, asAmount(p, cur, -fee), p.store.total(rec), text, ref);
    p.book.append(time, feeRec, BookType.FeeIncome, asAmount(p, cur, fee), p.store.total(feeRec), text, ref);
    return ResultCode.Ok;
  }

  /** Signed `delta` between (uid, cur)'s available and the clearing balance (positive pays the user). */
  clear(time: number, uid: number, cur: number, delta: bigint, text: string, ref: number): LedgerOutcome {
    if (!isValidTime(time)) return ResultCode.InvalidParam;
    if (delta === 0n) return ResultCode.Ok;
    const rec = this.record(uid, cur);
    if (rec < 0) return LedgerCode.UserNotFound;
    if (!this.#apply(rec, NO_HOLD, delta)) return LedgerCode.BalanceNotEnough;
    const p = this.#p;
    p.currencies.clearing[cur] = p.currencies.clearing[cur]! - delta;
    p.book.append(time, rec, BookType.FuturesPnl, asAmount(p, cur, delta), p.store.total(rec), text, ref);
    return ResultCode.Ok;
  }

  /** Opens the options insurance fund's record of `cur` (the liquidator's options account) when absent. */
  ensureInsuranceFund(cur: number): void {
    const p = this.#p;
    p.store.record(INSURANCE_UID, AccountKind.Options, 0, cur, p.currencies.wide[cur] === true);
  }

  /** What the options insurance fund of `cur` holds (available + locked: the liquidator's order holds). */
  insuranceFund(cur: number): bigint {
    return this.total(INSURANCE_UID, cur);
  }

  /**
   * Moves `units` ≥ 0 from the options insurance fund's available into clearing: the part of a seller's expiry
   * shortfall it covers (core/options/options-commands.ts). Codes: InvalidParam, BalanceNotEnough.
   */
  fundCover(time: number, cur: number, units: bigint, text: string, ref: number): LedgerOutcome {
    if (units <= 0n) return units === 0n ? ResultCode.Ok : ResultCode.InvalidParam;
    const p = this.#p;
    const r = this.record(INSURANCE_UID, cur);
    if (r < 0 || !this.#apply(r, NO_HOLD, -units)) return LedgerCode.BalanceNotEnough;
    p.currencies.clearing[cur] = p.currencies.clearing[cur]! + units;
    p.book.append(time, r, BookType.Insurance, asAmount(p, cur, -units), p.store.total(r), text, ref);
    return ResultCode.Ok;
  }

  scaleOf(cur: number): number {
    return this.#p.currencies.scales[cur]!;
  }

  toAmount(cur: number, v: bigint): Amount {
    return asAmount(this.#p, cur, v);
  }
}
