/**
 * Perpetual and delivery contracts as Gate describes them (the `futures.contracts` of a definition), and their
 * integer form. A delivery contract is a perpetual one with an `expire_time` (and a dated name): the same
 * position and margin engine, no funding, settled at expiry (delivery-settlement.ts).
 *
 * Units inside the core:
 * - size: signed integer contracts (positive long / buy, negative short / sell);
 * - price: integer ticks of 10^-priceScale, where priceScale covers both `order_price_round` and
 *   `mark_price_round`; an order price must be a multiple of `tick`, a mark price is a multiple of `markTick`;
 * - money: BigInt units of the settle currency (its ledger scale S);
 * - rates: integers of 10^-8 (futures-math.ts).
 *
 * The value of k contracts at p ticks, in settle units:
 * - linear (`direct`, settle = quote): k × quanto × p, exactly k × qUnits × p × 10^(S − qScale − priceScale);
 *   registration requires S ≥ qScale + priceScale, so it never rounds;
 * - inverse (`inverse`, BTC_USD settled in BTC; one contract is 1 USD): k / p BTC, rounded half up to the
 *   settle scale: round(k × 10^(S + priceScale) / p).
 *
 * Each contract is also a market of the exchange (its book): ticks as price, contracts as lots (amount
 * precision 0), `order_size_min`/`order_size_max` as lot bounds (contractMarketSpec).
 */
import { ConfigError } from '../invariant.js';
import type { MarketSpec } from '../market.js';
import { decimalsOf, parseSignedUnits, RATE_SCALE } from './futures-math.js';

/** A perpetual contract as configured (Gate's Contract fields that have a meaning here; decimal strings). */
export interface ContractConfig {
  /** e.g. "BTC_USDT" (linear) or "BTC_USD" (inverse). */
  readonly name: string;
  /** Settle currency code in lower case as in the path (`usdt`, `btc`). */
  readonly settle: string;
  /** `direct` (linear) or `inverse`; default: direct when the quote is the settle currency, else inverse. */
  readonly type?: 'direct' | 'inverse' | undefined;
  /** Coins per contract (linear); ignored for inverse contracts (1 USD each; Gate shows "0"). */
  readonly quanto_multiplier?: string | undefined;
  /** Price tick, e.g. "0.1". */
  readonly order_price_round: string;
  /** Mark price tick; default order_price_round. */
  readonly mark_price_round?: string | undefined;
  readonly leverage_min?: string | undefined;
  readonly leverage_max?: string | undefined;
  /** Default leverage of a new position (not Gate's field; default 10, capped by leverage_max). */
  readonly default_leverage?: string | undefined;
  /** Maintenance rate of the first risk-limit tier, e.g. "0.005". */
  readonly maintenance_rate?: string | undefined;
  /** Fee rates as fractions, e.g. "0.0005"; a negative maker rate is a rebate. */
  readonly maker_fee_rate?: string | undefined;
  readonly taker_fee_rate?: string | undefined;
  /** Legacy stepped risk limits, in settle currency. */
  readonly risk_limit_base?: string | undefined;
  readonly risk_limit_step?: string | undefined;
  readonly risk_limit_max?: string | undefined;
  /** Seconds between funding payments (default 28800). */
  readonly funding_interval?: number | undefined;
  /** Cap of |funding rate| per interval (default "0.003"). */
  readonly funding_rate_limit?: string | undefined;
  /** Interest rate per interval in the funding formula (default "0.0001"). */
  readonly interest_rate?: string | undefined;
  /** Notional (settle currency) for the impact bid/ask of the premium index (default "5000"). */
  readonly funding_impact_value?: string | undefined;
  readonly order_size_min?: number | undefined;
  readonly order_size_max?: number | undefined;
  /** Largest |price − mark| / mark of an order (default "0.5"). */
  readonly order_price_deviate?: string | undefined;
  /** Open orders per user in this contract (default 200). */
  readonly orders_limit?: number | undefined;
  /** A market order's price bound: mark × (1 ± ratio) (default "0.05"). */
  readonly market_order_slip_ratio?: string | undefined;
  /** The spot market whose trades make the index price (default the contract's own name, when it exists). */
  readonly index_source?: string | undefined;
  /**
   * Delivery contracts only (named BASE_QUOTE_YYYYMMDD): the settlement time, seconds since the epoch. A contract
   * with it has no funding; at it, every position settles at the settlement price (delivery-settlement.ts).
   */
  readonly expire_time?: number | undefined;
  /** Gate's delivery cycle: WEEKLY, BI-WEEKLY, QUARTERLY or BI-QUARTERLY (default WEEKLY). */
  readonly cycle?: string | undefined;
  /** Seconds before expire_time over which the index is averaged into the settlement price (default 600). */
  readonly settle_price_duration?: number | undefined;
  /** Seconds before expire_time from which the contract is `in_delisting`: reduce-only orders only (default 600). */
  readonly delisting_duration?: number | undefined;
  /** Fee on the settled value of each position at expiry, a fraction (default "0"; Gate's is "0.0015"). */
  readonly settle_fee_rate?: string | undefined;
}

