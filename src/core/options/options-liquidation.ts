/**
 * Liquidation of options accounts: a seller's maintenance margin enforced. Issued by the engine's edge (the
 * options liquidator, engine/options/options-liquidator.ts) like any journaled command; it re-checks its condition
 * against the state, so a stale decision changes nothing.
 *
 * Trigger (options-account.ts figures, marks as journaled): an options account with at least one short position
 * whose equity (total + position value at the mark) is at or below its maintenance margin.
 *
 * OptionsLiquidate (uid = the owner, currency = the settle currency): refused with NotLiquidatable when the
 * account is not (or no longer) liquidatable, with OrderPending while any of its options orders of that currency
 * is open (the edge cancels them first). Then the liquidator (INSURANCE_UID, whose options account of the
 * currency is the options insurance fund) takes positions over at their marks, without fees:
 *   1. every short position, its margin hold released first: the owner pays the mark value k × multiplier × mark
 *      to the fund from its account; what it cannot pay is the deficit;
 *   2. while a deficit is left, long positions in row order: each is taken over for (up to) the deficit in whole
 *      contracts, ⌈deficit / unit⌉ at the mark's unit value (its value settles that much of the deficit; an excess
 *      over the deficit is paid to the owner from the fund — ⌊deficit / unit⌋ contracts instead when the fund's
 *      available cannot pay it); a worthless (mark 0) long is left;
 *   3. the deficit left is the fund's loss: the fund simply received less than the value of what it took over.
 * Each position taken leaves a finished order of the owner (text `liquidation`, finish_as liquidated, is_liq,
 * filled at the mark), a close row (text `liquidated`) when it empties, and a liquidation row; the fund's balance
 * after the command is an insurance row. The owner's longs that the deficit did not need stay its own.
 *
 * What the liquidator holds it trades out through the book (its IOC orders, options-orders.ts: reduce-only, at
 * most `liquidation_price_band` from the mark) or keeps to expiry, where OptionsSettle settles it against the fund.
 * Conservation: only premiums between two options accounts move; clearing is untouched.
 * Costs: O(the owner's position rows); BigInt arithmetic; one order record and history row per position taken.
 */
import { type Command } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { packAccount } from '../exchange/order-store.js';
import { divRound, Round } from '../futures/futures-math.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { INSURANCE_UID, NO_HOLD } from '../ledger/futures-funds.js';
import { FinishAs, OrderType, Side, TimeInForce } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import { invariant } from '../invariant.js';
import { noteInsurance, type OptionsAccountFigures, optionsAccountFigures } from './options-account.js';
import { premium } from './options-margin.js';
import { OptionsFlag } from './options-orders.js';
import { tradeRow } from './options-positions.js';
import { OptionsState, positionKey } from './options-state.js';

/** True when `uid`'s account figures `f` call for its liquidation: a short open and equity ≤ maintenance margin. */
export const liquidatableBy = (uid: number, f: OptionsAccountFigures): boolean =>
  uid !== INSURANCE_UID && f.shorts > 0 && f.equity <= f.maintenanceMargin;

/** True when (uid, cur)'s options account is liquidatable now (module comment). */
export function isOptionsLiquidatable(ctx: Pick<ExchangeContext, 'options' | 'ledger'>, uid: number, cur: number): boolean {
  return liquidatableBy(uid, optionsAccountFigures(ctx, uid, cur));
}

