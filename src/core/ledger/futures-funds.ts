/**
 * Futures money in the ledger: margin holds, realised PnL through the clearing balance, fees and funding.
 *
 * A user's futures account for settle currency `cur` is the record (uid, Futures, sub = cur, cur) — or, for a
 * unified account whose mode carries USDT futures, its Spot record of USDT (futuresRecord). Its
 * `available` is free margin; its `locked` is the sum of its margin holds:
 * - an order-margin hold per open futures order (key = the order id, HoldType.FuturesOrder), what the order
 *   sets aside to open a position;
 * - a position-margin hold per position (key = a negative position key, HoldType.FuturesPosition): Gate's
 *   position `margin`.
 * So the record's total (available + locked) is Gate's futures `total`, and account-book entries carry it as
 * their balance. Holds of these types lock and "receive" the settle currency of their own record.
 *
 * Realised PnL moves between a user and the per-currency **clearing balance** (CurrencyTable.clearing, signed):
 * a position's opening cash flows stay on the futures side as its basis (core/futures), so a profit realised
 * before its counterparty's loss is paid from clearing and the loss, when realised, pays clearing back. The
 * ledger's conservation is then, per currency: Σ (available + locked) over every account + clearing = supply;
 * the futures core keeps clearing = Σ position bases (+ losses nobody could pay, see futures-state.ts).
 *
 * Funding and liquidation surpluses/deficits move to and from the **insurance fund**: the futures account of the
 * reserved user INSURANCE_UID, which is also the liquidator that takes over bankrupt positions and trades them
 * out through the book (core/futures); fees go to the platform fee account (uid 0, Spot) as for spot fills, and a
 * maker rebate (negative fee) comes from it.
 *
 * Every operation takes BigInt units (futures arithmetic is BigInt, see core/futures/futures-math.ts) and
 * converts to the currency's representation; each rejects without changing anything. `key` NO_HOLD (0) names
 * the account's available balance instead of a hold. Costs: BigInt arithmetic allocates; no other allocation
 * once the records exist.
 */
import { ResultCode } from '../result-code.js';
import { AccountKind } from './account-kinds.js';
import { BookType } from './account-book.js';
import { type Amount, addAmount, subAmount } from './amount.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { FEE_KIND, FEE_SUB, isValidTime, type LedgerParts, PLATFORM_UID } from './parts.js';

/** HoldTable `type` codes of futures holds (spot orders use OrderType 1 and 2). */
export const HoldType = { FuturesOrder: 8, FuturesPosition: 9 } as const;

/**
 * The reserved user whose futures accounts are the insurance funds (one per settle currency) and who takes over
 * and trades out liquidated positions. The exchange registers it when it has contracts; no other path may.
 */
export const INSURANCE_UID = 2147483647;

/**
 * Margin accounts. The futures core names the account a contract margins in by `acct`: the settle currency index
 * for perpetual contracts (the Futures account), that index + DELIVERY_ACCT for delivery contracts (the Delivery
 * account, AccountKind.Delivery with sub = the currency). Every function below that takes `cur` for a user's
 * account accepts an `acct`; the currency itself is `curOf(acct)` (clearing and the insurance fund are per
 * currency, shared by both kinds).
 */
export const DELIVERY_ACCT = 0x10000;
/** The currency index of margin account code `acct`. */
export const curOf = (acct: number): number => acct & 0xffff;
/** True when `acct` names a Delivery account. */
export const isDeliveryAcct = (acct: number): boolean => acct >= DELIVERY_ACCT;
/** The account kind and sub of margin account code `acct` (orders carry them). */
export const kindOfAcct = (acct: number): number => (acct >= DELIVERY_ACCT ? AccountKind.Delivery : AccountKind.Futures);

/** `key` value naming an account's available balance rather than one of its holds. */
export const NO_HOLD = 0;

/** True for the hold types above. */
export const isFuturesHold = (type: number): boolean => type === HoldType.FuturesOrder || type === HoldType.FuturesPosition;

const asAmount = (p: LedgerParts, cur: number, v: bigint): Amount => (p.currencies.wide[cur] === true ? v : Number(v));
const big = (v: Amount): bigint => (typeof v === 'bigint' ? v : BigInt(v));

