/**
 * Loans in the ledger. A loan lives in the `borrowed` (principal) and `interest` (unpaid interest) columns of
 * the borrowing account's record: the Spot account for the unified account (which trades from it), the
 * pair's Margin account (sub = market index) for isolated margin. The lender is the platform's lending pool,
 * the Unified account of PLATFORM_UID. Every function takes the account as (kind, sub), Spot by default.
 *
 * Conservation: borrowing moves units from the pool to the user, repaying and paying interest move them back,
 * so Σ (available + locked) per currency never changes; the liability columns are claims, not balances.
 * Every movement writes an entry in both accounts' books, typed as Gate types loans (`borrow`, `repay`,
 * `interest_out`; `margin_borrow`, `margin_repay`, `margin_interest_out`; `cross_borrow`, `cross_repay`) with text
 * `borrow`, `repay` or `interest`.
 * Rejections change nothing. Amounts are BigInt here (loans are not on the trading hot path) and stored in the
 * currency's representation.
 */
import { ResultCode } from '../result-code.js';
import { AccountKind } from './account-kinds.js';
import { BookType } from './account-book.js';
import type { Amount } from './amount.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { isValidTime, type LedgerParts, PLATFORM_UID } from './parts.js';

/** The lending pool's account kind (of PLATFORM_UID, sub 0). */
export const POOL_KIND = AccountKind.Unified;

/** One account's loan of one currency. */
export interface LoanRow {
  readonly uid: number;
  readonly kind: number;
  readonly sub: number;
  readonly cur: number;
  readonly borrowed: bigint;
  readonly interest: bigint;
}

const rep = (p: LedgerParts, cur: number, v: bigint): Amount => (p.currencies.wide[cur] === true ? v : Number(v));

function setLiab(p: LedgerParts, rec: number, borrowed: bigint, interest: bigint): void {
  const s = p.store;
  if (s.recWide[rec] === 1) {
    s.wBorrowed[rec] = borrowed;
    s.wInterest[rec] = interest;
  } else {
    s.borrowed[rec] = Number(borrowed);
    s.interest[rec] = Number(interest);
  }
}

/** Gate's account-book types of a loan movement on an account of `kind`: [borrow, repay, interest]. */
function loanTypes(kind: number): readonly [BookType, BookType, BookType] {
  if (kind === AccountKind.Margin) return [BookType.MarginBorrow, BookType.MarginRepay, BookType.MarginInterest];
  if (kind === AccountKind.CrossMargin) return [BookType.CrossBorrow, BookType.CrossRepay, BookType.Interest];
  return [BookType.Borrow, BookType.Repay, BookType.Interest];
}

/**
 * Moves `units` of available balance between two records and books both sides with the type of loan movement
 * `what` (0 borrow, 1 repay, 2 interest) on the borrower's account `kind`.
 */
function move(p: LedgerParts, time: number, from: number, to: number, cur: number, units: bigint, text: string, kind: number, what: 0 | 1 | 2): void {
  const s = p.store;
  const amt = rep(p, cur, units);
  s.setAvailable(from, rep(p, cur, BigInt(s.available(from)) - units));
  s.setAvailable(to, rep(p, cur, BigInt(s.available(to)) + units));
  const neg = rep(p, cur, -units);
  const type = loanTypes(kind)[what];
  p.book.append(time, from, type, neg, s.total(from), text, 0);
  p.book.append(time, to, type, amt, s.total(to), text, 0);
}

function checkArgs(p: LedgerParts, time: number, uid: number, cur: number, units: bigint): LedgerOutcome {
  if (!isValidTime(time) || (cur | 0) !== cur || cur < 0 || cur >= p.currencies.count || units <= 0n) return ResultCode.InvalidParam;
  if (!p.store.hasUser(uid) || uid === PLATFORM_UID) return LedgerCode.UserNotFound;
  return ResultCode.Ok;
}

/** Units of currency `cur` the lending pool can lend now. */
export function poolAvailable(p: LedgerParts, cur: number): bigint {
  const r = p.store.findRecord(PLATFORM_UID, POOL_KIND, 0, cur);
  return r < 0 ? 0n : BigInt(p.store.available(r));
}

