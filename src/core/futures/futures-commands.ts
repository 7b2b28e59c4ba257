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
 *
 * Units on a wide settle currency travel in `text` (integer units). Rates are 10^-8 (signed). Leverage 0 is
 * cross margin; leverage and risk limit apply to both legs in dual mode. The prices, funding, liquidation
 * and deleveraging commands come from the engine's own edge (src/api/futures: the price clock and the
 * liquidator), journaled like any other so replays reproduce them; each re-checks its condition against the
 * state (a liquidation of a position that is safe again is NotLiquidatable) so a stale decision changes nothing.
 *
 * Liquidation (help 22159, simplified: docs/futures.md): the position's orders must already be cancelled
 * (the liquidator cancels them first); the liquidator (INSURANCE_UID) takes the position over at its
 * bankruptcy price, where the owner's margin is exactly used up — the owner realises −margin (what rounding
 * leaves goes to the insurance fund); then the liquidator's IOC order (futures-orders.ts) closes it through the
 * book, its gains and losses falling on the insurance fund; a remainder the fund cannot carry is
 * auto-deleveraged: closed against the most profitable opposite positions (highest PnL × leverage first) at
 * the liquidator's entry price.
 */
import { type Command, CommandType } from '../command.js';
import type { CommandProduct, ExchangeContext } from '../exchange/context.js';
import { invariant } from '../invariant.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { BookType } from '../ledger/account-book.js';
import { INSURANCE_UID, NO_HOLD } from '../ledger/futures-funds.js';
import { FinishAs, OrderType, Side, TimeInForce } from '../matching/order-types.js';
import { packAccount } from '../exchange/order-store.js';
import { ResultCode } from '../result-code.js';
import { type Contract, cashFlow, valueAt } from './contract.js';
import { abs, divRound, formatSigned, maxBig, minBig, parseSignedUnits, RATE_ONE, Round } from './futures-math.js';
import { FuturesFlag, positionRow } from './futures-orders.js';
import { FuturesState } from './futures-state.js';
import { ensurePositionHold, recordClose, tradePosition } from './position-fills.js';
import { PositionSlot, positionHoldKey } from './position-store.js';
import {
  bankruptcyPrice, effectiveLeverage, entryTicks, liquidationPrice, maintenanceMargin, maxLeverageOf, mmrOf, openingMargin,
  positionValue, unrealisedPnl,
} from './risk.js';
import { crossFigures } from './account-figures.js';

const ok = (code: number): void => invariant(code === ResultCode.Ok, `futures command failed (code ${code})`);

/** Units of a money field: `amount`, or `text` on a wide settle currency; -1n when malformed. */
function unitsOf(c: Command): bigint {
  if (c.text !== '') return /^[0-9]{1,40}$/.test(c.text) ? BigInt(c.text) : -1n;
  return Number.isSafeInteger(c.amount) && c.amount >= 0 ? BigInt(c.amount) : -1n;
}

/** The contract index of the command's market, or -1. */
const contractOfCommand = (ctx: ExchangeContext, c: Command): number => ctx.futures.contractOf(c.market);

/** Rows of (uid, contract) the command applies to: the single row, or both legs in dual mode. @allocates */
function rowsFor(ctx: ExchangeContext, ci: number, uid: number, time: number): number[] {
  const S = ctx.futures;
  if (!S.isDual(uid, S.settleCur[ci]!)) return [positionRow(ctx, ci, uid, PositionSlot.Single, time)];
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

function setLeverage(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  if (!ctx.ledger.futures.hasAccount(c.uid, cur) || c.uid === INSURANCE_UID) return ResultCode.UserNotFound;
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
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  const L = ctx.ledger.futures;
  if (!L.hasAccount(c.uid, cur) || c.uid === INSURANCE_UID) return ResultCode.UserNotFound;
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
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  if (!ctx.ledger.futures.hasAccount(c.uid, cur) || c.uid === INSURANCE_UID) return ResultCode.UserNotFound;
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
    if (S.settleCur[S.contractOf(P.market[r]!)] !== cur) continue;
    if (P.size[r] !== 0) return ResultCode.PositionHolding;
    if (P.pending[r] !== 0) return ResultCode.OrderPending;
  }
  S.account(c.uid, cur).dual = c.side === 1;
  return ResultCode.Ok;
}