/**
 * The record that carries (uid, cur)'s futures margin, or -1 when there is none (never funded): the Futures
 * account, or the Spot account of a unified account that margins its USDT futures there (LedgerParts.futuresOnSpot).
 */
export function futuresRecord(p: LedgerParts, uid: number, acct: number): number {
  const cur = curOf(acct);
  // The liquidator's account is the insurance fund of both kinds.
  if (isDeliveryAcct(acct) && uid !== INSURANCE_UID) return p.store.findRecord(uid, AccountKind.Delivery, cur, cur);
  if (p.futuresOnSpot(uid, cur)) return p.store.findRecord(uid, AccountKind.Spot, 0, cur);
  return p.store.findRecord(uid, AccountKind.Futures, cur, cur);
}

/** The futures record of (uid, cur), created when absent (the platform's insurance fund and fee sides). */
function ensureRecord(p: LedgerParts, uid: number, kind: number, sub: number, cur: number): number {
  return p.store.record(uid, kind, sub, cur, p.currencies.wide[cur] === true);
}

/** What the futures account of (uid, cur) has available, in BigInt units (0n without an account). */
export function futuresAvailable(p: LedgerParts, uid: number, acct: number): bigint {
  const rec = futuresRecord(p, uid, acct);
  return rec < 0 ? 0n : big(p.store.available(rec));
}

/** What hold `key` has left, in BigInt units, or -1n when there is no such hold. */
export function marginHeld(p: LedgerParts, key: number): bigint {
  const slot = p.holds.find(key);
  return slot < 0 ? -1n : big(p.holds.remainingOf(slot));
}

/**
 * Opens margin hold `key` of type `type` on (uid, cur)'s futures account for contract `market`, taking `units`
 * (≥ 0) from available. Codes: InvalidParam, UserNotFound (no futures account), HoldExists, BalanceNotEnough.
 */
export function openMarginHold(p: LedgerParts, time: number, key: number, uid: number, acct: number, market: number,
  type: number, units: bigint): LedgerOutcome {
  const cur = curOf(acct);
  if (!isValidTime(time) || !Number.isSafeInteger(key) || key === NO_HOLD || units < 0n || !isFuturesHold(type)) {
    return ResultCode.InvalidParam;
  }
  const rec = futuresRecord(p, uid, acct);
  if (rec < 0) return LedgerCode.UserNotFound;
  return openHoldOn(p, rec, cur, key, market, type, units);
}

/**
 * Opens hold `key` of `type` for `market` on balance record `rec` (currency `cur`), taking `units` from its
 * available into locked; the arguments are already checked. Codes: HoldExists, BalanceNotEnough (nothing changed).
 * The futures and options margin ledgers both open their holds through this.
 */
export function openHoldOn(p: LedgerParts, rec: number, cur: number, key: number, market: number, type: number,
  units: bigint): LedgerOutcome {
  if (p.holds.find(key) >= 0) return LedgerCode.HoldExists;
  const s = p.store;
  const amt = asAmount(p, cur, units);
  if (s.available(rec) < amt) return LedgerCode.BalanceNotEnough;
  s.setAvailable(rec, subAmount(s.available(rec), amt));
  s.setLocked(rec, addAmount(s.lockedOf(rec), amt));
  p.holds.open(key, market, 0, type, rec, rec, amt);
  return ResultCode.Ok;
}

/**
 * Moves `units` (≥ 0) between two places of one futures account: from hold `from` (or available, NO_HOLD) to
 * hold `to` (or available). The account's total does not change; no account-book entry. Codes: InvalidParam,
 * HoldNotFound, HoldMismatch (different accounts), HoldExceeded / BalanceNotEnough (the source is short).
 */
