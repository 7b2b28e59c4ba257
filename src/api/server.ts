/**
 * The HTTP front: one uWebSockets.js app, Gate's REST API v4 under `/api/v4`, the control plane under
 * `/sim` and the dashboard's static files under `/ui/`, bound to one address. `server.ts` only composes: the route groups live in `routes/`.
 *
 * Per request (uWS lifetime rules): everything needed is copied from `req` at the top of the handler, an
 * `onAborted` is attached (Reply), the body is read, and then, in order: route match (NOT_FOUND /
 * METHOD_NOT_ALLOWED) → body checks (size, Content-Type, JSON) → authentication (private: Gate's
 * signature; control plane: token or loopback) → rate limit → handler. A rejected request never reaches the
 * engine. A handler that throws is a bug: it answers 500 SERVER_ERROR and the error is logged.
 */
import { createServer as createNetServer } from 'node:net';
import { App, type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket,
  us_listen_socket_close, us_socket_local_port } from 'uWebSockets.js';
import type { SimClock } from '../core/clock.js';
import type { StpGroupDefinition } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { ResultCode } from '../core/result-code.js';
import type { ExchangeGateway } from '../engine/gateway.js';
import { authenticate } from './auth/authenticate.js';
import type { KeyStore } from './auth/key-store.js';
import { type ApiDeps, makeDeps } from './deps.js';
import { type ApiRequest, isJsonContentType, type RequestHeaders } from './http/api-request.js';
import { HttpApiRequest } from './http/http-api-request.js';
import { Reply } from './http/reply.js';
import { wallMicros } from './http/wall-time.js';
import { FillRatio } from './fill-ratio.js';
import { type LimitClass, RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { type Route, Router } from './router.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerSimRoutes } from './routes/sim.js';
import { registerSimFuturesRoutes } from './routes/sim-futures.js';
import { registerSimUserRoutes } from './routes/sim-users.js';
import { registerSimOptionsRoutes } from './routes/sim-options.js';
import { registerSpotAccountRoutes } from './routes/spot-account.js';
import { registerSpotBatchRoutes } from './routes/spot-batch.js';
import { registerSpotOrderRoutes } from './routes/spot-orders.js';
import { registerSpotPublicRoutes } from './routes/spot-public.js';
import { registerSpotPriceOrderRoutes } from './routes/spot-price-orders.js';
import { registerFuturesPriceOrderRoutes } from './routes/futures-price-orders.js';
import { PriceTriggers } from './price-orders/price-triggers.js';
import { registerWalletRoutes } from './routes/wallet.js';
import { registerWalletTransferRoutes } from './routes/wallet-transfers.js';
import { registerSubAccountTransferRoutes } from './routes/sub-account-transfers.js';
import { registerSubAccountRoutes } from './routes/sub-accounts.js';
import { registerSubAccountKeyRoutes } from './routes/sub-account-keys.js';
import { KeyAdmin } from './sub-accounts/key-admin.js';
import { restoreIdentity } from './sub-accounts/identity.js';
import { registerSubAccountBalanceRoutes } from './routes/sub-account-balances.js';
import { checkControlAccess } from './routes/sim-access.js';
import { registerWalletChainRoutes } from './routes/wallet-chains.js';
import { registerWalletRecordRoutes } from './routes/wallet-records.js';
import { registerWithdrawalRoutes } from './routes/withdrawals.js';
import { registerWithdrawalPushRoutes } from './routes/withdrawal-push.js';
import { registerSimWalletRoutes } from './routes/sim-wallet.js';
import { resolveChains } from '../sim/chains/chain-spec.js';
import { WalletSim } from '../sim/chains/wallet-sim.js';
import { placeLimitKeys } from './routes/limit-keys.js';
import { registerUnifiedModeRoutes } from './routes/unified-mode.js';
import { registerUnifiedAccountRoutes } from './routes/unified-accounts.js';
import { registerUnifiedLoanRoutes } from './routes/unified-loans.js';
import { registerMarginRoutes } from './routes/margin.js';
import { registerMarginUniRoutes } from './routes/margin-uni.js';
import { registerFuturesPublicRoutes } from './routes/futures-public.js';
import { DeliveryRouter, registerDeliveryRoutes } from './routes/delivery-routes.js';
import { registerOptionsPublicRoutes } from './routes/options-public.js';
import { registerFuturesRoutes } from './routes/futures-routes.js';
import { ServerMetrics } from './metrics.js';
import { registerMetricsRoute } from './metrics-route.js';
import { registerDashboard } from './routes/dashboard.js';
import type { Logger } from '../ops/log.js';

export interface ServerOptions {
  readonly gateway: ExchangeGateway;
  readonly keys: KeyStore;
  /** Default 127.0.0.1. */
  readonly host?: string | undefined;
  /** Default 8080; 0 picks a free port. */
  readonly port?: number | undefined;
  /** Signature time window in seconds; default 60. */
  readonly authWindowS?: number | undefined;
  /** Default: enabled at Gate's rates. */
  readonly rateLimits?: RateLimitOptions | undefined;
  /** Largest request body in bytes; default 1 MiB. */
  readonly bodyLimit?: number | undefined;
  /** Take the caller's address from X-Forwarded-For (behind a trusted proxy only). */
  readonly trustProxy?: boolean | undefined;
  /** Control-plane token ('' or absent: loopback callers only). */
  readonly adminToken?: string | undefined;
  readonly simClock?: SimClock | undefined;
  readonly stpGroups?: readonly StpGroupDefinition[] | undefined;
  /** API keys per account and the delay before key changes take effect (docs/sub-accounts.md). */
  readonly apiKeys?: { readonly limit?: number | undefined; readonly delayMs?: number | undefined } | undefined;
  /** Seconds a finished order with no fills stays readable (routes/order-view.ts); default 60, as Gate. */
  readonly cancelledOrderRetentionS?: number | undefined;
  /** The chain simulation (default: every currency on one instant chain named after it). */
  readonly wallet?: WalletSim | undefined;
  /** VIP level per main-account uid (config `users[].vip_level`; absent: 0): fill-ratio tiers at 14+ (fill-ratio.ts). */
  readonly vipLevels?: ReadonlyMap<number, number> | undefined;
  /** Extra route groups (e.g. market data) registered after the built-in ones. */
  /**
   * A follower of the replicated log: every write route (not GET, not the /sim control plane) answers
   * NotLeader (403 READ_ONLY) with this message, naming the leader; undefined: writes are taken.
   */
  readonly refuseWrites?: (() => string) | undefined;
  /**
   * A node of the replicated log (docs/scale-out.md, read-your-writes): `seq()` is the last engine seq its state
   * includes, sent with every answer as X-Rm-Seq. On a follower, `waitFor(seq)` resolves true once `seq` is
   * applied, false when its bounded wait (engine.log.read_wait_ms) ran out: a request carrying X-Rm-Min-Seq above
   * `seq()` is handled only then, or answered 503 NotCaughtUp.
   */
  readonly replicaSeq?: {
    readonly seq: () => number;
    readonly waitFor?: ((seq: number) => Promise<boolean>) | undefined;
  } | undefined;
  readonly extraRoutes?: readonly ((router: Router, deps: ApiDeps) => void)[] | undefined;
  /** Where a handler's failure is logged (ops/log.ts); absent: a line on stderr. */
  readonly logger?: Logger | undefined;
  /** WebSocket endpoints (e.g. ws/ws-server.ts at /ws/v4/), registered on the app before the HTTP catch-all. */
  readonly sockets?: readonly ((app: TemplatedApp, deps: ApiDeps) => void)[] | undefined;
  /** The dashboard's built files served at /ui/ (routes/dashboard.ts); default the package's dist/ui; false: not served. */
  readonly dashboard?: string | false | undefined;
}

export interface Server {
  /** Starts listening; resolves with the bound port. */
  listen(): Promise<number>;
  /** Stops listening, closes open connections and stops route timers. */
  close(): Promise<void>;
  /** The bound port (0 before listen). */
  readonly port: number;
  readonly host: string;
  readonly router: Router;
  readonly deps: ApiDeps;
  /** The request handler the app serves (HttpHandler.onRequest), for in-process drivers such as benchmarks. */
  readonly onRequest: HttpHandler['onRequest'];
  /** What GET /metrics shows (api/metrics.ts). */
  readonly metrics: ServerMetrics;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** Gate's retention of finished orders with no fills, in seconds (they vanish after about a minute). */
export const DEFAULT_ORDER_RETENTION_S = 60;

/** The headers the front reads, filled by one `HttpRequest.forEach` pass (first occurrence wins, as getHeader). */
class HeaderValues implements RequestHeaders {
  key = ''; timestamp = ''; sign = ''; contentType = ''; contentLength = ''; transferEncoding = '';
  clientRequestId = ''; forwardedFor = ''; exptime = ''; simToken = ''; sizeDecimal = ''; minSeq = '';
  svcSizeDecimal = '';
}

/** The request being read by `takeHeader` (uWS calls it synchronously inside readHeaders). */
let reading = new HeaderValues();

function takeHeader(name: string, value: string): void {
  const h = reading;
  switch (name) {
    case 'key': if (h.key === '') h.key = value; break;
    case 'timestamp': if (h.timestamp === '') h.timestamp = value; break;
    case 'sign': if (h.sign === '') h.sign = value; break;
    case 'content-type': if (h.contentType === '') h.contentType = value; break;
    case 'content-length': if (h.contentLength === '') h.contentLength = value; break;
    case 'transfer-encoding': if (h.transferEncoding === '') h.transferEncoding = value; break;
    case 'x-client-request-id': if (h.clientRequestId === '') h.clientRequestId = value; break;
    case 'x-forwarded-for': if (h.forwardedFor === '') h.forwardedFor = value; break;
    case 'x-gate-exptime': if (h.exptime === '') h.exptime = value; break;
    case 'x-sim-token': if (h.simToken === '') h.simToken = value; break;
    case 'x-gate-size-decimal': if (h.sizeDecimal === '') h.sizeDecimal = value; break;
    case 'x-svc-size-decimal': if (h.svcSizeDecimal === '') h.svcSizeDecimal = value; break;
    case 'x-rm-min-seq': if (h.minSeq === '') h.minSeq = value; break;
    default:
  }
}

/** Copies the headers the front reads out of uWS's request (one native pass over them). @allocates one object */
function readHeaders(req: HttpRequest): RequestHeaders {
  const h = (reading = new HeaderValues());
  req.forEach(takeHeader);
  if (h.sizeDecimal === '') h.sizeDecimal = h.svcSizeDecimal;
  return h;
}

/** Classes counted per UID in total (every route of the class shares one window), not per endpoint (seed 8.1). */
const PER_UID: ReadonlySet<LimitClass> = new Set<LimitClass>(['spot-cancel', 'futures-place', 'futures-cancel', 'delivery-place',
  'delivery-cancel', 'options-place', 'options-cancel']);

/**
 * Counts the request under its route's rate class (see rate-limit.ts) and sets the answer's rate-limit headers
 * (for a placement naming several pairs, the tightest pair's); false when over the limit.
 */
function withinRate(limiter: RateLimiter, route: Route, req: ApiRequest, who: string, nowMs: number, reply: Reply, fill: FillRatio): boolean {
  const f = limiter.last;
  const cls = route.limit;
  if (cls !== 'spot-place') {
    // Perpetual placement: the user's fill-ratio tier sets the limit (100 r/s where the scheme does not apply).
    const base = cls === 'futures-place' && fill.enabled ? fill.placeLimit(req.uid) : undefined;
    const ok = limiter.take(cls, PER_UID.has(cls) ? who : `${who}|${route.method} ${route.pattern}`, nowMs, base);
    reply.rateLimit(f.limit, f.remain, f.resetMs);
    if (ok && fill.enabled && (cls === 'futures-place' || cls === 'futures-cancel')) fill.countRequest(req.uid);
    return ok;
  }
  let ok = true;
  let limit = 0;
  let remain = Number.MAX_SAFE_INTEGER;
  let resetMs = nowMs;
  for (const k of placeLimitKeys(req, who)) {
    if (!limiter.take('spot-place', k, nowMs)) ok = false;
    limit = f.limit;
    if (f.remain < remain) remain = f.remain;
    if (f.resetMs > resetMs) resetMs = f.resetMs;
    if (!ok) break;
  }
  reply.rateLimit(limit, remain, resetMs);
  return ok;
}

/** The front without a socket: the route table, the shared deps and uWS's `any` handler. */
export interface HttpHandler {
  readonly router: Router;
  readonly deps: ApiDeps;
  /** The request handler uWS calls (also driven directly, with stand-in objects, by benchmarks). */
  readonly onRequest: (res: HttpResponse, req: HttpRequest) => void;
  readonly metrics: ServerMetrics;
}

/** Builds the routes and the request pipeline of the module header; binds nothing. */
export function createHttpHandler(options: ServerOptions): HttpHandler {
  const bodyLimit = options.bodyLimit ?? 1 << 20;
  const windowS = options.authWindowS ?? 60;
  const trustProxy = options.trustProxy ?? false;
  const limiter = new RateLimiter(options.rateLimits ?? { enabled: true });
  const output = options.gateway.output;
  const deps = makeDeps({
    gateway: options.gateway, keys: options.keys, keyAdmin: new KeyAdmin(options.keys, options.apiKeys), simClock: options.simClock,
    stpGroups: options.stpGroups ?? [], adminToken: options.adminToken ?? '', trustProxy,
    wallet: options.wallet ?? new WalletSim(options.gateway, options.gateway.clock, resolveChains(options.gateway.exchange.definition.currencies, undefined)),
    priceTriggers: new PriceTriggers(options.gateway),
    orderRetentionUs: (options.cancelledOrderRetentionS ?? DEFAULT_ORDER_RETENTION_S) * 1_000_000,
    fillRatio: new FillRatio({
      exchange: options.gateway.exchange, clock: options.gateway.clock, vipLevels: options.vipLevels ?? new Map(),
      mainOf: (uid) => { const m = options.keys.account(uid)?.mainUid ?? 0; return m === 0 ? uid : m; },
      subsOf: (main) => options.keys.subAccountsOf(main),
    }),
  });
  deps.onClose.push(() => deps.priceTriggers.close());
  deps.onClose.push(() => deps.keyAdmin.dispose());
  // Accounts, keys and profiles added or changed at run time, as the journal brought them back.
  restoreIdentity(deps);
  const router = new Router();
  registerSpotPublicRoutes(router, deps);
  registerAccountRoutes(router, deps);
  registerWalletRoutes(router, deps);
  registerWalletChainRoutes(router, deps);
  registerWalletRecordRoutes(router, deps);
  registerWithdrawalRoutes(router, deps);
  registerWithdrawalPushRoutes(router, deps);
  registerSimWalletRoutes(router, deps);
  registerSpotAccountRoutes(router, deps);
  registerSpotOrderRoutes(router, deps);
  registerSpotBatchRoutes(router, deps);
  registerSpotPriceOrderRoutes(router, deps);
  registerFuturesPriceOrderRoutes(router, deps);
  registerWalletTransferRoutes(router, deps);
  registerSubAccountTransferRoutes(router, deps);
  registerSubAccountRoutes(router, deps);
  registerSubAccountKeyRoutes(router, deps);
  registerSubAccountBalanceRoutes(router, deps);
  registerUnifiedModeRoutes(router, deps);
  registerUnifiedAccountRoutes(router, deps);
  registerUnifiedLoanRoutes(router, deps);
  registerMarginRoutes(router, deps);
  registerMarginUniRoutes(router, deps);
  registerFuturesPublicRoutes(router, deps, [new DeliveryRouter(router)]);
  registerDeliveryRoutes(router, deps);
  registerOptionsPublicRoutes(router, deps);
  registerFuturesRoutes(router, deps);
  registerSimRoutes(router, deps);
  registerSimFuturesRoutes(router, deps);
  registerSimUserRoutes(router, deps);
  registerSimOptionsRoutes(router, deps);
  for (const extra of options.extraRoutes ?? []) extra(router, deps);
  const metrics = new ServerMetrics(options.gateway);
  deps.onClose.push(() => metrics.close());
  registerMetricsRoute(router, metrics);
  metrics.http.index(router.routes());
  const stats = metrics.http;

  const refuseWrites = options.refuseWrites;
  const replicaSeq = options.replicaSeq;
  const dispatch = (route: Route, req: ApiRequest, reply: Reply): void => {
    if (req.body === '' && route.arrayBody === true) return reply.error(ResultCode.InvalidBody, 'Request body must be a JSON array');
    if (req.body !== '') {
      if (!isJsonContentType(req.headers.contentType)) return reply.error(ResultCode.InvalidContentType);
      try {
        req.json = JSON.parse(req.body);
      } catch {
        return reply.error(ResultCode.InvalidBody, 'Request body is not valid JSON');
      }
      const isArray = Array.isArray(req.json);
      const isObject = typeof req.json === 'object' && req.json !== null && !isArray;
      if (route.arrayBody === true ? !isArray : !isObject) {
        return reply.error(ResultCode.InvalidBody, route.arrayBody === true ? 'Request body must be a JSON array' : 'Request body must be a JSON object');
      }
    }
    const access = route.access;
    if (refuseWrites !== undefined && route.method !== 'GET' && access.kind !== 'sim') return reply.error(ResultCode.NotLeader, refuseWrites());
    if (access.kind === 'private') {
      const code = authenticate(req, deps.keys, access.group, wallMicros(), { windowS });
      if (code !== ResultCode.Ok) return reply.error(code);
    } else if (access.kind === 'sim') {
      const code = checkControlAccess(req, deps.adminToken);
      if (code !== ResultCode.Ok) return reply.error(code);
    }
    // Whom the limits count against: the uid, or for public routes the address (a native call: read only when limiting).
    if (limiter.enabled && !withinRate(limiter, route, req, access.kind === 'private' ? String(req.uid) : req.ip, Math.floor(req.inUs / 1000), reply, deps.fillRatio)) {
      return reply.error(ResultCode.TooManyRequests);
    }
    const waitFor = replicaSeq?.waitFor;
    if (waitFor !== undefined && req.headers.minSeq !== '') {
      const want = Number(req.headers.minSeq);
      if (!/^[0-9]{1,15}$/.test(req.headers.minSeq)) return reply.error(ResultCode.InvalidParam, 'X-Rm-Min-Seq must be an engine seq (X-Rm-Seq of an answer)');
      if (want > replicaSeq!.seq()) {
        void waitFor(want).then((caughtUp) => {
          if (reply.finished) return;
          if (caughtUp) handle(route, req, reply);
          else reply.error(ResultCode.NotCaughtUp, `This follower has applied the log up to seq ${replicaSeq!.seq()}, not yet ${want}; `
            + 'retry, or read from the leader (GET /sim/replication names it)');
        });
        return;
      }
    }
    handle(route, req, reply);
  };

  const handle = (route: Route, req: ApiRequest, reply: Reply): void => {
    try {
      route.handler(req, reply);
    } catch (e) {
      if (options.logger !== undefined) options.logger.error({ event: 'handler_failed', method: req.method, route: route.pattern, err: e }, 'handler failed');
      else console.error(`ringmatch: ${req.method} ${req.path} failed:`, e);
      reply.json(500, { label: 'SERVER_ERROR', message: 'Internal server error' });
    }
  };

  const onRequest = (res: HttpResponse, hreq: HttpRequest): void => {
    const inUs = wallMicros();
    const method = hreq.getMethod().toUpperCase();
    const path = hreq.getUrl();
    const rawQuery = hreq.getQuery() ?? '';
    const headers = readHeaders(hreq);
    const reply = new Reply(res, inUs, headers.clientRequestId, output, stats, replicaSeq?.seq);
    const req = new HttpApiRequest(method, path, rawQuery, headers, inUs, res, trustProxy);
    const m = router.match(method, path);
    const declared = headers.contentLength === '' ? 0 : Number(headers.contentLength);
    const hasBody = headers.transferEncoding !== '' || declared > 0 || (BODY_METHODS.has(method) && headers.contentLength === '');
    if (!Number.isFinite(declared) || declared > bodyLimit) {
      reply.error(ResultCode.BodyTooLarge);
      return;
    }
    const proceed = (): void => {
      if (m === 'not-found') return reply.error(ResultCode.NotFound);
      if (m === 'method-not-allowed') return reply.error(ResultCode.MethodNotAllowed);
      req.params = m.params;
      reply.slot = stats.slotOf(m.route);
      dispatch(m.route, req, reply);
    };
    if (!hasBody) return proceed();
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    res.onData((chunk, isLast) => {
      if (refused || reply.finished) return;
      size += chunk.byteLength;
      if (size > bodyLimit) {
        refused = true;
        reply.error(ResultCode.BodyTooLarge);
        return;
      }
      if (isLast && chunks.length === 0) {
        req.body = Buffer.from(chunk).toString('utf8');
        return proceed();
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast) return;
      req.body = Buffer.concat(chunks).toString('utf8');
      proceed();
    });
  };

  return { router, deps, onRequest, metrics };
}

/**
 * uWebSockets.js's listen with LIBUS_LISTEN_EXCLUSIVE_PORT (value 1 in uSockets; the package's typings declare
 * the enum but neither export its value nor the host-port-options overload that the native listen accepts).
 * Without it uSockets sets SO_REUSEPORT on Linux, and a second simulator on a port already served would bind
 * too, the kernel splitting connections between two separate exchanges.
 */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => unknown;
function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, cb);
}

