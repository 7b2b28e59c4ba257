/**
 * The composition root: builds the engine, the key store and the HTTP front from a validated config.
 * Engine: the threaded runner (books in shard workers, `engine.shards`) or the inline one, both behind the
 * ExchangeGateway interface; `engine.runner` absent or "auto" picks by core count (sim/runner-choice.ts). Clock: the wall clock, or a simulated one
 * (`"clock": {"type": "sim"}`) that only POST /sim/clock moves.
 */
import { type Clock, SimClock } from './core/clock.js';
import { Command, CommandType } from './core/command.js';
import { ConfigError } from './core/invariant.js';
import { ResultCode } from './core/result-code.js';
import type { ExchangeGateway } from './engine/gateway.js';
import { openGateway } from './engine/open-gateway.js';
import { resolveRunner } from './sim/runner-choice.js';
import type { GatewaySnapshots, SnapshotPolicy } from './engine/gateway-snapshots.js';
import type { RestartReport } from './engine/restart.js';
import { WallClock } from './engine/wall-clock.js';
import { KeyStore, permsFrom } from './api/auth/key-store.js';
import type { ApiDeps } from './api/deps.js';
import type { Router } from './api/router.js';
import { createServer, type Server } from './api/server.js';
import type { EngineConfig, SimulatorConfig } from './sim/config-file.js';
import { simulatorSetup } from './sim/simulator-setup.js';
import { openingAccount } from './sim/sim-config.js';
import { ensureJournalDirectory } from './sim/journal-path.js';
import { MarketDataFeed } from './api/market-data/market-data-feed.js';
import { spotMarketDataRoutes } from './api/routes/spot-market-data.js';
import { registerFuturesWebSocket } from './api/ws/futures-ws.js';
import { registerOptionsWebSocket } from './api/ws/options-ws.js';
import { registerSimWebSocket } from './api/ws/sim-ws.js';
import { createWsHost, type WsHost } from './api/ws/ws-host.js';
import { registerSpotWebSocket, type WsOptions } from './api/ws/ws-server.js';
import { MarketMaker } from './sim/market-maker.js';
import { resolveChains } from './sim/chains/chain-spec.js';
import { WalletSim } from './sim/chains/wallet-sim.js';
import { FuturesServices } from './engine/futures/futures-services.js';
import { futuresServiceOptions } from './sim/futures-config.js';
import { OptionsServices } from './engine/options/options-services.js';
import { optionsServiceOptions, relativeUnderlyings } from './sim/options-config.js';
import { OptionsQuoter } from './sim/options-quoter.js';
import type { Logger } from './ops/log.js';
import { listeningRecord } from './ops/log-records.js';

export interface StartOptions {
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  /** Overrides config `admin_token` (env SIM_ADMIN_TOKEN at the CLI). */
  readonly adminToken?: string | undefined;
  readonly extraRoutes?: readonly ((router: Router, deps: ApiDeps) => void)[] | undefined;
  /** WebSocket settings (docs/websocket.md); defaults follow the config's rate_limits and auth_window_s. */
  readonly websocket?: WsOptions | undefined;
  /** Structured logs at the edge (ops/log.ts, docs/operations.md); absent: the plain lines on stderr as before. */
  readonly logger?: Logger | undefined;
  /** The dashboard's built files served at /ui/ (default the package's dist/ui; false: not served). */
  readonly dashboard?: string | false | undefined;
  /**
   * A gateway built by a node of the replicated log (sim/follower-node.ts) instead of one opened from
   * `engine`; the node owns it (`close` leaves it open). A follower's (`follower`) runs no market maker,
   * futures services or chain ticks (the leader's commands bring their effects) and refuses writes with
   * `refuseWrites()`'s message. `seq`/`waitFor`: read-your-writes (ServerOptions.replicaSeq).
   */
  readonly replica?: {
    readonly gateway: ExchangeGateway;
    readonly resumed: boolean;
    readonly follower: boolean;
    readonly refuseWrites?: (() => string) | undefined;
    readonly seq?: (() => number) | undefined;
    readonly waitFor?: ((seq: number) => Promise<boolean>) | undefined;
  } | undefined;
}

export interface Simulator {
  readonly server: Server;
  readonly gateway: ExchangeGateway;
  /** Snapshots of the running engine (with a journal, unless `engine.snapshots` is false). */
  readonly snapshots: GatewaySnapshots | undefined;
  /** What start-up loaded from disk: the snapshot's seq and the journal records replayed after it. */
  readonly restart: RestartReport | undefined;
  readonly keys: KeyStore;
  readonly simClock: SimClock | undefined;
  readonly config: SimulatorConfig;
  /** The futures price clock, funding and liquidator (undefined without contracts or with futures.clock.enabled false). */
  readonly futures: FuturesServices | undefined;
  close(): Promise<void>;
}

const DEFAULT_SIM_START_MS = Date.UTC(2026, 0, 1);
/** How often the market maker is given the clock (it re-quotes on its own period). */
const MARKET_MAKER_TICK_MS = 100;
/** How often the chain simulation advances to the clock's now (POST /sim/clock also advances it at once). */
const WALLET_TICK_MS = 250;

