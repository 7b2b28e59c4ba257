/**
 * State hash and invariant checks over the ledger's tables. Both are O(records + holds) and allocate
 * (sorting, per-record sums): for tests, snapshots and recovery, not for the hot path.
 *
 * The hash is canonical: it covers currencies (code, scale, supply, in/out totals), markets, users, every
 * non-zero balance record in (uid, kind, sub, currency) order, every hold in order-id order and the
 * account-book id counter; it does not depend on the order in which records or hold slots were created.
 */
import { InvariantError } from '../invariant.js';
import { StateHasher } from '../state-hash.js';
import { AccountKind, accountKey } from './account-kinds.js';
import { type Amount, addAmount, hashAmount, isZeroAmount } from './amount.js';
import { INSURANCE_UID, isFuturesHold } from './futures-funds.js';
import { POOL_KIND } from './loan-funds.js';
import { FEE_KIND, FEE_SUB, type LedgerParts, PLATFORM_UID } from './parts.js';

/** The canonical state hash (16 hex digits). @allocates */
export function ledgerStateHash(p: LedgerParts): string {
  const h = new StateHasher();
  const c = p.currencies;
  h.add(c.count);
  for (let i = 0; i < c.count; i++) {
    h.addString(c.codes[i]!).add(c.scales[i]!);
    hashAmount(h, c.maxUnits[i]!);
    hashAmount(h, c.supply[i]!);
    hashAmount(h, c.totalIn[i]!);
    hashAmount(h, c.totalOut[i]!);
    // Only futures move clearing: a spot-only ledger hashes as it did before clearing existed.
    if (c.clearing[i] !== 0n) h.addString('clearing').addString(c.clearing[i]!.toString());
  }
  h.add(p.markets.count);
  for (const m of p.markets.markets) h.addString(m.id);
  const users = p.store.users().sort((a, b) => a[0] - b[0]);
  h.add(users.length);
  for (const [uid, main] of users) h.add(uid).add(main);
  const s = p.store;
  const recs: number[] = [];
  for (let r = 0; r < s.recordCount; r++) {
    if (!isZeroAmount(s.available(r)) || !isZeroAmount(s.lockedOf(r)) || !isZeroAmount(s.borrowedOf(r))
      || !isZeroAmount(s.interestOf(r))) recs.push(r);
  }
  const key = (r: number): number => {
    const a = s.recAcct[r]!;
    return accountKey(s.acctUid[a]!, s.acctKind[a]!, s.acctSub[a]!);
  };
  recs.sort((x, y) => key(x) - key(y) || s.recCur[x]! - s.recCur[y]!);
  h.add(recs.length);
  for (const r of recs) {
    h.add(key(r)).add(s.recCur[r]!);
    hashAmount(h, s.available(r));
    hashAmount(h, s.lockedOf(r));
    hashAmount(h, s.borrowedOf(r));
    hashAmount(h, s.interestOf(r));
  }
  const hs = p.holds;
  const slots: number[] = [];
  for (let i = 0; i < hs.top; i++) if (hs.live[i] === 1) slots.push(i);
  slots.sort((x, y) => hs.orderIdOf(x) - hs.orderIdOf(y));
  h.add(slots.length);
  for (const i of slots) {
    h.add(hs.orderIdOf(i)).add(hs.market[i]!).add(hs.side[i]!).add(hs.type[i]!).add(key(hs.rec[i]!)).add(key(hs.recv[i]!));
    hashAmount(h, hs.remainingOf(i));
  }
  h.add(p.book.lastId);
  return h.digest();
}

function fail(message: string): never {
  throw new InvariantError(`ledger: ${message}`);
}

function checkAmount(v: Amount, wide: boolean, what: string): void {
  if (wide ? typeof v !== 'bigint' : !Number.isSafeInteger(v)) fail(`${what} has the wrong representation: ${v}`);
  if (v < 0) fail(`${what} is negative: ${v}`);
}

/** One currency's conservation: what the accounts hold against what entered and left the platform. */
export interface CurrencyConservation {
  readonly currency: string;
  /** Σ (available + locked) over every account: users, the platform fee account and the lending pool. */
  readonly accounts: Amount;
  /** Of `accounts`, the platform fee account's (trading and withdrawal fees). */
  readonly feeAccount: Amount;
  /** Of `accounts`, the lending pool's (what it has not lent, plus repayments and interest paid). */
  readonly lendingPool: Amount;
  /** Of `accounts`, the futures insurance fund's (the platform's futures account). */
  readonly insuranceFund: Amount;
  /** The futures clearing balance (signed; futures-funds.ts): accounts + clearing = credits − debits. */
  readonly clearing: bigint;
  /** Σ credits (deposits, opening balances, the pool's funding) and Σ debits (withdrawals) ever. */
  readonly credits: bigint;
  readonly debits: bigint;
}

