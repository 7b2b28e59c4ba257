/**
 * Perpetual-futures commands that complete in R1: position settings, margin, position mode, prices,
 * funding, liquidation and auto-deleveraging.
 *
 *   type                 uid    market  sub   side          price        amount / text        iceberg     currency
 *   FuturesSetLeverage   owner  index   -     -             leverage     cross limit          -           -
 *   FuturesUpdateMargin  owner  index   slot  1 add 2 take  -            units                -           -
 *   FuturesSetRiskLimit  owner  index   -     -             -            units                -           -
 *   FuturesSetDualMode   owner  -       -     1 on 0 off    -            -                    -           settle
 *   FuturesSetPrices     -      index   -     -             mark ticks   index ticks          rate        -
 *   FuturesFunding       -      index   -     -             -            -                    rate        -
 *   FuturesLiquidate     owner  index   slot  -             -            -                    -           -
 *   FuturesDeleverage    -      index   -     -             -            -                    -           -
 *   DeliverySettle       -      index   -     -             -            -                    -           -
 *
 * Units on a wide settle currency travel in `text` (integer units). Rates are 10^-8 (signed). Leverage 0 is
 * cross margin; leverage and risk limit apply to both legs in dual mode. This module applies the settings
 * commands and dispatches the rest: prices and funding (futures-funding.ts), liquidation and auto-deleveraging
 * (futures-liquidation.ts), which the engine's edge issues (src/engine/futures).
 */
import { type Command, CommandType } from '../command.js';
import type { CommandProduct, ExchangeContext } from '../exchange/context.js';
import { INSURANCE_UID, NO_HOLD } from '../ledger/futures-funds.js';
import { ResultCode } from '../result-code.js';
import { maxBig, minBig } from './futures-math.js';
import { positionRow } from './futures-orders.js';
import { ensurePositionHold } from './position-fills.js';
import { PositionSlot, positionHoldKey } from './position-store.js';
import { entryTicks, maxLeverageOf, openingMargin, positionValue, unrealisedPnl } from './risk.js';
import { contractOfCommand, ok } from './command-parts.js';
import { funding, setPrices } from './futures-funding.js';
import { deleverage, liquidate } from './futures-liquidation.js';
import { settleDelivery } from './delivery-settlement.js';


/** Units of a money field: `amount`, or `text` on a wide settle currency; -1n when malformed. */
function unitsOf(c: Command): bigint {
  if (c.text !== '') return /^[0-9]{1,40}$/.test(c.text) ? BigInt(c.text) : -1n;
  return Number.isSafeInteger(c.amount) && c.amount >= 0 ? BigInt(c.amount) : -1n;
}


/** Rows of (uid, contract) the command applies to: the single row, or both legs in dual mode. @allocates */
function rowsFor(ctx: ExchangeContext, ci: number, uid: number, time: number): number[] {
  const S = ctx.futures;
  if (!S.isDual(uid, S.acct[ci]!)) return [positionRow(ctx, ci, uid, PositionSlot.Single, time)];
  return [positionRow(ctx, ci, uid, PositionSlot.DualLong, time), positionRow(ctx, ci, uid, PositionSlot.DualShort, time)];
}

/** Tops the isolated margin of `row` up to ⌈value(mark) / leverage⌉; InsufficientAvailable when short. */
function topUpTo(ctx: ExchangeContext, ci: number, row: number, leverage: number): ResultCode {
  const S = ctx.futures;
  const P = S.positions;
  if (P.size[row] === 0 || leverage === 0) return ResultCode.Ok;
  const c = S.contracts[ci]!;
  const mark = S.mark[ci]! > 0 ? S.mark[ci]! : Number(entryTicks(c, P.size[row]!, P.basis[row]!, 0));
  const need = openingMargin(positionValue(c, P.size[row]!, mark), leverage);
  const L = ctx.ledger.futures;
  const key = positionHoldKey(row);
  const have = maxBig(0n, L.held(key));
  if (have >= need) return ResultCode.Ok;
  return L.move(NO_HOLD, key, need - have) === ResultCode.Ok ? ResultCode.Ok : ResultCode.InsufficientAvailable;
}

