/**
 * Validation of the config file's `unified` section (docs/unified.md): its shape and decimal fields, each
 * error naming the field by path (`unified.currencies.BTC.discount_tiers[1].discount`). Limits that need the
 * currencies' decimals (min_borrow, max_borrow, lendable) are checked when the exchange is built
 * (core/unified/unified-params.ts), with the same paths.
 */
import { ConfigError } from '../core/invariant.js';

type Obj = Record<string, unknown>;
const DECIMAL = /^[0-9]{1,30}(\.[0-9]{1,36})?$/;
const CURRENCY_FIELDS = ['index_price', 'discount_tiers', 'hourly_rate', 'min_borrow', 'max_borrow', 'lendable'];

function fail(path: string, what: string): never {
  throw new ConfigError(`config: ${path}: ${what}`);
}

function object(v: unknown, path: string, allowed: readonly string[] | undefined): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object');
  const o = v as Obj;
  if (allowed !== undefined) for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${path}.${k}`, 'unknown field');
  return o;
}

function decimal(o: Obj, k: string, path: string, maxOne = false): void {
  const v = o[k];
  if (v === undefined) return;
  if (typeof v !== 'string' || !DECIMAL.test(v)) fail(`${path}.${k}`, 'must be a decimal string such as "0.2"');
  if (maxOne && Number(v) > 1) fail(`${path}.${k}`, 'must be at most 1');
}

/** Validates `unified` (see the module header); `currencies` are the config's currency codes. */
export function validateUnified(v: unknown, path: string, currencies: ReadonlySet<string>): void {
  const o = object(v, path, ['currencies', 'initial_margin_rate', 'maintenance_margin_rate', 'liquidation', 'margin_leverage',
    'margin_liquidation_risk', 'cross_margin_liquidation_risk']);
  decimal(o, 'margin_leverage', path);
  decimal(o, 'margin_liquidation_risk', path);
  decimal(o, 'cross_margin_liquidation_risk', path);
  if (o.liquidation !== undefined && typeof o.liquidation !== 'boolean') fail(`${path}.liquidation`, 'must be true or false');
  decimal(o, 'initial_margin_rate', path, true);
  decimal(o, 'maintenance_margin_rate', path, true);
  if (o.currencies === undefined) return;
  const cs = object(o.currencies, `${path}.currencies`, undefined);
  for (const [code, c] of Object.entries(cs)) {
    const cp = `${path}.currencies.${code}`;
    if (!currencies.has(code)) fail(cp, 'not a currency of this config');
    const co = object(c, cp, CURRENCY_FIELDS);
    for (const k of ['index_price', 'hourly_rate', 'min_borrow', 'max_borrow', 'lendable']) decimal(co, k, cp);
    if (co.discount_tiers === undefined) continue;
    const tp = `${cp}.discount_tiers`;
    if (!Array.isArray(co.discount_tiers) || co.discount_tiers.length === 0) fail(tp, 'must be a non-empty array');
    co.discount_tiers.forEach((t, i) => {
      const to = object(t, `${tp}[${i}]`, ['upper_limit', 'discount']);
      if (to.discount === undefined) fail(`${tp}[${i}].discount`, 'is required');
      decimal(to, 'discount', `${tp}[${i}]`, true);
      decimal(to, 'upper_limit', `${tp}[${i}]`);
    });
  }
}
