/**
 * The unified-account commands, applied by the exchange in its first phase (they complete there):
 *
 *   type            uid    currency  amount / text        side                    price
 *   UnifiedBorrow   owner  index     units                LoanKind (manual/auto)  -
 *   UnifiedRepay    owner  index     units (0 = all owed) LoanKind                -
 *   UnifiedAccrue   -      -         -                    -                       -
 *   UnifiedSetMode  owner  -         -                    mode (0..3)             settings bits
 *
 * Wide currencies carry units as a decimal integer in `text` (as funds commands do).
 * Borrow checks, in order: InvalidParam (currency, amount) → UserNotFound → BorrowNotAllowed (mode) →
 * AmountTooLittle (below the currency minimum) → TradeRestricted (maintenance margin breached) →
 * BorrowTooLarge (pool, user maximum) → MarginNotEnough (initial margin). Repay: InvalidParam → UserNotFound →
 * RepayTooMuch → BalanceNotEnough. Accrue charges every open loan for the whole hours since the last accrual
 * (the first accrual, or one with nothing owed, only sets the hour), isolated-margin loans (core/margin/) too. SetMode: InvalidParam → UserNotFound →
 * UserPendingOrders (a mode change with open orders) → UserLiab (to classic or single_currency while owing) →
 * InvalidParam (multi_currency's usdt_futures / options switched off) → PositionHolding / UserPendingOrders (a
 * switch that starts or stops carrying USDT futures with a USDT position or futures order open). A switch
 * into carrying USDT futures moves the Futures account's USDT into the unified (Spot) USDT.
 */
import { type Command, CommandType } from '../command.js';
import type { CommandProduct, ExchangeContext } from '../exchange/context.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { invariant } from '../invariant.js';
import { ResultCode } from '../result-code.js';
import { holdingsOf } from './unified-account.js';
import { carriesUsdtFutures, CROSS_MARKET, hourOf, LoanKind, UnifiedSetting } from './unified-state.js';
import { accountFigures, borrowable, borrowingMode, hourlyInterest, UnifiedMode } from './valuation.js';

/** True for the command types of this module. */
export const isUnifiedCommand = (type: number): boolean => type >= CommandType.UnifiedBorrow && type <= CommandType.UnifiedSetMode;

/** Units of the command for currency index `cur`, or -1n when malformed. */
export function unitsOf(ex: ExchangeContext, c: Command, cur: number): bigint {
  if (ex.definition.currencies[cur] !== undefined && ex.ledger.isWide(ex.currencies[cur]!) && c.text !== '') {
    return /^[0-9]{1,40}$/.test(c.text) ? BigInt(c.text) : -1n;
  }
  return Number.isSafeInteger(c.amount) && c.amount >= 0 ? BigInt(c.amount) : -1n;
}

const validCurrency = (ex: ExchangeContext, cur: number): boolean => (cur | 0) === cur && cur >= 0 && cur < ex.currencies.length;
const validKind = (k: number): boolean => k === LoanKind.Manual || k === LoanKind.Auto;

/** The unified account's loans, accruals and mode switches: a product whose commands complete in R1. */
export const UNIFIED_LOANS: CommandProduct = {
  name: 'unified',
  commands: [CommandType.UnifiedBorrow, CommandType.UnifiedRepay, CommandType.UnifiedAccrue, CommandType.UnifiedSetMode],
  apply: (ex, c) => applyUnified(ex, c),
};

/** Applies a unified command; Ok or the rejection (nothing changed). */
export function applyUnified(ex: ExchangeContext, c: Command): ResultCode {
  switch (c.type) {
    case CommandType.UnifiedBorrow: return borrow(ex, c);
    case CommandType.UnifiedRepay: return repay(ex, c);
    case CommandType.UnifiedAccrue: return accrue(ex, c.time);
    case CommandType.UnifiedSetMode: return setMode(ex, c);
    default: return ResultCode.InvalidParam;
  }
}

function borrow(ex: ExchangeContext, c: Command): ResultCode {
  const cur = c.currency;
  if (!validCurrency(ex, cur) || !validKind(c.side)) return ResultCode.InvalidParam;
  const units = unitsOf(ex, c, cur);
  if (units <= 0n) return ResultCode.InvalidParam;
  if (ex.ledger.mainOf(c.uid) < 0) return ResultCode.UserNotFound;
  const U = ex.unified;
  const mode = U.modeOf(c.uid);
  if (!borrowingMode(mode)) return ResultCode.BorrowNotAllowed;
  const cp = U.params.currencies.get(ex.currencies[cur]!)!;
  if (units < cp.minBorrow) return ResultCode.AmountTooLittle;
  const holdings = holdingsOf(ex, c.uid);
  const fig = accountFigures(holdings, U.params);
  if (fig.locked) return ResultCode.TradeRestricted;
  const h = holdings[cur]!;
  const pool = ex.ledger.poolAvailable(cur);
  if (units > pool || (cp.maxBorrow !== null && h.borrowed + units > cp.maxBorrow)) return ResultCode.BorrowTooLarge;
  if (units > borrowable(mode, h, cp, fig, U.params, pool)) return ResultCode.MarginNotEnough;
  const rc = ex.ledger.borrow(c.time, c.uid, cur, units);
  if (rc !== ResultCode.Ok) return rc;
  if (U.lastHour === 0) U.lastHour = hourOf(c.time);
  U.addLoanRecord(c.uid, true, c.side, cur, units, c.time);
  return ResultCode.Ok;
}

