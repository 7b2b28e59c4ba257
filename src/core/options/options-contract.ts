/**
 * Options markets as configured (per underlying: multiplier, ticks, fees, margin rates, expirations and strikes)
 * and their integer form. Every (expiration × strike × call/put) of an underlying is a contract, named as Gate
 * names them: `BTC_USDT-20261225-100000-C` (underlying, expiration date in UTC, strike, C or P).
 *
 * Units inside the core:
 * - size: signed integer contracts (positive long, negative short);
 * - price: integer ticks of 10^-priceScale of the quote currency per ONE unit of the underlying's base currency
 *   (premiums, strikes, the index and settlement prices all share this grid; priceScale covers
 *   `order_price_round` and every strike's decimals);
 * - money: BigInt units of the settle currency (the underlying's quote, ledger scale S);
 * - rates: integers of 10^-8.
 * The value of k contracts at p ticks is k × multiplier × p, exactly k × mUnits × p × 10^(S − mScale − priceScale);
 * registration requires S ≥ mScale + priceScale, so it never rounds.
 *
 * Each contract is also a book market of the exchange (after the perpetual contracts): ticks as price, whole
 * contracts as lots. Its book id is a BASE_QUOTE-form alias (`BTC20261225100000C_USDT`); routes use `name`.
 */
import { ConfigError } from '../invariant.js';
import type { MarketSpec } from '../market.js';
import { decimalsOf, parseSignedUnits, RATE_ONE, RATE_SCALE } from '../futures/futures-math.js';

/** One underlying's options as configured (decimal strings; expirations in seconds since the epoch). */
export interface OptionUnderlyingConfig {
  /** e.g. "BTC_USDT": base and quote; the quote is the settle currency. */
  readonly name: string;
  /** Base units per contract, e.g. "0.01". */
  readonly multiplier: string;
  /** Premium tick (quote per one base unit), e.g. "0.1". */
  readonly order_price_round: string;
  /** Expiration times, seconds since the epoch (Gate expires at 08:00 UTC). */
  readonly expirations: readonly number[];
  /** Strike prices (quote per base unit), e.g. ["90000", "100000"]; each makes a call and a put per expiration. */
  readonly strikes: readonly string[];
  /** Annual volatility of the mark model (options-pricing in the routes), e.g. "0.6"; default "0.6". */
  readonly volatility?: string | undefined;
  /** Fee rates as fractions of the underlying's value (k × multiplier × index), capped by `fee_cap_rate` of the premium. */
  readonly maker_fee_rate?: string | undefined;
  readonly taker_fee_rate?: string | undefined;
  /** Largest fee as a fraction of the premium (default "0.125"). */
  readonly fee_cap_rate?: string | undefined;
  /** Seller's initial margin: max(a × index − OTM, b × index) × multiplier per contract (defaults "0.15", "0.1"). */
  readonly initial_margin_rate?: string | undefined;
  readonly min_margin_rate?: string | undefined;
  /** Seller's maintenance margin (shown, see docs): max(m × index − OTM, n × index) (defaults "0.075", "0.05"). */
  readonly maintenance_rate?: string | undefined;
  readonly maintenance_min_rate?: string | undefined;
  readonly order_size_min?: number | undefined;
  readonly order_size_max?: number | undefined;
  /** Open orders per user per contract (default 50). */
  readonly orders_limit?: number | undefined;
  /** The spot market whose last trade is the index (default `name`). */
  readonly index_source?: string | undefined;
  /**
   * Seconds before each expiration over which the index is averaged into its settlement price (default 1800, as
   * Gate: the average index of the last 30 minutes; at most 86400; 0: the last index before expiry).
   */
  readonly settle_price_duration?: number | undefined;
  /**
   * How far from the mark the liquidator trades out positions it took over, a fraction (default "0.1"): it
   * buys at most at mark × (1 + band) and sells at least at mark × (1 − band) (options-liquidation.ts).
   */
  readonly liquidation_price_band?: string | undefined;
}

export interface OptionsDefinition {
  readonly underlyings: readonly OptionUnderlyingConfig[];
}

/** An underlying in integer units. Immutable. */
export interface OptionUnderlying {
  readonly spec: OptionUnderlyingConfig;
  readonly name: string;
  readonly base: string;
  readonly quote: string;
  readonly priceScale: number;
  readonly tick: number;
  readonly mUnits: bigint;
  readonly mScale: number;
  /** Settle (quote) ledger scale S and 10^(S − mScale − priceScale). */
  readonly settleScale: number;
  readonly valueFactor: bigint;
  readonly makerRate: bigint;
  readonly takerRate: bigint;
  readonly feeCap: bigint;
  readonly imRate: bigint;
  readonly imMinRate: bigint;
  readonly mmRate: bigint;
  readonly mmMinRate: bigint;
  /** liquidation_price_band (10^-8). */
  readonly liqBand: bigint;
  /** settle_price_duration, seconds. */
  readonly settleDuration: number;
  readonly sizeMin: number;
  readonly sizeMax: number;
  readonly ordersLimit: number;
  /** Annual volatility for display (float, never money). */
  readonly volatility: number;
  readonly indexSource: string;
  readonly expirations: readonly number[];
}