/** Gate's delivery cycles. */
export const DELIVERY_CYCLES: readonly string[] = ['WEEKLY', 'BI-WEEKLY', 'QUARTERLY', 'BI-QUARTERLY'];

/** A registered contract in integer units. Immutable. */
export interface Contract {
  readonly spec: ContractConfig;
  readonly name: string;
  /**
   * Settle currency code (upper case, as the ledger knows it) and the contract's route scope: the lower-case
   * settle path segment for a perpetual (`usdt`), DELIVERY_SCOPE + it for a delivery contract (`delivery:usdt`),
   * so the /futures and /delivery routes each find only their own contracts by (scope, name).
   */
  readonly settleCode: string;
  readonly settle: string;
  readonly inverse: boolean;
  readonly base: string;
  readonly quote: string;
  readonly priceScale: number;
  /** order_price_round and mark_price_round in ticks. */
  readonly tick: number;
  readonly markTick: number;
  /** Quanto multiplier as qUnits × 10^-qScale (linear; inverse: 1, 0). */
  readonly qUnits: bigint;
  readonly qScale: number;
  readonly leverageMin: number;
  readonly leverageMax: number;
  readonly defaultLeverage: number;
  readonly maintenanceRate: bigint;
  readonly makerRate: bigint;
  readonly takerRate: bigint;
  /** Risk limits in settle units (filled in at registration, when the settle scale is known). */
  readonly riskBase: bigint;
  readonly riskStep: bigint;
  readonly riskMax: bigint;
  readonly fundingInterval: number;
  readonly fundingCap: bigint;
  readonly interestRate: bigint;
  readonly impactValue: bigint;
  readonly sizeMin: number;
  readonly sizeMax: number;
  readonly priceDeviate: bigint;
  readonly ordersLimit: number;
  readonly slipRatio: bigint;
  /** Settle currency scale S, and the value factors: linear 10^(S − qScale − priceScale), inverse 10^(S + priceScale). */
  readonly settleScale: number;
  readonly valueFactor: bigint;
  /** Delivery contract: its expire time (seconds since the epoch); 0 for a perpetual. */
  readonly expireTime: number;
  /** Delivery: the settlement-price window and the delisting window before expireTime, seconds (0 perpetual). */
  readonly settleDuration: number;
  readonly delistDuration: number;
  /** Delivery: the settlement fee rate (10^-8). */
  readonly settleFeeRate: bigint;
}

/** Prefix of a delivery contract's route scope (Contract.settle). */
export const DELIVERY_SCOPE = 'delivery:';
/** The settle path segment of a route scope (`delivery:usdt` → `usdt`). */
export const settleOfScope = (scope: string): string => (scope.startsWith(DELIVERY_SCOPE) ? scope.slice(DELIVERY_SCOPE.length) : scope);

/** True for a delivery contract (one with an expire time). */
export const isDelivery = (c: Contract): boolean => c.expireTime > 0;

/** The market named as the index source: `index_source`, else the contract's name (a delivery contract's underlying). */
export const indexSourceOf = (c: Contract): string => c.spec.index_source ?? (c.expireTime > 0 ? `${c.base}_${c.quote}` : c.name);

const MAX_PRICE_SCALE = 12;

function rate(text: string | undefined, fallback: string, what: string, signed = false): bigint {
  const v = parseSignedUnits(text ?? fallback, RATE_SCALE);
  if (v === undefined || (!signed && v < 0n)) {
    throw new ConfigError(`${what}: "${text}" is not a ${signed ? '' : 'non-negative '}decimal with at most ${RATE_SCALE} decimals`);
  }
  return v;
}

function positiveDecimal(text: string, what: string): { units: bigint; scale: number } {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new ConfigError(`${what}: "${text}" is not a positive decimal`);
  const scale = decimalsOf(text);
  const units = parseSignedUnits(text, scale)!;
  if (units <= 0n) throw new ConfigError(`${what}: "${text}" must be above zero`);
  return { units, scale };
}

function intField(v: number | string | undefined, fallback: number, what: string, min = 1): number {
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isSafeInteger(n) || n < min) throw new ConfigError(`${what}: ${String(v)} is not an integer ≥ ${min}`);
  return n;
}