function repay(ex: ExchangeContext, c: Command): ResultCode {
  const cur = c.currency;
  if (!validCurrency(ex, cur) || !validKind(c.side)) return ResultCode.InvalidParam;
  const asked = unitsOf(ex, c, cur);
  if (asked < 0n) return ResultCode.InvalidParam;
  if (ex.ledger.mainOf(c.uid) < 0) return ResultCode.UserNotFound;
  const [b, i] = ex.ledger.loanOf(c.uid, cur);
  const units = asked === 0n ? b + i : asked;
  if (units === 0n || units > b + i) return ResultCode.RepayTooMuch;
  const rc = ex.ledger.repay(c.time, c.uid, cur, units);
  if (rc !== ResultCode.Ok) return rc;
  ex.unified.addLoanRecord(c.uid, false, c.side, cur, units, c.time);
  return ResultCode.Ok;
}

function accrue(ex: ExchangeContext, time: number): ResultCode {
  const U = ex.unified;
  const hour = hourOf(time);
  const loans = ex.ledger.openLoans();
  if (U.lastHour === 0 || loans.length === 0) {
    U.lastHour = hour;
    return ResultCode.Ok;
  }
  const hours = BigInt(hour - U.lastHour);
  if (hours <= 0n) return ResultCode.Ok;
  for (const l of loans) {
    const rate = U.params.currencies.get(ex.currencies[l.cur]!)!.hourlyRate;
    const interest = hourlyInterest(l.borrowed, rate, hours);
    if (interest === 0n) continue;
    const paid = ex.ledger.chargeInterest(time, l.uid, l.cur, interest, l.kind, l.sub);
    const market = l.kind === AccountKind.Margin ? l.sub : l.kind === AccountKind.CrossMargin ? CROSS_MARKET : -1;
    U.addInterestRecord({ uid: l.uid, cur: l.cur, rate, interest, paid: paid === interest, time, market });
  }
  U.lastHour = hour;
  return ResultCode.Ok;
}

/** Settings each mode keeps (the others are dropped on a switch). */
const MODE_SETTINGS: readonly number[] = [
  0,
  UnifiedSetting.UsdtFutures | UnifiedSetting.UseFunding | UnifiedSetting.Options,
  UnifiedSetting.SpotHedge | UnifiedSetting.UseFunding,
  0,
];

function setMode(ex: ExchangeContext, c: Command): ResultCode {
  const mode = c.side;
  const settings = c.price;
  if ((mode | 0) !== mode || mode < 0 || mode > 3 || (settings | 0) !== settings || settings < 0 || settings > 15) return ResultCode.InvalidParam;
  if (ex.ledger.mainOf(c.uid) < 0) return ResultCode.UserNotFound;
  const U = ex.unified;
  const from = U.modeOf(c.uid);
  const before = U.settingsOf(c.uid);
  if (mode !== from) {
    if (ex.orders.openOf(c.uid).length > 0) return ResultCode.UserPendingOrders;
    if (!borrowingMode(mode) && ex.currencies.some((_code, cur) => {
      const [b, i] = ex.ledger.loanOf(c.uid, cur);
      return b + i > 0n;
    })) return ResultCode.UserLiab;
  }
  const keep = settings & MODE_SETTINGS[mode]!;
  if (mode === UnifiedMode.MultiCurrency && from === UnifiedMode.MultiCurrency) {
    const onlyOn = UnifiedSetting.UsdtFutures | UnifiedSetting.Options;
    if ((before & onlyOn & ~keep) !== 0) return ResultCode.InvalidParam;
  }
  const futuresIn = !carriesUsdtFutures(from, before) && carriesUsdtFutures(mode, keep);
  const futuresOut = carriesUsdtFutures(from, before) && !carriesUsdtFutures(mode, keep);
  if (futuresIn || futuresOut) {
    const moved = usdtFuturesMove(ex, c.uid);
    if (moved !== ResultCode.Ok) return moved;
  }
  U.setMode(c.uid, mode, keep);
  if (futuresIn) joinFuturesBalance(ex, c);
  return ResultCode.Ok;
}

/**
 * Whether `uid`'s USDT futures margin may change accounts (a mode switch that starts or stops carrying USDT
 * futures): not with a USDT position (PositionHolding) or an open USDT futures order (UserPendingOrders).
 * Ok when the exchange has no USDT contract or nothing is open.
 */
function usdtFuturesMove(ex: ExchangeContext, uid: number): ResultCode {
  const F = ex.futures;
  const usdt = ex.currencies.indexOf('USDT');
  for (let ci = 0; ci < F.contracts.length; ci++) {
    if (F.acct[ci] !== usdt) continue;
    const market = F.marketOf[ci]!;
    for (let slot = 0; slot < 3; slot++) {
      const r = F.positions.find(uid, market, slot);
      if (r >= 0 && F.positions.size[r] !== 0) return ResultCode.PositionHolding;
    }
    if (ex.orders.openOf(uid, market).length > 0) return ResultCode.UserPendingOrders;
  }
  return ResultCode.Ok;
}

/**
 * On switching into a mode that carries USDT futures, the USDT left in the user's Futures account joins its
 * unified (Spot) USDT, as Gate merges the accounts; the futures account history records it as `dnw`.
 */
function joinFuturesBalance(ex: ExchangeContext, c: Command): void {
  const usdt = ex.currencies.indexOf('USDT');
  if (usdt < 0) return;
  const b = ex.ledger.balance(c.uid, AccountKind.Futures, usdt, 'USDT');
  if (b === undefined) return;
  const units = BigInt(b.available);
  if (units === 0n) return;
  const amount = ex.ledger.isWide('USDT') ? units : Number(units);
  const code = ex.ledger.transfer(c.time, c.uid, AccountKind.Futures, usdt, c.uid, AccountKind.Spot, 0, 'USDT', amount, 'unified');
  invariant(code === ResultCode.Ok, `moving futures USDT into the unified account failed (code ${code})`);
  ex.futures.account(c.uid, usdt).dnw -= units;
}

