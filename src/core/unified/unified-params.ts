/**
 * The unified account's configurable parameters, as the exchange definition carries them (decimal strings,
 * Gate's field names) and resolved into exact integers once at start-up.
 *
 * Units: USD figures are BigInt at USD_SCALE decimals (10^-36 USD), so a balance (≤ 18 decimals) times a
 * price (≤ 18 decimals) is exact; ratios (discounts, margin rates) are parts per million; hourly interest
 * rates are parts per 10^12. Resolution throws ConfigError naming the field (`unified.currencies.BTC.…`).
 */
import { ConfigError } from '../invariant.js';

/** One liquidity-discount tier: the USD value slice up to `upper_limit` (absent: unbounded) counts at `discount`. */
export interface DiscountTierDefinition {
  readonly upper_limit?: string | undefined;
  readonly discount: string;
}

export interface UnifiedCurrencyDefinition {
  /** USD index price; default: the last trade of CUR_USDT (USDT itself is 1). */
  readonly index_price?: string | undefined;
  /** Liquidity discount tiers by USD value, ascending; default one unbounded tier at 1. */
  readonly discount_tiers?: readonly DiscountTierDefinition[] | undefined;
  /** Hourly interest rate on borrowed amounts (e.g. "0.00001"); default DEFAULT_HOURLY_RATE. */
  readonly hourly_rate?: string | undefined;
  /** Smallest borrow; default one unit of the currency. */
  readonly min_borrow?: string | undefined;
  /** Most one user may owe (principal); default unbounded (the lending pool bounds it). */
  readonly max_borrow?: string | undefined;
  /** The platform's lending pool, credited at start-up; default 0 (nothing to borrow). */
  readonly lendable?: string | undefined;
}

export interface UnifiedDefinition {
  readonly currencies?: Readonly<Record<string, UnifiedCurrencyDefinition>> | undefined;
  /** Initial margin rate on liabilities (USD); default "0.2" (up to 5× the margin borrowed). */
  readonly initial_margin_rate?: string | undefined;
  /** Maintenance margin rate on liabilities; default "0.1". Below it the account is locked. */
  readonly maintenance_margin_rate?: string | undefined;
  /** Whether locked accounts are liquidated through the book (api/unified/liquidator.ts); default true. */
  readonly liquidation?: boolean | undefined;
  /** Isolated margin (core/margin/): the leverage of every pair; default "5" (owe up to 4× the equity). */
  readonly margin_leverage?: string | undefined;
  /** Isolated margin: the risk (assets / liabilities) below which an account is locked; default "1.1". */
  readonly margin_liquidation_risk?: string | undefined;
  /** Cross margin (core/margin/cross-margin.ts): the risk below which the account is locked; default "1.1". */
  readonly cross_margin_liquidation_risk?: string | undefined;
}

export const USD_SCALE = 36;
export const PPM = 1_000_000n;
export const RATE_ONE = 1_000_000_000_000n;
export const DEFAULT_HOURLY_RATE = '0.00001';

/** A price in USD per whole currency unit: num / 10^scale. */
export interface Price { readonly num: bigint; readonly scale: number }

export interface DiscountTier {
  /** Upper bound of the slice in USD (USD_SCALE); null when unbounded. */
  readonly upTo: bigint | null;
  readonly ppm: bigint;
}

export interface CurrencyParams {
  readonly indexPrice: Price | undefined;
  readonly tiers: readonly DiscountTier[];
  /** Hourly rate in parts per 10^12. */
  readonly hourlyRate: bigint;
  /** In units of the currency. */
  readonly minBorrow: bigint;
  readonly maxBorrow: bigint | null;
  readonly lendable: bigint;
}

export interface UnifiedParams {
  readonly imrPpm: bigint;
  readonly mmrPpm: bigint;
  /** Isolated-margin leverage and liquidation risk, in ppm (above 1, and leverage / (leverage − 1) > risk). */
  readonly marginLeveragePpm: bigint;
  readonly marginLiquidationPpm: bigint;
  /** Cross-margin liquidation risk in ppm (same bounds as the isolated one; the leverage is shared). */
  readonly crossLiquidationPpm: bigint;
  /** Per registered currency code. */
  readonly currencies: ReadonlyMap<string, CurrencyParams>;
}

/** A non-negative decimal string as an integer at `scale` decimals, or undefined when malformed or too precise. */
export function decimalToScaled(text: string, scale: number): bigint | undefined {
  const m = /^([0-9]{1,30})(?:\.([0-9]{1,36}))?$/.exec(text);
  if (m === null) return undefined;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > scale) return undefined;
  return BigInt(m[1]! + frac.padEnd(scale, '0'));
}

function scaled(text: unknown, scale: number, path: string): bigint {
  const v = typeof text === 'string' ? decimalToScaled(text, scale) : undefined;
  if (v === undefined) throw new ConfigError(`${path}: "${String(text)}" is not a decimal with at most ${scale} decimals`);
  return v;
}