function setPrices(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const ticks = (v: number): boolean => Number.isSafeInteger(v) && v >= 0;
  if (!ticks(c.price) || !ticks(c.amount) || !Number.isSafeInteger(c.iceberg) || c.price % k.markTick !== 0) return ResultCode.InvalidParam;
  if (c.price > 0) S.mark[ci] = c.price;
  if (c.amount > 0) S.index[ci] = c.amount;
  const cap = k.fundingCap;
  S.indicativeRate[ci] = maxBig(-cap, minBig(cap, BigInt(c.iceberg)));
  S.fundingRate[ci] = S.indicativeRate[ci]!;
  if (S.nextFunding[ci] === 0) {
    const now = Math.floor(c.time / 1e6);
    S.nextFunding[ci] = (Math.floor(now / k.fundingInterval) + 1) * k.fundingInterval;
  }
  return ResultCode.Ok;
}

/** Funding of one contract at its rate (capped), each position paying or receiving value(mark) × rate. */
function funding(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  const mark = S.mark[ci]!;
  if (!Number.isSafeInteger(c.iceberg) || S.nextFunding[ci] === 0 || c.time < S.nextFunding[ci]! * 1e6 || mark <= 0) return ResultCode.NothingDue;
  const rate = maxBig(-k.fundingCap, minBig(k.fundingCap, BigInt(c.iceberg)));
  const L = ctx.ledger.futures;
  const P = S.positions;
  const rows = P.openRows(c.market).filter((r) => P.uid[r] !== INSURANCE_UID);
  const t = Math.floor(c.time / 1e6);
  if (rate !== 0n) {
    // Payers first (rounded up), so the fund holds what receivers (rounded down) are paid.
    const payers = rows.filter((r) => (P.size[r]! > 0) === (rate > 0n));
    const receivers = rows.filter((r) => (P.size[r]! > 0) !== (rate > 0n));
    for (const r of payers) {
      const owed = fundingAmount(k, P.size[r]!, mark, abs(rate), Round.Up);
      const uid = P.uid[r]!;
      const key = positionHoldKey(r);
      const first = P.leverage[r] === 0 ? NO_HOLD : key;
      const second = P.leverage[r] === 0 ? key : NO_HOLD;
      let left = owed;
      for (const place of [first, second]) {
        if (left === 0n) break;
        const has = place === NO_HOLD ? L.available(uid, cur) : maxBig(0n, L.held(place));
        const take = minBig(has, left);
        if (take > 0n) ok(L.insuranceTransfer(c.time, uid, cur, place, -take, BookType.FuturesFund, k.name, 0));
        left -= take;
      }
      const paid = owed - left;
      P.pnlFund[r] = P.pnlFund[r]! - paid;
      S.account(uid, cur).fund -= paid;
      P.touch(r, c.time);
    }
    for (const r of receivers) {
      const due = fundingAmount(k, P.size[r]!, mark, abs(rate), Round.Down);
      const uid = P.uid[r]!;
      const got = minBig(due, L.insuranceFund(cur));
      if (got > 0n) ok(L.insuranceTransfer(c.time, uid, cur, P.leverage[r] === 0 ? NO_HOLD : positionHoldKey(r), got, BookType.FuturesFund, k.name, 0));
      P.pnlFund[r] = P.pnlFund[r]! + got;
      S.account(uid, cur).fund += got;
      P.touch(r, c.time);
    }
  }
  FuturesState.push(S.funding, { t, market: c.market, rate: rate.toString() });
  FuturesState.push(S.insurance, { t, cur, balance: L.insuranceFund(cur).toString() });
  S.nextFunding[ci] = S.nextFunding[ci]! + k.fundingInterval * Math.max(1, Math.floor((t - S.nextFunding[ci]!) / k.fundingInterval) + 1);
  return ResultCode.Ok;
}

/** |n| × value at mark × |rate|, rounded as asked; inverse contracts from the exact |n| / mark. */
function fundingAmount(k: Contract, n: number, mark: number, rate: bigint, mode: Round): bigint {
  const size = BigInt(Math.abs(n));
  if (!k.inverse) return divRound(valueAt(k, size, BigInt(mark)) * rate, RATE_ONE, mode);
  return divRound(size * k.valueFactor * rate, BigInt(mark) * RATE_ONE, mode);
}

