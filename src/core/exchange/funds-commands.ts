/**
 * Funds, the product of money entering, leaving and moving between accounts: Credit, Debit, Transfer and the
 * withdrawal hold, settle and release. Each completes in R1. The amount is `amount` units, or `text` (integer
 * units) on a wide currency (beyond 2^53). A Transfer's `side` is its purpose (TransferPurpose: which
 * account-book types it writes); a withdrawal's hold is keyed by its numeric id in `orderId`.
 *
 * Guard: money leaving an account that owes (a unified account in a borrowing mode, an isolated or cross margin
 * account) may take at most what its margin allows (unified/unified-outflow.ts), else BalanceNotEnough.
 */
import { type Command, CommandType } from '../command.js';
import { BookType } from '../ledger/account-book.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { DELIVERY_ACCT } from '../ledger/futures-funds.js';
import { ResultCode } from '../result-code.js';
import { unifiedOutflow } from '../unified/unified-outflow.js';
import type { CommandProduct, ExchangeContext } from './context.js';

/** The command's amount in units of currency `code`: `amount`, or `text` (integer units) when wide; -1 if malformed. */
function units(ctx: ExchangeContext, c: Command, code: string): number | bigint {
  if (!ctx.ledger.isWide(code)) return c.amount;
  if (c.text !== '' && !/^[0-9]{1,40}$/.test(c.text)) return -1;
  return c.text !== '' ? BigInt(c.text) : Number.isSafeInteger(c.amount) ? BigInt(c.amount) : -1n;
}

/** Withdrawal hold, settle (amount = fee) and release, keyed by the withdrawal id in `orderId`. */
function withdrawal(ctx: ExchangeContext, c: Command): ResultCode {
  const L = ctx.ledger;
  if (c.type === CommandType.WithdrawRelease) return L.releaseWithdrawal(c.time, c.orderId, c.uid);
  const code = ctx.currencies[c.currency];
  if (code === undefined) return ResultCode.CurrencyNotFound;
  const u = units(ctx, c, code);
  if (u === -1) return ResultCode.InvalidParam;
  if (c.type === CommandType.WithdrawHold) return L.holdWithdrawal(c.time, c.orderId, c.uid, c.currency, u);
  return L.settleWithdrawal(c.time, c.orderId, c.uid, u);
}

/** Credit, debit and transfer. */
function funds(ctx: ExchangeContext, c: Command): ResultCode {
  const code = ctx.currencies[c.currency];
  if (code === undefined) return ResultCode.CurrencyNotFound;
  const amount = units(ctx, c, code);
  if (amount === -1) return ResultCode.InvalidParam;
  const L = ctx.ledger;
  let rc: ResultCode;
  if (c.type === CommandType.Credit) rc = L.credit(c.time, c.uid, c.kind, c.sub, code, amount, BookType.Deposit, '');
  else if (c.type === CommandType.Debit) rc = L.debit(c.time, c.uid, c.kind, c.sub, code, amount, BookType.Withdraw, '');
  else rc = L.transfer(c.time, c.uid, c.kind, c.sub, c.toUid, c.toKind, c.toSub, code, amount, '', c.side);
  if (rc === ResultCode.Ok) noteFuturesFunds(ctx, c, BigInt(amount));
  return rc;
}

/** A futures or delivery account's deposits and withdrawals total (Gate's history `dnw`; margin account codes as futures-funds.ts). */
function noteFuturesFunds(ctx: ExchangeContext, c: Command, units: bigint): void {
  const acct = (kind: number, sub: number): number => (kind === AccountKind.Futures ? sub : kind === AccountKind.Delivery ? sub + DELIVERY_ACCT : -1);
  const from = acct(c.kind, c.sub);
  if (from >= 0) ctx.futures.account(c.uid, from).dnw += c.type === CommandType.Credit ? units : -units;
  const to = c.type === CommandType.Transfer ? acct(c.toKind, c.toSub) : -1;
  if (to >= 0) ctx.futures.account(c.toUid, to).dnw += units;
}

export const FUNDS: CommandProduct = {
  name: 'funds',
  commands: [CommandType.Credit, CommandType.Debit, CommandType.Transfer, CommandType.WithdrawHold, CommandType.WithdrawSettle,
    CommandType.WithdrawRelease],
  apply(ctx, c) {
    switch (c.type) {
      case CommandType.Credit: return funds(ctx, c);
      case CommandType.Debit:
      case CommandType.Transfer: return unifiedOutflow(ctx, c) !== ResultCode.Ok ? ResultCode.BalanceNotEnough : funds(ctx, c);
      case CommandType.WithdrawHold: return unifiedOutflow(ctx, c) !== ResultCode.Ok ? ResultCode.BalanceNotEnough : withdrawal(ctx, c);
      default: return withdrawal(ctx, c);
    }
  },
};
