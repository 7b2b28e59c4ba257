/**
 * The ledger's internal tables, shared by the operation modules (funds, order funds, settlement, audit).
 * One owner: the Ledger facade creates them and is the only writer; the modules are functions over them.
 */
import { AccountKind, isAccountKind, MAX_SUB, SubIndex, subIndexOf } from './account-kinds.js';
import type { AccountBook } from './account-book.js';
import type { BalanceStore } from './balance-store.js';
import type { CurrencyTable, MarketTable } from './currencies.js';
import type { HoldTable } from './holds.js';

import type { Amount } from './amount.js';

export interface LedgerParts {
  readonly currencies: CurrencyTable;
  readonly markets: MarketTable;
  readonly store: BalanceStore;
  readonly holds: HoldTable;
  readonly book: AccountBook;
  /** Fees of the last settled fill (taker's and maker's, each in the currency it received). */
  fees: { taker: Amount; maker: Amount };
  /**
   * Where the futures margin of (uid, settle currency) lives: true for the user's Spot account (a unified
   * account whose mode carries USDT futures), false for its own Futures account. Set once by the exchange
   * (FuturesFunds.marginOnSpot); a pure function of the exchange state.
   */
  futuresOnSpot: (uid: number, cur: number) => boolean;
}

/** The platform's uid: its Spot account receives trading fees. */
export const PLATFORM_UID = 0;

/** The platform fee account's kind and sub. */
export const FEE_KIND = AccountKind.Spot;
export const FEE_SUB = 0;

/** Times are microseconds since the epoch: safe integers ≥ 0. */
export const isValidTime = (t: number): boolean => Number.isSafeInteger(t) && t >= 0;

/** True when (kind, sub) names an account that can exist: sub is 0, a market index or a currency index. */
export function isValidAccount(p: LedgerParts, kind: number, sub: number): boolean {
  if (!isAccountKind(kind) || (sub | 0) !== sub || sub < 0 || sub > MAX_SUB) return false;
  const what = subIndexOf(kind);
  if (what === SubIndex.Market) return sub < p.markets.count;
  if (what === SubIndex.Currency) return sub < p.currencies.count;
  return sub === 0;
}

/** A negative number returned where an Amount was expected is a result code. */
export const isCode = (v: number | bigint): v is number => typeof v === 'number' && v < 0;