/**
 * Per currency: Σ (available + locked) over every balance record (the fee account and the lending pool are
 * records of the platform uid like any other), with those two shown apart, beside credits and debits.
 * Conservation is `accounts + clearing = credits − debits`. O(records). @allocates
 */
export function ledgerConservation(p: LedgerParts): CurrencyConservation[] {
  const s = p.store;
  const c = p.currencies;
  const totals: Amount[] = [];
  for (let k = 0; k < c.count; k++) totals.push(c.zero(k));
  for (let r = 0; r < s.recordCount; r++) {
    const cur = s.recCur[r]!;
    totals[cur] = addAmount(addAmount(totals[cur]!, s.available(r)), s.lockedOf(r));
  }
  const held = (kind: number, sub: number, k: number, uid = PLATFORM_UID): Amount => {
    const r = s.findRecord(uid, kind, sub, k);
    return r < 0 ? c.zero(k) : addAmount(s.available(r), s.lockedOf(r));
  };
  return totals.map((accounts, k) => ({ currency: c.codes[k]!, accounts, feeAccount: held(FEE_KIND, FEE_SUB, k),
    lendingPool: held(POOL_KIND, 0, k), insuranceFund: held(AccountKind.Futures, k, k, INSURANCE_UID), clearing: c.clearing[k]!,
    credits: c.totalIn[k]!, debits: c.totalOut[k]! }));
}

/**
 * Throws InvariantError unless: every amount is non-negative and in its currency's representation; every
 * record's locked equals the sum of its open holds; each hold locks the currency its side pays and receives
 * into the other one; and, per currency, Σ (available + locked) over all accounts (the fee account and the
 * lending pool included: ledgerConservation) + the futures clearing balance = supply = Σ credits − Σ debits ≤ max
 * supply. @allocates
 */
export function assertLedgerInvariants(p: LedgerParts): void {
  const s = p.store;
  const c = p.currencies;
  const held: Amount[] = [];
  for (let r = 0; r < s.recordCount; r++) held.push(c.zero(s.recCur[r]!));
  const hs = p.holds;
  let live = 0;
  for (let i = 0; i < hs.top; i++) {
    if (hs.live[i] !== 1) continue;
    live++;
    const rec = hs.rec[i]!;
    const m = hs.market[i]!;
    const buy = hs.side[i] === 1;
    // A withdrawal hold (market < 0, see withdraw-funds.ts) locks and "receives" its own currency; so do
    // futures margin holds (their record's settle currency).
    const own = isFuturesHold(hs.type[i]!) ? s.recCur[rec]! : m < 0 ? -1 - m : -1;
    const pays = own >= 0 ? own : buy ? p.markets.quote[m] : p.markets.base[m];
    const gets = own >= 0 ? own : buy ? p.markets.base[m] : p.markets.quote[m];
    if (s.recCur[rec] !== pays || s.recCur[hs.recv[i]!] !== gets) fail(`hold ${hs.orderIdOf(i)} locks or receives the wrong currency`);
    if (s.recAcct[rec] !== s.recAcct[hs.recv[i]!]) fail(`hold ${hs.orderIdOf(i)} pays and receives in different accounts`);
    if (hs.find(hs.orderIdOf(i)) !== i) fail(`hold ${hs.orderIdOf(i)} is not indexed`);
    const rem = hs.remainingOf(i);
    checkAmount(rem, s.recWide[rec] === 1, `hold ${hs.orderIdOf(i)} remaining`);
    held[rec] = addAmount(held[rec]!, rem);
  }
  if (live !== hs.count) fail(`hold index counts ${hs.count}, table has ${live}`);
  for (let r = 0; r < s.recordCount; r++) {
    const cur = s.recCur[r]!;
    const wide = c.wide[cur] === true;
    if ((s.recWide[r] === 1) !== wide) fail(`record ${r} has the wrong width`);
    checkAmount(s.available(r), wide, `record ${r} available`);
    checkAmount(s.lockedOf(r), wide, `record ${r} locked`);
    checkAmount(s.borrowedOf(r), wide, `record ${r} borrowed`);
    checkAmount(s.interestOf(r), wide, `record ${r} interest`);
    if (s.lockedOf(r) !== held[r]) fail(`record ${r} locks ${s.lockedOf(r)} but its holds sum to ${held[r]}`);
  }
  const totals = ledgerConservation(p);
  for (let k = 0; k < c.count; k++) {
    const code = c.codes[k]!;
    const supply = c.supply[k]!;
    const held = BigInt(totals[k]!.accounts) + c.clearing[k]!;
    if (held !== BigInt(supply)) fail(`${code}: accounts hold ${totals[k]!.accounts} and clearing ${c.clearing[k]} but supply is ${supply}`);
    if (BigInt(supply) !== c.totalIn[k]! - c.totalOut[k]!) fail(`${code}: supply ${supply} ≠ in − out`);
    if (!c.withinSupply(k, supply)) fail(`${code}: supply ${supply} beyond max supply`);
  }
}
