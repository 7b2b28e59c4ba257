/**
 * `"extends": "demo"`: a config file that starts from the built-in demo (sim/demo.ts) and says only what
 * differs. The file's fields are laid over the demo's:
 * - lists of things with an identity merge by it: `currency_pairs` by `id`, `users` by `uid`, `stp_groups` by
 *   `id`, `currencies` by `code`, and each currency's `chains` by `chain`; an entry of the file replaces the
 *   demo's entry of the same identity whole (in its place), other entries are added after the demo's;
 * - `unified`: its fields replace the demo's, and `unified.currencies` merges by currency code (an entry
 *   replaces the demo's entry whole);
 * - every other field (`market_maker`, `engine`, `port`, …) replaces the demo's value.
 * The result is validated as one config, so paths in error messages index the merged lists.
 */
import { fail, type Obj } from './config-check.js';
import { DEMO_CONFIG } from './demo.js';

/** What `extends` may name. */
export const BASES: Readonly<Record<string, unknown>> = { demo: DEMO_CONFIG };

/** Merges `file` over `base` by `idKey` (see the module header); lists that are not arrays are left to validation. */
function mergeById(base: unknown, file: unknown, idKey: string): unknown {
  if (!Array.isArray(base) || !Array.isArray(file)) return file;
  const out: unknown[] = [...(base as unknown[])];
  const idOf = (x: unknown): unknown => (typeof x === 'object' && x !== null ? (x as Obj)[idKey] : undefined);
  for (const entry of file) {
    const id = idOf(entry);
    const at = id === undefined ? -1 : out.findIndex((b) => idOf(b) === id);
    if (at >= 0) out[at] = entry;
    else out.push(entry);
  }
  return out;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merges objects keyed by name (`chains`, `unified.currencies`) with `merge` per key present in both. */
function mergeKeyed(base: unknown, file: unknown, merge: (b: unknown, f: unknown) => unknown): unknown {
  if (!isObj(base) || !isObj(file)) return file;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(file)) out[k] = k in base ? merge(base[k], v) : v;
  return out;
}

/**
 * The config a parsed file describes: itself, or with `extends` its fields laid over the named base (see the
 * module header). Throws ConfigError when `extends` names no base.
 */
export function applyExtends(raw: unknown): unknown {
  if (!isObj(raw) || raw.extends === undefined) return raw;
  const base = typeof raw.extends === 'string' ? BASES[raw.extends] : undefined;
  if (base === undefined) fail('extends', `must be one of ${Object.keys(BASES).map((b) => `"${b}"`).join(', ')}`);
  const b = structuredClone(base) as Obj;
  const out: Obj = { ...b };
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'extends') continue;
    if (k === 'currency_pairs' || k === 'stp_groups') out[k] = mergeById(b[k], v, 'id');
    else if (k === 'users') out[k] = mergeById(b[k], v, 'uid');
    else if (k === 'currencies') out[k] = mergeById(b[k], v, 'code');
    else if (k === 'chains') out[k] = mergeKeyed(b[k], v, (x, y) => mergeById(x, y, 'chain'));
    else if (k === 'unified' && isObj(b[k]) && isObj(v)) {
      out[k] = { ...b[k], ...v, ...(v.currencies === undefined ? {} : { currencies: mergeKeyed(b[k].currencies, v.currencies, (_x, y) => y) }) };
    } else out[k] = v;
  }
  return out;
}
