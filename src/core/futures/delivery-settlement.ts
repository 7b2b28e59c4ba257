/**
 * Delivery contracts: their life on the engine clock and their settlement at expiry. A delivery contract is a
 * contract of the one futures engine with an `expire_time` (contract.ts); its positions, orders and margin are
 * the perpetual ones, in the user's Delivery account (margin account code settle + DELIVERY_ACCT, futures-funds.ts).
 *
 * Phases, by command time t (seconds) against expire_time E, settle_price_duration W, delisting_duration D:
 *   trading      t < E − D                 any order
 *   delisting    E − D ≤ t < E             reduce-only (and close) orders only: `in_delisting` true
 *   expired      t ≥ E, not yet settled    no orders; DeliverySettle applies
 *   settled      after DeliverySettle      no orders, no prices; the contract shows its settle_price
 *
 * Settlement price (settle-window.ts, the rule options expirations share): the mean of the index prices the
 * FuturesSetPrices commands carried with times in [E − W, E), rounded half up to mark_price_round; with no such
 * sample, the last index, else the mark.
 *
 * DeliverySettle (market = the contract; time ≥ E; no open orders left in the contract — the engine's edge
 * cancels them first, one CancelAll per owner): every non-empty position, the liquidator's included, is closed
 * at the settlement price exactly as a fill closes it, with `settle_fee_rate` as its fee rate (position-fills.ts
 * tradePosition: fee to the platform fee account, profit from clearing into available, loss from the position's
 * margin then available, the rest a deficit of the insurance fund), and a settlement row records it. Long and short sizes cancel, so the closes' cash sums to zero on a
 * linear contract; on an inverse one each close rounds its value, and the residue moves between clearing and
 * the insurance fund, so clearing + unbacked = Σ remaining bases still holds. Deterministic: it reads only the
 * state and the command.
 *
 * Costs: O(position rows) scans (rare: once per contract), BigInt arithmetic, one history row per position.
 */
import type { Command } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { curOf } from '../ledger/futures-funds.js';
import { ResultCode } from '../result-code.js';
import { cashFlow, type Contract, isDelivery } from './contract.js';
import { formatSigned, maxBig } from './futures-math.js';
import { addWindowSample, windowSettlePrice } from './settle-window.js';
import { DeliveryStatus, FuturesState } from './futures-state.js';
import { contractOfCommand, ok } from './command-parts.js';
import { coverDeficit, tradePosition } from './position-fills.js';
import { positionHoldKey } from './position-store.js';
import { entryTicks } from './risk.js';

/** A delivery contract's phase at `timeUs` (microseconds). */
export const DeliveryPhase = { Trading: 0, Delisting: 1, Expired: 2, Settled: 3 } as const;
export type DeliveryPhase = (typeof DeliveryPhase)[keyof typeof DeliveryPhase];

/** The phase of contract `ci` at `timeUs` (a perpetual is always Trading). */
export function deliveryPhase(ctx: Pick<ExchangeContext, 'futures'>, ci: number, timeUs: number): DeliveryPhase {
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  if (!isDelivery(k)) return DeliveryPhase.Trading;
  if (S.deliveryStatus[ci] === DeliveryStatus.Settled) return DeliveryPhase.Settled;
  const t = timeUs / 1e6;
  if (t >= k.expireTime) return DeliveryPhase.Expired;
  return t >= k.expireTime - k.delistDuration ? DeliveryPhase.Delisting : DeliveryPhase.Trading;
}

/**
 * Whether an order with `reduceOnly` may be placed on contract `ci` at `timeUs`: Ok, or ContractInDelisting
 * (an opening order while delisting, any order once expired or settled).
 */
export function deliveryOrderCheck(ctx: ExchangeContext, ci: number, timeUs: number, reduceOnly: boolean): ResultCode {
  const phase = deliveryPhase(ctx, ci, timeUs);
  if (phase === DeliveryPhase.Trading || (phase === DeliveryPhase.Delisting && reduceOnly)) return ResultCode.Ok;
  return ResultCode.ContractInDelisting;
}

