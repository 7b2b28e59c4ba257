/**
 * Ledger: accounts × currencies with available / locked (and borrowed / interest, 0 until loans arrive), order
 * holds, fill settlement with fees, and a Gate-style account book.
 *
 * Contracts:
 * - Business rejections are result codes (ResultCode or LedgerCode); a rejected operation changes nothing.
 *   Exceptions mean bad configuration (ConfigError) or a broken invariant (InvariantError).
 * - Pure and deterministic: time (µs since the epoch) arrives as an argument of each operation.
 * - Exact: amounts are integer units of each currency (numbers for narrow currencies, BigInt for wide ones:
 *   see amount.ts and currencies.ts). Every operation keeps, per currency,
 *   Σ (available + locked) over all accounts, the platform fee account included, = Σ credits − Σ debits.
 * - Users are uids in [1, 2^31); uid 0 is the platform, whose Spot account receives fees. Holds and fills use
 *   the owner's Spot account (sub 0).
 * - Markets and currencies are addressed by the dense index their registration returns (hot paths), or by
 *   code (funds operations and queries).
 *
 * Costs: on narrow currencies, hold / settle / release / resize allocate nothing once the records exist;
 * operations on wide currencies allocate BigInts; registration and queries allocate.
 */
import type { Market } from '../market.js';
import { ResultCode } from '../result-code.js';
import { isInt31 } from '../units.js';
import { AccountBook } from './account-book.js';
import { AccountKind } from './account-kinds.js';
import { type Amount, formatAmount } from './amount.js';
import { type CurrencyConservation, ledgerConservation, ledgerStateHash, assertLedgerInvariants } from './audit.js';
import { BalanceStore } from './balance-store.js';
import { CurrencyTable, type CurrencySpec, MarketTable } from './currencies.js';
import { credit, debit, transfer } from './funds.js';
import { HoldTable } from './holds.js';
import { exportLedger, importLedger, type LedgerState } from './ledger-state.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { holdOrder, holdUnits, releaseOrder, resizeHold } from './order-funds.js';
import { FEE_KIND, FEE_SUB, type LedgerParts, PLATFORM_UID } from './parts.js';
import {
  type AccountBookEntry, type AccountBookFilter, accountBalances, balanceText, type BalanceText, BalanceView, readAccountBook,
  readBalance,
} from './queries.js';
import { settleFill } from './settlement.js';
import { heldForWithdrawal, holdWithdrawal, releaseWithdrawal, settleWithdrawal, withdrawalHoldCount } from './withdraw-funds.js';
import { borrow, chargeInterest, loanOf, type LoanRow, openLoans, poolAvailable, repay } from './loan-funds.js';
import { FuturesFunds } from './futures-funds.js';
import { OptionsFunds } from './options-funds.js';

export interface LedgerOptions {
  /** Account-book entries retained (ring buffer; the oldest are dropped). Default 1 << 16; 0 keeps none. */
  readonly accountBookCapacity?: number;
}

export class Ledger {
  readonly #p: LedgerParts;
  readonly #view = new BalanceView();
  /** Futures money: margin holds, realised PnL through clearing, fees, the insurance funds (futures-funds.ts). */
  readonly futures: FuturesFunds;
  /** Options money: order and short-position holds, premiums, fees, expiry payoffs (options-funds.ts). */
  readonly options: OptionsFunds;

