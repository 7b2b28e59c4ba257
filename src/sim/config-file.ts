/**
 * The simulator's config file (`npm start -- --config FILE.json`): the fixed format of SimConfig plus the
 * server's settings, validated completely before anything starts. Any unknown field, wrong type or bad value
 * throws ConfigError naming the field by its path (e.g. `users[0].keys[1].perms[2].name`).
 *
 * Server fields (all optional): host, port, admin_token, clock {type: "wall" | "sim", start_ms},
 * auth_window_s, rate_limits (boolean or {enabled, scale}), trust_proxy, body_limit, cancelled_order_retention_s,
 * engine {runner: "threaded" (default) | "inline", shards: 1..64 (threaded; default 1), journal: path,
 * fsync: "batch" | "never" | ms (default 20)}.
 * API-key fields (optional): api_key_limit (keys per account, default 20), api_key_change_delay_ms (delay
 * before key changes take effect, default 0); see docs/sub-accounts.md.
 * Wallet fields (optional): chains {CURRENCY: [chain, …]} (sim/chains/chain-spec.ts), low_cap_currencies.
 * Unified account (optional): unified {currencies, initial_margin_rate, maintenance_margin_rate} (docs/unified.md).
 * Users may also carry `main_uid` (a sub-account) and `locked` (frozen: its keys get ACCOUNT_LOCKED or
 * SUB_ACCOUNT_LOCKED).
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../core/invariant.js';
import type { SimConfig, SimUser } from './sim-config.js';
import { type ChainsConfig, validateChains } from './chains/chain-spec.js';
import { validateUnified } from './unified-config.js';

export interface ClockConfig {
  readonly type: 'wall' | 'sim';
  /** Start of a simulated clock, ms since the epoch; default 2026-01-01T00:00:00Z. */
  readonly start_ms?: number | undefined;
}

export interface EngineConfig {
  /** threaded: books in shard workers (default); inline: one thread, synchronous. */
  readonly runner?: 'threaded' | 'inline' | undefined;
  /** Shard workers of the threaded runner; default 1. */
  readonly shards?: number | undefined;
  /** Journal file: every command is appended; on start an existing journal is replayed and continued. */
  readonly journal?: string | undefined;
  /** When appends reach the disk: "batch", "never", or every N ms (default 20). */
  readonly fsync?: 'batch' | 'never' | number | undefined;
}

export interface FileUser extends SimUser {
  readonly locked?: boolean | undefined;
}

export interface SimulatorConfig extends SimConfig {
  readonly users?: readonly FileUser[];
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly admin_token?: string | undefined;
  readonly clock?: ClockConfig | undefined;
  readonly auth_window_s?: number | undefined;
  readonly rate_limits?: boolean | { readonly enabled?: boolean | undefined; readonly scale?: number | undefined } | undefined;
  readonly trust_proxy?: boolean | undefined;
  readonly body_limit?: number | undefined;
  /** Seconds a finished order with no fills stays readable (default 60, as Gate). */
  readonly cancelled_order_retention_s?: number | undefined;
  readonly engine?: EngineConfig | undefined;
  readonly api_key_limit?: number | undefined;
  readonly api_key_change_delay_ms?: number | undefined;
  /** Chains per currency (see sim/chains/chain-spec.ts and docs/wallet.md). */
  readonly chains?: ChainsConfig | undefined;
  /** Currencies GET /wallet/getLowCapExchangeList lists. */
  readonly low_cap_currencies?: readonly string[] | undefined;
}

type Obj = Record<string, unknown>;
const PERM_NAMES = ['spot', 'margin', 'futures', 'delivery', 'options', 'wallet', 'withdrawal', 'unified', 'account', 'sub_accounts'];
const DECIMAL = /^[0-9]{1,30}(\.[0-9]{1,30})?$/;

function fail(path: string, what: string): never {
  throw new ConfigError(`config: ${path}: ${what}`);
}

function object(v: unknown, path: string, allowed: readonly string[], required: readonly string[] = []): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object');
  const o = v as Obj;
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(path === '' ? k : `${path}.${k}`, 'unknown field');
  for (const k of required) if (o[k] === undefined) fail(path === '' ? k : `${path}.${k}`, 'is required');
  return o;
}

function array(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) fail(path, 'must be an array');
  return v;
}

function optional<T>(o: Obj, k: string, path: string, check: (v: unknown, p: string) => T): T | undefined {
  return o[k] === undefined ? undefined : check(o[k], path === '' ? k : `${path}.${k}`);
}

const string = (v: unknown, p: string): string => (typeof v === 'string' && v !== '' ? v : fail(p, 'must be a non-empty string'));
const bool = (v: unknown, p: string): boolean => (typeof v === 'boolean' ? v : fail(p, 'must be true or false'));
const decimal = (v: unknown, p: string): string => (typeof v === 'string' && DECIMAL.test(v) ? v : fail(p, 'must be a decimal string such as "0.2"'));
function integer(min: number, max: number) {
  return (v: unknown, p: string): number =>
    (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(p, `must be an integer in ${min}..${max}`));
}

