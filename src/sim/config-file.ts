/**
 * The simulator's config file (`npm start -- --config FILE.json`): the fixed format of SimConfig plus the
 * server's settings, validated completely before anything starts. Any unknown field, wrong type or bad value
 * throws ConfigError naming the field by its path (e.g. `users[0].keys[1].perms[2].name`) and what is wrong;
 * amounts are checked against their currency or market here (config-amounts.ts), not when they are credited.
 * `"extends": "demo"` lays the file over the built-in demo (config-extends.ts). `market_maker`: true, false or
 * an object (market-maker/config.ts, market-maker/plan.ts).
 *
 * Server fields (all optional): host, port, admin_token, clock {type: "wall" | "sim", start_ms},
 * auth_window_s, rate_limits (boolean or {enabled, scale}), trust_proxy, body_limit, cancelled_order_retention_s,
 * engine {runner: "auto" (default: threaded from 4 cores, else inline; sim/runner-choice.ts) | "threaded" | "inline",
 * shards: 1..64 (threaded; default 1), journal: path,
 * fsync: "batch" | "never" | ms (default 20), log: the replicated command log {type: "jetstream", servers, stream, …}
 * (docs/scale-out.md)}.
 * API-key fields (optional): api_key_limit (keys per account, default 20), api_key_change_delay_ms (delay
 * before key changes take effect, default 0); see docs/sub-accounts.md.
 * Wallet fields (optional): chains {CURRENCY: [chain, …]} (sim/chains/chain-spec.ts), low_cap_currencies.
 * Unified account (optional): unified {currencies, initial_margin_rate, maintenance_margin_rate} (docs/unified.md).
 * Perpetual futures (optional): futures {contracts, insurance} (sim/futures-config.ts, docs/futures.md); users'
 * `balances.futures` fund their futures accounts, `balances.delivery` their delivery accounts.
 * Users may also carry `main_uid` (a sub-account), `locked` (frozen: its keys get ACCOUNT_LOCKED or
 * SUB_ACCOUNT_LOCKED) and `vip_level` (0–16, default 0, main accounts only: fill-ratio tiers at 14+, api/fill-ratio.ts).
 */
import { readFileSync } from 'node:fs';
import type { MarketConfig } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { deriveCurrencies, type SimConfig, type SimUser } from './sim-config.js';
import { type ChainsConfig, validateChains } from './chains/chain-spec.js';
import { checkBalances, checkPairAmounts, type CurrencyRules, currencyRules } from './config-amounts.js';
import { amount, array, bool, fail, integer, type Obj, object, optional, string } from './config-check.js';
import { applyExtends } from './config-extends.js';
import { validateServer } from './config-server.js';
import { simulatorSetup } from './simulator-setup.js';
import { validateUnified } from './unified-config.js';
import { type FuturesConfig, settleScales, validateFutures } from './futures-config.js';
import { configStartMs, validateOptions } from './options-config.js';

export interface ClockConfig {
  readonly type: 'wall' | 'sim';
  /** Start of a simulated clock, ms since the epoch; default 2026-01-01T00:00:00Z. */
  readonly start_ms?: number | undefined;
}

export interface EngineConfig {
  /** threaded: books in shard workers; inline: one thread, synchronous; auto (default): by core count (sim/runner-choice.ts). */
  readonly runner?: 'threaded' | 'inline' | 'auto' | undefined;
  /** Shard workers of the threaded runner; default 1. */
  readonly shards?: number | undefined;
  /**
   * Journal file (the active segment): every command is appended before its reply leaves; on start the newest
   * snapshot and the journal after it are replayed and the journal continued.
   */
  readonly journal?: string | undefined;
  /**
   * When a reply may leave: "batch" (default: written and fdatasync'ed, group commit), a number N (written;
   * synced at most every N ms), "never" (written; syncing left to the OS).
   */
  readonly fsync?: 'batch' | 'never' | number | undefined;
  /** Snapshots of the running engine (with a journal): on by default, false for none. */
  readonly snapshots?: false | SnapshotConfig | undefined;
  /** The replicated command log (docs/scale-out.md); needs `journal`. */
  readonly log?: LogConfig | undefined;
}

