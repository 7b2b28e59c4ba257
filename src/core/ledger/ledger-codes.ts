/**
 * Result codes of the ledger (the -2xxx range of ResultCode), pending their merge into `ResultCode`.
 *
 * Ledger operations also return these existing ResultCodes: Ok, InvalidParam (malformed argument, unknown enum,
 * bad account sub-index), AmountTooMuch (beyond a currency's max supply or exact range) and InvalidMarket.
 * A rejected operation changes nothing.
 */
import { ResultCode } from '../result-code.js';

export const LedgerCode = {
  BalanceNotEnough: ResultCode.BalanceNotEnough,
  UserNotFound: ResultCode.UserNotFound,
  UserExists: ResultCode.UserExists,
  MainUserNotFound: ResultCode.MainUserNotFound,
  NestedSubAccount: ResultCode.NestedSubAccount,
  HoldExists: ResultCode.HoldExists,
  HoldNotFound: ResultCode.HoldNotFound,
  HoldMismatch: ResultCode.HoldMismatch,
  HoldExceeded: ResultCode.HoldExceeded,
  CurrencyNotFound: ResultCode.CurrencyNotFound,
} as const;

export type LedgerCode = (typeof LedgerCode)[keyof typeof LedgerCode];

/** What a ledger operation returns: Ok, a shared ResultCode, or a ledger code. */
export type LedgerOutcome = ResultCode | LedgerCode;