function pair(v: unknown, p: string): Obj {
  const o = object(v, p, ['id', 'base', 'quote', 'precision', 'amount_precision', 'min_base_amount', 'min_quote_amount',
    'max_base_amount', 'max_quote_amount', 'fee', 'maker_fee_rate'], ['id', 'base', 'quote', 'precision', 'amount_precision']);
  const id = string(o.id, `${p}.id`);
  const base = string(o.base, `${p}.base`);
  const quote = string(o.quote, `${p}.quote`);
  if (!/^[A-Z0-9]{1,20}$/.test(base)) fail(`${p}.base`, 'must be upper-case letters and digits');
  if (!/^[A-Z0-9]{1,20}$/.test(quote)) fail(`${p}.quote`, 'must be upper-case letters and digits');
  if (id !== `${base}_${quote}`) fail(`${p}.id`, `must be "${base}_${quote}" (BASE_QUOTE)`);
  integer(0, 12)(o.precision, `${p}.precision`);
  integer(0, 12)(o.amount_precision, `${p}.amount_precision`);
  for (const k of ['min_base_amount', 'min_quote_amount', 'max_base_amount', 'max_quote_amount', 'fee', 'maker_fee_rate']) optional(o, k, p, decimal);
  return o;
}

function key(v: unknown, p: string): void {
  const o = object(v, p, ['key', 'secret', 'mode', 'perms', 'ip_whitelist', 'name'], ['key', 'secret']);
  string(o.key, `${p}.key`);
  string(o.secret, `${p}.secret`);
  optional(o, 'name', p, string);
  optional(o, 'mode', p, (m, mp) => (m === 1 || m === 2 ? m : fail(mp, 'must be 1 (classic) or 2 (unified)')));
  if (o.perms !== undefined && o.perms !== 'all') {
    array(o.perms, `${p}.perms`).forEach((perm, i) => {
      const pp = `${p}.perms[${i}]`;
      const po = object(perm, pp, ['name', 'read_only'], ['name']);
      if (typeof po.name !== 'string' || !PERM_NAMES.includes(po.name)) fail(`${pp}.name`, `must be one of ${PERM_NAMES.join(', ')}`);
      optional(po, 'read_only', pp, bool);
    });
  }
  optional(o, 'ip_whitelist', p, (w, wp) => array(w, wp).forEach((ip, i) => {
    if (typeof ip !== 'string' || !/^[0-9]{1,3}(\.[0-9]{1,3}){3}$/.test(ip)) fail(`${wp}[${i}]`, 'must be an IPv4 address');
  }));
}

function user(v: unknown, p: string, currencies: ReadonlySet<string>): void {
  const o = object(v, p, ['uid', 'main_uid', 'locked', 'keys', 'balances'], ['uid']);
  integer(1, 2 ** 31 - 1)(o.uid, `${p}.uid`);
  optional(o, 'main_uid', p, integer(1, 2 ** 31 - 1));
  optional(o, 'locked', p, bool);
  optional(o, 'keys', p, (ks, kp) => array(ks, kp).forEach((k, i) => key(k, `${kp}[${i}]`)));
  if (o.balances !== undefined) {
    const b = object(o.balances, `${p}.balances`, ['spot']);
    if (b.spot !== undefined) {
      const spot = object(b.spot, `${p}.balances.spot`, [...currencies]);
      for (const [c, amount] of Object.entries(spot)) decimal(amount, `${p}.balances.spot.${c}`);
    }
  }
}

