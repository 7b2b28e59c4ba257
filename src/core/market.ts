/**
 * Markets as Gate describes currency pairs, and their integer form inside the core.
 *
 * Units:
 * - price in ticks of 10^-precision quote;
 * - amount in lots of 10^-amount_precision base;
 * - notional in units of 10^-(precision + amount_precision) quote, so ticks × lots is exact.
 * A market buy's amount is quote currency with at most `precision` decimals, held as notional units.
 *
 * Registration proves that every notional the book can meet is a safe integer: an order's price × lots is
 * bounded by maxNotional, and every fill is bounded by the notional of the order it fills.
 */
import { ConfigError } from './invariant.js';
import { ResultCode } from './result-code.js';
import { POW10, parseUnits } from './units.js';

/** Gate's currency-pair fields that matching needs (decimal strings as in the API). */
export interface MarketSpec {
  readonly id: string;
  readonly base: string;
  readonly quote: string;
  /** Price decimals. */
  readonly precision: number;
  /** Amount (base) decimals. */
  readonly amount_precision: number;
  readonly min_base_amount?: string | undefined;
  readonly min_quote_amount?: string | undefined;
  readonly max_base_amount?: string | undefined;
  readonly max_quote_amount?: string | undefined;
}

/** A registered market in integer units. Immutable. */
export interface Market {
  readonly spec: MarketSpec;
  readonly id: string;
  readonly priceScale: number;
  readonly amountScale: number;
  /** priceScale + amountScale: decimals of a notional unit. */
  readonly notionalScale: number;
  /** Notional units per quote unit of `priceScale` decimals (10^amountScale): quote amount → notional. */
  readonly notionalPerQuoteUnit: number;
  readonly minLots: number;
  readonly maxLots: number;
  readonly minNotional: number;
  readonly maxNotional: number;
}

const MAX_SCALE = 12;

/** A bound's units; absent or zero in any spelling ("0", "0.00") means none: `fallback`. */
function boundOrDefault(text: string | undefined, scale: number, fallback: number, field: string, id: string): number {
  if (text === undefined) return fallback;
  if (/^0+(\.0*)?$/.test(text)) return fallback;
  const v = parseUnits(text, scale);
  if (v < 0) throw new ConfigError(`market ${id}: ${field} "${text}" is not a positive decimal with at most ${scale} decimals`);
  return v;
}

/** Validates a spec and derives its integer bounds. Throws ConfigError on a market that cannot work. @allocates */
export function defineMarket(spec: MarketSpec): Market {
  const { id } = spec;
  // A delivery contract's book carries its date: BASE_QUOTE_YYYYMMDD.
  if (!/^[A-Z0-9]+_[A-Z0-9]+(_[0-9]{8})?$/.test(id)) throw new ConfigError(`market id "${id}" is not of the form BASE_QUOTE`);
  for (const [field, v] of [['precision', spec.precision], ['amount_precision', spec.amount_precision]] as const) {
    if (!Number.isInteger(v) || v < 0 || v > MAX_SCALE) throw new ConfigError(`market ${id}: ${field} must be an integer in 0..${MAX_SCALE}`);
  }
  const priceScale = spec.precision;
  const amountScale = spec.amount_precision;
  const notionalScale = priceScale + amountScale;
  const notionalPerQuoteUnit = POW10[amountScale]!;
  const minLots = boundOrDefault(spec.min_base_amount, amountScale, 1, 'min_base_amount', id);
  const maxLots = boundOrDefault(spec.max_base_amount, amountScale, Number.MAX_SAFE_INTEGER, 'max_base_amount', id);
  const minQuote = boundOrDefault(spec.min_quote_amount, priceScale, 0, 'min_quote_amount', id);
  const maxQuote = boundOrDefault(spec.max_quote_amount, priceScale, 0, 'max_quote_amount', id);
  const minNotional = minQuote * notionalPerQuoteUnit;
  const safeQuoteUnits = Math.floor(Number.MAX_SAFE_INTEGER / notionalPerQuoteUnit);
  if (maxQuote > safeQuoteUnits) {
    throw new ConfigError(`market ${id}: max_quote_amount ${spec.max_quote_amount} exceeds exact range at these precisions`);
  }
  const maxNotional = maxQuote === 0 ? safeQuoteUnits * notionalPerQuoteUnit : maxQuote * notionalPerQuoteUnit;
  if (minLots > maxLots) throw new ConfigError(`market ${id}: min_base_amount above max_base_amount`);
  if (minNotional > maxNotional) throw new ConfigError(`market ${id}: min_quote_amount above max_quote_amount`);
  return {
    spec, id, priceScale, amountScale, notionalScale, notionalPerQuoteUnit,
    minLots, maxLots, minNotional, maxNotional,
  };
}

/** Decimal price → ticks, or a negative ResultCode (see parseUnits). */
export const parsePrice = (m: Market, text: unknown): number => parseUnits(text, m.priceScale);

/** Decimal base amount → lots, or a negative ResultCode (see parseUnits). */
export const parseLots = (m: Market, text: unknown): number => parseUnits(text, m.amountScale);

/** Decimal quote amount (a market buy's budget) → notional units, or a negative ResultCode. */
export function parseQuoteBudget(m: Market, text: unknown): number {
  const quoteUnits = parseUnits(text, m.priceScale);
  if (quoteUnits < 0) return quoteUnits;
  const notional = quoteUnits * m.notionalPerQuoteUnit;
  return Number.isSafeInteger(notional) ? notional : ResultCode.AmountTooMuch;
}
