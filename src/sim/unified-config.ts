/**
 * The config file's `unified` section (docs/unified.md): its validation, each error naming the field by path
 * (`unified.currencies.BTC.discount_tiers[1].discount`), and the platform's default lending.
 *
 * Amounts are checked against their currency at load time (sim/config-check.ts `amount`): min_borrow,
 * max_borrow and lendable at the currency's decimals and within its max supply; index prices above 0 with at
 * most 18 decimals; hourly rates with at most 12; discounts and margin rates with at most 6, at most 1. What
 * relates fields to one another (tiers ascending, maintenance ≤ initial margin, leverage against the
 * liquidation risks) is core/unified/unified-params.ts's resolution, run here too so it fails at load time.
 *
 * Default lending (the real exchange always lends): every currency the config leaves without `lendable` gets a
 * pool of DEFAULT_LENDABLE units, at most a tenth of its max supply and at most what the users' opening balances
 * leave of it; `"lendable": "0"` switches a currency's lending off. Rates and limits default in the core: hourly rate DEFAULT_HOURLY_RATE, `min_borrow` one smallest
 * unit, no `max_borrow` (the pool and the margin bound it). Isolated and cross margin borrow from the same pool.
 */
import { ConfigError } from '../core/invariant.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import { resolveUnifiedParams, type UnifiedCurrencyDefinition, type UnifiedDefinition } from '../core/unified/unified-params.js';
import { type CurrencyRules, currencyRules } from './config-amounts.js';
import { type AmountRule, fail, formatScaled, object, optionalAmount } from './config-check.js';

const CURRENCY_FIELDS = ['index_price', 'discount_tiers', 'hourly_rate', 'min_borrow', 'max_borrow', 'lendable'];

/** Units of each currency the platform lends when the config does not say (capped at a tenth of the max supply). */
export const DEFAULT_LENDABLE = 1_000_000n;

const RATIO: AmountRule = { scale: 6, of: 'a ratio', max: 1_000_000n, maxText: '1' };
const FACTOR: AmountRule = { scale: 6, of: 'a leverage or risk' };
const PRICE: AmountRule = { scale: 18, of: 'an index price', positive: true };
const HOURLY: AmountRule = { scale: 12, of: 'an hourly rate' };
const USD: AmountRule = { scale: 36, of: 'a USD limit' };

/** Validates `unified` (see the module header); `rules` are the config's currencies. */
export function validateUnified(v: unknown, path: string, rules: CurrencyRules): void {
  const o = object(v, path, ['currencies', 'initial_margin_rate', 'maintenance_margin_rate', 'liquidation', 'margin_leverage',
    'margin_liquidation_risk', 'cross_margin_liquidation_risk']);
  for (const k of ['margin_leverage', 'margin_liquidation_risk', 'cross_margin_liquidation_risk']) optionalAmount(o, k, path, FACTOR);
  if (o.liquidation !== undefined && typeof o.liquidation !== 'boolean') fail(`${path}.liquidation`, 'must be true or false');
  optionalAmount(o, 'initial_margin_rate', path, { ...RATIO, positive: true });
  optionalAmount(o, 'maintenance_margin_rate', path, { ...RATIO, positive: true });
  const cs = o.currencies === undefined ? {} : object(o.currencies, `${path}.currencies`, undefined);
  for (const [code, c] of Object.entries(cs)) {
    const cp = `${path}.currencies.${code}`;
    const cur = rules.get(code);
    if (cur === undefined) fail(cp, 'not a currency of this config');
    const co = object(c, cp, CURRENCY_FIELDS);
    optionalAmount(co, 'index_price', cp, PRICE);
    optionalAmount(co, 'hourly_rate', cp, HOURLY);
    const min = optionalAmount(co, 'min_borrow', cp, cur);
    const max = optionalAmount(co, 'max_borrow', cp, cur);
    if (min !== undefined && max !== undefined && max > 0n && min > max) fail(`${cp}.min_borrow`, `must not be above max_borrow (${co.max_borrow as string})`);
    optionalAmount(co, 'lendable', cp, cur);
    if (co.discount_tiers === undefined) continue;
    const tp = `${cp}.discount_tiers`;
    if (!Array.isArray(co.discount_tiers) || co.discount_tiers.length === 0) fail(tp, 'must be a non-empty array');
    co.discount_tiers.forEach((t, i) => {
      const to = object(t, `${tp}[${i}]`, ['upper_limit', 'discount'], ['discount']);
      optionalAmount(to, 'discount', `${tp}[${i}]`, RATIO);
      optionalAmount(to, 'upper_limit', `${tp}[${i}]`, USD);
    });
  }
  const scales = new Map([...rules].map(([code, r]) => [code, r.scale]));
  try {
    resolveUnifiedParams(v as UnifiedDefinition, scales);
  } catch (e) {
    throw e instanceof ConfigError ? new ConfigError(`config: ${e.message}`) : e;
  }
}

/**
 * The lending pool a currency gets when the config names none: DEFAULT_LENDABLE units, at most a tenth of its
 * max supply and at most what the other opening credits (`used`, in units) leave of it.
 */
export function defaultLendable(currency: CurrencySpec, used = 0n): string {
  const rule = currencyRules([currency]).get(currency.code)!;
  let units = DEFAULT_LENDABLE * 10n ** BigInt(rule.scale);
  for (const cap of [rule.max / 10n, rule.max - used]) if (cap < units) units = cap;
  return formatScaled(units < 0n ? 0n : units, rule.scale);
}

/**
 * `unified` with a `lendable` for every currency: the configured one, else defaultLendable given what the
 * users' opening balances already use of its supply (`used`, units per code). @allocates
 */
export function withLendingDefaults(unified: UnifiedDefinition | undefined, currencies: readonly CurrencySpec[],
  used: ReadonlyMap<string, bigint> = new Map()): UnifiedDefinition {
  const given = unified?.currencies ?? {};
  const out: Record<string, UnifiedCurrencyDefinition> = { ...given };
  for (const c of currencies) {
    const g = given[c.code];
    if (g?.lendable === undefined) out[c.code] = { ...g, lendable: defaultLendable(c, used.get(c.code) ?? 0n) };
  }
  return { ...unified, currencies: out };
}