/**
 * Why host:port could not be bound, as a ConfigError (the user's address, not our fault): uWebSockets.js says
 * only that it failed, so the same bind is tried once with node:net to learn the reason (EADDRINUSE, EACCES,
 * EADDRNOTAVAIL, ENOTFOUND).
 */
async function listenFailure(host: string, port: number): Promise<ConfigError> {
  const code = await new Promise<string | undefined>((done) => {
    const probe = createNetServer();
    probe.once('error', (e: NodeJS.ErrnoException) => done(e.code));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => done(undefined)));
  });
  const at = `${host}:${port}`;
  const why = code === 'EADDRINUSE' ? `the address is already in use (another ringmatch or another program serves ${at}); stop it, or choose another port with --port or PORT`
    : code === 'EACCES' ? 'permission denied (ports below 1024 need privileges); choose another port with --port or PORT'
      : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' ? `${host} is not an address of this machine; choose another host with --host or HOST`
        : `uWebSockets.js refused the address${code === undefined ? '' : ` (${code})`}; choose another host or port`;
  return new ConfigError(`cannot listen on ${at}: ${why}`);
}

export function createServer(options: ServerOptions): Server {
  const host = options.host ?? '127.0.0.1';
  const { router, deps, onRequest, metrics } = createHttpHandler(options);
  const app: TemplatedApp = App();
  for (const socket of options.sockets ?? []) socket(app, deps);
  if (options.dashboard !== false) registerDashboard(app, options.dashboard);
  app.any('/*', onRequest);
  let listenSocket: us_listen_socket | undefined;
  let port = 0;

  return {
    router,
    deps,
    host,
    onRequest,
    metrics,
    get port() { return port; },
    listen(): Promise<number> {
      const want = options.port ?? 8080;
      return new Promise((resolve, reject) => {
        listenExclusive(app, host, want, (socket) => {
          if (socket === false) {
            listenFailure(host, want).then(reject, reject);
            return;
          }
          listenSocket = socket;
          port = us_socket_local_port(socket);
          resolve(port);
        });
      });
    },
    close(): Promise<void> {
      for (const dispose of deps.onClose.splice(0)) dispose();
      if (listenSocket !== undefined) us_listen_socket_close(listenSocket);
      listenSocket = undefined;
      app.close();
      return Promise.resolve();
    },
  };
}