/**
 * The contract index a settings command names for its owner, or ContractNotFound, or UserNotFound (no futures
 * account in its settle currency, or the reserved liquidator): codes are negative, indexes are not.
 */
function ownedContract(ctx: ExchangeContext, c: Command): number {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  if (!ctx.ledger.futures.hasAccount(c.uid, ctx.futures.acct[ci]!) || c.uid === INSURANCE_UID) return ResultCode.UserNotFound;
  return ci;
}

function setLeverage(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = ownedContract(ctx, c);
  if (ci < 0) return ci as ResultCode;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const lev = c.price;
  const limit = c.amount;
  if (!Number.isSafeInteger(lev) || lev < 0 || !Number.isSafeInteger(limit) || limit < 0) return ResultCode.InvalidParam;
  const rows = rowsFor(ctx, ci, c.uid, c.time);
  const P = S.positions;
  const max = maxLeverageOf(k, P.riskLimit[rows[0]!]!);
  if (lev === 0) {
    if (limit > max) return ResultCode.LeverageTooHigh;
    if (limit !== 0 && limit < k.leverageMin) return ResultCode.LeverageTooLow;
  } else {
    if (lev > max) return ResultCode.LeverageTooHigh;
    if (lev < k.leverageMin) return ResultCode.LeverageTooLow;
  }
  // Lowering an isolated position's leverage needs its initial margin at the new leverage.
  const L = ctx.ledger.futures;
  const before = rows.map((r) => L.held(positionHoldKey(r)));
  for (const r of rows) {
    const code = topUpTo(ctx, ci, r, lev);
    if (code !== ResultCode.Ok) {
      rows.forEach((row, i) => {
        const now = L.held(positionHoldKey(row));
        if (now > before[i]! && before[i]! >= 0n) ok(L.move(positionHoldKey(row), NO_HOLD, now - before[i]!));
      });
      return code;
    }
  }
  for (const r of rows) {
    P.leverage[r] = lev;
    if (lev === 0) P.crossLimit[r] = limit;
    P.touch(r, c.time);
  }
  return ResultCode.Ok;
}

function updateMargin(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = ownedContract(ctx, c);
  if (ci < 0) return ci as ResultCode;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const cur = S.acct[ci]!;
  const L = ctx.ledger.futures;
  const units = unitsOf(c);
  if (units <= 0n || (c.side !== 1 && c.side !== 2)) return ResultCode.InvalidParam;
  const dual = S.isDual(c.uid, cur);
  if (dual !== (c.sub !== PositionSlot.Single) || (c.sub !== 0 && c.sub !== 1 && c.sub !== 2)) return ResultCode.InvalidParam;
  const P = S.positions;
  const row = P.find(c.uid, c.market, c.sub);
  if (row < 0 || P.size[row] === 0) return ResultCode.PositionEmpty;
  if (P.leverage[row] === 0) return ResultCode.PositionCrossMargin;
  const key = positionHoldKey(row);
  ensurePositionHold(ctx, row, cur, c.time);
  if (c.side === 1) {
    if (L.move(NO_HOLD, key, units) !== ResultCode.Ok) return ResultCode.InsufficientAvailable;
  } else {
    const mark = S.mark[ci]! > 0 ? S.mark[ci]! : Number(entryTicks(k, P.size[row]!, P.basis[row]!, 0));
    const held = L.held(key);
    const upnl = unrealisedPnl(k, P.size[row]!, P.basis[row]!, mark);
    // What may leave: the margin above the initial margin at the mark, counting only a loss of the uPnL.
    const im = openingMargin(positionValue(k, P.size[row]!, mark), P.leverage[row]!);
    const spare = held + minBig(0n, upnl) - im;
    if (units > spare) return ResultCode.RemoveTooMuch;
    ok(L.move(key, NO_HOLD, units));
  }
  P.touch(row, c.time);
  return ResultCode.Ok;
}