function ratio(text: string | undefined, fallback: string, path: string, allowZero: boolean): bigint {
  const v = scaled(text ?? fallback, 6, path);
  if (v > PPM || (!allowZero && v === 0n)) throw new ConfigError(`${path}: must be in ${allowZero ? '[0' : '(0'}, 1]`);
  return v;
}

/** The price of a decimal string, its scale trimmed to its decimals (≤ 18). */
export function parsePrice(text: string, path: string): Price {
  const m = /^([0-9]{1,30})(?:\.([0-9]{1,18}))?$/.exec(text);
  if (m === null) throw new ConfigError(`${path}: "${text}" is not a price with at most 18 decimals`);
  const frac = (m[2] ?? '').replace(/0+$/, '');
  const num = BigInt(m[1]! + frac);
  if (num === 0n) throw new ConfigError(`${path}: must be above 0`);
  return { num, scale: frac.length };
}

function tiers(defs: readonly DiscountTierDefinition[] | undefined, path: string): DiscountTier[] {
  if (defs === undefined) return [{ upTo: null, ppm: PPM }];
  if (defs.length === 0) throw new ConfigError(`${path}: needs at least one tier`);
  let last = 0n;
  return defs.map((t, i) => {
    const p = `${path}[${i}]`;
    const ppm = ratio(t.discount, '1', `${p}.discount`, true);
    if (t.upper_limit === undefined) {
      if (i !== defs.length - 1) throw new ConfigError(`${p}.upper_limit: only the last tier may be unbounded`);
      return { upTo: null, ppm };
    }
    const upTo = scaled(t.upper_limit, USD_SCALE, `${p}.upper_limit`);
    if (upTo <= last) throw new ConfigError(`${p}.upper_limit: tiers must ascend`);
    last = upTo;
    return { upTo, ppm };
  });
}

/**
 * Resolves the definition for the registered currencies (`scales`: code → decimals). Unlisted currencies get
 * the defaults. Throws ConfigError on a bad field or a currency that is not registered.
 */
export function resolveUnifiedParams(def: UnifiedDefinition | undefined, scales: ReadonlyMap<string, number>): UnifiedParams {
  const d = def ?? {};
  const imrPpm = ratio(d.initial_margin_rate, '0.2', 'unified.initial_margin_rate', false);
  const mmrPpm = ratio(d.maintenance_margin_rate, '0.1', 'unified.maintenance_margin_rate', false);
  if (mmrPpm > imrPpm) throw new ConfigError('unified.maintenance_margin_rate: must not exceed initial_margin_rate');
  const marginLeveragePpm = scaled(d.margin_leverage ?? '5', 6, 'unified.margin_leverage');
  const marginLiquidationPpm = scaled(d.margin_liquidation_risk ?? '1.1', 6, 'unified.margin_liquidation_risk');
  if (marginLeveragePpm <= PPM || marginLeveragePpm > 100n * PPM) throw new ConfigError('unified.margin_leverage: must be above 1 and at most 100');
  if (marginLiquidationPpm <= PPM || marginLeveragePpm * PPM <= marginLiquidationPpm * (marginLeveragePpm - PPM)) {
    throw new ConfigError('unified.margin_liquidation_risk: must be above 1 and below leverage / (leverage - 1)');
  }
  const crossLiquidationPpm = scaled(d.cross_margin_liquidation_risk ?? '1.1', 6, 'unified.cross_margin_liquidation_risk');
  if (crossLiquidationPpm <= PPM || marginLeveragePpm * PPM <= crossLiquidationPpm * (marginLeveragePpm - PPM)) {
    throw new ConfigError('unified.cross_margin_liquidation_risk: must be above 1 and below leverage / (leverage - 1)');
  }
  const given = d.currencies ?? {};
  for (const code of Object.keys(given)) {
    if (!scales.has(code)) throw new ConfigError(`unified.currencies.${code}: not a currency of this exchange`);
  }
  const currencies = new Map<string, CurrencyParams>();
  for (const [code, scale] of scales) {
    const c = given[code] ?? {};
    const p = `unified.currencies.${code}`;
    const minBorrow = c.min_borrow === undefined ? 1n : scaled(c.min_borrow, scale, `${p}.min_borrow`);
    currencies.set(code, {
      indexPrice: c.index_price === undefined ? (code === 'USDT' ? { num: 1n, scale: 0 } : undefined) : parsePrice(c.index_price, `${p}.index_price`),
      tiers: tiers(c.discount_tiers, `${p}.discount_tiers`),
      hourlyRate: scaled(c.hourly_rate ?? DEFAULT_HOURLY_RATE, 12, `${p}.hourly_rate`),
      minBorrow: minBorrow === 0n ? 1n : minBorrow,
      maxBorrow: c.max_borrow === undefined ? null : scaled(c.max_borrow, scale, `${p}.max_borrow`),
      lendable: c.lendable === undefined ? 0n : scaled(c.lendable, scale, `${p}.lendable`),
    });
  }
  return { imrPpm, mmrPpm, marginLeveragePpm, marginLiquidationPpm, crossLiquidationPpm, currencies };
}
