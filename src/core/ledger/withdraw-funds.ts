/**
 * Withdrawal holds: funds set aside when a withdrawal is accepted, then either sent out (settle) or returned
 * (release).
 *
 * A withdrawal hold lives in the order-hold table under the key −withdrawalId (order ids are positive, so the
 * two never meet) with `market` = −1 − currency index, side and type 0, and `rec` = `recv` = the owner's Spot
 * record of the currency. The table's invariant therefore still holds: a record's locked = Σ remaining of the
 * holds on it, withdrawal holds included; the state hash and snapshots cover them like order holds.
 *
 * - hold:    available → locked, `units` (the withdrawal's amount, its fee included).
 * - settle:  the whole remaining hold leaves `locked`: `fee` goes to the platform fee account (uid 0 Spot), the
 *            rest leaves the platform (supply and totalOut move as for a debit). Account book: the owner's one
 *            withdraw entry of the whole hold (Gate's record amount, its fee included), the fee account's
 *            system_fee (+fee).
 * - release: the remaining hold returns to available (a cancelled, rejected or failed withdrawal).
 *
 * Check order of hold: InvalidParam (time, id) → CurrencyNotFound → amount (InvalidParam / AmountTooMuch) →
 * UserNotFound → HoldExists → BalanceNotEnough. Settle and release: InvalidParam → HoldNotFound (no such
 * withdrawal hold, or one of another user) → fee (InvalidParam / HoldExceeded when above the hold).
 * Nothing changes on rejection. Costs: O(1); a wide currency allocates BigInts.
 */
import { ResultCode } from '../result-code.js';
import { isPositiveSafeInteger } from '../units.js';
import { AccountKind } from './account-kinds.js';
import { type Amount, addAmount, isZeroAmount, subAmount, zeroLike } from './amount.js';
import { BookType } from './account-book.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { FEE_KIND, FEE_SUB, isCode, isValidTime, type LedgerParts, PLATFORM_UID } from './parts.js';
import { releaseSlot } from './order-funds.js';

/** The hold-table key of withdrawal `id`. */
export const withdrawalHoldKey = (id: number): number => -id;

/** True when hold-table slot `slot` holds a withdrawal (not an order). */
export const isWithdrawalSlot = (p: LedgerParts, slot: number): boolean => p.holds.market[slot]! < 0;

/** Currency index of a withdrawal hold's `market` column. */
export const withdrawalHoldCurrency = (market: number): number => -1 - market;

/** Opens the hold of withdrawal `id` of `uid`: `units` of currency index `cur` from its Spot account. */
export function holdWithdrawal(p: LedgerParts, time: number, id: number, uid: number, cur: number,
  units: number | bigint): LedgerOutcome {
  if (!isValidTime(time) || !isPositiveSafeInteger(id)) return ResultCode.InvalidParam;
  const c = p.currencies;
  if ((cur | 0) !== cur || cur < 0 || cur >= c.count) return LedgerCode.CurrencyNotFound;
  const amt = c.normalize(cur, units, false);
  if (isCode(amt)) return amt as LedgerOutcome;
  const s = p.store;
  if (!s.hasUser(uid)) return LedgerCode.UserNotFound;
  const key = withdrawalHoldKey(id);
  if (p.holds.find(key) >= 0) return LedgerCode.HoldExists;
  const rec = s.findRecord(uid, AccountKind.Spot, 0, cur);
  if (rec < 0 || s.available(rec) < amt) return LedgerCode.BalanceNotEnough;
  s.setAvailable(rec, subAmount(s.available(rec), amt));
  s.setLocked(rec, addAmount(s.lockedOf(rec), amt));
  p.holds.open(key, -1 - cur, 0, 0, rec, rec, amt);
  return ResultCode.Ok;
}

/** The slot of `uid`'s withdrawal hold `id`, or -1. */
function ownSlot(p: LedgerParts, id: number, uid: number): number {
  if (!isPositiveSafeInteger(id)) return -1;
  const slot = p.holds.find(withdrawalHoldKey(id));
  if (slot < 0 || !isWithdrawalSlot(p, slot)) return -1;
  const s = p.store;
  return s.acctUid[s.recAcct[p.holds.rec[slot]!]!] === uid ? slot : -1;
}

/** Sends withdrawal `id` out: `fee` units to the platform, the rest of the hold off the platform. */
export function settleWithdrawal(p: LedgerParts, time: number, id: number, uid: number, fee: number | bigint): LedgerOutcome {
  if (!isValidTime(time)) return ResultCode.InvalidParam;
  const slot = ownSlot(p, id, uid);
  if (slot < 0) return LedgerCode.HoldNotFound;
  const h = p.holds;
  const s = p.store;
  const c = p.currencies;
  const rec = h.rec[slot]!;
  const cur = s.recCur[rec]!;
  const f = c.normalize(cur, fee, true);
  if (isCode(f)) return f === ResultCode.AmountTooMuch ? LedgerCode.HoldExceeded : f as LedgerOutcome;
  const rem = h.remainingOf(slot);
  if (f > rem) return LedgerCode.HoldExceeded;
  const sent = subAmount(rem, f);
  s.setLocked(rec, subAmount(s.lockedOf(rec), rem));
  h.setRemaining(slot, zeroLike(rem));
  h.close(slot);
  if (!isZeroAmount(sent)) {
    c.supply[cur] = subAmount(c.supply[cur]!, sent);
    c.totalOut[cur] = c.totalOut[cur]! + BigInt(sent);
  }
  if (!isZeroAmount(rem)) p.book.append(time, rec, BookType.Withdraw, subAmount(zeroLike(rem), rem), s.total(rec), '', id);
  if (!isZeroAmount(f)) {
    const feeRec = s.findRecord(PLATFORM_UID, FEE_KIND, FEE_SUB, cur);
    s.setAvailable(feeRec, addAmount(s.available(feeRec), f));
    p.book.append(time, feeRec, BookType.FeeIncome, f, s.total(feeRec), '', id);
  }
  return ResultCode.Ok;
}

/** Returns the remaining hold of withdrawal `id` to `uid`'s available balance and closes it. */
export function releaseWithdrawal(p: LedgerParts, time: number, id: number, uid: number): LedgerOutcome {
  if (!isValidTime(time)) return ResultCode.InvalidParam;
  const slot = ownSlot(p, id, uid);
  if (slot < 0) return LedgerCode.HoldNotFound;
  releaseSlot(p, slot);
  return ResultCode.Ok;
}

/** Open withdrawal holds (an O(holds) scan: invariant checks only). */
export function withdrawalHoldCount(p: LedgerParts): number {
  const h = p.holds;
  let n = 0;
  for (let i = 0; i < h.top; i++) if (h.live[i] === 1 && h.market[i]! < 0) n++;
  return n;
}

/** What remains held for withdrawal `id`, or undefined. */
export function heldForWithdrawal(p: LedgerParts, id: number): Amount | undefined {
  const slot = p.holds.find(withdrawalHoldKey(id));
  return slot < 0 || !isWithdrawalSlot(p, slot) ? undefined : p.holds.remainingOf(slot);
}