export function moveMargin(p: LedgerParts, from: number, to: number, units: bigint): LedgerOutcome {
  if (units < 0n) return ResultCode.InvalidParam;
  if (units === 0n || from === to) return ResultCode.Ok;
  const h = p.holds;
  const fs = from === NO_HOLD ? -1 : h.find(from);
  const ts = to === NO_HOLD ? -1 : h.find(to);
  if ((from !== NO_HOLD && fs < 0) || (to !== NO_HOLD && ts < 0)) return LedgerCode.HoldNotFound;
  if (fs < 0 && ts < 0) return ResultCode.InvalidParam;
  const rec = fs >= 0 ? h.rec[fs]! : h.rec[ts]!;
  if (fs >= 0 && ts >= 0 && h.rec[ts] !== rec) return LedgerCode.HoldMismatch;
  const s = p.store;
  const amt = asAmount(p, s.recCur[rec]!, units);
  if (fs >= 0) {
    if (h.remainingOf(fs) < amt) return LedgerCode.HoldExceeded;
    h.setRemaining(fs, subAmount(h.remainingOf(fs), amt));
  } else {
    if (s.available(rec) < amt) return LedgerCode.BalanceNotEnough;
    s.setAvailable(rec, subAmount(s.available(rec), amt));
  }
  if (ts >= 0) h.setRemaining(ts, addAmount(h.remainingOf(ts), amt));
  else s.setAvailable(rec, addAmount(s.available(rec), amt));
  // locked = Σ holds: it changes by what entered holds minus what left them.
  const lockedDelta = (ts >= 0 ? units : 0n) - (fs >= 0 ? units : 0n);
  if (lockedDelta !== 0n) s.setLocked(rec, addAmount(s.lockedOf(rec), asAmount(p, s.recCur[rec]!, lockedDelta)));
  return ResultCode.Ok;
}

/** Returns what is left of hold `key` to available and closes it. HoldNotFound when absent. */
export function closeMarginHold(p: LedgerParts, key: number): LedgerOutcome {
  const slot = p.holds.find(key);
  if (slot < 0) return LedgerCode.HoldNotFound;
  const h = p.holds;
  const s = p.store;
  const rec = h.rec[slot]!;
  const rem = h.remainingOf(slot);
  s.setLocked(rec, subAmount(s.lockedOf(rec), rem));
  s.setAvailable(rec, addAmount(s.available(rec), rem));
  h.close(slot);
  return ResultCode.Ok;
}

/** Where a signed change of a futures account lands: hold `key`'s slot, or the record's available (-1). */
function target(p: LedgerParts, uid: number, acct: number, key: number): { rec: number; slot: number } | LedgerOutcome {
  const cur = curOf(acct);
  if (key === NO_HOLD) {
    const rec = futuresRecord(p, uid, acct);
    return rec < 0 ? LedgerCode.UserNotFound : { rec, slot: -1 };
  }
  const slot = p.holds.find(key);
  if (slot < 0) return LedgerCode.HoldNotFound;
  const rec = p.holds.rec[slot]!;
  if (p.store.recCur[rec] !== cur) return LedgerCode.HoldMismatch;
  return { rec, slot };
}

/** Adds signed `delta` to a target (its hold and locked, or available); false when it would go negative. */
function applyTo(p: LedgerParts, rec: number, slot: number, delta: bigint): boolean {
  const s = p.store;
  const cur = s.recCur[rec]!;
  const amt = asAmount(p, cur, delta);
  if (slot >= 0) {
    const h = p.holds;
    const next = addAmount(h.remainingOf(slot), amt);
    if (next < 0) return false;
    h.setRemaining(slot, next);
    s.setLocked(rec, addAmount(s.lockedOf(rec), amt));
  } else {
    const next = addAmount(s.available(rec), amt);
    if (next < 0) return false;
    s.setAvailable(rec, next);
  }
  return true;
}

/**
 * Realised PnL `delta` (signed) of (uid, cur) into hold `key` (or available) against the clearing balance;
 * a `pnl` account-book entry with `text` and `ref`. Codes: InvalidParam, UserNotFound, HoldNotFound,
 * HoldMismatch, BalanceNotEnough (a loss larger than the target holds).
 */
export function realisePnl(p: LedgerParts, time: number, uid: number, acct: number, key: number, delta: bigint, text: string,
  ref: number): LedgerOutcome {
  if (!isValidTime(time)) return ResultCode.InvalidParam;
  if (delta === 0n) return ResultCode.Ok;
  const cur = curOf(acct);
  const t = target(p, uid, acct, key);
  if (typeof t === 'number') return t;
  if (!applyTo(p, t.rec, t.slot, delta)) return LedgerCode.BalanceNotEnough;
  p.currencies.clearing[cur] = p.currencies.clearing[cur]! - delta;
  p.book.append(time, t.rec, BookType.FuturesPnl, asAmount(p, cur, delta), p.store.total(t.rec), text, ref);
  return ResultCode.Ok;
}

