/**
 * Currency scales and default supplies derived from the markets that trade each currency: one derivation for
 * the simulator's config (src/sim/sim-config.ts) and for replays (src/backtest/replay-currencies.ts).
 *
 * Scale. A fill's fee is floor(received × rate) in the currency received (src/core/ledger/settlement.ts), so a
 * currency with only the decimals its markets' amounts need rounds the fee of a small fill away (a minimum
 * 0.0001 ETH buy at 0.2 % paid "0" with 4 ETH decimals). Over the markets that trade it, a currency gets the most
 * of: the decimals of what it receives there (as base: `amount_precision`; as quote: `precision +
 * amount_precision`, so every trade is exact) plus the decimals of that market's larger fee rate written as a
 * fraction (0.2 % = 0.002: 3 more). A fee rate of r / 10^d on one smallest unit of what is received, 10^d
 * currency units, is then exactly r ≥ 1 units: no fee, the smallest fill's included, is rounded at all. Capped at
 * the ledger's 18 decimals (beyond that fees round down, never up); amounts that alone need more than 18 are a
 * ConfigError. A scale the config gives explicitly wins when it is at least what the amounts need (ConfigError
 * otherwise); it may then round small fees down.
 *
 * Supply (defaultSupply): the most this scale keeps exact in a double (the ledger then uses plain numbers) when
 * that is at least 10^9 whole units of the currency, else 10^12 (the ledger keeps that currency in BigInt).
 */
import { ConfigError } from '../invariant.js';
import type { CurrencySpec } from '../ledger/currencies.js';
import { marketFees, type MarketConfig } from './exchange-definition.js';

/** The ledger's most decimals per currency (src/core/ledger/currencies.ts). */
export const MAX_CURRENCY_SCALE = 18;
const MIN_NARROW_SUPPLY = 1e9;
const WIDE_SUPPLY = '1000000000000';

/** A currency the config lists: its scale wins over the derived one; `max_supply` is the caller's to default. */
export interface ExplicitCurrency { readonly code: string; readonly scale: number; readonly max_supply?: string | undefined }

/** A currency as the markets need it: `amounts` decimals make trades exact, `scale` (capped) makes fees exact. */
export interface DerivedScale { readonly code: string; readonly amounts: number; readonly scale: number }

/** How a caller words the two configuration errors (its own field paths). */
export interface ScaleMessages {
  /** An explicit scale below what the markets' amounts need (`index` in the explicit list). */
  below(e: ExplicitCurrency, index: number, need: number): string;
  /** A derived currency whose markets' amounts alone need more than MAX_CURRENCY_SCALE decimals. */
  tooMany(code: string, need: number): string;
}

/** Decimals of a rate in parts per million written as a fraction: 2000 (0.2 %) → 3, 0 → 0. */
export function ppmDecimals(ppm: number): number {
  if (ppm === 0) return 0;
  let d = 6;
  for (let r = ppm; r % 10 === 0 && d > 0; r /= 10) d--;
  return d;
}

/** Decimals of the market's taker and maker fee rates as fractions (the larger). */
export function feeDecimals(m: MarketConfig): number {
  const { taker, maker } = marketFees(m);
  return Math.max(ppmDecimals(taker), ppmDecimals(maker));
}

/** Each currency of `markets`, in order of first appearance (base, then quote), with its derived decimals. @allocates */
export function derivedScales(markets: readonly MarketConfig[]): DerivedScale[] {
  const amounts = new Map<string, number>();
  const exact = new Map<string, number>();
  const need = (code: string, decimals: number, fee: number): void => {
    amounts.set(code, Math.max(amounts.get(code) ?? 0, decimals));
    exact.set(code, Math.max(exact.get(code) ?? 0, decimals + fee));
  };
  for (const m of markets) {
    const fee = feeDecimals(m);
    need(m.base, m.amount_precision, fee);
    need(m.quote, m.precision + m.amount_precision, fee);
  }
  return [...amounts].map(([code, a]) => ({ code, amounts: a, scale: Math.min(MAX_CURRENCY_SCALE, exact.get(code)!) }));
}

/** The default max supply at `scale` (see the module comment). */
export function defaultSupply(scale: number): string {
  const narrow = Math.floor(Number.MAX_SAFE_INTEGER / 10 ** scale);
  return narrow >= MIN_NARROW_SUPPLY ? String(narrow) : WIDE_SUPPLY;
}

/**
 * The currencies of `markets` (derived scales, default supplies) with the explicit ones applied: an explicit
 * currency keeps its scale and its `max_supply` as given (undefined stays undefined), and explicit currencies no
 * market trades come last. Throws ConfigError with the caller's `messages`. @allocates
 */
export function currencySpecs(markets: readonly MarketConfig[], explicit: readonly ExplicitCurrency[], messages: ScaleMessages): CurrencySpec[] {
  const derived = derivedScales(markets);
  const out: CurrencySpec[] = [];
  for (const d of derived) {
    const i = explicit.findIndex((e) => e.code === d.code);
    const e = explicit[i];
    if (e !== undefined) {
      if (e.scale < d.amounts) throw new ConfigError(messages.below(e, i, d.amounts));
      out.push({ code: d.code, scale: e.scale, maxSupply: e.max_supply });
      continue;
    }
    if (d.amounts > MAX_CURRENCY_SCALE) throw new ConfigError(messages.tooMany(d.code, d.amounts));
    out.push({ code: d.code, scale: d.scale, maxSupply: defaultSupply(d.scale) });
  }
  for (const e of explicit) {
    if (!out.some((c) => c.code === e.code)) out.push({ code: e.code, scale: e.scale, maxSupply: e.max_supply });
  }
  return out;
}
