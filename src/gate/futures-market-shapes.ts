/**
 * Gate's public perpetual-futures objects rendered from the futures state (core/futures): Contract, risk-limit
 * tiers (FuturesLimitRiskTiers), FuturesTrade, funding-rate and insurance history rows, liquidation orders and
 * contract statistics. What only the market-data feed knows (last price, book version, traded contracts) comes
 * in as arguments, so this module reads the core and nothing above it.
 *
 * Numbers as Gate sends them: decimals as strings ("0.0001"), counters, sizes and times as JSON integers
 * (sizes are whole contracts; the size-decimal header's string form is not produced here).
 * Prices: the state's mark and index (set by FuturesSetPrices); before the first price update a contract shows
 * a reference price as mark and index (the feed's: its last trade, else its index source spot market's last
 * trade; "0" when neither exists), so ccxt's price limits (mark × (1 ± order_price_deviate)) are meaningful
 * from the start.
 * Costs: everything allocates its object; position scans are O(positions).
 */
import type { Exchange } from '../core/exchange/exchange.js';
import type { Contract } from '../core/futures/contract.js';
import { valueAt } from '../core/futures/contract.js';
import { formatSigned, RATE_SCALE, ratioText } from '../core/futures/futures-math.js';
import { maxLeverageOf, mmrOf } from '../core/futures/risk.js';
import { Side } from '../core/matching/order-types.js';
import { formatUnits } from '../core/units.js';

/** What the feed adds to a contract's figures: last trade and reference prices (ticks, 0 none), counters, times (s). */
export interface ContractFeedFigures {
  readonly lastTicks: number;
  readonly referenceTicks: number;
  readonly orderbookId: number;
  readonly tradeId: number;
  readonly tradeSize: number;
  /** When the simulator first listed its contracts (s): Gate's create_time, launch_time, config_change_time. */
  readonly createTime: number;
  readonly nowSec: number;
}

const rate = (v: bigint): string => formatSigned(v, RATE_SCALE);

/** A price in ticks as a decimal string ("0" for none). */
export const priceText = (c: Contract, ticks: number): string => formatUnits(ticks, c.priceScale);

/** Mark price in ticks: the state's, else the reference price (see the module header). */
export function markTicks(ex: Exchange, ci: number, referenceTicks: number): number {
  const m = ex.futures.mark[ci]!;
  return m > 0 ? m : referenceTicks;
}

/** Index price in ticks: the state's, else the mark's fallback. */
export function indexTicks(ex: Exchange, ci: number, referenceTicks: number): number {
  const i = ex.futures.index[ci]!;
  return i > 0 ? i : markTicks(ex, ci, referenceTicks);
}

/** Next funding time (s): the state's, else the next multiple of the interval after now. */
export function nextFundingSec(ex: Exchange, ci: number, nowSec: number): number {
  const t = ex.futures.nextFunding[ci]!;
  const k = ex.futures.contracts[ci]!.fundingInterval;
  return t > 0 ? t : (Math.floor(nowSec / k) + 1) * k;
}

/** Open interest of a contract: the long contracts (= the short ones), long and short holders. */
export function openInterest(ex: Exchange, ci: number): { size: number; longs: number; shorts: number } {
  const P = ex.futures.positions;
  let size = 0;
  let longs = 0;
  let shorts = 0;
  for (const r of P.openRows(ex.futures.marketOf[ci])) {
    const n = P.size[r]!;
    if (n > 0) { size += n; longs++; } else shorts++;
  }
  return { size, longs, shorts };
}

/** The quanto multiplier as Gate prints it: the configured decimal for a linear contract, "0" for an inverse one. */
export function quantoText(c: Contract): string {
  return c.inverse ? '0' : formatSigned(c.qUnits, c.qScale);
}