/**
 * A trading fee `fee` (signed: negative is a maker rebate) of (uid, cur) from hold `key` (or available) to the
 * platform fee account; `fee` entries on both. Codes as realisePnl; a rebate the fee account cannot pay is
 * BalanceNotEnough.
 */
export function chargeFuturesFee(p: LedgerParts, time: number, uid: number, acct: number, key: number, fee: bigint, text: string,
  ref: number): LedgerOutcome {
  if (!isValidTime(time)) return ResultCode.InvalidParam;
  if (fee === 0n) return ResultCode.Ok;
  const cur = curOf(acct);
  const t = target(p, uid, acct, key);
  if (typeof t === 'number') return t;
  const feeRec = ensureRecord(p, PLATFORM_UID, FEE_KIND, FEE_SUB, cur);
  if (fee < 0n && big(p.store.available(feeRec)) < -fee) return LedgerCode.BalanceNotEnough;
  if (!applyTo(p, t.rec, t.slot, -fee)) return LedgerCode.BalanceNotEnough;
  applyTo(p, feeRec, -1, fee);
  p.book.append(time, t.rec, BookType.FuturesFee, asAmount(p, cur, -fee), p.store.total(t.rec), text, ref);
  p.book.append(time, feeRec, BookType.FeeIncome, asAmount(p, cur, fee), p.store.total(feeRec), text, ref);
  return ResultCode.Ok;
}

/**
 * Moves signed `delta` between (uid, cur)'s hold `key` (or available) and the insurance fund: positive pays the
 * user from the fund. `type` is the user's entry type (FuturesFund for funding, FuturesPnl for a liquidation's
 * remainder); the fund's entry is Insurance. Codes as realisePnl; BalanceNotEnough when either side is short.
 */
export function insuranceTransfer(p: LedgerParts, time: number, uid: number, acct: number, key: number, delta: bigint,
  type: BookType, text: string, ref: number): LedgerOutcome {
  if (!isValidTime(time)) return ResultCode.InvalidParam;
  if (delta === 0n) return ResultCode.Ok;
  const cur = curOf(acct);
  const t = target(p, uid, acct, key);
  if (typeof t === 'number') return t;
  const fund = ensureRecord(p, INSURANCE_UID, AccountKind.Futures, cur, cur);
  if (delta > 0n && big(p.store.available(fund)) < delta) return LedgerCode.BalanceNotEnough;
  if (!applyTo(p, t.rec, t.slot, delta)) return LedgerCode.BalanceNotEnough;
  applyTo(p, fund, -1, -delta);
  p.book.append(time, t.rec, type, asAmount(p, cur, delta), p.store.total(t.rec), text, ref);
  p.book.append(time, fund, BookType.Insurance, asAmount(p, cur, -delta), p.store.total(fund), text, ref);
  return ResultCode.Ok;
}

/**
 * Moves signed `delta` from the clearing balance into the insurance fund (negative: the fund pays clearing), for
 * what a liquidation leaves over or short. BalanceNotEnough when the fund is short.
 */
export function insuranceClearing(p: LedgerParts, time: number, acct: number, delta: bigint, text: string, ref: number): LedgerOutcome {
  if (!isValidTime(time)) return ResultCode.InvalidParam;
  const cur = curOf(acct);
  if (delta === 0n) return ResultCode.Ok;
  const fund = ensureRecord(p, INSURANCE_UID, AccountKind.Futures, cur, cur);
  if (!applyTo(p, fund, -1, delta)) return LedgerCode.BalanceNotEnough;
  p.currencies.clearing[cur] = p.currencies.clearing[cur]! - delta;
  p.book.append(time, fund, BookType.Insurance, asAmount(p, cur, delta), p.store.total(fund), text, ref);
  return ResultCode.Ok;
}

/** The insurance fund of `cur` (what the platform's futures account holds), in BigInt units. */
export function insuranceFund(p: LedgerParts, acct: number): bigint {
  const cur = curOf(acct);
  const r = p.store.findRecord(INSURANCE_UID, AccountKind.Futures, cur, cur);
  return r < 0 ? 0n : big(p.store.available(r));
}

/** Opens the insurance fund's record (so queries and credits find it). */
export function ensureInsuranceFund(p: LedgerParts, cur: number): void {
  ensureRecord(p, INSURANCE_UID, AccountKind.Futures, cur, cur);
}