function setRiskLimit(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = ownedContract(ctx, c);
  if (ci < 0) return ci as ResultCode;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const limit = unitsOf(c);
  if (limit <= 0n) return ResultCode.InvalidParam;
  if (limit > k.riskMax) return ResultCode.RiskLimitTooHigh;
  if (limit < k.riskBase) return ResultCode.RiskLimitTooLow;
  if ((limit - k.riskBase) % k.riskStep !== 0n) return ResultCode.RiskLimitNotMultiple;
  const rows = rowsFor(ctx, ci, c.uid, c.time);
  const P = S.positions;
  const max = maxLeverageOf(k, limit);
  for (const r of rows) {
    const mark = S.mark[ci]! > 0 ? S.mark[ci]! : Number(entryTicks(k, P.size[r]!, P.basis[r]!, 0));
    if (positionValue(k, P.size[r]!, mark) > limit) return ResultCode.RiskLimitTooLow;
    if (P.leverage[r]! > max || P.crossLimit[r]! > max) return ResultCode.LeverageTooHigh;
  }
  for (const r of rows) {
    P.riskLimit[r] = limit;
    P.touch(r, c.time);
  }
  return ResultCode.Ok;
}

function setDualMode(ctx: ExchangeContext, c: Command): ResultCode {
  const S = ctx.futures;
  const cur = c.currency;
  if (!S.settleCur.includes(cur) || (c.side !== 0 && c.side !== 1)) return ResultCode.InvalidParam;
  if (!ctx.ledger.futures.hasAccount(c.uid, cur) || c.uid === INSURANCE_UID) return ResultCode.UserNotFound;
  const P = S.positions;
  for (const r of P.rowsOf(c.uid)) {
    if (S.acct[S.contractOf(P.market[r]!)] !== cur) continue;
    if (P.size[r] !== 0) return ResultCode.PositionHolding;
    if (P.pending[r] !== 0) return ResultCode.OrderPending;
  }
  S.account(c.uid, cur).dual = c.side === 1;
  return ResultCode.Ok;
}

export const FUTURES_COMMANDS: CommandProduct = {
  name: 'futures',
  commands: [CommandType.FuturesSetLeverage, CommandType.FuturesUpdateMargin, CommandType.FuturesSetRiskLimit,
    CommandType.FuturesSetDualMode, CommandType.FuturesSetPrices, CommandType.FuturesFunding, CommandType.FuturesLiquidate,
    CommandType.FuturesDeleverage, CommandType.DeliverySettle],
  apply(ctx, c) {
    if (ctx.futures.contracts.length === 0) return ResultCode.InvalidParam;
    // A rejected command leaves no trace: position rows it created before its checks are dropped.
    const rows = ctx.futures.positions.count;
    const code = applyCommand(ctx, c);
    if (code !== ResultCode.Ok) ctx.futures.positions.truncate(rows);
    return code;
  },
};

/** One futures command (FUTURES_COMMANDS.apply without the clean-up). */
function applyCommand(ctx: ExchangeContext, c: Command): ResultCode {
  switch (c.type) {
    case CommandType.FuturesSetLeverage: return setLeverage(ctx, c);
    case CommandType.FuturesUpdateMargin: return updateMargin(ctx, c);
    case CommandType.FuturesSetRiskLimit: return setRiskLimit(ctx, c);
    case CommandType.FuturesSetDualMode: return setDualMode(ctx, c);
    case CommandType.FuturesSetPrices: return setPrices(ctx, c);
    case CommandType.FuturesFunding: return funding(ctx, c);
    case CommandType.FuturesLiquidate: return liquidate(ctx, c);
    case CommandType.FuturesDeleverage: return deleverage(ctx, c);
    case CommandType.DeliverySettle: return settleDelivery(ctx, c);
    default: return ResultCode.InvalidParam;
  }
}