/** Gate's Contract object of contract `ci`. @allocates */
export function renderContract(ex: Exchange, ci: number, f: ContractFeedFigures): Record<string, unknown> {
  const S = ex.futures;
  const c = S.contracts[ci]!;
  const money = (v: bigint): string => formatSigned(v, c.settleScale);
  return {
    name: c.name, type: c.inverse ? 'inverse' : 'direct', quanto_multiplier: quantoText(c),
    leverage_min: String(c.leverageMin), leverage_max: String(c.leverageMax), maintenance_rate: rate(c.maintenanceRate),
    mark_type: 'index', mark_price: priceText(c, markTicks(ex, ci, f.referenceTicks)),
    index_price: priceText(c, indexTicks(ex, ci, f.referenceTicks)), last_price: priceText(c, f.lastTicks),
    maker_fee_rate: rate(c.makerRate), taker_fee_rate: rate(c.takerRate),
    order_price_round: priceText(c, c.tick), mark_price_round: priceText(c, c.markTick),
    funding_rate: rate(S.fundingRate[ci]!), funding_rate_indicative: rate(S.indicativeRate[ci]!),
    funding_interval: c.fundingInterval, funding_next_apply: nextFundingSec(ex, ci, f.nowSec), funding_offset: 0,
    interest_rate: rate(c.interestRate), funding_rate_limit: rate(c.fundingCap), funding_cap_ratio: '1',
    funding_impact_value: money(c.impactValue),
    risk_limit_base: money(c.riskBase), risk_limit_step: money(c.riskStep), risk_limit_max: money(c.riskMax),
    order_size_min: c.sizeMin, order_size_max: c.sizeMax, order_price_deviate: rate(c.priceDeviate),
    ref_discount_rate: '0', ref_rebate_rate: '0', orderbook_id: f.orderbookId, trade_id: f.tradeId,
    trade_size: f.tradeSize, position_size: openInterest(ex, ci).size, config_change_time: f.createTime,
    in_delisting: false, orders_limit: c.ordersLimit, enable_bonus: false, enable_credit: false, enable_decimal: false,
    enable_circuit_breaker: false, create_time: f.createTime, launch_time: f.createTime, delisting_time: 0, delisted_time: 0,
    status: 'trading', market_order_slip_ratio: rate(c.slipRatio), market_order_size_max: String(c.sizeMax),
    cross_leverage_default: String(c.defaultLeverage), is_pre_market: false, contract_type: '', voucher_leverage: '0',
  };
}

/** At most this many tiers are listed per contract (a config with a tiny step would otherwise list millions). */
export const MAX_RISK_TIERS = 1000;

/**
 * Gate's FuturesLimitRiskTiers of a contract: one per risk limit base + k × step up to max (risk.ts tiers), at
 * most MAX_RISK_TIERS. @allocates
 */
export function renderRiskTiers(c: Contract): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const money = (v: bigint): string => formatSigned(v, c.settleScale);
  for (let limit = c.riskBase, tier = 1; limit <= c.riskMax && tier <= MAX_RISK_TIERS; limit += c.riskStep, tier++) {
    const lev = maxLeverageOf(c, limit);
    out.push({
      tier, risk_limit: money(limit), initial_rate: ratioText(1n, BigInt(lev), RATE_SCALE),
      maintenance_rate: rate(mmrOf(c, limit)), leverage_max: String(lev), contract: c.name, deduction: '0',
    });
  }
  return out;
}

/** Gate's FuturesTrade of trade `id` (a fill of a contract market; size signed by the taker's side). @allocates */
export function renderFuturesTrade(ex: Exchange, c: Contract, id: number): Record<string, unknown> | undefined {
  const T = ex.trades;
  const i = T.slotOf(id);
  if (i < 0) return undefined;
  const us = T.time[i]!;
  const size = T.lots[i]!;
  return {
    id, create_time: Math.floor(us / 1e3) / 1e3, create_time_ms: Math.floor(us) / 1e3, contract: c.name,
    size: T.takerSide[i] === Side.Buy ? size : -size, price: priceText(c, T.price[i]!), is_internal: false,
  };
}

/** A funding rate in 10^-8 (the state's string) as Gate's fraction. */
export const fundingRateText = (units: string): string => rate(BigInt(units));

/** Value (settle units) of `size` contracts at `ticks`, shown in the quote currency: linear settle, inverse USD. */
export function quoteValueText(c: Contract, size: number, ticks: number): string {
  if (c.inverse) return String(size);
  return formatSigned(valueAt(c, BigInt(size), BigInt(ticks)), c.settleScale);
}

/** Fraction `a / b` as Gate prints ratios ("0" when b is 0). */
export function ratio(a: number, b: number): string {
  return b === 0 ? '0' : ratioText(BigInt(a), BigInt(b), 4);
}