/** True when the isolated position `row` (or its cross account) is at or below maintenance margin at the mark. */
export function isLiquidatable(ctx: ExchangeContext, ci: number, row: number): boolean {
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const mark = S.mark[ci]!;
  if (P.size[row] === 0 || mark <= 0 || P.uid[row] === INSURANCE_UID) return false;
  if (P.leverage[row] === 0) {
    const f = crossFigures(ctx, P.uid[row]!, S.settleCur[ci]!);
    return f.positions > 0 && f.marginBalance <= f.maintenance;
  }
  const margin = maxBig(0n, ctx.ledger.futures.held(positionHoldKey(row)));
  const upnl = unrealisedPnl(k, P.size[row]!, P.basis[row]!, mark);
  const mm = maintenanceMargin(k, positionValue(k, P.size[row]!, mark), mmrOf(k, P.riskLimit[row]!));
  return margin + upnl <= mm;
}

/** The liquidator takes position `row` over at its bankruptcy price (see the module comment). */
function liquidate(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  const row = P.find(c.uid, c.market, c.sub);
  if (row < 0 || !isLiquidatable(ctx, ci, row)) return ResultCode.NotLiquidatable;
  const cross = P.leverage[row] === 0;
  // Its orders must be gone first: an isolated position's in this contract, a cross account's in every contract.
  for (const r of P.rowsOf(c.uid)) {
    if (S.settleCur[S.contractOf(P.market[r]!)] !== cur) continue;
    if ((r === row || (cross && P.leverage[r] === 0) || P.market[r] === c.market) && P.pending[r] !== 0) return ResultCode.OrderPending;
  }
  const L = ctx.ledger.futures;
  const n = P.size[row]!;
  const basis = P.basis[row]!;
  const key = positionHoldKey(row);
  // Cross: the account's free balance backs the position too.
  const margin = maxBig(0n, L.held(key)) + (cross ? L.available(c.uid, cur) : 0n);
  const price = bankruptcyPrice(k, n, basis, margin);
  const mark = S.mark[ci]!;
  const liqPrice = liquidationPrice(k, n, basis, maxBig(0n, L.held(key)), P.riskLimit[row]!);
  // The takeover: a fill between the owner and the liquidator at the bankruptcy price, without fees.
  const orderId = ctx.lastOrderId + 1;
  ctx.issueOrderId(orderId);
  const O = ctx.orders;
  const side = n > 0 ? Side.Sell : Side.Buy;
  const size = Math.abs(n);
  const p = Number(price);
  const flags = FuturesFlag.Liquidation | FuturesFlag.ReduceOnly | FuturesFlag.Close;
  const r = O.open(orderId, c.uid, c.market, side, OrderType.Limit, TimeInForce.Ioc, p, size, 0, 0, 0, 'liquidation', c.time,
    L.toAmount(cur, 0n), packAccount(AccountKind.Futures, flags));
  const sys = positionRow(ctx, ci, INSURANCE_UID, PositionSlot.Single, c.time);
  const marginBefore = maxBig(0n, L.held(key));
  // What the bankruptcy price (on the tick grid) leaves of the margin: the takeover's realised PnL is
  // basis + cash(closing at p), so margin + that is what the owner still has (in available, where the emptied
  // position's margin and any profit went). It goes to the insurance fund: the owner loses its margin in all.
  const left = maxBig(0n, margin + basis + cashFlow(k, n < 0, BigInt(size), price));
  tradeAtBasis(ctx, ci, row, sys, size, p, orderId, c.time, 'liquidated');
  if (left > 0n) forfeit(ctx, ci, row, left, orderId, c.time);
  O.fill(r, size, p, L.toAmount(cur, 0n), c.time, false);
  O.finish(r, FinishAs.Liquidated, 0, c.time);
  FuturesState.push(S.liquidations, {
    t: c.time, uid: c.uid, market: c.market, slot: c.sub, size: n, leverage: P.leverage[row]!,
    margin: formatSigned(marginBefore, k.settleScale), entryPrice: formatSigned(entryTicks(k, n, basis, 8), k.priceScale + 8),
    liqPrice: formatSigned(liqPrice, k.priceScale), markPrice: formatSigned(BigInt(mark), k.priceScale), orderId,
    orderPrice: formatSigned(price, k.priceScale),
  });
  FuturesState.push(S.insurance, { t: Math.floor(c.time / 1e6), cur, balance: L.insuranceFund(cur).toString() });
  return ResultCode.Ok;
}

/**
 * The owner of liquidated (now empty) position `row` hands `left` from its available balance to the insurance
 * fund, as realised PnL of the position it just closed: its history, account totals and close row include it.
 */
