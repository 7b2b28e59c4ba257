/**
 * The fixture for bots' own test suites: `startExchange()` starts the simulator in this process on a free
 * loopback port and returns what a test needs to point an unchanged client at it (URLs, the demo keys, option
 * objects for ccxt, ccxt.pro and gate-api), control-plane helpers over HTTP (deposit, move the clock, set a
 * futures index price, make a user, read the state hash) and `stop()`.
 *
 * Defaults suited to tests: the built-in demo (or the given config, validated as `--config` files are),
 * a simulated clock (time moves only through `advanceClock`), rate limits off, the inline runner, no journal,
 * 127.0.0.1 and port 0. Each of the first three gives way to the field the given config sets (fixtureConfig). Costs: a start is ~100 ms; each
 * helper is one HTTP request to the control plane (loopback, so no token is needed unless the config sets one).
 *
 * No client library is imported here: the options are plain objects a test passes to `new ccxt.gate(...)`,
 * `new ccxt.pro.gate(...)` or `new GateApi.ApiClient(...)`.
 */
import { startSimulator, type Simulator } from '../main.js';
import { type SimulatorConfig, validateConfig } from '../sim/config-file.js';
import { type CcxtOptions, type CcxtProOptions, ccxtOptions, ccxtProOptions, type GateApiOptions } from './client-options.js';

export type { CcxtOptions, CcxtProOptions, GateApiOptions } from './client-options.js';

/** One API key of a user of the running exchange. */
export interface FixtureKey {
  readonly uid: number;
  readonly key: string;
  readonly secret: string;
}

export interface StartExchangeOptions {
  /** Control-plane token (default: the config's `admin_token`, else none: loopback callers only). */
  readonly adminToken?: string | undefined;
}

export interface ExchangeFixture {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Gate's REST API v4 base: `http://127.0.0.1:PORT/api/v4`. */
  readonly restUrl: string;
  /** Spot WebSocket v4: `ws://127.0.0.1:PORT/ws/v4/`. */
  readonly wsUrl: string;
  /** Futures WebSocket per settle currency: `ws://127.0.0.1:PORT/v4/ws/fx/usdt`, `…/btc`. */
  readonly futuresWsUrls: { readonly usdt: string; readonly btc: string };
  readonly port: number;
  /** Every key the config defines, in config order (the demo's: alice, alice read-only, bob, carol). */
  readonly keys: readonly FixtureKey[];
  /** The first key with full permissions (the demo's alice, uid 10001). */
  readonly key: FixtureKey;
  /** Options for `new ccxt.gate(...)`: every REST group at this exchange, signed with `key` (default: `this.key`). */
  ccxt(key?: FixtureKey): CcxtOptions;
  /** Options for `new ccxt.pro.gate(...)`: REST and the spot and futures sockets, signed with `key`. */
  ccxtPro(key?: FixtureKey): CcxtProOptions;
  /** gate-api: `const c = new GateApi.ApiClient(o.basePath); c.setApiKeySecret(o.key, o.secret)`. */
  gateApi(key?: FixtureKey): GateApiOptions;
  /** Credits `amount` of `currency` to `uid` through a simulated deposit on `chain` (default: the currency's first), confirmed before it resolves (moves the simulated clock if the chain needs blocks). */
  deposit(uid: number, currency: string, amount: string, chain?: string): Promise<{ id: string; status: string }>;
  /** Moves the simulated clock forward by `ms`; resolves with the new time in ms once what it made due is applied. */
  advanceClock(ms: number): Promise<number>;
  /** Sets the simulated clock to `ms` since the epoch (never backwards). */
  setClock(ms: number): Promise<number>;
  /** Sets (or with null clears) a perpetual contract's index price override (`mark` too, if given). */
  setIndexPrice(contract: string, index: string | null, options?: { settle?: string; mark?: string | null }): Promise<{ mark_price: string; index_price: string }>;
  /** Makes a user with a fresh key, funded with `spot` balances ({CUR: "amount"}). */
  createUser(spot?: Readonly<Record<string, string>>, uid?: number): Promise<FixtureKey>;
  /** The engine's state hash (same commands, same hash: compare runs). */
  stateHash(): Promise<string>;
  /** Any control-plane request (docs/http.md, "Control plane"): `sim('POST', '/sim/clock', {advance_ms: 1000})`. */
  sim<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** The running simulator (engine, gateway, key store), for tests that look inside. */
  readonly simulator: Simulator;
  /** Stops the server and the engine; idempotent. */
  stop(): Promise<void>;
}

/** A control-plane request that was refused: the Gate label and HTTP status. */
export class SimRequestError extends Error {
  override readonly name = 'SimRequestError';
  constructor(readonly status: number, readonly label: string, message: string) {
    super(`${status} ${label}: ${message}`);
  }
}