/**
 * Validates a contract against its settle currency's ledger scale and derives its integer form. Throws
 * ConfigError on a contract that cannot work. @allocates
 */
export function defineContract(spec: ContractConfig, settleScale: number): Contract {
  const at = `futures contract ${spec.name}`;
  const m = /^([A-Z0-9]+)_([A-Z0-9]+)(_[0-9]{8})?$/.exec(spec.name);
  if (m === null) throw new ConfigError(`${at}: name is not of the form BASE_QUOTE (or BASE_QUOTE_YYYYMMDD)`);
  const [, base, quote, date] = m as unknown as [string, string, string, string | undefined];
  const delivery = deliveryFields(spec, at, date);
  const settle = spec.settle.toLowerCase();
  const settleCode = settle.toUpperCase();
  if (!/^[a-z0-9]+$/.test(settle)) throw new ConfigError(`${at}: settle "${spec.settle}" is malformed`);
  const inverse = (spec.type ?? (quote === settleCode ? 'direct' : 'inverse')) === 'inverse';
  if (spec.type !== undefined && spec.type !== 'direct' && spec.type !== 'inverse') throw new ConfigError(`${at}: type must be direct or inverse`);
  if (!inverse && quote !== settleCode) throw new ConfigError(`${at}: a direct contract settles in its quote currency (${quote})`);
  if (inverse && base !== settleCode) throw new ConfigError(`${at}: an inverse contract settles in its base currency (${base})`);
  const round = positiveDecimal(spec.order_price_round, `${at} order_price_round`);
  const markRound = positiveDecimal(spec.mark_price_round ?? spec.order_price_round, `${at} mark_price_round`);
  const priceScale = Math.max(round.scale, markRound.scale);
  if (priceScale > MAX_PRICE_SCALE) throw new ConfigError(`${at}: price rounds need more than ${MAX_PRICE_SCALE} decimals`);
  const tick = Number(round.units * 10n ** BigInt(priceScale - round.scale));
  const markTick = Number(markRound.units * 10n ** BigInt(priceScale - markRound.scale));
  let qUnits = 1n;
  let qScale = 0;
  if (!inverse) {
    const q = positiveDecimal(spec.quanto_multiplier ?? '1', `${at} quanto_multiplier`);
    qUnits = q.units;
    qScale = q.scale;
    if (settleScale < qScale + priceScale) {
      throw new ConfigError(`${at}: ${settleCode} has ${settleScale} decimals; quanto × price needs ${qScale + priceScale}`);
    }
  }
  const valueFactor = inverse ? 10n ** BigInt(settleScale + priceScale) : 10n ** BigInt(settleScale - qScale - priceScale);
  const leverageMin = intField(spec.leverage_min, 1, `${at} leverage_min`);
  const leverageMax = intField(spec.leverage_max, 100, `${at} leverage_max`);
  if (leverageMin > leverageMax) throw new ConfigError(`${at}: leverage_min above leverage_max`);
  const defaultLeverage = Math.min(leverageMax, Math.max(leverageMin, intField(spec.default_leverage, 10, `${at} default_leverage`)));
  const money = (text: string | undefined, fallback: string, what: string): bigint => {
    const v = parseSignedUnits(text ?? fallback, settleScale);
    if (v === undefined || v <= 0n) throw new ConfigError(`${at} ${what}: "${text}" is not a positive amount of ${settleCode}`);
    return v;
  };
  const riskBase = money(spec.risk_limit_base, inverse ? '100' : '1000000', 'risk_limit_base');
  const riskStep = money(spec.risk_limit_step, inverse ? '50' : '1000000', 'risk_limit_step');
  const riskMax = money(spec.risk_limit_max, inverse ? '1000' : '10000000', 'risk_limit_max');
  if (riskBase > riskMax) throw new ConfigError(`${at}: risk_limit_base above risk_limit_max`);
  const makerRate = rate(spec.maker_fee_rate, '-0.0001', `${at} maker_fee_rate`, true);
  const takerRate = rate(spec.taker_fee_rate, '0.00075', `${at} taker_fee_rate`);
  // A fill's maker rebate is paid from the platform fee account, which its taker's fee has just credited.
  if (makerRate < 0n && -makerRate > takerRate) throw new ConfigError(`${at}: maker rebate above the taker fee`);
  const sizeMin = intField(spec.order_size_min, 1, `${at} order_size_min`);
  const sizeMax = intField(spec.order_size_max, 1_000_000, `${at} order_size_max`);
  if (sizeMin > sizeMax) throw new ConfigError(`${at}: order_size_min above order_size_max`);
  const fundingInterval = intField(spec.funding_interval, 28800, `${at} funding_interval`, 60);
  return {
    spec, name: spec.name, settleCode, settle: delivery.expireTime > 0 ? DELIVERY_SCOPE + settle : settle, inverse, base, quote, priceScale, tick, markTick, qUnits, qScale,
    leverageMin, leverageMax, defaultLeverage,
    maintenanceRate: rate(spec.maintenance_rate, '0.005', `${at} maintenance_rate`),
    makerRate, takerRate, riskBase, riskStep, riskMax, fundingInterval,
    fundingCap: rate(spec.funding_rate_limit, '0.003', `${at} funding_rate_limit`),
    interestRate: rate(spec.interest_rate, '0.0001', `${at} interest_rate`),
    impactValue: money(spec.funding_impact_value, inverse ? '1' : '5000', 'funding_impact_value'),
    sizeMin, sizeMax,
    priceDeviate: rate(spec.order_price_deviate, '0.5', `${at} order_price_deviate`),
    ordersLimit: intField(spec.orders_limit, 200, `${at} orders_limit`),
    slipRatio: rate(spec.market_order_slip_ratio, '0.05', `${at} market_order_slip_ratio`),
    settleScale, valueFactor, ...delivery,
  };
}

