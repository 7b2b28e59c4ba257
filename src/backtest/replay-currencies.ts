/**
 * Currencies of a replayed market (market-data replays, LOBSTER, the replay server): the simulator's derivation
 * (src/core/exchange/currency-scales.ts: every fee exact, the smallest fill's included; explicit scales win),
 * with a default supply for a listed currency that gives none as well, since the liquidity accounts are funded
 * with a fraction of each supply and must cover the book.
 */
import { Command, CommandType } from '../core/command.js';
import { currencySpecs, defaultSupply, type ExplicitCurrency, MAX_CURRENCY_SCALE } from '../core/exchange/currency-scales.js';
import type { MarketConfig } from '../core/exchange/exchange-definition.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import type { InlineEngine } from '../engine/inline-engine.js';

const WIDE_SUPPLY = '1000000000000';

/** The currencies of one replayed market, then any other listed ones. Throws ConfigError. @allocates */
export function replayCurrencies(m: MarketConfig, explicit: readonly ExplicitCurrency[] = []): CurrencySpec[] {
  return currencySpecs([m], explicit, {
    below: (e, _i, need) => `currencies.${e.code}.scale ${e.scale} is below the ${need} decimals the market's amounts need`,
    tooMany: (code, need) => `currency ${code} would need ${need} decimals (at most ${MAX_CURRENCY_SCALE})`,
  }).map((c) => (c.maxSupply === undefined ? { ...c, maxSupply: defaultSupply(c.scale) } : c));
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