/**
 * The config the fixture runs: `config` (default `{"extends": "demo"}`) validated, with the test defaults of the
 * module header for each of `clock`, `rate_limits` and `engine.runner` that `config` itself does not set (a
 * base it extends does not count: the demo's `rate_limits: true` gives way to the test default).
 */
export function fixtureConfig(config: unknown = { extends: 'demo' }): SimulatorConfig {
  const c = validateConfig(config);
  const given = (typeof config === 'object' && config !== null ? config : {}) as Partial<SimulatorConfig>;
  return {
    ...c,
    clock: given.clock ?? { type: 'sim' },
    rate_limits: given.rate_limits ?? false,
    engine: { ...c.engine, runner: given.engine?.runner ?? 'inline' },
  };
}

/**
 * Starts an exchange for a test (see the module header). `config`: a config object as `--config` takes
 * (`{"extends": "demo", …}` keeps the demo); default the demo. Throws ConfigError naming a bad field.
 */
export async function startExchange(config?: unknown, options: StartExchangeOptions = {}): Promise<ExchangeFixture> {
  const cfg = fixtureConfig(config);
  const sim = await startSimulator(cfg, { host: '127.0.0.1', port: 0, adminToken: options.adminToken });
  const port = sim.server.port;
  const url = `http://127.0.0.1:${port}`;
  const token = options.adminToken ?? cfg.admin_token ?? '';
  const keys: FixtureKey[] = (cfg.users ?? []).flatMap((u) => (u.keys ?? []).map((k) => ({ uid: u.uid, key: k.key, secret: k.secret })));
  const full = (cfg.users ?? []).flatMap((u) => (u.keys ?? []).filter((k) => k.perms === undefined || k.perms === 'all').map((k) => ({ uid: u.uid, key: k.key, secret: k.secret })));
  const first = full[0] ?? keys[0] ?? { uid: 0, key: '', secret: '' };
  let stopped: Promise<void> | undefined;

  const sim_ = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token !== '') headers['x-sim-token'] = token;
    const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    const json = (text === '' ? undefined : JSON.parse(text)) as (T & { label?: string; message?: string }) | undefined;
    if (!res.ok) throw new SimRequestError(res.status, json?.label ?? '', json?.message ?? text);
    return json as T;
  };

  const fixture: ExchangeFixture = {
    url, port, restUrl: `${url}/api/v4`, wsUrl: `ws://127.0.0.1:${port}/ws/v4/`,
    futuresWsUrls: { usdt: `ws://127.0.0.1:${port}/v4/ws/fx/usdt`, btc: `ws://127.0.0.1:${port}/v4/ws/fx/btc` },
    keys, key: first, simulator: sim,
    ccxt: (k = first) => ccxtOptions(port, k),
    ccxtPro: (k = first) => ccxtProOptions(port, k),
    gateApi: (k = first) => ({ basePath: `${url}/api/v4`, key: k.key, secret: k.secret }),
    sim: sim_,
    async deposit(uid, currency, amount, chain) {
      const d = await sim_<{ id: string; status: string; chain: string }>('POST', '/sim/deposits', { uid, currency, amount, ...(chain === undefined ? {} : { chain }) });
      if (d.status !== 'TRACK') return { id: d.id, status: d.status };
      // Confirmations come one per block in clock time: on the simulated clock, move it past them.
      const spec = sim.server.deps.wallet.chain(currency, d.chain);
      if (sim.simClock === undefined || spec === undefined) return { id: d.id, status: d.status };
      await fixture.advanceClock(Math.max(spec.minConfirms, spec.unlockConfirms) * spec.blockTimeMs + spec.blockTimeMs);
      const now = sim.server.deps.wallet.deposits.find((r) => `d${r.id}` === d.id || String(r.id) === d.id);
      return { id: d.id, status: now?.status ?? d.status };
    },
    async advanceClock(ms) {
      return (await sim_<{ now_ms: number }>('POST', '/sim/clock', { advance_ms: ms })).now_ms;
    },
    async setClock(ms) {
      return (await sim_<{ now_ms: number }>('POST', '/sim/clock', { set_ms: ms })).now_ms;
    },
    setIndexPrice(contract, index, o = {}) {
      return sim_('POST', '/sim/futures/prices', { contract, index, ...(o.settle === undefined ? {} : { settle: o.settle }), ...('mark' in o ? { mark: o.mark } : {}) });
    },
    async createUser(spot, uid) {
      const u = await sim_<FixtureKey>('POST', '/sim/users', { ...(uid === undefined ? {} : { uid }), ...(spot === undefined ? {} : { balances: { spot } }) });
      return { uid: u.uid, key: u.key, secret: u.secret };
    },
    async stateHash() {
      return (await sim_<{ state_hash: string }>('GET', '/sim/state_hash')).state_hash;
    },
    stop() {
      return stopped ??= sim.close();
    },
  };
  return fixture;
}