/** The snapshot policy of `engine.snapshots` (defaults in config-file.ts SnapshotConfig); none without a journal. */
function snapshotPolicy(engine: EngineConfig): SnapshotPolicy | undefined {
  const s = engine.snapshots;
  if (engine.journal === undefined || s === false) return undefined;
  return {
    dir: s?.dir ?? `${engine.journal}.snapshots`,
    everyCommands: s?.every_commands ?? 1_000_000,
    everyMs: (s?.every_seconds ?? 600) * 1000,
    keep: s?.keep ?? 3,
    pruneJournal: s?.prune_journal ?? false,
  };
}

/** Builds the exchange, credits opening balances and starts listening. Throws ConfigError. */
export async function startSimulator(config: SimulatorConfig, options: StartOptions = {}): Promise<Simulator> {
  const simClock = config.clock?.type === 'sim' ? new SimClock((config.clock.start_ms ?? DEFAULT_SIM_START_MS) * 1000) : undefined;
  const clock: Clock = simClock ?? new WallClock();
  // The market maker, its users and funds, every amount checked (sim/simulator-setup.ts).
  const { definition, balances, marketMaker } = simulatorSetup(config, Math.floor(clock.nowUs() / 1000));
  const engine = config.engine ?? {};
  if (engine.journal !== undefined) ensureJournalDirectory(engine.journal);
  const fsync = engine.fsync;
  const replica = options.replica;
  const follower = replica?.follower === true;
  const { gateway, resumed, lastTimeUs, snapshots, restart } = replica !== undefined
    ? { gateway: replica.gateway, resumed: replica.resumed, lastTimeUs: 0, snapshots: undefined, restart: undefined }
    : await openGateway(definition, clock, {
      runner: resolveRunner(engine.runner), shards: engine.shards, journal: engine.journal,
      fsync: fsync === undefined ? undefined : typeof fsync === 'number' ? { fsync: 'interval', everyMs: fsync } : { fsync },
      snapshots: snapshotPolicy(engine), relativeExpirations: relativeUnderlyings(config.options),
    });
  const log = options.logger;
  gateway.onStop((s) => {
    if (log !== undefined) log.error({ event: 'engine_stopped', reason: s.reason, code: s.code, at_ms: s.atMs }, 'engine stopped: writes answer 503 TOO_BUSY, reads keep working');
    else {
      console.error(`ringmatch: ${s.reason}; intake is stopped: every write answers 503 TOO_BUSY, `
        + 'reads keep working; GET /sim/health says why; restart to recover the journaled state');
    }
  });
  if (simClock !== undefined && lastTimeUs > simClock.nowUs()) simClock.advanceTo(lastTimeUs);
  const ex = gateway.exchange;
  let refused: string | undefined;
  // A resumed journal already holds the opening balances (and everything after them).
  for (const b of resumed ? [] : balances) {
    const units = ex.ledger.parse(b.currency, b.amount);
    const c = new Command();
    c.type = CommandType.Credit;
    c.currency = ex.currencyIndex(b.currency);
    const to = openingAccount(b.account, c.currency);
    c.uid = b.uid; c.kind = to.kind; c.sub = to.sub;
    if (typeof units === 'bigint') c.text = units.toString();
    else c.amount = units;
    gateway.submit(c, (code) => {
      if (code !== ResultCode.Ok) refused ??= `config: opening balance ${b.currency} of user ${b.uid} rejected (code ${code})`;
    });
  }
  await gateway.settled();
  if (refused !== undefined) {
    await gateway.close();
    throw new ConfigError(refused);
  }
  const keys = new KeyStore();
  for (const u of config.users ?? []) {
    keys.addAccount(u.uid, u.main_uid ?? 0, u.locked ?? false);
    for (const k of u.keys ?? []) {
      keys.addKey({ key: k.key, secret: k.secret, uid: u.uid, mode: k.mode ?? 1, perms: permsFrom(k.perms), ipWhitelist: k.ip_whitelist ?? [] });
    }
  }
  const feed = new MarketDataFeed(ex);
  feed.replayTradeLog();
  gateway.observe((_code, c, events) => feed.onResult(c, events));
  const rl = config.rate_limits;
  const wallet = new WalletSim(gateway, clock, resolveChains(definition.currencies, config.chains), config.low_cap_currencies);
  const walletTimer = setInterval(() => { if (!follower) wallet.tick(); }, WALLET_TICK_MS);
  let wsHost: WsHost | undefined;
  const server = createServer({
    wallet,
    gateway, keys, simClock,
    host: options.host ?? config.host, port: options.port ?? config.port,
    authWindowS: config.auth_window_s,
    rateLimits: typeof rl === 'object' ? { enabled: rl.enabled ?? true, scale: rl.scale } : { enabled: rl ?? true },
    bodyLimit: config.body_limit, trustProxy: config.trust_proxy, cancelledOrderRetentionS: config.cancelled_order_retention_s,
    vipLevels: new Map((config.users ?? []).flatMap((u) => (u.vip_level === undefined ? [] : [[u.uid, u.vip_level] as const]))),
    apiKeys: { limit: config.api_key_limit, delayMs: config.api_key_change_delay_ms },
    adminToken: options.adminToken ?? config.admin_token,
    refuseWrites: replica?.refuseWrites,
    replicaSeq: replica?.seq === undefined ? undefined : { seq: replica.seq, waitFor: replica.waitFor },
    stpGroups: config.stp_groups, logger: log, dashboard: options.dashboard, extraRoutes: [spotMarketDataRoutes(feed), ...(options.extraRoutes ?? [])],
    sockets: [(app, deps) => {
      const ws: WsOptions = {
        authWindowS: config.auth_window_s,
        rateLimits: typeof rl === 'object' ? { enabled: rl.enabled ?? true, scale: rl.scale } : { enabled: rl ?? true },
        frameLimit: (typeof rl === 'object' ? rl.enabled === false : rl === false) ? { frames: Number.MAX_SAFE_INTEGER, windowMs: 1000 } : undefined,
        ...options.websocket,
      };
      // Spot (/ws/v4/), futures (/v4/ws/fx/{settle}), options (/v4/ws/options/{settle}) and the control plane's
      // (/ws/sim) share one host: one output gate, one sweep.
      const host = wsHost = createWsHost(app, deps, ws);
      registerSpotWebSocket(app, deps, feed, ws, host);
      registerFuturesWebSocket(app, deps, ws, host);
      registerOptionsWebSocket(app, deps, ws, host);
      registerSimWebSocket(app, deps, ws, host);
    }],
  });
  server.metrics.wsConnections = () => wsHost?.connections() ?? 0;
  const cmdDone = (): void => undefined;
  const maker = marketMaker === undefined || follower ? undefined : new MarketMaker(ex, marketMaker, (c) => { gateway.submit(c, cmdDone); return 0; });
  // The maker's first re-quote (with its opening trade) is applied before the server listens: clients find
  // quoted, traded markets (a last price, tickers, candles) from their first request.
  maker?.tick(clock.nowUs());
  await gateway.settled();
  const timer = maker === undefined ? undefined : setInterval(() => maker.tick(clock.nowUs()), MARKET_MAKER_TICK_MS);
  // Futures prices, funding and liquidation on the engine clock; the first prices before the server listens.
  const futuresOptions = futuresServiceOptions(config.futures);
  const futures = futuresOptions === undefined || follower ? undefined : new FuturesServices(gateway, futuresOptions);
  if (futures !== undefined) {
    server.deps.onClockMove.push(() => futures.ready());
    server.deps.onClose.push(() => futures.close());
    await futures.ready();
  }
  // Options index and expiry settlement on the engine clock (POST /sim/clock across an expiry settles it).
  const optionsOptions = optionsServiceOptions(config.options);
  const optionsServices = optionsOptions === undefined ? undefined : new OptionsServices(gateway, optionsOptions);
  if (optionsServices !== undefined) {
    server.deps.onClockMove.push(() => optionsServices.ready());
    server.deps.onClose.push(() => optionsServices.close());
    await optionsServices.ready();
  }
  // Quotes on the options books (options.quoter), once the index is known; then on the maker's period.
  const quoterConfig = config.options?.quoter;
  const quoter = quoterConfig === undefined ? undefined : new OptionsQuoter(ex, quoterConfig, (c, done) => gateway.submit(c, done));
  quoter?.tick(clock.nowUs());
  if (quoter !== undefined) await gateway.settled();
  const quoterTimer = quoter === undefined ? undefined : setInterval(() => quoter.tick(clock.nowUs()), MARKET_MAKER_TICK_MS);
  if (quoterTimer !== undefined) server.deps.onClose.push(() => clearInterval(quoterTimer));
  // On the simulated clock, a move applies the re-quotes it made due before POST /sim/clock answers, after the
  // services' passes (so quotes follow the new prices): what a client reads after a move does not change later
  // on the wall-clock timers (they then find nothing due until the clock moves again).
  if (simClock !== undefined && (maker !== undefined || quoter !== undefined)) {
    server.deps.onClockMove.push(async () => {
      await futures?.ready();
      await optionsServices?.ready();
      maker?.tick(clock.nowUs());
      quoter?.tick(clock.nowUs());
      await gateway.settled();
    });
  }
  try {
    await server.listen();
  } catch (e) {
    if (timer !== undefined) clearInterval(timer);
    clearInterval(walletTimer);
    await server.close();
    await snapshots?.close();
    if (replica === undefined) await gateway.close();
    throw e;
  }
  log?.info(listeningRecord(config, server.host, server.port, resolveRunner(engine.runner), restart), 'listening');
  return {
    server, gateway, keys, simClock, config, futures,
    snapshots, restart,
    async close() {
      if (timer !== undefined) clearInterval(timer);
      clearInterval(walletTimer);
      await server.close();
      await snapshots?.close();
      if (replica === undefined) await gateway.close();
      log?.info({ event: 'closed' }, 'closed');
    },
  };
}
