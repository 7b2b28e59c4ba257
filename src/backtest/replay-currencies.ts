/**
 * Currencies of a replayed market (market-data replays, LOBSTER, the replay server).
 *
 * Scales: a fill's fee is floor(received × rate) in the currency received (src/core/ledger/settlement.ts),
 * so a currency with only the decimals the market's amounts need rounds the fee of a small fill away (a
 * 0.01 BTC taker buy at 0.2 % paid "0" with 3 BTC decimals). Each currency gets the decimals of what it
 * receives plus those of the market's largest-decimal fee rate as a fraction (0.2 % = 0.002: 3 more), so
 * every fee is exact: base = amount_precision + fee decimals, quote = precision + amount_precision + fee
 * decimals; capped at the ledger's 18 (beyond that fees round down, never up). A currency the config lists
 * keeps its scale (at least what the market's amounts need; ConfigError otherwise).
 *
 * Supply: the config's `max_supply`, else the most this scale keeps exact in a double (the ledger then
 * uses plain numbers) when that is at least 10^9 units of the currency, else 10^12 (the ledger keeps that
 * currency in BigInt): the liquidity accounts are funded with a fraction of it and must cover the book.
 */
import { Command, CommandType } from '../core/command.js';
import { marketFees, type MarketConfig } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import type { InlineEngine } from '../engine/inline-engine.js';

/** The ledger's most decimals per currency (src/core/ledger/currencies.ts). */
export const MAX_CURRENCY_SCALE = 18;
const MIN_NARROW_SUPPLY = 1e9;
const WIDE_SUPPLY = '1000000000000';

export interface ExplicitCurrency { readonly code: string; readonly scale: number; readonly max_supply?: string | undefined }

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

/** The currencies of one replayed market (see the module comment), then any other listed ones. @allocates */
export function replayCurrencies(m: MarketConfig, explicit: readonly ExplicitCurrency[] = []): CurrencySpec[] {
  const fee = feeDecimals(m);
  const amounts = new Map<string, number>([[m.base, m.amount_precision], [m.quote, m.precision + m.amount_precision]]);
  const out: CurrencySpec[] = [];
  for (const [code, need] of amounts) {
    const e = explicit.find((c) => c.code === code);
    if (e !== undefined) {
      if (e.scale < need) throw new ConfigError(`currencies.${code}.scale ${e.scale} is below the ${need} decimals the market's amounts need`);
      out.push({ code, scale: e.scale, maxSupply: e.max_supply ?? supplyAt(e.scale) });
      continue;
    }
    if (need > MAX_CURRENCY_SCALE) throw new ConfigError(`currency ${code} would need ${need} decimals (at most ${MAX_CURRENCY_SCALE})`);
    const scale = Math.min(MAX_CURRENCY_SCALE, need + fee);
    out.push({ code, scale, maxSupply: supplyAt(scale) });
  }
  for (const e of explicit) {
    if (!amounts.has(e.code) && !out.some((c) => c.code === e.code)) out.push({ code: e.code, scale: e.scale, maxSupply: e.max_supply ?? supplyAt(e.scale) });
  }
  return out;
}

/** Default supply at `scale` (see the module comment). */
function supplyAt(scale: number): string {
  const narrow = Math.floor(Number.MAX_SAFE_INTEGER / 10 ** scale);
  return narrow >= MIN_NARROW_SUPPLY ? String(narrow) : WIDE_SUPPLY;
}

/** Units of `spec`'s supply (its integer part × 10^scale). */
export function supplyUnits(spec: CurrencySpec): bigint {
  return BigInt((spec.maxSupply ?? WIDE_SUPPLY).split('.')[0]!) * 10n ** BigInt(spec.scale);
}

/** Credits `units` of `currency` to `uid`'s spot account; returns the result code. Wide currencies go as text. */
export function creditUnits(engine: InlineEngine, uid: number, currency: string, units: bigint): number {
  const ex = engine.exchange;
  const c = new Command();
  c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = ex.currencyIndex(currency);
  if (ex.ledger.isWide(currency)) c.text = units.toString(); else c.amount = Number(units);
  return engine.submit(c);
}