/** engine.log: a NATS JetStream stream the leader replicates its journal to (docs/scale-out.md). */
export interface LogConfig {
  readonly type: 'jetstream';
  /** NATS server URLs, e.g. ["nats://127.0.0.1:4222"]. */
  readonly servers: readonly string[];
  /** Stream name (also names the lease bucket `<stream>-lease` and the store `<stream>-snapshots`). */
  readonly stream: string;
  /** Leader lease, ms; default 3000. */
  readonly lease_ms?: number | undefined;
  /** Commands between state-hash checkpoints in the stream; default 10000; 0: none. */
  readonly checkpoint_every?: number | undefined;
  /** Commands between follower snapshots to the object store; default 1000000; 0: none. */
  readonly snapshot_every?: number | undefined;
  /** Copies JetStream keeps of the stream, lease bucket and snapshot store: 1 (default), 3 or 5 (a NATS cluster). */
  readonly replicas?: number | undefined;
  /** This node's HTTP address as clients reach it (named to clients a follower refuses); default http://host:port. */
  readonly address?: string | undefined;
  /** How long a follower holds a read carrying X-Rm-Min-Seq it has not applied yet, ms; default 5000 (read-your-writes). */
  readonly read_wait_ms?: number | undefined;
}

/** engine.snapshots (docs/http.md, "Journal, snapshots and restart"). */
export interface SnapshotConfig {
  /** Commands between snapshots; default 1,000,000; 0: not by count. */
  readonly every_commands?: number | undefined;
  /** Seconds between snapshots while commands arrive; default 600; 0: not by time. */
  readonly every_seconds?: number | undefined;
  /** Snapshots kept; default 3. */
  readonly keep?: number | undefined;
  /** Directory; default the journal's path with ".snapshots" appended. */
  readonly dir?: string | undefined;
  /** Delete journal segments the oldest kept snapshot covers; default false (the whole history stays replayable). */
  readonly prune_journal?: boolean | undefined;
}

