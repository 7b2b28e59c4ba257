/**
 * The composition root: builds the engine, the key store and the HTTP front from a validated config.
 * Engine: the inline runner behind the ExchangeGateway interface (synchronous and deterministic; a
 * threaded gateway plugs in behind the same interface). Clock: the wall clock, or a simulated one
 * (`"clock": {"type": "sim"}`) that only POST /sim/clock moves.
 */
import { type Clock, SimClock } from './core/clock.js';
import { Command, CommandType } from './core/command.js';
import { ConfigError } from './core/invariant.js';
import { AccountKind } from './core/ledger/account-kinds.js';
import { ResultCode } from './core/result-code.js';
import { type ExchangeGateway, InlineGateway } from './engine/gateway.js';
import { WallClock } from './engine/wall-clock.js';
import { KeyStore, permsFrom } from './api/auth/key-store.js';
import type { ApiDeps } from './api/deps.js';
import type { Router } from './api/router.js';
import { createServer, type Server } from './api/server.js';
import type { SimulatorConfig } from './sim/config-file.js';
import { definitionFromConfig } from './sim/sim-config.js';

export interface StartOptions {
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  /** Overrides config `admin_token` (env SIM_ADMIN_TOKEN at the CLI). */
  readonly adminToken?: string | undefined;
  readonly extraRoutes?: readonly ((router: Router, deps: ApiDeps) => void)[] | undefined;
}

export interface Simulator {
  readonly server: Server;
  readonly gateway: ExchangeGateway;
  readonly keys: KeyStore;
  readonly simClock: SimClock | undefined;
  readonly config: SimulatorConfig;
  close(): Promise<void>;
}

const DEFAULT_SIM_START_MS = Date.UTC(2026, 0, 1);

/** Builds the exchange, credits opening balances and starts listening. Throws ConfigError. */
export async function startSimulator(config: SimulatorConfig, options: StartOptions = {}): Promise<Simulator> {
  const simClock = config.clock?.type === 'sim' ? new SimClock((config.clock.start_ms ?? DEFAULT_SIM_START_MS) * 1000) : undefined;
  const clock: Clock = simClock ?? new WallClock();
  const { definition, balances } = definitionFromConfig(config);
  const gateway = new InlineGateway(definition, clock);
  const ex = gateway.exchange;
  for (const b of balances) {
    const units = ex.ledger.parse(b.currency, b.amount);
    if (typeof units === 'number' && units < 0) throw new ConfigError(`config: users ${b.uid} balances.${b.account}.${b.currency}: "${b.amount}" does not fit the currency`);
    const c = new Command();
    c.type = CommandType.Credit;
    c.uid = b.uid; c.kind = AccountKind.Spot; c.currency = ex.currencyIndex(b.currency);
    if (typeof units === 'bigint') c.text = units.toString();
    else c.amount = units;
    gateway.submit(c, (code) => {
      if (code !== ResultCode.Ok) throw new ConfigError(`config: opening balance ${b.currency} of user ${b.uid} rejected (code ${code})`);
    });
  }
  const keys = new KeyStore();
  for (const u of config.users ?? []) {
    keys.addAccount(u.uid, u.main_uid ?? 0, u.locked ?? false);
    for (const k of u.keys ?? []) {
      keys.addKey({ key: k.key, secret: k.secret, uid: u.uid, mode: k.mode ?? 1, perms: permsFrom(k.perms), ipWhitelist: k.ip_whitelist ?? [] });
    }
  }
  const rl = config.rate_limits;
  const server = createServer({
    gateway, keys, simClock,
    host: options.host ?? config.host, port: options.port ?? config.port,
    authWindowS: config.auth_window_s,
    rateLimits: typeof rl === 'object' ? { enabled: rl.enabled ?? true, scale: rl.scale } : { enabled: rl ?? true },
    bodyLimit: config.body_limit, trustProxy: config.trust_proxy,
    adminToken: options.adminToken ?? config.admin_token,
    stpGroups: config.stp_groups, extraRoutes: options.extraRoutes,
  });
  await server.listen();
  return {
    server, gateway, keys, simClock, config,
    async close() {
      await server.close();
      await gateway.close();
    },
  };
}
