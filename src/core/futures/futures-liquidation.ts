/**
 * Liquidation and auto-deleveraging of perpetual positions (fields: futures-commands.ts), issued by the engine's
 * edge (src/engine/futures: the liquidator) or the control plane, journaled like any other; each re-checks its
 * condition against the state (a position safe again is NotLiquidatable), so a stale decision changes nothing.
 *
 * Liquidation (help 22159, simplified: docs/futures.md): the position's orders must already be cancelled
 * (the liquidator cancels them first); the liquidator (INSURANCE_UID) takes the position over at its
 * bankruptcy price, where the owner's margin is exactly used up — the owner realises −margin (what rounding
 * leaves goes to the insurance fund); then the liquidator's IOC order (futures-orders.ts) closes it through the
 * book, its gains and losses falling on the insurance fund; a remainder the fund cannot carry is
 * auto-deleveraged: closed against the most profitable opposite positions (highest PnL × leverage first) at
 * the liquidator's entry price.
 */
import { type Command } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { BookType } from '../ledger/account-book.js';
import { curOf, INSURANCE_UID, kindOfAcct, NO_HOLD } from '../ledger/futures-funds.js';
import { FinishAs, OrderType, Side, TimeInForce } from '../matching/order-types.js';
import { packAccount } from '../exchange/order-store.js';
import { ResultCode } from '../result-code.js';
import { cashFlow } from './contract.js';
import { formatSigned, maxBig, minBig, parseSignedUnits, RATE_ONE } from './futures-math.js';
import { FuturesFlag, positionRow } from './futures-orders.js';
import { FuturesState } from './futures-state.js';
import { recordClose, tradePosition } from './position-fills.js';
import { PositionSlot, positionHoldKey } from './position-store.js';
import { bankruptcyPrice, effectiveLeverage, entryTicks, liquidationPrice, maintenanceMargin, mmrOf, positionValue, unrealisedPnl } from './risk.js';
import { crossFigures } from './account-figures.js';
import { contractOfCommand, ok } from './command-parts.js';

/** True when the isolated position `row` (or its cross account) is at or below maintenance margin at the mark. */
export function isLiquidatable(ctx: ExchangeContext, ci: number, row: number): boolean {
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const mark = S.mark[ci]!;
  if (P.size[row] === 0 || mark <= 0 || P.uid[row] === INSURANCE_UID) return false;
  if (P.leverage[row] === 0) {
    const f = crossFigures(ctx, P.uid[row]!, S.acct[ci]!);
    return f.positions > 0 && f.marginBalance <= f.maintenance;
  }
  const margin = maxBig(0n, ctx.ledger.futures.held(positionHoldKey(row)));
  const upnl = unrealisedPnl(k, P.size[row]!, P.basis[row]!, mark);
  const mm = maintenanceMargin(k, positionValue(k, P.size[row]!, mark), mmrOf(k, P.riskLimit[row]!));
  return margin + upnl <= mm;
}

/** The liquidator takes position `row` over at its bankruptcy price (see the module comment). */
export function liquidate(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const cur = S.acct[ci]!;
  const row = P.find(c.uid, c.market, c.sub);
  if (row < 0 || !isLiquidatable(ctx, ci, row)) return ResultCode.NotLiquidatable;
  const cross = P.leverage[row] === 0;
  // Its orders must be gone first: an isolated position's in this contract, a cross account's in every contract.
  for (const r of P.rowsOf(c.uid)) {
    if (S.acct[S.contractOf(P.market[r]!)] !== cur) continue;
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
    L.toAmount(cur, 0n), packAccount(kindOfAcct(cur), flags));
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
  FuturesState.push(S.insurance, { t: Math.floor(c.time / 1e6), cur: curOf(cur), balance: L.insuranceFund(cur).toString() });
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
  const cur = S.acct[ci]!;
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
export function deleverage(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0) return ResultCode.ContractNotFound;
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  const cur = S.acct[ci]!;
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
      L.toAmount(cur, 0n), packAccount(kindOfAcct(cur), FuturesFlag.ReduceOnly));
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
  const cur = S.acct[ci]!;
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
      S.unbacked[curOf(cur)] = S.unbacked[curOf(cur)]! + (loss - fund);
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