export interface FileUser extends SimUser {
  readonly locked?: boolean | undefined;
  /** VIP level 0–16 (default 0); a sub-account has its main account's. */
  readonly vip_level?: number | undefined;
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

const PERM_NAMES = ['spot', 'margin', 'futures', 'delivery', 'options', 'wallet', 'withdrawal', 'unified', 'account', 'sub_accounts'];
/** `$schema`: an editor's pointer to schemas/config.schema.json (`ringmatch/config.schema.json`); ignored. */
const TOP_FIELDS = ['$schema', 'extends', 'currency_pairs', 'currencies', 'users', 'stp_groups', 'market_maker', 'host', 'port',
  'admin_token', 'clock', 'auth_window_s', 'rate_limits', 'trust_proxy', 'body_limit', 'chains', 'low_cap_currencies',
  'api_key_limit', 'api_key_change_delay_ms', 'engine', 'unified', 'cancelled_order_retention_s', 'futures', 'options'];

function pair(v: unknown, p: string): Obj {
  const o = object(v, p, ['id', 'base', 'quote', 'precision', 'amount_precision', 'min_base_amount', 'min_quote_amount',
    'max_base_amount', 'max_quote_amount', 'fee', 'maker_fee_rate'], ['id', 'base', 'quote', 'precision', 'amount_precision']);
  const id = string(o.id, `${p}.id`);
  const base = string(o.base, `${p}.base`);
  const quote = string(o.quote, `${p}.quote`);
  if (!/^[A-Z0-9]{1,20}$/.test(base)) fail(`${p}.base`, 'must be upper-case letters and digits');
  if (!/^[A-Z0-9]{1,20}$/.test(quote)) fail(`${p}.quote`, 'must be upper-case letters and digits');
  if (base === quote) fail(`${p}.quote`, 'must differ from base');
  if (id !== `${base}_${quote}`) fail(`${p}.id`, `must be "${base}_${quote}" (BASE_QUOTE)`);
  integer(0, 12)(o.precision, `${p}.precision`);
  integer(0, 12)(o.amount_precision, `${p}.amount_precision`);
  checkPairAmounts(o, p);
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

function user(v: unknown, p: string, currencies: CurrencyRules): void {
  const o = object(v, p, ['uid', 'main_uid', 'locked', 'vip_level', 'keys', 'balances'], ['uid']);
  integer(1, 2 ** 31 - 1)(o.uid, `${p}.uid`);
  optional(o, 'main_uid', p, integer(1, 2 ** 31 - 1));
  optional(o, 'vip_level', p, integer(0, 16));
  if (o.vip_level !== undefined && o.main_uid !== undefined) fail(`${p}.vip_level`, 'a sub-account has its main account\'s VIP level: set it there');
  optional(o, 'locked', p, bool);
  optional(o, 'keys', p, (ks, kp) => array(ks, kp).forEach((k, i) => key(k, `${kp}[${i}]`)));
  if (o.balances !== undefined) {
    const b = object(o.balances, `${p}.balances`, ['spot', 'futures', 'delivery', 'options']);
    if (b.spot !== undefined) object(b.spot, `${p}.balances.spot`, [...currencies.keys()]);
    if (b.futures !== undefined) object(b.futures, `${p}.balances.futures`, [...currencies.keys()]);
    if (b.delivery !== undefined) object(b.delivery, `${p}.balances.delivery`, [...currencies.keys()]);
    if (b.options !== undefined) object(b.options, `${p}.balances.options`, [...currencies.keys()]);
    checkBalances(b, `${p}.balances`, currencies);
  }
}

/**
 * Validates a parsed config (see the module header), after laying it over its `extends` base
 * (config-extends.ts), and returns the config to run. Amounts are checked against their currencies and
 * markets, and the exchange, its opening credits and its market maker are built once (simulator-setup.ts),
 * so what loads also starts. Throws ConfigError naming the first bad field.
 */
export function validateConfig(input: unknown): SimulatorConfig {
  const raw = applyExtends(input);
  const o = object(raw, '', TOP_FIELDS, ['currency_pairs']);
  const pairs = array(o.currency_pairs, 'currency_pairs').map((x, i) => pair(x, `currency_pairs[${i}]`));
  if (pairs.length === 0) fail('currency_pairs', 'needs at least one pair');
  const ids = new Set<string>();
  pairs.forEach((x, i) => { if (ids.has(x.id as string)) fail(`currency_pairs[${i}].id`, 'duplicate'); ids.add(x.id as string); });
  optional(o, 'currencies', '', (cs, cp) => array(cs, cp).forEach((c, i) => {
    const co = object(c, `${cp}[${i}]`, ['code', 'scale', 'max_supply'], ['code', 'scale']);
    const code = string(co.code, `${cp}[${i}].code`);
    if (!/^[A-Z0-9]{1,20}$/.test(code)) fail(`${cp}[${i}].code`, 'must be upper-case letters and digits');
    const scale = integer(0, 18)(co.scale, `${cp}[${i}].scale`);
    optional(co, 'max_supply', `${cp}[${i}]`, (m, mp) => amount(m, mp, { scale, of: code, positive: true }));
  }));
  const specs = settleScales(deriveCurrencies(pairs as unknown as MarketConfig[], o.currencies as SimConfig['currencies']),
    o.futures as FuturesConfig | undefined, new Set(((o.currencies ?? []) as Obj[]).map((c) => c.code as string)));
  optional(o, 'futures', '', (f, fp) => validateFutures(f, fp, specs));
  optional(o, 'options', '', (f, fp) => validateOptions(f, fp, specs, configStartMs(o)));
  const currencies = currencyRules(specs);
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
      if (typeof uid !== 'number' || !uids.has(uid)) {
        fail(`${gp}[${i}].users[${j}]`, `must be the uid of a user defined in "users" (${JSON.stringify(uid)} is not)`);
      }
    });
  }));
  optional(o, 'market_maker', '', (m, mp) => (typeof m === 'boolean' || (typeof m === 'object' && m !== null && !Array.isArray(m)) ? m : fail(mp, 'must be true, false or an object')));
  validateServer(o);
  optional(o, 'chains', '', (c, cp) => validateChains(c, cp, currencies));
  optional(o, 'low_cap_currencies', '', (l, lp) => array(l, lp).forEach((c, i) => {
    if (typeof c !== 'string' || !currencies.has(c)) fail(`${lp}[${i}]`, 'must be a known currency');
  }));
  optional(o, 'unified', '', (u, up) => validateUnified(u, up, currencies));
  const config = raw as SimulatorConfig;
  simulatorSetup(config);
  return config;
}

/** Reads and validates a config file. Throws ConfigError (with the file name and what to do) on any problem. */
export function loadConfigFile(path: string): SimulatorConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied'
      : (e as Error).message;
    throw new ConfigError(`config: cannot read ${path} (${why}); check the file's path`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config: ${path} is not valid JSON (${(e as Error).message}); fix the file (docs/http.md shows the format)`);
  }
  return validateConfig(raw);
}

