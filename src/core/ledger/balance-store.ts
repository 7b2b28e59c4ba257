/**
 * Users, accounts and balance records, as struct-of-arrays columns.
 *
 * - A user is a uid (integer in [0, 2^31)) with its main uid (0 for a main account; uid 0 is the platform).
 * - An account is (uid, kind, sub), given a dense account number on first use.
 * - A balance record is (account, currency), given a dense record number on first use; its columns hold
 *   available, locked, borrowed and interest. Narrow currencies use the Float64Array columns (exact safe
 *   integers); wide currencies use the parallel bigint columns (narrow records keep 0n there).
 * Record and account numbers are never reused, so other tables may keep them.
 *
 * Costs: lookups are open-addressing probes (no allocation). Creating a user, account or record appends to
 * the columns and may double them (@allocates, amortised); so does any write to a wide record (BigInt results).
 * Callers must not keep a column reference across an operation that may create records.
 */
import { grownTo } from '../typed-arrays.js';
import { KeyIndex } from '../matching/key-index.js';
import { accountKey } from './account-kinds.js';
import { type Amount } from './amount.js';

const INITIAL = 64;
const TWO_16 = 65536;

export class BalanceStore {
  #userUid = new Float64Array(INITIAL);
  #userMain = new Float64Array(INITIAL);
  #userCount = 0;
  readonly #users = new KeyIndex(this.#userUid, INITIAL);

  #acctKey = new Float64Array(INITIAL);
  /** Per account: owner uid, kind, sub. */
  acctUid = new Float64Array(INITIAL);
  acctKind = new Uint8Array(INITIAL);
  acctSub = new Int32Array(INITIAL);
  #acctCount = 0;
  readonly #accts = new KeyIndex(this.#acctKey, INITIAL);

  #recKey = new Float64Array(INITIAL);
  /** Per record: account number, currency index, 1 when the currency is wide. */
  recAcct = new Int32Array(INITIAL);
  recCur = new Int32Array(INITIAL);
  recWide = new Uint8Array(INITIAL);
  avail = new Float64Array(INITIAL);
  locked = new Float64Array(INITIAL);
  borrowed = new Float64Array(INITIAL);
  interest = new Float64Array(INITIAL);
  readonly wAvail: bigint[] = [];
  readonly wLocked: bigint[] = [];
  readonly wBorrowed: bigint[] = [];
  readonly wInterest: bigint[] = [];
  #recCount = 0;
  readonly #recs = new KeyIndex(this.#recKey, INITIAL);

  get userCount(): number {
    return this.#userCount;
  }

  get recordCount(): number {
    return this.#recCount;
  }

  /** True when `uid` is a user. */
  hasUser(uid: number): boolean {
    return this.#users.get(uid) >= 0;
  }

  /** The main uid of `uid` (0 when it is a main account), or -1 when unknown. */
  mainOf(uid: number): number {
    const s = this.#users.get(uid);
    return s < 0 ? -1 : this.#userMain[s]!;
  }

  /** Adds a user; the caller has validated it. @allocates (amortised) */
  addUser(uid: number, mainUid: number): void {
    const s = this.#userCount;
    if (s === this.#userUid.length) {
      this.#userUid = grownTo(this.#userUid, s * 2);
      this.#userMain = grownTo(this.#userMain, s * 2);
      this.#users.rebind(this.#userUid);
    }
    this.#userUid[s] = uid;
    this.#userMain[s] = mainUid;
    this.#userCount = s + 1;
    this.#users.insert(uid, s);
  }