/** OptionsLiquidate (see the module comment). */
export function liquidateOptions(ctx: ExchangeContext, c: Command): ResultCode {
  const S = ctx.options;
  const L = ctx.ledger.options;
  const cur = c.currency;
  if ((cur | 0) !== cur || !S.settleCur.includes(cur) || !Number.isSafeInteger(c.uid)) return ResultCode.InvalidParam;
  if (!L.hasAccount(c.uid, cur)) return ResultCode.UserNotFound;
  const f = optionsAccountFigures(ctx, c.uid, cur);
  if (!liquidatableBy(c.uid, f)) return ResultCode.NotLiquidatable;
  const rows = S.rowsOf(c.uid).filter((r) => S.settleCur[S.contracts[S.rows[r]!.ci]!.u] === cur);
  if (rows.some((r) => S.rows[r]!.pending !== 0)) return ResultCode.OrderPending;
  const shorts = rows.filter((r) => S.rows[r]!.size < 0);
  const longs = rows.filter((r) => S.rows[r]!.size > 0);
  const equity = f.equity.toString();
  const maintenance = f.maintenanceMargin.toString();
  const initial = f.initialMargin.toString();
  for (const r of shorts) {
    if (L.held(positionKey(r)) >= 0n) invariant(L.closeHold(positionKey(r)) === ResultCode.Ok, 'options margin not released');
  }
  let deficit = 0n;
  for (const r of shorts) {
    const p = S.rows[r]!;
    const k = -p.size;
    const value = takeOver(ctx, c, r, k, equity, maintenance, initial);
    const has = L.available(c.uid, cur);
    const paid = value < has ? value : has;
    payOrDie(ctx, c.time, c.uid, INSURANCE_UID, cur, paid, p.ci);
    deficit += value - paid;
  }
  for (const r of longs) {
    if (deficit === 0n) break;
    const p = S.rows[r]!;
    const u = S.underlyings[S.contracts[p.ci]!.u]!;
    const unit = premium(u, 1n, BigInt(S.mark[p.ci]!));
    if (unit === 0n) continue;
    let k = divRound(deficit, unit, Round.Up);
    if (k > BigInt(p.size)) k = BigInt(p.size);
    if (k * unit > deficit && L.available(INSURANCE_UID, cur) < k * unit - deficit) k = deficit / unit;
    if (k === 0n) continue;
    const value = takeOver(ctx, c, r, Number(k), equity, maintenance, initial);
    if (value > deficit) payOrDie(ctx, c.time, INSURANCE_UID, c.uid, cur, value - deficit, p.ci);
    deficit = value > deficit ? 0n : deficit - value;
  }
  noteInsurance(ctx, cur, c.time);
  return ResultCode.Ok;
}

/**
 * The liquidator takes `k` contracts of position `row` over at the contract's mark, without fee: both rows move
 * (tradeRow), and the owner gets a finished liquidation order and a liquidation row. Returns the value moved
 * (k × multiplier × mark), which the caller settles.
 */
function takeOver(ctx: ExchangeContext, c: Command, row: number, k: number, equity: string, maintenance: string, initial: string): bigint {
  const S = ctx.options;
  const p = S.rows[row]!;
  const ci = p.ci;
  const mark = S.mark[ci]!;
  const n = p.size;
  const ownerBuys = n < 0;
  const orderId = ctx.lastOrderId + 1;
  ctx.issueOrderId(orderId);
  const cur = S.settleCur[S.contracts[ci]!.u]!;
  const zero = ctx.ledger.options.toAmount(cur, 0n);
  const O = ctx.orders;
  const r = O.open(orderId, c.uid, S.marketOf[ci]!, ownerBuys ? Side.Buy : Side.Sell, OrderType.Limit, TimeInForce.Ioc, mark, k, 0, 0, 0,
    'liquidation', c.time, zero, packAccount(AccountKind.Options, OptionsFlag.Liquidation | OptionsFlag.ReduceOnly));
  const sys = S.ensure(INSURANCE_UID, ci, c.time);
  tradeRow(ctx, row, ownerBuys, k, mark, 0n, c.time, 'liquidated');
  tradeRow(ctx, sys, !ownerBuys, k, mark, 0n, c.time, 'close');
  O.fill(r, k, mark, zero, c.time, false);
  O.finish(r, FinishAs.Liquidated, 0, c.time);
  OptionsState.push(S.liquidations, { t: c.time, uid: c.uid, ci, size: ownerBuys ? -k : k, price: mark, orderId, equity, maintenance, initial });
  return premium(S.underlyings[S.contracts[ci]!.u]!, BigInt(k), BigInt(mark));
}

function payOrDie(ctx: ExchangeContext, time: number, from: number, to: number, cur: number, units: bigint, ci: number): void {
  invariant(ctx.ledger.options.pay(time, from, NO_HOLD, to, NO_HOLD, cur, units, ctx.options.contracts[ci]!.name, ctx.lastOrderId)
    === ResultCode.Ok, 'options takeover not paid');
}