/** One contract. Immutable. */
export interface OptionContract {
  readonly name: string;
  /** Index of its underlying. */
  readonly u: number;
  readonly expiration: number;
  readonly strike: number;
  readonly strikeText: string;
  readonly call: boolean;
}

const MAX_PRICE_SCALE = 12;

function rate(text: string | undefined, fallback: string, what: string): bigint {
  const v = parseSignedUnits(text ?? fallback, RATE_SCALE);
  if (v === undefined || v < 0n) throw new ConfigError(`${what}: "${text}" is not a non-negative decimal with at most ${RATE_SCALE} decimals`);
  return v;
}

function intField(v: number | undefined, fallback: number, what: string): number {
  const n = v ?? fallback;
  if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`${what}: ${String(v)} is not an integer ≥ 1`);
  return n;
}

function positive(text: string, what: string): void {
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text) || /^0+(\.0*)?$/.test(text)) throw new ConfigError(`${what}: "${text}" is not a positive decimal`);
}

/** True for an array (without narrowing the caller's element type to any). */
const isList = (v: unknown): boolean => Array.isArray(v);

/** `yyyymmdd` of `seconds` in UTC. */
export function expiryDate(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Gate's contract name of (underlying, expiration, strike text, call). */
export const contractName = (u: string, expiration: number, strike: string, call: boolean): string =>
  `${u}-${expiryDate(expiration)}-${strike}-${call ? 'C' : 'P'}`;

/**
 * Validates an underlying against its settle currency's ledger scale (`scaleOf(code)`, undefined when the
 * currency is unknown) and derives its integer form. Throws ConfigError. @allocates
 */
export function defineUnderlying(spec: OptionUnderlyingConfig, scaleOf: (code: string) => number | undefined): OptionUnderlying {
  const at = `options underlying ${spec.name}`;
  const m = /^([A-Z0-9]+)_([A-Z0-9]+)$/.exec(spec.name);
  if (m === null) throw new ConfigError(`${at}: name is not of the form BASE_QUOTE`);
  const base = m[1]!;
  const quote = m[2]!;
  const settleScale = scaleOf(quote);
  if (settleScale === undefined) throw new ConfigError(`${at}: settle currency ${quote} is not a currency of the exchange`);
  positive(spec.multiplier, `${at} multiplier`);
  positive(spec.order_price_round, `${at} order_price_round`);
  if (!isList(spec.strikes) || spec.strikes.length === 0) throw new ConfigError(`${at}: strikes must list at least one price`);
  if (!isList(spec.expirations) || spec.expirations.length === 0) throw new ConfigError(`${at}: expirations must list at least one time`);
  for (const s of spec.strikes) positive(s, `${at} strike`);
  const priceScale = Math.max(decimalsOf(spec.order_price_round), ...spec.strikes.map(decimalsOf));
  if (priceScale > MAX_PRICE_SCALE) throw new ConfigError(`${at}: more than ${MAX_PRICE_SCALE} price decimals`);
  const tick = Number(parseSignedUnits(spec.order_price_round, priceScale)!);
  for (const s of spec.strikes) {
    if (Number(parseSignedUnits(s, priceScale)!) % tick !== 0) throw new ConfigError(`${at}: strike ${s} is not a multiple of order_price_round`);
  }
  const mScale = decimalsOf(spec.multiplier);
  const mUnits = parseSignedUnits(spec.multiplier, mScale)!;
  if (settleScale < mScale + priceScale) {
    throw new ConfigError(`${at}: ${quote} has ${settleScale} decimals; multiplier × price needs ${mScale + priceScale}`);
  }
  for (const e of spec.expirations) {
    if (!Number.isSafeInteger(e) || e <= 0 || e > 253402300799) throw new ConfigError(`${at}: expiration ${String(e)} is not a time in seconds`);
  }
  if (new Set(spec.expirations).size !== spec.expirations.length || new Set(spec.strikes.map((s) => parseSignedUnits(s, priceScale)!)).size !== spec.strikes.length) {
    throw new ConfigError(`${at}: an expiration or strike is listed twice`);
  }
  const volatility = Number(spec.volatility ?? '0.6');
  if (!(volatility > 0 && volatility <= 10)) throw new ConfigError(`${at}: volatility must be in (0, 10]`);
  const sizeMin = intField(spec.order_size_min, 1, `${at} order_size_min`);
  const sizeMax = intField(spec.order_size_max, 100_000, `${at} order_size_max`);
  if (sizeMin > sizeMax) throw new ConfigError(`${at}: order_size_min above order_size_max`);
  const liqBand = rate(spec.liquidation_price_band, '0.1', `${at} liquidation_price_band`);
  const settleDuration = spec.settle_price_duration ?? 1800;
  if (!Number.isSafeInteger(settleDuration) || settleDuration < 0 || settleDuration > 86_400) {
    throw new ConfigError(`${at}: settle_price_duration must be an integer number of seconds in 0..86400`);
  }
  if (liqBand > RATE_ONE) throw new ConfigError(`${at}: liquidation_price_band above 1`);
  return {
    spec, name: spec.name, base, quote, priceScale, tick, mUnits, mScale, settleScale,
    valueFactor: 10n ** BigInt(settleScale - mScale - priceScale),
    makerRate: rate(spec.maker_fee_rate, '0.0003', `${at} maker_fee_rate`),
    takerRate: rate(spec.taker_fee_rate, '0.0003', `${at} taker_fee_rate`),
    feeCap: rate(spec.fee_cap_rate, '0.125', `${at} fee_cap_rate`),
    imRate: rate(spec.initial_margin_rate, '0.15', `${at} initial_margin_rate`),
    imMinRate: rate(spec.min_margin_rate, '0.1', `${at} min_margin_rate`),
    mmRate: rate(spec.maintenance_rate, '0.075', `${at} maintenance_rate`),
    mmMinRate: rate(spec.maintenance_min_rate, '0.05', `${at} maintenance_min_rate`),
    liqBand, settleDuration,
    sizeMin, sizeMax,
    ordersLimit: intField(spec.orders_limit, 50, `${at} orders_limit`),
    volatility,
    indexSource: spec.index_source ?? spec.name,
    expirations: [...spec.expirations].sort((a, b) => a - b),
  };
}

/** The contracts of underlying `u` (index `ui`): by expiration, then strike, call before put. @allocates */
export function contractsOf(u: OptionUnderlying, ui: number): OptionContract[] {
  const strikes = [...u.spec.strikes].sort((a, b) => Number(parseSignedUnits(a, u.priceScale)! - parseSignedUnits(b, u.priceScale)!));
  const out: OptionContract[] = [];
  for (const e of u.expirations) {
    for (const s of strikes) {
      const strike = Number(parseSignedUnits(s, u.priceScale)!);
      for (const call of [true, false]) out.push({ name: contractName(u.name, e, s, call), u: ui, expiration: e, strike, strikeText: s, call });
    }
  }
  return out;
}

/** Every contract of a definition, in book order (underlyings in order). Throws ConfigError. @allocates */
export function defineOptionContracts(def: OptionsDefinition | undefined, scaleOf: (code: string) => number | undefined):
  { underlyings: OptionUnderlying[]; contracts: OptionContract[] } {
  const underlyings = (def?.underlyings ?? []).map((s) => defineUnderlying(s, scaleOf));
  if (new Set(underlyings.map((u) => u.name)).size !== underlyings.length) throw new ConfigError('options: an underlying is listed twice');
  return { underlyings, contracts: underlyings.flatMap((u, i) => contractsOf(u, i)) };
}

/** The book market of a contract (BASE_QUOTE-form alias id; see the module comment). */
export function optionMarketSpec(u: OptionUnderlying, c: OptionContract): MarketSpec {
  const alias = `${u.base}${expiryDate(c.expiration)}${c.strikeText.replace('.', 'D')}${c.call ? 'C' : 'P'}`;
  return {
    id: `${alias}_${u.quote}`, base: alias, quote: u.quote, precision: u.priceScale, amount_precision: 0,
    min_base_amount: String(u.sizeMin), max_base_amount: String(u.sizeMax),
  };
}

/** Book markets of a definition's options (settle scales as the ledger will have them). @allocates */
export function optionMarketSpecs(def: OptionsDefinition | undefined, scaleOf: (code: string) => number | undefined): MarketSpec[] {
  const { underlyings, contracts } = defineOptionContracts(def, scaleOf);
  return contracts.map((c) => optionMarketSpec(underlyings[c.u]!, c));
}

/** Value of `k` ≥ 0 contracts at `p` ticks, in settle units (exact; see the module comment). */
export const valueOf = (u: OptionUnderlying, k: bigint, p: bigint): bigint => k * u.mUnits * p * u.valueFactor;