  /** @allocates the tables. */
  constructor(options: LedgerOptions = {}) {
    this.#p = {
      currencies: new CurrencyTable(),
      markets: new MarketTable(),
      store: new BalanceStore(),
      holds: new HoldTable(),
      book: new AccountBook(options.accountBookCapacity ?? 1 << 16),
      fees: { taker: 0, maker: 0 },
      futuresOnSpot: () => false,
    };
    this.#p.store.addUser(PLATFORM_UID, 0);
    this.futures = new FuturesFunds(this.#p);
    this.options = new OptionsFunds(this.#p);
  }

  /** Registers a currency; returns its index. Throws ConfigError on a bad spec. @allocates */
  registerCurrency(spec: CurrencySpec): number {
    const p = this.#p;
    const cur = p.currencies.register(spec);
    p.store.record(PLATFORM_UID, FEE_KIND, FEE_SUB, cur, p.currencies.wide[cur] === true);
    return cur;
  }

  /** Registers a market over two registered currencies; returns its index. Throws ConfigError. @allocates */
  registerMarket(market: Market, base: string, quote: string): number {
    return this.#p.markets.register(market, base, quote, this.#p.currencies);
  }

  /** Index of a currency code, or -1. */
  currencyIndex(code: string): number {
    return this.#p.currencies.indexOf(code);
  }

  /** Index of a market id, or -1. */
  marketIndex(id: string): number {
    return this.#p.markets.indexOf(id);
  }

  /** True when the currency is wide (BigInt amounts). */
  isWide(currency: string): boolean {
    return this.#p.currencies.wide[this.#p.currencies.indexOf(currency)] === true;
  }

  /**
   * Adds user `uid` (in [1, 2^31)); `mainUid` 0 makes a main account, otherwise a sub-account of that main.
   * Codes: InvalidParam, UserExists, MainUserNotFound, NestedSubAccount.
   */
  addUser(uid: number, mainUid = 0): LedgerOutcome {
    const s = this.#p.store;
    if (!isInt31(uid) || uid === PLATFORM_UID || !isInt31(mainUid) || mainUid === uid) return ResultCode.InvalidParam;
    if (s.hasUser(uid)) return LedgerCode.UserExists;
    if (mainUid !== 0) {
      const mainOfMain = s.mainOf(mainUid);
      if (mainOfMain < 0) return LedgerCode.MainUserNotFound;
      if (mainOfMain !== 0) return LedgerCode.NestedSubAccount;
    }
    s.addUser(uid, mainUid);
    return ResultCode.Ok;
  }

  /** Every user but the platform as [uid, main uid (0 for a main account)], in registration order. @allocates */
  users(): [number, number][] {
    return this.#p.store.users().filter(([uid]) => uid !== PLATFORM_UID);
  }

  /** The main uid of `uid` (0 for a main account), or -1 for an unknown user. */
  mainOf(uid: number): number {
    return this.#p.store.mainOf(uid);
  }

  /** Deposit-like credit from outside. `type` is a BookType (Deposit, Adjust, …). See funds.ts. */
  credit(time: number, uid: number, kind: number, sub: number, currency: string, amount: number | bigint, type: number,
    text: string): LedgerOutcome {
    return credit(this.#p, time, uid, kind, sub, currency, amount, type, text);
  }

  /** Withdrawal-like debit to outside; BalanceNotEnough when available < amount. See funds.ts. */
  debit(time: number, uid: number, kind: number, sub: number, currency: string, amount: number | bigint, type: number,
    text: string): LedgerOutcome {
    return debit(this.#p, time, uid, kind, sub, currency, amount, type, text);
  }

  /** Moves available funds between two accounts (of one user or of two) for `purpose` (TransferPurpose). See funds.ts. */
  transfer(time: number, fromUid: number, fromKind: number, fromSub: number, toUid: number, toKind: number, toSub: number,
    currency: string, amount: number | bigint, text: string, purpose = 0): LedgerOutcome {
    return transfer(this.#p, time, fromUid, fromKind, fromSub, toUid, toKind, toSub, currency, amount, text, purpose);
  }

  /** What an order must hold, in units of the currency it pays, or a negative code. See order-funds.ts. */
  holdUnits(market: number, side: number, type: number, price: number, amount: number): Amount {
    return holdUnits(this.#p, market, side, type, price, amount);
  }

  /** R1: holds funds for a new order from account (kind, sub), Spot by default. See order-funds.ts. */
  holdOrder(time: number, orderId: number, uid: number, market: number, side: number, type: number, price: number,
    amount: number, kind: number = AccountKind.Spot, sub = 0): LedgerOutcome {
    return holdOrder(this.#p, time, orderId, uid, market, side, type, price, amount, kind, sub);
  }

  /** Amend: sets the order's remaining hold. See order-funds.ts. */
  resizeHold(time: number, orderId: number, newRemaining: number | bigint): LedgerOutcome {
    return resizeHold(this.#p, time, orderId, newRemaining);
  }

  /** The order finished: returns its remaining hold and closes it. See order-funds.ts. */
  releaseOrder(time: number, orderId: number): LedgerOutcome {
    return releaseOrder(this.#p, time, orderId);
  }

  /** The taker's fee of the last successful settleFill, in the currency the taker received. */
  get lastTakerFee(): Amount {
    return this.#p.fees.taker;
  }

  /** The maker's fee of the last successful settleFill, in the currency the maker received. */
  get lastMakerFee(): Amount {
    return this.#p.fees.maker;
  }

  /** R2: settles one fill between a taker and a maker order. See settlement.ts. */
  settleFill(time: number, market: number, takerOrderId: number, makerOrderId: number, takerSide: number, price: number,
    lots: number, takerFeePpm: number, makerFeePpm: number): LedgerOutcome {
    return settleFill(this.#p, time, market, takerOrderId, makerOrderId, takerSide, price, lots, takerFeePpm, makerFeePpm);
  }

  /** Holds `units` of currency index `cur` from `uid`'s Spot account for withdrawal `id`. See withdraw-funds.ts. */
  holdWithdrawal(time: number, id: number, uid: number, cur: number, units: number | bigint): LedgerOutcome {
    return holdWithdrawal(this.#p, time, id, uid, cur, units);
  }

  /** Sends withdrawal `id` out: `fee` units to the platform fee account, the rest off the platform. */
  settleWithdrawal(time: number, id: number, uid: number, fee: number | bigint): LedgerOutcome {
    return settleWithdrawal(this.#p, time, id, uid, fee);
  }

  /** Returns withdrawal `id`'s hold to its owner's available balance. */
  releaseWithdrawal(time: number, id: number, uid: number): LedgerOutcome {
    return releaseWithdrawal(this.#p, time, id, uid);
  }

  /** What remains held for withdrawal `id`, or undefined when it has no hold. */
  heldForWithdrawal(id: number): Amount | undefined {
    return heldForWithdrawal(this.#p, id);
  }

  /** Open withdrawal holds (part of holdCount); an O(holds) scan for invariant checks. */
  get withdrawalHoldCount(): number {
    return withdrawalHoldCount(this.#p);
  }

  /** Lends `units` of currency index `cur` from the platform's pool to (uid, kind = Spot, sub). See loan-funds.ts. */
  borrow(time: number, uid: number, cur: number, units: bigint, kind?: number, sub?: number): LedgerOutcome {
    return borrow(this.#p, time, uid, cur, units, kind, sub);
  }

  /** Pays back `units` of `uid`'s debt in `cur`, unpaid interest first. See loan-funds.ts. */
  repay(time: number, uid: number, cur: number, units: bigint, kind?: number, sub?: number): LedgerOutcome {
    return repay(this.#p, time, uid, cur, units, kind, sub);
  }

  /** Charges interest: paid from available at once, the rest owed. Returns the units paid. See loan-funds.ts. */
  chargeInterest(time: number, uid: number, cur: number, units: bigint, kind?: number, sub?: number): bigint | LedgerOutcome {
    return chargeInterest(this.#p, time, uid, cur, units, kind, sub);
  }

  /** [principal, unpaid interest] account (uid, kind = Spot, sub) owes in currency index `cur`. */
  loanOf(uid: number, cur: number, kind?: number, sub?: number): [bigint, bigint] {
    return loanOf(this.#p, uid, cur, kind, sub);
  }

  /** Units of currency index `cur` the lending pool holds. */
  poolAvailable(cur: number): bigint {
    return poolAvailable(this.#p, cur);
  }

  /** Every open loan of any account kind (unified: Spot; isolated margin: Margin). @allocates */
  openLoans(): LoanRow[] {
    return openLoans(this.#p);
  }

  /** What remains held for `orderId`, or undefined when it has no hold. */
  heldFor(orderId: number): Amount | undefined {
    const slot = this.#p.holds.find(orderId);
    return slot < 0 ? undefined : this.#p.holds.remainingOf(slot);
  }

  /** Number of open holds (orders' and withdrawals'). */
  get holdCount(): number {
    return this.#p.holds.count;
  }

  /**
   * One balance as integers, in a view reused by every call (copy what you keep). Undefined for an unknown
   * currency; zeros for an account without that currency. No allocation.
   */
  balance(uid: number, kind: number, sub: number, currency: string): BalanceView | undefined {
    const p = this.#p;
    const cur = p.currencies.indexOf(currency);
    if (cur < 0) return undefined;
    return readBalance(p, p.store.findRecord(uid, kind, sub, cur), cur, this.#view);
  }

  /** One balance as decimal strings (zeros when absent); undefined for an unknown currency. @allocates */
  balanceText(uid: number, kind: number, sub: number, currency: string): BalanceText | undefined {
    const p = this.#p;
    const cur = p.currencies.indexOf(currency);
    if (cur < 0) return undefined;
    return balanceText(p, p.store.findRecord(uid, kind, sub, cur), cur);
  }

  /** Every currency an account has a record for, as decimal strings. @allocates */
  balances(uid: number, kind: number, sub: number): BalanceText[] {
    return accountBalances(this.#p, uid, kind, sub);
  }

  /** Id of the newest account-book entry (0 when none). */
  get bookLastId(): number {
    return this.#p.book.lastId;
  }

  /** Retained account-book entries of `uid`, newest first. @allocates */
  accountBook(uid: number, filter?: AccountBookFilter): AccountBookEntry[] {
    return readAccountBook(this.#p, uid, filter);
  }

  /** Integer units of `currency` → decimal string. Throws RangeError for an unknown currency. @allocates */
  format(currency: string, units: Amount): string {
    const cur = this.#p.currencies.indexOf(currency);
    if (cur < 0) throw new RangeError(`unknown currency ${currency}`);
    return formatAmount(units, this.#p.currencies.scales[cur]!);
  }

  /** Decimal string → integer units of `currency`, or a negative code (CurrencyNotFound, InvalidParam, …). */
  parse(currency: string, text: string): Amount {
    const cur = this.#p.currencies.indexOf(currency);
    return cur < 0 ? LedgerCode.CurrencyNotFound : this.#p.currencies.parse(cur, text);
  }

  /** Net external supply (credits − debits) of `currency` in units. */
  supply(currency: string): Amount | undefined {
    return this.#p.currencies.supply[this.#p.currencies.indexOf(currency)];
  }

  /** Canonical hash of balances, holds and counters. See audit.ts. @allocates */
  stateHash(): string {
    return ledgerStateHash(this.#p);
  }

  /** Copies the whole state into plain columns (snapshots). See ledger-state.ts. @allocates */
  exportState(): LedgerState {
    return exportLedger(this.#p);
  }

  /** Restores an exported state into this ledger, which must be freshly built from the same definition. @allocates */
  importState(state: LedgerState): void {
    importLedger(this.#p, state);
  }

  /** Per currency: Σ balances (fee account and lending pool shown apart), credits and debits. See audit.ts. @allocates */
  conservation(): CurrencyConservation[] {
    return ledgerConservation(this.#p);
  }

  /** Throws InvariantError when an invariant is broken. See audit.ts. @allocates */
  assertInvariants(): void {
    assertLedgerInvariants(this.#p);
  }
}