/**
 * The delivery fields of a contract: a name with a date part needs `expire_time` (and the date must be its UTC
 * day), a name without one must not have it; the windows are positive and shorter than a day.
 */
function deliveryFields(spec: ContractConfig, at: string, date: string | undefined):
  { expireTime: number; settleDuration: number; delistDuration: number; settleFeeRate: bigint } {
  if (date === undefined) {
    if (spec.expire_time !== undefined) throw new ConfigError(`${at}: expire_time needs a delivery name BASE_QUOTE_YYYYMMDD`);
    return { expireTime: 0, settleDuration: 0, delistDuration: 0, settleFeeRate: 0n };
  }
  const expireTime = intField(spec.expire_time, 0, `${at} expire_time`);
  const day = new Date(expireTime * 1000).toISOString().slice(0, 10).replaceAll('-', '');
  if (`_${day}` !== date) throw new ConfigError(`${at}: expire_time ${expireTime} is not on ${date.slice(1)} (UTC)`);
  if (spec.cycle !== undefined && !DELIVERY_CYCLES.includes(spec.cycle)) throw new ConfigError(`${at}: cycle must be one of ${DELIVERY_CYCLES.join(', ')}`);
  const settleDuration = intField(spec.settle_price_duration, 600, `${at} settle_price_duration`);
  const delistDuration = intField(spec.delisting_duration, 600, `${at} delisting_duration`);
  if (settleDuration > 86_400 || delistDuration > 86_400) throw new ConfigError(`${at}: settle_price_duration and delisting_duration are at most 86400`);
  return { expireTime, settleDuration, delistDuration, settleFeeRate: rate(spec.settle_fee_rate, '0', `${at} settle_fee_rate`) };
}

/** The book-side market of a contract: ticks as price, whole contracts as lots. */
export function contractMarketSpec(spec: ContractConfig): MarketSpec {
  const round = decimalsOf(spec.order_price_round);
  const mark = decimalsOf(spec.mark_price_round ?? spec.order_price_round);
  return {
    id: spec.name, base: spec.name.split('_')[0] ?? spec.name, quote: spec.name.split('_')[1] ?? spec.name,
    precision: Math.max(round, mark), amount_precision: 0,
    min_base_amount: String(spec.order_size_min ?? 1), max_base_amount: String(spec.order_size_max ?? 1_000_000),
  };
}

/** Value of `k` ≥ 0 contracts at `p` ticks, in settle units (see the module comment). */
export function valueAt(c: Contract, k: bigint, p: bigint): bigint {
  if (k === 0n) return 0n;
  if (!c.inverse) return k * c.qUnits * p * c.valueFactor;
  const num = k * c.valueFactor;
  const q = num / p;
  return (num - q * p) * 2n >= p ? q + 1n : q;
}

/**
 * The cash a fill of `k` ≥ 0 contracts at `p` moves for the side that bought (`buy`): linear, the buyer pays the
 * value (negative); inverse, the buyer of USD contracts receives the BTC value (positive). The seller's is the
 * negation, so both sides of a fill sum to zero.
 */
export function cashFlow(c: Contract, buy: boolean, k: bigint, p: bigint): bigint {
  const v = valueAt(c, k, p);
  return buy !== c.inverse ? -v : v;
}
