/**
 * The checks every section of the config file is built from. Each throws ConfigError
 * `config: <path>: <what is wrong>`, the path naming the field as the file spells it
 * (`users[0].balances.spot.USDT`, `chains.USDT[1].withdraw_fix`).
 *
 * Amounts (`amount`) are decimal strings, read exactly into integer units of 10^-scale (BigInt, never a float),
 * and say which rule a bad value breaks: not a string, not a number, negative, too many decimals for the
 * currency or market, above its maximum, or zero where zero means nothing (a price, a size).
 */
import { ConfigError } from '../core/invariant.js';

export type Obj = Record<string, unknown>;

export function fail(path: string, what: string): never {
  throw new ConfigError(`config: ${path}: ${what}`);
}

/** `path.key`, or `key` at the top level. */
export const at = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** An object whose keys are all `allowed` (any keys when undefined) and that has every `required` key. */
export function object(v: unknown, path: string, allowed: readonly string[] | undefined, required: readonly string[] = []): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object');
  const o = v as Obj;
  if (allowed !== undefined) for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(at(path, k), 'unknown field');
  for (const k of required) if (o[k] === undefined) fail(at(path, k), 'is required');
  return o;
}

export function array(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) fail(path, 'must be an array');
  return v;
}

/** Runs `check` on `o[k]` when present. */
export function optional<T>(o: Obj, k: string, path: string, check: (v: unknown, p: string) => T): T | undefined {
  return o[k] === undefined ? undefined : check(o[k], at(path, k));
}

export const string = (v: unknown, p: string): string => (typeof v === 'string' && v !== '' ? v : fail(p, 'must be a non-empty string'));
export const bool = (v: unknown, p: string): boolean => (typeof v === 'boolean' ? v : fail(p, 'must be true or false'));

export function integer(min: number, max: number) {
  return (v: unknown, p: string): number =>
    (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(p, `must be an integer in ${min}..${max}`));
}

/** What an amount field allows. */
export interface AmountRule {
  /** Most decimals. */
  readonly scale: number;
  /** Whose decimals and maximum they are, for messages: "USDT", "BTC_USDT amounts". */
  readonly of: string;
  /** Largest value in units of 10^-scale (inclusive); absent: 30 integer digits. */
  readonly max?: bigint | undefined;
  /** How the maximum reads in messages (default: the maximum itself). */
  readonly maxText?: string | undefined;
  /** Zero is refused (a price, a size, a supply). */
  readonly positive?: boolean | undefined;
}

const PLAIN = /^([0-9]{1,30})(?:\.([0-9]{1,40}))?$/;

/** Integer units of 10^-scale as a minimal decimal string. @allocates */
export function formatScaled(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  if (scale === 0) return digits;
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  const int = digits.slice(0, digits.length - scale);
  return frac === '' ? int : `${int}.${frac}`;
}

/** 10^n as a BigInt. */
export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Reads the amount at `path` by `rule` into units of 10^-rule.scale; throws ConfigError saying what is wrong. */
export function amount(v: unknown, path: string, rule: AmountRule): bigint {
  if (typeof v === 'number' && Number.isFinite(v)) fail(path, `must be a decimal string such as "${v}" (in quotes), not the number ${v}`);
  if (typeof v !== 'string') fail(path, 'must be a decimal string such as "100.5"');
  const shown = v.length > 48 ? `${v.slice(0, 45)}...` : v;
  const m = PLAIN.exec(v);
  if (m === null) {
    if (/^-\s*[0-9]/.test(v)) fail(path, `"${shown}" is negative: amounts are 0 or more`);
    if (/^[0-9]{31,}(\.[0-9]+)?$/.test(v)) fail(path, `"${shown}" has more than 30 integer digits`);
    fail(path, `"${shown}" is not a number: write digits with an optional decimal point, e.g. "100.5"`);
  }
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > rule.scale) {
    fail(path, `"${shown}" has ${frac.length} decimals: ${rule.of} ${rule.scale === 0 ? 'takes no decimals' : `takes at most ${rule.scale}`}`);
  }
  const units = BigInt(m[1]! + frac.padEnd(rule.scale, '0'));
  if (rule.positive === true && units === 0n) fail(path, 'must be above 0');
  if (rule.max !== undefined && units > rule.max) {
    fail(path, `"${shown}" is above the maximum of ${rule.of} (${rule.maxText ?? formatScaled(rule.max, rule.scale)})`);
  }
  return units;
}

/** `o[k]` read by `amount` when present. */
export function optionalAmount(o: Obj, k: string, path: string, rule: AmountRule): bigint | undefined {
  return o[k] === undefined ? undefined : amount(o[k], at(path, k), rule);
}
