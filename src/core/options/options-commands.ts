/**
 * Options commands that complete in R1, issued by the engine's edge (engine/options/options-services.ts):
 *
 *   type              sub               price                   amount
 *   OptionsSetIndex   underlying index  index ticks (> 0)       -
 *   OptionsSettle     underlying index  fallback ticks (> 0)    expiration (seconds since the epoch)
 *
 * OptionsSetIndex also feeds the settlement windows of the underlying's expirations not yet reached: the index is
 * their last index before expiry and, within [E − settle_price_duration, E), a sample (futures/settle-window.ts).
 *
 * OptionsSettle settles every contract of one expiration of an underlying, once its time has come (command time ≥
 * expiration) and none of its orders is open (the edge cancels them first: OrderPending otherwise). The settlement
 * price X is the window's mean index rounded to the tick; with no sample (a simulated clock that jumped over the
 * window), the last index set before expiry; with none at all, the command's price (the edge's index).
 * In-the-money positions settle against X — each short pays k × multiplier × intrinsic(X)
 * from its account (its position margin returned first), each long receives as much — and out-of-the-money ones
 * expire worthless; every position of the expiration is then empty, and settlement records are kept.
 * Payments go through the clearing balance and net back to zero within the command. A seller who cannot pay
 * in full (one the liquidator could not reach in time, or the liquidator itself) leaves a shortfall the options
 * insurance fund covers; should even that fall short, longs are paid in position order until the pool is used up.
 *
 *   OptionsSetMark    -                 mark ticks (> 0)        delta (10^-4, |·| ≤ 1)  market = the contract's
 *   OptionsLiquidate  owner uid         -                       -                      currency = settle currency
 *   OptionsSetMmp, OptionsResetMmp: options-mmp.ts.
 *
 * OptionsSetMark sets a contract's journaled mark price and delta (refused once it is settled: NothingDue).
 * OptionsLiquidate: options-liquidation.ts.
 */
import { type Command, CommandType } from '../command.js';
import type { CommandProduct, ExchangeContext } from '../exchange/context.js';
import { invariant } from '../invariant.js';
import { ResultCode } from '../result-code.js';
import { INSURANCE_UID } from '../ledger/futures-funds.js';
import { noteInsurance } from './options-account.js';
import { liquidateOptions } from './options-liquidation.js';
import { applyMmp } from './options-mmp.js';
import { addWindowSample, windowSettlePrice } from '../futures/settle-window.js';
import { payoff } from './options-margin.js';
import { OptionsState, positionKey } from './options-state.js';

function setIndex(ctx: ExchangeContext, c: Command): ResultCode {
  const S = ctx.options;
  if ((c.sub | 0) !== c.sub || c.sub < 0 || c.sub >= S.underlyings.length) return ResultCode.InvalidParam;
  if (!Number.isSafeInteger(c.price) || c.price <= 0) return ResultCode.InvalidParam;
  S.index[c.sub] = c.price;
  // The expirations' settlement windows (settle-window.ts) and their last index before expiry.
  const t = c.time / 1e6;
  const W = S.underlyings[c.sub]!.settleDuration;
  for (let e = 0; e < S.expiries.length; e++) {
    const x = S.expiries[e]!;
    if (x.u !== c.sub || t >= x.expiration) continue;
    S.lastIndex[e] = c.price;
    addWindowSample(S.settleSum, S.settleSamples, e, t, x.expiration, W, c.price);
  }
  return ResultCode.Ok;
}