/** FuturesSetPrices' part for a delivery contract: refused once settled; an index in the window is a sample. */
export function deliveryPriceSample(ctx: ExchangeContext, ci: number, c: Command): ResultCode {
  const S = ctx.futures;
  const k = S.contracts[ci]!;
  if (S.deliveryStatus[ci] === DeliveryStatus.Settled) return ResultCode.NothingDue;
  addWindowSample(S.settleSum, S.settleSamples, ci, c.time / 1e6, k.expireTime, k.settleDuration, c.amount);
  return ResultCode.Ok;
}

/** The settlement price of contract `ci` now (ticks): see the module comment. 0 when it has no price at all. */
export function settlementPrice(ctx: Pick<ExchangeContext, 'futures'>, ci: number): number {
  const S = ctx.futures;
  const k: Contract = S.contracts[ci]!;
  if (S.deliveryStatus[ci] === DeliveryStatus.Settled) return S.settlePrice[ci]!;
  return windowSettlePrice(S.settleSum[ci]!, S.settleSamples[ci]!, S.index[ci]! > 0 ? S.index[ci]! : S.mark[ci]!, k.markTick);
}

/** DeliverySettle: see the module comment. Codes: ContractNotFound, NothingDue (not expired, or settled), OrderPending. */
export function settleDelivery(ctx: ExchangeContext, c: Command): ResultCode {
  const ci = contractOfCommand(ctx, c);
  if (ci < 0 || !isDelivery(ctx.futures.contracts[ci]!)) return ResultCode.ContractNotFound;
  if (deliveryPhase(ctx, ci, c.time) !== DeliveryPhase.Expired) return ResultCode.NothingDue;
  const S = ctx.futures;
  const P = S.positions;
  const k = S.contracts[ci]!;
  for (let r = 0; r < P.count; r++) if (P.market[r] === c.market && P.pending[r] !== 0) return ResultCode.OrderPending;
  const price = settlementPrice(ctx, ci);
  const rows = P.openRows(c.market);
  if (rows.length > 0 && price <= 0) return ResultCode.NothingDue;
  const L = ctx.ledger.futures;
  const acct = S.acct[ci]!;
  const t = Math.floor(c.time / 1e6);
  const settleText = formatSigned(BigInt(price), k.priceScale);
  let cash = 0n;
  for (const r of rows) {
    const n = P.size[r]!;
    const buy = n < 0;
    const whole = cashFlow(k, buy, BigInt(Math.abs(n)), BigInt(price));
    cash += whole;
    const margin = maxBig(0n, L.held(positionHoldKey(r)));
    const entry = entryTicks(k, n, P.basis[r]!, 8);
    const out = tradePosition(ctx, ci, r, buy, Math.abs(n), price, k.settleFeeRate, 0, 0, c.time, 'delivery', -1, whole);
    FuturesState.push(S.settlements, {
      t: k.expireTime, uid: P.uid[r]!, market: c.market, leverage: P.leverage[r]!, size: n, margin: formatSigned(margin, k.settleScale),
      entryPrice: formatSigned(entry, k.priceScale + 8), settlePrice: settleText, profit: formatSigned(out.pnl, k.settleScale),
      fee: formatSigned(out.fee, k.settleScale),
    });
  }
  // Σ closes' cash is 0 on a linear contract; an inverse one's rounding residue is the insurance fund's.
  if (cash > 0n) coverDeficit(ctx, acct, cash, c.time, `${k.name}:settle`, 0);
  else if (cash < 0n) ok(L.insuranceClearing(c.time, acct, -cash, `${k.name}:settle`, 0));
  if (cash !== 0n) FuturesState.push(S.insurance, { t, cur: curOf(acct), balance: L.insuranceFund(acct).toString() });
  S.deliveryStatus[ci] = DeliveryStatus.Settled;
  S.settlePrice[ci] = price;
  return ResultCode.Ok;
}
