/**
 * The margin guard on funds leaving a unified account: a debit, a transfer out of the Spot account or a
 * withdrawal hold by a user in a borrowing mode (multi_currency, portfolio) who owes may take at most what
 * `transferable` allows (valuation.ts), else BalanceNotEnough, so borrowed funds cannot leave the margin that
 * carries them. Likewise a debit or transfer out of an isolated Margin account that owes may take at most its
 * `marginTransferable` (margin/margin-risk.ts), and one out of the cross-margin account that owes its
 * `marginTransferable` over all its currencies (margin/cross-margin.ts). Users without liabilities, and every other account, are not
 * affected. Cost: a map lookup for users outside the borrowing modes; a valuation of the holdings otherwise.
 */
import { type Command, CommandType } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { ResultCode } from '../result-code.js';
import { crossAccountOf } from '../margin/cross-margin.js';
import { marginAccountOf } from '../margin/margin-account.js';
import { marginTransferable } from '../margin/margin-risk.js';
import { figuresOf, holdingsOf } from './unified-account.js';
import { borrowingMode, transferable } from './valuation.js';

/** Ok, or BalanceNotEnough when `c` would move more out of a borrowing unified account than its margin allows. */
export function unifiedOutflow(ex: ExchangeContext, c: Command): ResultCode {
  if (c.type !== CommandType.WithdrawHold && c.kind === AccountKind.Margin) return marginOutflow(ex, c);
  if (c.type !== CommandType.WithdrawHold && c.kind === AccountKind.CrossMargin) return crossOutflow(ex, c);
  const mode = ex.unified.modeOf(c.uid);
  if (!borrowingMode(mode)) return ResultCode.Ok;
  if (c.type !== CommandType.WithdrawHold && (c.kind !== AccountKind.Spot || c.sub !== 0)) return ResultCode.Ok;
  const cur = c.currency;
  const units = outUnits(ex, c);
  if (units === undefined) return ResultCode.Ok;
  const holdings = holdingsOf(ex, c.uid);
  const fig = figuresOf(ex, holdings);
  if (fig.liabUsd === 0n) return ResultCode.Ok;
  return units > transferable(mode, holdings[cur]!, fig) ? ResultCode.BalanceNotEnough : ResultCode.Ok;
}

/** Units `c` moves out, or undefined when its currency or amount is malformed (the funds check answers). */
function outUnits(ex: ExchangeContext, c: Command): bigint | undefined {
  const cur = c.currency;
  if ((cur | 0) !== cur || cur < 0 || cur >= ex.currencies.length) return undefined;
  if (c.text !== '' && /^[0-9]{1,40}$/.test(c.text)) return BigInt(c.text);
  if (Number.isSafeInteger(c.amount) && c.amount > 0) return BigInt(c.amount);
  return undefined;
}

function marginOutflow(ex: ExchangeContext, c: Command): ResultCode {
  const m = c.sub;
  const units = outUnits(ex, c);
  if (units === undefined || (m | 0) !== m || m < 0 || m >= ex.spotMarkets) return ResultCode.Ok;
  const v = marginAccountOf(ex, c.uid, m);
  if (v.figures.liabUsd === 0n) return ResultCode.Ok;
  const h = v.base.code === ex.currencies[c.currency] ? v.base : v.quote.code === ex.currencies[c.currency] ? v.quote : undefined;
  if (h === undefined) return ResultCode.Ok;
  return units > marginTransferable(h, v.figures, ex.unified.params) ? ResultCode.BalanceNotEnough : ResultCode.Ok;
}

function crossOutflow(ex: ExchangeContext, c: Command): ResultCode {
  const units = outUnits(ex, c);
  if (units === undefined || c.sub !== 0) return ResultCode.Ok;
  const v = crossAccountOf(ex, c.uid);
  if (v.figures.liabUsd === 0n) return ResultCode.Ok;
  return units > marginTransferable(v.holdings[c.currency]!, v.figures, ex.unified.params) ? ResultCode.BalanceNotEnough : ResultCode.Ok;
}