/** Open holds of the futures types (part of the hold count); an O(holds) scan for invariant checks. */
export function futuresHoldCount(p: LedgerParts): { orders: number; positions: number } {
  const h = p.holds;
  let orders = 0;
  let positions = 0;
  for (let i = 0; i < h.top; i++) {
    if (h.live[i] !== 1) continue;
    if (h.type[i] === HoldType.FuturesOrder) orders++;
    else if (h.type[i] === HoldType.FuturesPosition) positions++;
  }
  return { orders, positions };
}

/** The futures operations over one ledger's tables (Ledger.futures); each method is the function of its name. */
export class FuturesFunds {
  readonly #p: LedgerParts;

  constructor(p: LedgerParts) {
    this.#p = p;
  }

  /**
   * Names where futures margin lives per (uid, settle currency): `onSpot` true means the user's Spot account
   * (unified accounts). Called once by the exchange; `onSpot` must be a pure function of exchange state.
   */
  marginOnSpot(onSpot: (uid: number, cur: number) => boolean): void {
    this.#p.futuresOnSpot = onSpot;
  }

  /** True when futures margin of (uid, acct) lives in the user's Spot account (see marginOnSpot; never a Delivery account). */
  onSpot(uid: number, acct: number): boolean {
    return !isDeliveryAcct(acct) && this.#p.futuresOnSpot(uid, acct);
  }

  /** True when (uid)'s futures account of currency index `cur` exists (it was ever funded). */
  hasAccount(uid: number, cur: number): boolean {
    return futuresRecord(this.#p, uid, cur) >= 0;
  }

  available(uid: number, cur: number): bigint {
    return futuresAvailable(this.#p, uid, cur);
  }

  /** available + locked of (uid, cur)'s futures account (Gate's `total`), 0n without one. */
  total(uid: number, cur: number): bigint {
    const rec = futuresRecord(this.#p, uid, cur);
    return rec < 0 ? 0n : big(this.#p.store.total(rec));
  }

  held(key: number): bigint {
    return marginHeld(this.#p, key);
  }

  openHold(time: number, key: number, uid: number, cur: number, market: number, type: number, units: bigint): LedgerOutcome {
    return openMarginHold(this.#p, time, key, uid, cur, market, type, units);
  }

  move(from: number, to: number, units: bigint): LedgerOutcome {
    return moveMargin(this.#p, from, to, units);
  }

  closeHold(key: number): LedgerOutcome {
    return closeMarginHold(this.#p, key);
  }

  realisePnl(time: number, uid: number, cur: number, key: number, delta: bigint, text: string, ref: number): LedgerOutcome {
    return realisePnl(this.#p, time, uid, cur, key, delta, text, ref);
  }

  chargeFee(time: number, uid: number, cur: number, key: number, fee: bigint, text: string, ref: number): LedgerOutcome {
    return chargeFuturesFee(this.#p, time, uid, cur, key, fee, text, ref);
  }

  insuranceTransfer(time: number, uid: number, cur: number, key: number, delta: bigint, type: BookType, text: string,
    ref: number): LedgerOutcome {
    return insuranceTransfer(this.#p, time, uid, cur, key, delta, type, text, ref);
  }

  insuranceClearing(time: number, cur: number, delta: bigint, text: string, ref: number): LedgerOutcome {
    return insuranceClearing(this.#p, time, cur, delta, text, ref);
  }

  insuranceFund(cur: number): bigint {
    return insuranceFund(this.#p, cur);
  }

  ensureInsuranceFund(cur: number): void {
    ensureInsuranceFund(this.#p, curOf(cur));
  }

  /** The clearing balance of currency index `cur` (signed). */
  clearing(cur: number): bigint {
    return this.#p.currencies.clearing[curOf(cur)]!;
  }

  /** Decimals of currency index `cur` (or margin account code). */
  scaleOf(cur: number): number {
    return this.#p.currencies.scales[curOf(cur)]!;
  }

  /** BigInt units → currency index `cur`'s representation (number when narrow; `cur` may be a margin account code). */
  toAmount(cur: number, v: bigint): Amount {
    return asAmount(this.#p, curOf(cur), v);
  }

  holdCounts(): { orders: number; positions: number } {
    return futuresHoldCount(this.#p);
  }
}