  /** Every user as [uid, main] pairs in registration order. @allocates */
  users(): [number, number][] {
    const out: [number, number][] = [];
    for (let s = 0; s < this.#userCount; s++) out.push([this.#userUid[s]!, this.#userMain[s]!]);
    return out;
  }

  /** The account number of (uid, kind, sub), or -1. */
  findAccount(uid: number, kind: number, sub: number): number {
    return this.#accts.get(accountKey(uid, kind, sub));
  }

  /** The record of (account, currency), or -1. */
  findRecordOf(acct: number, cur: number): number {
    return acct < 0 ? -1 : this.#recs.get(acct * TWO_16 + cur);
  }

  /** The record of (uid, kind, sub, currency), or -1. */
  findRecord(uid: number, kind: number, sub: number, cur: number): number {
    return this.findRecordOf(this.findAccount(uid, kind, sub), cur);
  }

  /** The record of (uid, kind, sub, currency), created empty when absent. @allocates on creation */
  record(uid: number, kind: number, sub: number, cur: number, wide: boolean): number {
    let acct = this.findAccount(uid, kind, sub);
    if (acct < 0) acct = this.#addAccount(uid, kind, sub);
    const r = this.findRecordOf(acct, cur);
    return r >= 0 ? r : this.#addRecord(acct, cur, wide);
  }

  /** Accounts in creation order. */
  get accountCount(): number {
    return this.#acctCount;
  }

  available(rec: number): Amount {
    return this.recWide[rec] === 1 ? this.wAvail[rec]! : this.avail[rec]!;
  }

  lockedOf(rec: number): Amount {
    return this.recWide[rec] === 1 ? this.wLocked[rec]! : this.locked[rec]!;
  }

  borrowedOf(rec: number): Amount {
    return this.recWide[rec] === 1 ? this.wBorrowed[rec]! : this.borrowed[rec]!;
  }

  interestOf(rec: number): Amount {
    return this.recWide[rec] === 1 ? this.wInterest[rec]! : this.interest[rec]!;
  }

  /** available + locked: the total the account book reports. */
  total(rec: number): Amount {
    return this.recWide[rec] === 1 ? this.wAvail[rec]! + this.wLocked[rec]! : this.avail[rec]! + this.locked[rec]!;
  }

  setAvailable(rec: number, v: Amount): void {
    if (typeof v === 'number') this.avail[rec] = v;
    else this.wAvail[rec] = v;
  }

  setLocked(rec: number, v: Amount): void {
    if (typeof v === 'number') this.locked[rec] = v;
    else this.wLocked[rec] = v;
  }

  #addAccount(uid: number, kind: number, sub: number): number {
    const a = this.#acctCount;
    if (a === this.#acctKey.length) {
      const n = a * 2;
      this.#acctKey = grownTo(this.#acctKey, n);
      this.acctUid = grownTo(this.acctUid, n);
      this.acctKind = grownTo(this.acctKind, n);
      this.acctSub = grownTo(this.acctSub, n);
      this.#accts.rebind(this.#acctKey);
    }
    const key = accountKey(uid, kind, sub);
    this.#acctKey[a] = key;
    this.acctUid[a] = uid;
    this.acctKind[a] = kind;
    this.acctSub[a] = sub;
    this.#acctCount = a + 1;
    this.#accts.insert(key, a);
    return a;
  }

  #addRecord(acct: number, cur: number, wide: boolean): number {
    const r = this.#recCount;
    if (r === this.#recKey.length) {
      const n = r * 2;
      this.#recKey = grownTo(this.#recKey, n);
      this.recAcct = grownTo(this.recAcct, n);
      this.recCur = grownTo(this.recCur, n);
      this.recWide = grownTo(this.recWide, n);
      this.avail = grownTo(this.avail, n);
      this.locked = grownTo(this.locked, n);
      this.borrowed = grownTo(this.borrowed, n);
      this.interest = grownTo(this.interest, n);
      this.#recs.rebind(this.#recKey);
    }
    const key = acct * TWO_16 + cur;
    this.#recKey[r] = key;
    this.recAcct[r] = acct;
    this.recCur[r] = cur;
    this.recWide[r] = wide ? 1 : 0;
    this.wAvail.push(0n);
    this.wLocked.push(0n);
    this.wBorrowed.push(0n);
    this.wInterest.push(0n);
    this.#recCount = r + 1;
    this.#recs.insert(key, r);
    return r;
  }
}