function settle(ctx: ExchangeContext, c: Command): ResultCode {
  const S = ctx.options;
  const ui = c.sub;
  if ((ui | 0) !== ui || ui < 0 || ui >= S.underlyings.length) return ResultCode.InvalidParam;
  const u = S.underlyings[ui]!;
  const exp = c.amount;
  const slot = S.expirySlot(ui, exp);
  if (slot < 0 || !Number.isSafeInteger(c.price) || c.price <= 0) return ResultCode.InvalidParam;
  if (c.time < exp * 1e6) return ResultCode.NothingDue;
  const last = S.lastIndex[slot]!;
  const X = windowSettlePrice(S.settleSum[slot]!, S.settleSamples[slot]!, last > 0 ? last : c.price, u.tick);
  const cis: number[] = [];
  S.contracts.forEach((k, i) => { if (k.u === ui && k.expiration === exp) cis.push(i); });
  if (S.settled[cis[0]!] !== 0) return ResultCode.NothingDue;
  const rows: number[] = [];
  for (let r = 0; r < S.rows.length; r++) {
    const p = S.rows[r]!;
    if (!cis.includes(p.ci)) continue;
    if (p.pending !== 0) return ResultCode.OrderPending;
    rows.push(r);
  }
  const L = ctx.ledger.options;
  const cur = S.settleCur[ui]!;
  const t = Math.floor(c.time / 1e6);
  for (const ci of cis) {
    S.settled[ci] = X;
    OptionsState.push(S.settlements, { t, ci, price: X });
  }
  // Shorts pay first (their position margin returned to available), then the platform covers a shortfall.
  let pool = 0n;
  let shortfall = 0n;
  const profit = new Map<number, bigint>();
  for (const r of rows) {
    const p = S.rows[r]!;
    if (p.size >= 0) continue;
    const k = S.contracts[p.ci]!;
    if (L.held(positionKey(r)) >= 0n) invariant(L.closeHold(positionKey(r)) === ResultCode.Ok, 'options margin not released');
    const owed = payoff(u, k, BigInt(-p.size), X);
    const avail = L.available(p.uid, cur);
    const paid = owed < avail ? owed : avail;
    invariant(L.clear(c.time, p.uid, cur, -paid, k.name, 0) === ResultCode.Ok, 'options settlement not paid');
    pool += paid;
    shortfall += owed - paid;
    profit.set(r, -paid);
  }
  if (shortfall > 0n) {
    const fund = L.available(INSURANCE_UID, cur);
    const cover = shortfall < fund ? shortfall : fund;
    invariant(L.fundCover(c.time, cur, cover, u.name, exp) === ResultCode.Ok, 'options shortfall not covered');
    pool += cover;
  }
  for (const r of rows) {
    const p = S.rows[r]!;
    if (p.size <= 0) continue;
    const k = S.contracts[p.ci]!;
    const owed = payoff(u, k, BigInt(p.size), X);
    const got = owed < pool ? owed : pool;
    pool -= got;
    invariant(L.clear(c.time, p.uid, cur, got, k.name, 0) === ResultCode.Ok, 'options settlement not received');
    profit.set(r, got);
  }
  invariant(pool === 0n, 'options settlement pool not emptied');
  for (const r of rows) {
    const p = S.rows[r]!;
    if (p.size === 0) continue;
    const got = profit.get(r) ?? 0n;
    p.pnl += got - p.cost;
    OptionsState.push(S.userSettlements, { t, uid: p.uid, ci: p.ci, size: p.size, profit: got.toString(), pnl: p.pnl.toString(), price: X });
    p.cost = 0n;
    S.resize(r, 0, c.time, 'settled');
  }
  noteInsurance(ctx, cur, c.time);
  return ResultCode.Ok;
}

function setMark(ctx: ExchangeContext, c: Command): ResultCode {
  const S = ctx.options;
  const ci = S.contractOf(c.market);
  if (ci < 0 || !Number.isSafeInteger(c.price) || c.price <= 0) return ResultCode.InvalidParam;
  if (!Number.isSafeInteger(c.amount) || Math.abs(c.amount) > 10_000) return ResultCode.InvalidParam;
  if (S.settled[ci] !== 0) return ResultCode.NothingDue;
  S.mark[ci] = c.price;
  S.delta[ci] = c.amount;
  return ResultCode.Ok;
}

export const OPTIONS_COMMANDS: CommandProduct = {
  name: 'options',
  commands: [CommandType.OptionsSetIndex, CommandType.OptionsSettle, CommandType.OptionsSetMark, CommandType.OptionsLiquidate,
    CommandType.OptionsSetMmp, CommandType.OptionsResetMmp],
  apply(ctx, c) {
    if (ctx.options.contracts.length === 0) return ResultCode.InvalidParam;
    switch (c.type) {
      case CommandType.OptionsSetIndex: return setIndex(ctx, c);
      case CommandType.OptionsSetMark: return setMark(ctx, c);
      case CommandType.OptionsLiquidate: return liquidateOptions(ctx, c);
      case CommandType.OptionsSetMmp: return applyMmp(ctx, c, false);
      case CommandType.OptionsResetMmp: return applyMmp(ctx, c, true);
      default: return settle(ctx, c);
    }
  },
};