/** Validates a parsed config (see the module header). Throws ConfigError naming the first bad field. */
export function validateConfig(raw: unknown): SimulatorConfig {
  const o = object(raw, '', ['currency_pairs', 'currencies', 'users', 'stp_groups', 'market_maker', 'host', 'port',
    'admin_token', 'clock', 'auth_window_s', 'rate_limits', 'trust_proxy', 'body_limit', 'chains', 'low_cap_currencies',
    'api_key_limit', 'api_key_change_delay_ms', 'engine', 'unified', 'cancelled_order_retention_s'], ['currency_pairs']);
  const pairs = array(o.currency_pairs, 'currency_pairs').map((x, i) => pair(x, `currency_pairs[${i}]`));
  if (pairs.length === 0) fail('currency_pairs', 'needs at least one pair');
  const ids = new Set<string>();
  pairs.forEach((x, i) => { if (ids.has(x.id as string)) fail(`currency_pairs[${i}].id`, 'duplicate'); ids.add(x.id as string); });
  const currencies = new Set(pairs.flatMap((x) => [x.base as string, x.quote as string]));
  optional(o, 'currencies', '', (cs, cp) => array(cs, cp).forEach((c, i) => {
    const co = object(c, `${cp}[${i}]`, ['code', 'scale', 'max_supply'], ['code', 'scale']);
    currencies.add(string(co.code, `${cp}[${i}].code`));
    integer(0, 18)(co.scale, `${cp}[${i}].scale`);
    optional(co, 'max_supply', `${cp}[${i}]`, decimal);
  }));
  const uids = new Set<number>();
  optional(o, 'users', '', (us, up) => array(us, up).forEach((u, i) => {
    user(u, `${up}[${i}]`, currencies);
    const uid = (u as Obj).uid as number;
    if (uids.has(uid)) fail(`${up}[${i}].uid`, `duplicate uid ${uid}`);
    uids.add(uid);
  }));
  const keyIds = new Set<string>();
  ((o.users ?? []) as Obj[]).forEach((u, i) => ((u.keys ?? []) as Obj[]).forEach((k, j) => {
    if (keyIds.has(k.key as string)) fail(`users[${i}].keys[${j}].key`, 'duplicate key');
    keyIds.add(k.key as string);
  }));
  ((o.users ?? []) as Obj[]).forEach((u, i) => {
    if (u.main_uid !== undefined && !uids.has(u.main_uid as number)) fail(`users[${i}].main_uid`, `no user ${u.main_uid as number}`);
  });
  optional(o, 'stp_groups', '', (gs, gp) => array(gs, gp).forEach((g, i) => {
    const go = object(g, `${gp}[${i}]`, ['id', 'name', 'users'], ['id', 'users']);
    integer(1, 2 ** 31 - 1)(go.id, `${gp}[${i}].id`);
    optional(go, 'name', `${gp}[${i}]`, string);
    array(go.users, `${gp}[${i}].users`).forEach((uid, j) => {
      if (typeof uid !== 'number' || !uids.has(uid)) fail(`${gp}[${i}].users[${j}]`, 'must be the uid of a configured user');
    });
  }));
  optional(o, 'market_maker', '', (m, mp) => (typeof m === 'boolean' || (typeof m === 'object' && m !== null && !Array.isArray(m)) ? m : fail(mp, 'must be true, false or an object')));
  optional(o, 'host', '', string);
  optional(o, 'port', '', integer(0, 65535));
  optional(o, 'admin_token', '', string);
  optional(o, 'clock', '', (c, cp) => {
    const co = object(c, cp, ['type', 'start_ms'], ['type']);
    if (co.type !== 'wall' && co.type !== 'sim') fail(`${cp}.type`, 'must be "wall" or "sim"');
    optional(co, 'start_ms', cp, integer(0, Number.MAX_SAFE_INTEGER / 1000));
  });
  optional(o, 'auth_window_s', '', integer(1, 86_400));
  optional(o, 'rate_limits', '', (r, rp) => {
    if (typeof r === 'boolean') return;
    const ro = object(r, rp, ['enabled', 'scale']);
    optional(ro, 'enabled', rp, bool);
    optional(ro, 'scale', rp, (s, sp) => (typeof s === 'number' && s > 0 && s <= 1e6 ? s : fail(sp, 'must be a number in (0, 1e6]')));
  });
  optional(o, 'trust_proxy', '', bool);
  optional(o, 'body_limit', '', integer(1024, 64 << 20));
  optional(o, 'cancelled_order_retention_s', '', integer(0, 1_000_000_000));
  optional(o, 'engine', '', (e, ep) => {
    const eo = object(e, ep, ['runner', 'shards', 'journal', 'fsync']);
    if (eo.runner !== undefined && eo.runner !== 'threaded' && eo.runner !== 'inline') fail(`${ep}.runner`, 'must be "threaded" or "inline"');
    optional(eo, 'shards', ep, integer(1, 64));
    optional(eo, 'journal', ep, (j, jp) => (typeof j === 'string' && j !== '' ? j : fail(jp, 'must be a file path')));
    optional(eo, 'fsync', ep, (f, fp) => (f === 'batch' || f === 'never' || (typeof f === 'number' && Number.isInteger(f) && f >= 0 && f <= 60_000)
      ? f : fail(fp, 'must be "batch", "never" or an interval in ms (0..60000)')));
  });
  optional(o, 'api_key_limit', '', integer(1, 1000));
  optional(o, 'api_key_change_delay_ms', '', integer(0, 3_600_000));
  optional(o, 'chains', '', (c, cp) => validateChains(c, cp, currencies));
  optional(o, 'low_cap_currencies', '', (l, lp) => array(l, lp).forEach((c, i) => {
    if (typeof c !== 'string' || !currencies.has(c)) fail(`${lp}[${i}]`, 'must be a known currency');
  }));
  optional(o, 'unified', '', (u, up) => validateUnified(u, up, currencies));
  return raw as SimulatorConfig;
}

/** Reads and validates a config file. Throws ConfigError (with the file name) on any problem. */
export function loadConfigFile(path: string): SimulatorConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`config: cannot read ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config: ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return validateConfig(raw);
}

