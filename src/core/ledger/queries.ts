/**
 * Read-only views of the ledger for the API: balances and the account book, as decimal strings.
 * Everything here allocates its result (@allocates); `readBalance` alone fills a caller's reusable view.
 */
import { type Amount, formatAmount } from './amount.js';
import { BOOK_TYPE_NAMES, type BookType } from './account-book.js';
import type { LedgerParts } from './parts.js';

/** One balance as integers in the currency's representation (number when narrow, bigint when wide). Reusable. */
export class BalanceView {
  currency = -1;
  wide = false;
  available: Amount = 0;
  locked: Amount = 0;
  borrowed: Amount = 0;
  interest: Amount = 0;
}

/** One balance as decimal strings. */
export interface BalanceText {
  readonly currency: string;
  readonly available: string;
  readonly locked: string;
  readonly borrowed: string;
  readonly interest: string;
}

/** A Gate-style account book entry (spot account_book). */
export interface AccountBookEntry {
  readonly id: number;
  /** Microseconds since the epoch. */
  readonly time: number;
  readonly uid: number;
  readonly kind: number;
  readonly sub: number;
  readonly currency: string;
  /** Signed decimal. */
  readonly change: string;
  /** Total (available + locked) after the change. */
  readonly balance: string;
  readonly type: string;
  readonly text: string;
}

/** Filters of accountBook; every field optional. Times are inclusive bounds in µs. */
export interface AccountBookFilter {
  readonly kind?: number;
  readonly sub?: number;
  readonly currency?: string;
  readonly type?: number;
  /** Gate's type code (BOOK_TYPE_NAMES): every entry type with that name. */
  readonly typeName?: string;
  readonly from?: number;
  readonly to?: number;
  /** Most entries returned (newest first); default 100. */
  readonly limit?: number;
  /** Only entries with a larger id (the scan stops there: O(entries after it)). */
  readonly afterId?: number;
}

/** Fills `view` with record `rec` of currency `cur` (rec -1: zeros). */
export function readBalance(p: LedgerParts, rec: number, cur: number, view: BalanceView): BalanceView {
  const s = p.store;
  view.currency = cur;
  view.wide = p.currencies.wide[cur] === true;
  if (rec < 0) {
    const z = p.currencies.zero(cur);
    view.available = z;
    view.locked = z;
    view.borrowed = z;
    view.interest = z;
  } else {
    view.available = s.available(rec);
    view.locked = s.lockedOf(rec);
    view.borrowed = s.borrowedOf(rec);
    view.interest = s.interestOf(rec);
  }
  return view;
}

/** Record `rec` (or zeros when -1) of currency `cur` as decimal strings. */
export function balanceText(p: LedgerParts, rec: number, cur: number): BalanceText {
  const v = readBalance(p, rec, cur, new BalanceView());
  const scale = p.currencies.scales[cur]!;
  return {
    currency: p.currencies.codes[cur]!,
    available: formatAmount(v.available, scale),
    locked: formatAmount(v.locked, scale),
    borrowed: formatAmount(v.borrowed, scale),
    interest: formatAmount(v.interest, scale),
  };
}

/** Every existing balance record of an account, in currency registration order. */
export function accountBalances(p: LedgerParts, uid: number, kind: number, sub: number): BalanceText[] {
  const s = p.store;
  const acct = s.findAccount(uid, kind, sub);
  const out: BalanceText[] = [];
  if (acct < 0) return out;
  for (let cur = 0; cur < p.currencies.count; cur++) {
    const rec = s.findRecordOf(acct, cur);
    if (rec >= 0) out.push(balanceText(p, rec, cur));
  }
  return out;
}

/** Retained account-book entries of `uid` matching `filter`, newest first. */
export function readAccountBook(p: LedgerParts, uid: number, filter: AccountBookFilter = {}): AccountBookEntry[] {
  const b = p.book;
  const s = p.store;
  const c = p.currencies;
  const limit = filter.limit ?? 100;
  const cur = filter.currency === undefined ? -1 : c.indexOf(filter.currency);
  const out: AccountBookEntry[] = [];
  if (filter.currency !== undefined && cur < 0) return out;
  const lowest = Math.max(b.firstId, (filter.afterId ?? 0) + 1);
  for (let id = b.lastId; id >= lowest && out.length < limit; id--) {
    const slot = b.slotOf(id);
    const rec = b.rec[slot]!;
    const acct = s.recAcct[rec]!;
    if (s.acctUid[acct] !== uid) continue;
    const kind = s.acctKind[acct]!;
    const sub = s.acctSub[acct]!;
    const time = b.time[slot]!;
    const type = b.type[slot]! as BookType;
    if ((filter.kind !== undefined && kind !== filter.kind) || (filter.sub !== undefined && sub !== filter.sub)
      || (cur >= 0 && s.recCur[rec] !== cur) || (filter.type !== undefined && type !== filter.type)
      || (filter.typeName !== undefined && BOOK_TYPE_NAMES[type] !== filter.typeName)
      || (filter.from !== undefined && time < filter.from) || (filter.to !== undefined && time > filter.to)) continue;
    const scale = c.scales[s.recCur[rec]!]!;
    const ref = b.ref[slot]!;
    out.push({
      id, time, uid, kind, sub,
      currency: c.codes[s.recCur[rec]!]!,
      change: formatAmount(b.changeAt(slot), scale),
      balance: formatAmount(b.balanceAt(slot), scale),
      type: BOOK_TYPE_NAMES[type],
      text: ref > 0 ? String(ref) : b.text[slot]!,
    });
  }
  return out;
}
