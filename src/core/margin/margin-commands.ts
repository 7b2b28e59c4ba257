/**
 * The isolated-margin loan commands, applied by the exchange in its first phase (they complete there):
 *
 *   type          uid    market  currency  amount / text         side
 *   MarginBorrow  owner  pair    index     units                 LoanKind (manual/auto)
 *   MarginRepay   owner  pair    index     units (0 = all owed)  LoanKind
 *
 * The loan is on the owner's Margin account of the pair (sub = market index); the currency must be the pair's
 * base or quote. With `kind` CrossMargin (market and sub 0) the loan is on the owner's cross-margin account, in
 * any currency, its figures those of cross-margin.ts and its records' market CROSS_MARKET; kind 0 or Margin
 * is the isolated account. Wide currencies carry units as a decimal integer in `text`. Interest accrues with the unified
 * account's (UnifiedAccrue charges every open loan, these included), at the currency's hourly rate.
 * Borrow checks, in order: InvalidParam (market, currency, amount) → UserNotFound → AmountTooLittle (below the
 * currency minimum) → TradeRestricted (the account is locked) → BorrowTooLarge (pool, user maximum) →
 * MarginNotEnough (beyond the leverage). Repay: InvalidParam → UserNotFound → RepayTooMuch → BalanceNotEnough.
 */
import { type Command, CommandType } from '../command.js';
import type { CommandProduct, ExchangeContext } from '../exchange/context.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { ResultCode } from '../result-code.js';
import { unitsOf } from '../unified/unified-commands.js';
import { CROSS_MARKET, hourOf, LoanKind } from '../unified/unified-state.js';
import { crossAccountOf } from './cross-margin.js';
import { marginAccountOf, pairCurrencies } from './margin-account.js';
import { marginBorrowable, type MarginFigures } from './margin-risk.js';
import type { Holding } from '../unified/valuation.js';

const isCross = (c: Command): boolean => c.kind === AccountKind.CrossMargin;

/** The loan's currency index named by `c`, or -1 when the account, market or currency is invalid. */
function pairCurrency(ex: ExchangeContext, c: Command): number {
  if (isCross(c)) {
    const cur = c.currency;
    return c.market === 0 && c.sub === 0 && (cur | 0) === cur && cur >= 0 && cur < ex.currencies.length ? cur : -1;
  }
  if (c.kind !== 0 && c.kind !== AccountKind.Margin) return -1;
  const m = c.market;
  if ((m | 0) !== m || m < 0 || m >= ex.spotMarkets) return -1;
  const [b, q] = pairCurrencies(ex, m);
  return c.currency === b || c.currency === q ? c.currency : -1;
}

const validKind = (k: number): boolean => k === LoanKind.Manual || k === LoanKind.Auto;

/** Isolated and cross-margin loans: a product whose commands complete in R1. */
export const MARGIN_LOANS: CommandProduct = {
  name: 'margin',
  commands: [CommandType.MarginBorrow, CommandType.MarginRepay],
  apply: (ex, c) => applyMargin(ex, c),
};

/** Applies MarginBorrow or MarginRepay; Ok or the rejection (nothing changed). */
export function applyMargin(ex: ExchangeContext, c: Command): ResultCode {
  const cur = pairCurrency(ex, c);
  if (cur < 0 || !validKind(c.side)) return ResultCode.InvalidParam;
  const units = unitsOf(ex, c, cur);
  if (units < 0n || (units === 0n && c.type === CommandType.MarginBorrow)) return ResultCode.InvalidParam;
  if (ex.ledger.mainOf(c.uid) < 0) return ResultCode.UserNotFound;
  return c.type === CommandType.MarginBorrow ? borrow(ex, c, cur, units) : repay(ex, c, cur, units);
}

function borrow(ex: ExchangeContext, c: Command, cur: number, units: bigint): ResultCode {
  const U = ex.unified;
  const cp = U.params.currencies.get(ex.currencies[cur]!)!;
  if (units < cp.minBorrow) return ResultCode.AmountTooLittle;
  const [h, figures] = accountOf(ex, c, cur);
  if (figures.locked) return ResultCode.TradeRestricted;
  const pool = ex.ledger.poolAvailable(cur);
  if (units > pool || (cp.maxBorrow !== null && h.borrowed + units > cp.maxBorrow)) return ResultCode.BorrowTooLarge;
  if (units > marginBorrowable(h, figures, U.params, pool, cp.maxBorrow)) return ResultCode.MarginNotEnough;
  const [kind, sub, market] = where(c);
  const rc = ex.ledger.borrow(c.time, c.uid, cur, units, kind, sub);
  if (rc !== ResultCode.Ok) return rc;
  if (U.lastHour === 0) U.lastHour = hourOf(c.time);
  U.addLoanRecord(c.uid, true, c.side, cur, units, c.time, market);
  return ResultCode.Ok;
}

/** The loan's ledger account (kind, sub) and its records' market. */
const where = (c: Command): [number, number, number] =>
  isCross(c) ? [AccountKind.CrossMargin, 0, CROSS_MARKET] : [AccountKind.Margin, c.market, c.market];

/** The holding of `cur` and the figures of the account `c` names. */
function accountOf(ex: ExchangeContext, c: Command, cur: number): [Holding, MarginFigures] {
  if (isCross(c)) {
    const v = crossAccountOf(ex, c.uid);
    return [v.holdings[cur]!, v.figures];
  }
  const v = marginAccountOf(ex, c.uid, c.market);
  return [v.base.code === ex.currencies[cur] ? v.base : v.quote, v.figures];
}

function repay(ex: ExchangeContext, c: Command, cur: number, asked: bigint): ResultCode {
  const [kind, sub, market] = where(c);
  const [b, i] = ex.ledger.loanOf(c.uid, cur, kind, sub);
  const units = asked === 0n ? b + i : asked;
  if (units === 0n || units > b + i) return ResultCode.RepayTooMuch;
  const rc = ex.ledger.repay(c.time, c.uid, cur, units, kind, sub);
  if (rc !== ResultCode.Ok) return rc;
  ex.unified.addLoanRecord(c.uid, false, c.side, cur, units, c.time, market);
  return ResultCode.Ok;
}
