/**
 * Funds moving across the platform boundary (credit, debit) and between accounts (transfer).
 *
 * Check order (the first failing check decides the code; nothing changes on rejection):
 * InvalidParam (time, account kind/sub, entry type, same account, transfer purpose) → CurrencyNotFound → amount
 * (InvalidParam / AmountTooMuch) → UserNotFound → AmountTooMuch (credit beyond max supply) /
 * BalanceNotEnough (debit, transfer).
 *
 * Costs: no allocation for narrow currencies once the records exist, except that credit and debit add to the
 * BigInt in/out totals (they are not on the trading hot path). A first credit to an account creates its record.
 */
import { ResultCode } from '../result-code.js';
import { type Amount, addAmount, subAmount, zeroLike } from './amount.js';
import { type BookType, isBookType, isTransferPurpose, transferBookTypes, TransferPurpose } from './account-book.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { isCode, isValidAccount, isValidTime, type LedgerParts } from './parts.js';

/**
 * The checks credit and debit share, in the module header's order up to UserNotFound: the currency index and
 * the amount in units, or the rejection. @allocates (a small result; funds operations are not on the hot path)
 */
function checkExternal(p: LedgerParts, time: number, uid: number, kind: number, sub: number, currency: string,
  amount: number | bigint, type: number): { cur: number; amt: Amount } | LedgerOutcome {
  if (!isValidTime(time) || !isValidAccount(p, kind, sub) || !isBookType(type)) return ResultCode.InvalidParam;
  const cur = p.currencies.indexOf(currency);
  if (cur < 0) return LedgerCode.CurrencyNotFound;
  const amt = p.currencies.normalize(cur, amount, false);
  if (isCode(amt)) return amt as LedgerOutcome;
  if (!p.store.hasUser(uid)) return LedgerCode.UserNotFound;
  return { cur, amt };
}

/** Adds `amount` (integer units, number or bigint) from outside to an account's available balance. */
export function credit(p: LedgerParts, time: number, uid: number, kind: number, sub: number, currency: string,
  amount: number | bigint, type: number, text: string): LedgerOutcome {
  const checked = checkExternal(p, time, uid, kind, sub, currency, amount, type);
  if (typeof checked === 'number') return checked;
  const { cur, amt } = checked;
  const c = p.currencies;
  const supply = addAmount(c.supply[cur]!, amt);
  if (!c.withinSupply(cur, supply)) return ResultCode.AmountTooMuch;
  const s = p.store;
  const rec = s.record(uid, kind, sub, cur, c.wide[cur] === true);
  s.setAvailable(rec, addAmount(s.available(rec), amt));
  c.supply[cur] = supply;
  c.totalIn[cur] = c.totalIn[cur]! + BigInt(amt);
  p.book.append(time, rec, type as BookType, amt, s.total(rec), text, 0);
  return ResultCode.Ok;
}

/** Removes `amount` from an account's available balance to outside (a withdrawal). */
export function debit(p: LedgerParts, time: number, uid: number, kind: number, sub: number, currency: string,
  amount: number | bigint, type: number, text: string): LedgerOutcome {
  const checked = checkExternal(p, time, uid, kind, sub, currency, amount, type);
  if (typeof checked === 'number') return checked;
  const { cur, amt } = checked;
  const c = p.currencies;
  const s = p.store;
  const rec = s.findRecord(uid, kind, sub, cur);
  if (rec < 0 || s.available(rec) < amt) return LedgerCode.BalanceNotEnough;
  s.setAvailable(rec, subAmount(s.available(rec), amt));
  c.supply[cur] = subAmount(c.supply[cur]!, amt);
  c.totalOut[cur] = c.totalOut[cur]! + BigInt(amt);
  p.book.append(time, rec, type as BookType, negate(amt), s.total(rec), text, 0);
  return ResultCode.Ok;
}

/**
 * Moves `amount` of available balance from one account to another (same or different users); `purpose`
 * (TransferPurpose) decides the entries' types with the two accounts (account-book.ts: transferBookTypes).
 */
export function transfer(p: LedgerParts, time: number, fromUid: number, fromKind: number, fromSub: number,
  toUid: number, toKind: number, toSub: number, currency: string, amount: number | bigint, text: string,
  purpose: number = TransferPurpose.Transfer): LedgerOutcome {
  if (!isValidTime(time) || !isValidAccount(p, fromKind, fromSub) || !isValidAccount(p, toKind, toSub)
    || (fromUid === toUid && fromKind === toKind && fromSub === toSub) || !isTransferPurpose(purpose)) return ResultCode.InvalidParam;
  const c = p.currencies;
  const cur = c.indexOf(currency);
  if (cur < 0) return LedgerCode.CurrencyNotFound;
  const amt = c.normalize(cur, amount, false);
  if (isCode(amt)) return amt as LedgerOutcome;
  const s = p.store;
  if (!s.hasUser(fromUid) || !s.hasUser(toUid)) return LedgerCode.UserNotFound;
  const from = s.findRecord(fromUid, fromKind, fromSub, cur);
  if (from < 0 || s.available(from) < amt) return LedgerCode.BalanceNotEnough;
  const to = s.record(toUid, toKind, toSub, cur, c.wide[cur] === true);
  s.setAvailable(from, subAmount(s.available(from), amt));
  s.setAvailable(to, addAmount(s.available(to), amt));
  const [outType, inType] = transferBookTypes(fromUid, fromKind, toUid, toKind, purpose);
  p.book.append(time, from, outType, negate(amt), s.total(from), text, 0);
  p.book.append(time, to, inType, amt, s.total(to), text, 0);
  return ResultCode.Ok;
}

const negate = (a: Amount): Amount => subAmount(zeroLike(a), a);