function forfeit(ctx: ExchangeContext, ci: number, row: number, left: bigint, orderId: number, time: number): void {
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  const uid = P.uid[row]!;
  ok(ctx.ledger.futures.insuranceTransfer(time, uid, cur, NO_HOLD, -left, BookType.FuturesPnl, `${k.name}:${orderId}`, orderId));
  P.historyPnl[row] = P.historyPnl[row]! - left;
  P.lastClosePnl[row] = P.lastClosePnl[row]! - left;
  S.account(uid, cur).pnl -= left;
  for (let i = S.closes.length - 1; i >= 0; i--) {
    const r = S.closes[i]!;
    if (r.uid !== uid || r.market !== P.market[row] || r.slot !== P.slot[row]) continue;
    const less = (v: string): string => formatSigned(parseSignedUnits(v, k.settleScale)! - left, k.settleScale);
    S.closes[i] = { ...r, pnl: less(r.pnl), pnlPnl: less(r.pnlPnl) };
    break;
  }
}

/**
 * Moves `size` contracts of position `from` to position `to` (opposite direction for `to`) at `price` ticks, no
 * fee: the owner of `from` closes, `to`'s owner opens or closes as its position says.
 */
function tradeAtBasis(ctx: ExchangeContext, ci: number, from: number, to: number, size: number, price: number, ref: number,
  time: number, reason: string): void {
  const P = ctx.futures.positions;
  const closingBuy = P.size[from]! < 0;
  tradePosition(ctx, ci, from, closingBuy, size, price, 0n, 0, ref, time, reason);
  tradePosition(ctx, ci, to, !closingBuy, size, price, 0n, 0, ref, time, reason);
}

/**
 * Auto-deleveraging: the liquidator's remaining position closes against opposite positions, most profitable
 * first (uPnL at the mark × leverage; ties: lower uid, then row), at the liquidator's entry price, so the
 * insurance fund neither gains nor loses. Each victim's close is a finished `auto_deleveraged` order.
 */
function deleverage(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  const sys = P.find(INSURANCE_UID, c.market, PositionSlot.Single);
  if (sys < 0 || P.size[sys] === 0) return ResultCode.NothingDue;
  const victims = adlQueue(ctx, ci, P.size[sys]! > 0);
  const L = ctx.ledger.futures;
  for (const v of victims) {
    const n0 = P.size[sys]!;
    if (n0 === 0) break;
    const take = Math.min(Math.abs(n0), Math.abs(P.size[v]!));
    // The liquidator's entry price (shown on the tick grid; the trade itself moves its exact basis share).
    const price = Number(entryTicks(k, n0, P.basis[sys]!, 0)) || S.mark[ci]!;
    const orderId = ctx.lastOrderId + 1;
    ctx.issueOrderId(orderId);
    const uid = P.uid[v]!;
    const nv = P.size[v]!;
    const side = nv > 0 ? Side.Sell : Side.Buy;
    // The victim's entry before the trade (its row in auto_deleverages, and its close row when it empties).
    const entry = entryTicks(k, nv, P.basis[v]!, 8);
    const r = ctx.orders.open(orderId, uid, c.market, side, OrderType.Limit, TimeInForce.Ioc, price, take, 0, 0, 0, 'adl', c.time,
      L.toAmount(cur, 0n), packAccount(AccountKind.Futures, FuturesFlag.ReduceOnly));
    exchangeBasis(ctx, ci, sys, v, take, orderId, c.time);
    if (P.size[v] === 0) recordClose(ctx, ci, v, nv, entry, price, 'adl', c.time);
    ctx.orders.fill(r, take, price, L.toAmount(cur, 0n), c.time, false);
    ctx.orders.finish(r, FinishAs.AutoDeleveraged, 0, c.time);
    FuturesState.push(S.adl, {
      t: c.time, uid, market: c.market, slot: P.slot[v]!, orderId, leverage: P.leverage[v]!, crossLimit: P.crossLimit[v]!,
      entryPrice: formatSigned(entry, k.priceScale + 8),
      fillPrice: formatSigned(BigInt(price), k.priceScale), tradeSize: side === Side.Sell ? -take : take, positionSize: P.size[v]!,
    });
  }
  return ResultCode.Ok;
}

/**
 * The liquidator hands `take` contracts to victim `v` at the liquidator's own basis share: the liquidator
 * realises exactly 0, the victim realises its PnL against that price.
 */
