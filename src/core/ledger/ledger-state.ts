/**
 * The ledger's state as plain columns (for snapshots), and its restoration into a fresh ledger.
 *
 * Layout (LedgerState): currency totals as decimal integers; users other than the platform in registration
 * order; every balance record in record-number order (owner uid, kind, sub, currency, four amounts); open
 * holds; the account book's id counter and its retained entries, oldest first.
 *
 * Invariants of a restore: `importLedger` requires a ledger just built from the same definition (currencies,
 * markets and the definition's users registered, nothing else done). Records are re-created in record-number
 * order, so every record and account gets the number it had (holds and account-book entries refer to them);
 * the restored ledger has the same `stateHash()` and the same future behaviour. Hold slots may differ
 * (nothing observable depends on them). A state that does not fit throws InvariantError.
 *
 * Cost: export is O(records + holds + retained entries), allocating the columns (no per-row objects except
 * the strings of wide amounts and non-empty texts); import is the same order and allocates the tables.
 */
import { invariant } from '../invariant.js';
import type { BookType } from './account-book.js';
import type { Amount } from './amount.js';
import { type AmountColumn, packAmounts, packText, type TextColumn, unpackAmounts, unpackText } from './columns.js';
import type { LedgerParts } from './parts.js';
import { PLATFORM_UID } from './parts.js';

/** A currency's running totals as decimal integers of its units. */
export interface CurrencyTotals {
  readonly supply: string;
  readonly totalIn: string;
  readonly totalOut: string;
  /** The futures clearing balance (signed); absent (0) in snapshots written before futures. */
  readonly clearing?: string | undefined;
}

/** Everything the ledger's state hash covers, as columns; see the module header. */
export interface LedgerState {
  readonly currencies: readonly CurrencyTotals[];
  readonly userUid: Float64Array;
  readonly userMain: Float64Array;
  readonly recUid: Float64Array;
  readonly recKind: Uint8Array;
  readonly recSub: Int32Array;
  readonly recCur: Int32Array;
  readonly available: AmountColumn;
  readonly locked: AmountColumn;
  readonly borrowed: AmountColumn;
  readonly interest: AmountColumn;
  readonly holdOrder: Float64Array;
  readonly holdMarket: Int32Array;
  readonly holdSide: Uint8Array;
  readonly holdType: Uint8Array;
  readonly holdRec: Int32Array;
  readonly holdRecv: Int32Array;
  readonly holdRemaining: AmountColumn;
  readonly bookLastId: number;
  readonly bookTime: Float64Array;
  readonly bookRec: Int32Array;
  readonly bookType: Uint8Array;
  readonly bookChange: AmountColumn;
  readonly bookBalance: AmountColumn;
  readonly bookText: TextColumn;
  readonly bookRef: Float64Array;
}

/** Copies the ledger's state into columns. @allocates */
export function exportLedger(p: LedgerParts): LedgerState {
  const c = p.currencies;
  const s = p.store;
  const currencies: CurrencyTotals[] = [];
  for (let i = 0; i < c.count; i++) {
    currencies.push({ supply: c.supply[i]!.toString(), totalIn: c.totalIn[i]!.toString(), totalOut: c.totalOut[i]!.toString(),
      clearing: c.clearing[i]!.toString() });
  }
  const users = s.users().filter(([uid]) => uid !== PLATFORM_UID);
  const n = s.recordCount;
  const recUid = new Float64Array(n);
  const recKind = new Uint8Array(n);
  const recSub = new Int32Array(n);
  const recCur = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const a = s.recAcct[r]!;
    recUid[r] = s.acctUid[a]!;
    recKind[r] = s.acctKind[a]!;
    recSub[r] = s.acctSub[a]!;
    recCur[r] = s.recCur[r]!;
  }
  const hs = p.holds;
  const slots: number[] = [];
  for (let i = 0; i < hs.top; i++) if (hs.live[i] === 1) slots.push(i);
  const m = slots.length;
  const holdOrder = new Float64Array(m);
  const holdMarket = new Int32Array(m);
  const holdSide = new Uint8Array(m);
  const holdType = new Uint8Array(m);
  const holdRec = new Int32Array(m);
  const holdRecv = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    const i = slots[k]!;
    holdOrder[k] = hs.orderIdOf(i);
    holdMarket[k] = hs.market[i]!;
    holdSide[k] = hs.side[i]!;
    holdType[k] = hs.type[i]!;
    holdRec[k] = hs.rec[i]!;
    holdRecv[k] = hs.recv[i]!;
  }
  const b = p.book;
  const first = b.firstId;
  const size = b.size;
  const slot = (k: number): number => b.slotOf(first + k);
  const bookTime = new Float64Array(size);
  const bookRec = new Int32Array(size);
  const bookType = new Uint8Array(size);
  const bookRef = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    const at = slot(k);
    bookTime[k] = b.time[at]!;
    bookRec[k] = b.rec[at]!;
    bookType[k] = b.type[at]!;
    bookRef[k] = b.ref[at]!;
  }
  return {
    currencies,
    userUid: Float64Array.from(users, (u) => u[0]),
    userMain: Float64Array.from(users, (u) => u[1]),
    recUid, recKind, recSub, recCur,
    available: packAmounts(n, (r) => s.available(r)),
    locked: packAmounts(n, (r) => s.lockedOf(r)),
    borrowed: packAmounts(n, (r) => s.borrowedOf(r)),
    interest: packAmounts(n, (r) => s.interestOf(r)),
    holdOrder, holdMarket, holdSide, holdType, holdRec, holdRecv,
    holdRemaining: packAmounts(m, (k) => hs.remainingOf(slots[k]!)),
    bookLastId: b.lastId,
    bookTime, bookRec, bookType,
    bookChange: packAmounts(size, (k) => b.changeAt(slot(k))),
    bookBalance: packAmounts(size, (k) => b.balanceAt(slot(k))),
    bookText: packText(size, (k) => b.text[slot(k)]!),
    bookRef,
  };
}