/** What account (uid, kind, sub) owes in `cur`: [principal, unpaid interest]. */
export function loanOf(p: LedgerParts, uid: number, cur: number, kind: number = AccountKind.Spot, sub = 0): [bigint, bigint] {
  const r = p.store.findRecord(uid, kind, sub, cur);
  return r < 0 ? [0n, 0n] : [BigInt(p.store.borrowedOf(r)), BigInt(p.store.interestOf(r))];
}

/** Lends `units` of `cur` from the pool to account (uid, kind, sub). BalanceNotEnough when the pool is short. */
export function borrow(p: LedgerParts, time: number, uid: number, cur: number, units: bigint, kind: number = AccountKind.Spot,
  sub = 0): LedgerOutcome {
  const bad = checkArgs(p, time, uid, cur, units);
  if (bad !== ResultCode.Ok) return bad;
  if (poolAvailable(p, cur) < units) return LedgerCode.BalanceNotEnough;
  const s = p.store;
  const pool = s.findRecord(PLATFORM_UID, POOL_KIND, 0, cur);
  const rec = s.record(uid, kind, sub, cur, p.currencies.wide[cur] === true);
  move(p, time, pool, rec, cur, units, 'borrow', kind, 0);
  const [b, i] = loanOf(p, uid, cur, kind, sub);
  setLiab(p, rec, b + units, i);
  return ResultCode.Ok;
}

/**
 * Pays back `units` of `uid`'s debt in `cur` from its available balance, unpaid interest first. InvalidParam
 * beyond what it owes; BalanceNotEnough when its available balance is short.
 */
export function repay(p: LedgerParts, time: number, uid: number, cur: number, units: bigint, kind: number = AccountKind.Spot,
  sub = 0): LedgerOutcome {
  const bad = checkArgs(p, time, uid, cur, units);
  if (bad !== ResultCode.Ok) return bad;
  const [b, i] = loanOf(p, uid, cur, kind, sub);
  if (units > b + i) return ResultCode.InvalidParam;
  const s = p.store;
  const rec = s.findRecord(uid, kind, sub, cur);
  if (BigInt(s.available(rec)) < units) return LedgerCode.BalanceNotEnough;
  const pool = s.record(PLATFORM_UID, POOL_KIND, 0, cur, p.currencies.wide[cur] === true);
  move(p, time, rec, pool, cur, units, 'repay', kind, 1);
  const toInterest = units < i ? units : i;
  setLiab(p, rec, b - (units - toInterest), i - toInterest);
  return ResultCode.Ok;
}

/**
 * Charges `units` of interest to `uid` in `cur`: what its available balance covers goes to the pool at once,
 * the rest is added to its unpaid interest. Returns the units paid at once (or a negative code).
 */
export function chargeInterest(p: LedgerParts, time: number, uid: number, cur: number, units: bigint,
  kind: number = AccountKind.Spot, sub = 0): bigint | LedgerOutcome {
  const bad = checkArgs(p, time, uid, cur, units);
  if (bad !== ResultCode.Ok) return bad;
  const s = p.store;
  const rec = s.record(uid, kind, sub, cur, p.currencies.wide[cur] === true);
  const avail = BigInt(s.available(rec));
  const paid = avail < units ? avail : units;
  if (paid > 0n) {
    const pool = s.record(PLATFORM_UID, POOL_KIND, 0, cur, p.currencies.wide[cur] === true);
    move(p, time, rec, pool, cur, paid, 'interest', kind, 2);
  }
  const [b, i] = loanOf(p, uid, cur, kind, sub);
  setLiab(p, rec, b, i + (units - paid));
  return paid;
}

/** Every open loan (principal or interest above 0) of any account kind, by record number. @allocates */
export function openLoans(p: LedgerParts): LoanRow[] {
  const s = p.store;
  const out: LoanRow[] = [];
  for (let r = 0; r < s.recordCount; r++) {
    const b = s.borrowedOf(r);
    const i = s.interestOf(r);
    if ((b === 0 || b === 0n) && (i === 0 || i === 0n)) continue;
    const a = s.recAcct[r]!;
    out.push({ uid: s.acctUid[a]!, kind: s.acctKind[a]!, sub: s.acctSub[a]!, cur: s.recCur[r]!, borrowed: BigInt(b), interest: BigInt(i) });
  }
  return out;
}