function exchangeBasis(ctx: ExchangeContext, ci: number, sys: number, v: number, take: number, ref: number, time: number): void {
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const cur = S.settleCur[ci]!;
  const L = ctx.ledger.futures;
  const n0 = P.size[sys]!;
  const share = take === Math.abs(n0) ? P.basis[sys]! : (P.basis[sys]! * BigInt(take)) / BigInt(Math.abs(n0));
  // Liquidator: its basis share leaves, and the cash of closing equals it (−share): realised 0.
  P.basis[sys] = P.basis[sys]! - share;
  P.size[sys] = n0 + (n0 > 0 ? -take : take);
  P.touch(sys, time);
  // Victim: closes `take` with the opposite cash (+share), realising share + its own basis share.
  const nv = P.size[v]!;
  const vb = take === Math.abs(nv) ? P.basis[v]! : (P.basis[v]! * BigInt(take)) / BigInt(Math.abs(nv));
  const pnl = share + vb;
  let realised = pnl;
  const key = positionHoldKey(v);
  const margin = maxBig(0n, L.held(key));
  const slice = take === Math.abs(nv) ? margin : (margin * BigInt(take)) / BigInt(Math.abs(nv));
  P.basis[v] = P.basis[v]! - vb;
  P.size[v] = nv + (nv > 0 ? -take : take);
  const text = `${k.name}:${ref}`;
  const uid = P.uid[v]!;
  if (pnl >= 0n) {
    ok(L.realisePnl(time, uid, cur, NO_HOLD, pnl, text, ref));
    ok(L.move(key, NO_HOLD, slice));
  } else {
    // A victim is chosen for profit at the mark; at the liquidator's price it may still lose: paid as any loss.
    let loss = -pnl;
    for (const place of [key, NO_HOLD]) {
      const has = place === NO_HOLD ? L.available(uid, cur) : maxBig(0n, L.held(place));
      const t = minBig(has, loss);
      if (t > 0n) ok(L.realisePnl(time, uid, cur, place, -t, text, ref));
      loss -= t;
    }
    if (loss > 0n) {
      const fund = minBig(L.insuranceFund(cur), loss);
      if (fund > 0n) ok(L.insuranceClearing(time, cur, -fund, text, ref));
      S.unbacked[cur] = S.unbacked[cur]! + (loss - fund);
      realised += loss; // the victim realises only what it paid
    }
    ok(L.move(key, NO_HOLD, P.size[v] === 0 ? maxBig(0n, L.held(key)) : minBig(maxBig(0n, L.held(key)), maxBig(0n, slice + pnl))));
  }
  P.pnlPnl[v] = P.pnlPnl[v]! + realised;
  S.account(uid, cur).pnl += realised;
  P.touch(v, time);
}

/**
 * Opposite positions of a contract in auto-deleveraging order: profitable ones (uPnL at the mark > 0) by
 * uPnL × effective leverage / value, highest first; ties by uid then row. @allocates
 */
export function adlQueue(ctx: ExchangeContext, ci: number, againstLong: boolean): number[] {
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const mark = S.mark[ci]!;
  const market = S.marketOf[ci]!;
  const scored: { r: number; score: bigint }[] = [];
  for (const r of P.openRows(market)) {
    if (P.uid[r] === INSURANCE_UID || (P.size[r]! > 0) === againstLong) continue;
    const upnl = unrealisedPnl(k, P.size[r]!, P.basis[r]!, mark);
    const value = maxBig(1n, positionValue(k, P.size[r]!, mark));
    const lev = BigInt(effectiveLeverage(k, P.leverage[r]!, P.crossLimit[r]!, P.riskLimit[r]!));
    scored.push({ r, score: (upnl * lev * RATE_ONE) / value });
  }
  scored.sort((a, b) => (a.score === b.score ? P.uid[a.r]! - P.uid[b.r]! || a.r - b.r : a.score > b.score ? -1 : 1));
  return scored.map((s) => s.r);
}

export const FUTURES_COMMANDS: CommandProduct = {
  name: 'futures',
  commands: [CommandType.FuturesSetLeverage, CommandType.FuturesUpdateMargin, CommandType.FuturesSetRiskLimit,
    CommandType.FuturesSetDualMode, CommandType.FuturesSetPrices, CommandType.FuturesFunding, CommandType.FuturesLiquidate,
    CommandType.FuturesDeleverage],
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
    default: return ResultCode.InvalidParam;
  }
}
