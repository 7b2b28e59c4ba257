/**
 * Result codes of the ledger (the -2xxx range of ResultCode), pending their merge into `ResultCode`.
 *
 * Ledger operations also return these existing ResultCodes: Ok, InvalidParam (malformed argument, unknown enum,
 * bad account sub-index), AmountTooMuch (beyond a currency's max supply or exact range) and InvalidMarket.
 * A rejected operation changes nothing.
 */
import type { ResultCode } from '../result-code.js';

export const LedgerCode = {
  /** The paying account's available balance is below the amount. */
  BalanceNotEnough: -2001,
  /** No user with that uid. */
  UserNotFound: -2002,
  /** addUser with a uid that already exists. */
  UserExists: -2003,
  /** addUser naming a main account that does not exist. */
  MainUserNotFound: -2004,
  /** addUser naming a main account that is itself a sub-account. */
  NestedSubAccount: -2005,
  /** holdOrder for an order id that already has a hold. */
  HoldExists: -2006,
  /** No hold for that order id. */
  HoldNotFound: -2007,
  /** A hold used against the wrong market or side (an engine bug surfaced as a code, not a state change). */
  HoldMismatch: -2008,
  /** A fill that would take more from a hold than it has left. */
  HoldExceeded: -2009,
  /** Unknown currency code. */
  CurrencyNotFound: -2010,
} as const;

export type LedgerCode = (typeof LedgerCode)[keyof typeof LedgerCode];

/** What a ledger operation returns: Ok, a shared ResultCode, or a ledger code. */
export type LedgerOutcome = ResultCode | LedgerCode;
