/**
 * The margin guard on funds leaving a unified account: a debit, a transfer out of the Spot account or a
 * withdrawal hold by a user in a borrowing mode (multi_currency, portfolio) who owes may take at most what
 * `transferable` allows (valuation.ts), else BalanceNotEnough, so borrowed funds cannot leave the margin that
 * carries them. Users without liabilities, and every other account, are not affected. Cost: a map lookup for
 * users outside the borrowing modes; a valuation of the user's holdings otherwise.
 */
import { type Command, CommandType } from '../command.js';
import type { Exchange } from '../exchange/exchange.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { ResultCode } from '../result-code.js';
import { figuresOf, holdingsOf } from './unified-account.js';
import { borrowingMode, transferable } from './valuation.js';

/** Ok, or BalanceNotEnough when `c` would move more out of a borrowing unified account than its margin allows. */
export function unifiedOutflow(ex: Exchange, c: Command): ResultCode {
  const mode = ex.unified.modeOf(c.uid);
  if (!borrowingMode(mode)) return ResultCode.Ok;
  if (c.type !== CommandType.WithdrawHold && (c.kind !== AccountKind.Spot || c.sub !== 0)) return ResultCode.Ok;
  const cur = c.currency;
  if ((cur | 0) !== cur || cur < 0 || cur >= ex.currencies.length) return ResultCode.Ok;
  let units: bigint;
  if (c.text !== '' && /^[0-9]{1,40}$/.test(c.text)) units = BigInt(c.text);
  else if (Number.isSafeInteger(c.amount) && c.amount > 0) units = BigInt(c.amount);
  else return ResultCode.Ok;
  const holdings = holdingsOf(ex, c.uid);
  const fig = figuresOf(ex, holdings);
  if (fig.liabUsd === 0n) return ResultCode.Ok;
  return units > transferable(mode, holdings[cur]!, fig) ? ResultCode.BalanceNotEnough : ResultCode.Ok;
}