/** Restores `st` into a freshly built ledger of the same definition (see the module header). @allocates */
export function importLedger(p: LedgerParts, st: LedgerState): void {
  const c = p.currencies;
  const s = p.store;
  invariant(st.currencies.length === c.count, 'snapshot: currency count differs from the definition');
  invariant(p.holds.count === 0 && p.book.lastId === 0, 'snapshot: ledger import needs a fresh ledger');
  st.currencies.forEach((t, i) => {
    c.supply[i] = c.wide[i] === true ? BigInt(t.supply) : Number(t.supply);
    c.totalIn[i] = BigInt(t.totalIn);
    c.totalOut[i] = BigInt(t.totalOut);
    c.clearing[i] = BigInt(t.clearing ?? '0');
  });
  for (let k = 0; k < st.userUid.length; k++) {
    const uid = st.userUid[k]!;
    if (!s.hasUser(uid)) s.addUser(uid, st.userMain[k]!);
  }
  const avail = unpackAmounts(st.available);
  const locked = unpackAmounts(st.locked);
  const borrowed = unpackAmounts(st.borrowed);
  const interest = unpackAmounts(st.interest);
  for (let r = 0; r < st.recUid.length; r++) {
    const cur = st.recCur[r]!;
    const wide = c.wide[cur] === true;
    const got = s.record(st.recUid[r]!, st.recKind[r]!, st.recSub[r]!, cur, wide);
    invariant(got === r, 'snapshot: balance records cannot be re-created in order');
    s.setAvailable(r, checked(avail[r]!, wide));
    s.setLocked(r, checked(locked[r]!, wide));
    const b = checked(borrowed[r]!, wide);
    const i = checked(interest[r]!, wide);
    if (wide) {
      s.wBorrowed[r] = b as bigint;
      s.wInterest[r] = i as bigint;
    } else {
      s.borrowed[r] = b as number;
      s.interest[r] = i as number;
    }
  }
  const remaining = unpackAmounts(st.holdRemaining);
  for (let k = 0; k < st.holdOrder.length; k++) {
    const rec = st.holdRec[k]!;
    invariant(rec < s.recordCount && st.holdRecv[k]! < s.recordCount, 'snapshot: hold refers to a missing record');
    p.holds.open(st.holdOrder[k]!, st.holdMarket[k]!, st.holdSide[k]!, st.holdType[k]!, rec, st.holdRecv[k]!,
      checked(remaining[k]!, s.recWide[rec] === 1));
  }
  const n = st.bookTime.length;
  const book = p.book;
  invariant(n <= book.capacity && n <= st.bookLastId, 'snapshot: account book does not fit its capacity');
  const change = unpackAmounts(st.bookChange);
  const balance = unpackAmounts(st.bookBalance);
  const text = unpackText(st.bookText, n);
  book.lastId = st.bookLastId - n;
  for (let k = 0; k < n; k++) {
    book.append(st.bookTime[k]!, st.bookRec[k]!, st.bookType[k]! as BookType, change[k]!, balance[k]!, text[k]!, st.bookRef[k]!);
  }
}

/** An amount in its currency's representation, or InvariantError. */
function checked(v: Amount, wide: boolean): Amount {
  invariant(wide ? typeof v === 'bigint' : typeof v === 'number', 'snapshot: amount has the wrong representation');
  return v;
}
