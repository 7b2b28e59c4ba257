/**
 * Public perpetual-futures reference data (no credentials; rate class `public`), under `/futures/{settle}` and
 * the settle-less legacy paths (btc):
 *   GET contracts?limit=&offset=, contracts/{contract}   Gate's Contract objects (futures-market-shapes.ts); the list holds the
 *                                            listed contracts (a settled delivery contract is not: isListed)
 *   GET risk_limit_tiers?contract=&limit=&offset=    tiers of one contract, or of every contract of the settle
 *   GET funding_rate?contract=&limit=&from=&to=      applied funding rates `{t, r}`, newest first
 *   GET insurance?limit=                      insurance fund balance history `{t, b}`, newest first
 *   GET liq_orders?contract=&from=&to=&limit=  liquidation orders (public: no user), newest first
 *   GET contract_stats?contract=&interval=&from=&limit=   open interest and long/short figures (see below)
 *   GET index_constituents/{index}            where the index price comes from
 * and the market-data routes of futures-market-routes.ts over one FuturesMarketData feed, which this module
 * creates and subscribes to the gateway (`registerFuturesPublicRoutes` is the one registration).
 *
 * contract_stats simplification: the simulator keeps no statistics history, so it answers one point, the
 * current bucket of `interval` (default 5m): market-data/contract-stats.ts (the futures.contract_stats push's too).
 * Bad input: unknown settle INVALID_PARAM_VALUE, a missing contract MISSING_REQUIRED_PARAM, a contract not in the
 * settle CONTRACT_NOT_FOUND, malformed numbers INVALID_PARAM_VALUE; nothing is ever submitted to the engine.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { formatSigned } from '../../core/futures/futures-math.js';
import { ResultCode } from '../../core/result-code.js';
import { fundingRateText, renderRiskTiers } from '../../gate/futures-market-shapes.js';
import type { ApiDeps } from '../deps.js';
import { contractStatsPoint } from '../market-data/contract-stats.js';
import { intervalIndex } from '../market-data/intervals.js';
import { FuturesMarketData } from '../market-data/futures-market-data.js';
import { intParam, type QueryParams, secondsParamUs } from '../market-data/query.js';
import type { Router } from '../router.js';
import { registerFuturesMarketRoutes } from './futures-market-routes.js';
import { addSettleRoute, contractIn, isFuturesSettle, isListed, queryOf } from './futures-public-params.js';

/** Time bounds and limit of a history query: [fromS, toS] seconds inclusive, or a negative code. */
function historyQuery(q: QueryParams, maxLimit: number, fallback: number): { limit: number; from: number; to: number } | number {
  const limit = intParam(q, 'limit', fallback, 1, maxLimit);
  const from = secondsParamUs(q, 'from', 0);
  const to = secondsParamUs(q, 'to', Number.MAX_SAFE_INTEGER);
  if (limit < 0 || from < 0 || to < 0 || from > to) return ResultCode.InvalidParam;
  return { limit, from: from / 1e6, to: to / 1e6 };
}

/** The settle currency's ledger index and scale when a contract settles in it, else undefined. */
function settleCurrency(ex: Exchange, settle: string): { cur: number; scale: number } | undefined {
  const ci = ex.futures.contracts.findIndex((c) => c.settle === settle);
  return ci < 0 ? undefined : { cur: ex.futures.settleCur[ci]!, scale: ex.futures.contracts[ci]!.settleScale };
}

/** The futures market-data feed the routes of `deps` serve (the WebSocket endpoint pushes from the same one). */
const feeds = new WeakMap<ApiDeps, FuturesMarketData>();
export const futuresFeedOf = (deps: ApiDeps): FuturesMarketData | undefined => feeds.get(deps);

/**
 * Registers the public routes on `router` and on each of `scoped` (the delivery routes' router, which moves them
 * under /delivery/{settle}: delivery-routes.ts), all over one feed.
 */
export function registerFuturesPublicRoutes(router: Router, deps: ApiDeps, scoped: readonly Router[] = []): void {
  const { gateway } = deps;
  const feed = new FuturesMarketData(gateway.exchange, gateway.clock.nowUs());
  feed.replayTradeLog();
  gateway.observe((code, cmd, events) => feed.onResult(code, cmd, events));
  feeds.set(deps, feed);
  for (const r of [router, ...scoped]) publicRoutes(r, deps, feed);
}

function publicRoutes(router: Router, deps: ApiDeps, feed: FuturesMarketData): void {
  const { gateway } = deps;
  const ex = (): Exchange => gateway.exchange;
  const now = (): number => gateway.clock.nowUs();
  const valid = (settle: string): boolean => isFuturesSettle(ex(), settle);
  const inSettle = (settle: string): number[] => {
    const out: number[] = [];
    ex().futures.contracts.forEach((c, i) => { if (c.settle === settle && isListed(ex(), i)) out.push(i); });
    return out;
  };

  addSettleRoute(router, 'futures', '/contracts', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    const limit = intParam(q, 'limit', Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER);
    const offset = intParam(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    if (limit < 0 || offset < 0) return reply.error(ResultCode.InvalidParam);
    reply.json(200, inSettle(settle).slice(offset, offset + limit).map((ci) => feed.contract(ci, now())));
  });

  addSettleRoute(router, 'futures', '/contracts/{contract}', valid, (settle, rest, _req, reply) => {
    const ci = contractIn(ex(), settle, rest[0]);
    if (ci < 0) return reply.error(ci);
    reply.json(200, feed.contract(ci, now()));
  });

  addSettleRoute(router, 'futures', '/risk_limit_tiers', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    const limit = intParam(q, 'limit', 100, 1, 1000);
    const offset = intParam(q, 'offset', 0, 0, 1_000_000);
    if (limit < 0 || offset < 0) return reply.error(ResultCode.InvalidParam);
    let list = inSettle(settle);
    if (q.contract !== undefined && q.contract !== '') {
      const ci = contractIn(ex(), settle, q.contract);
      if (ci < 0) return reply.error(ci);
      list = [ci];
    }
    const tiers = list.flatMap((ci) => renderRiskTiers(ex().futures.contracts[ci]!));
    reply.json(200, tiers.slice(offset, offset + limit));
  });

  addSettleRoute(router, 'futures', '/funding_rate', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    const ci = contractIn(ex(), settle, q.contract);
    if (ci < 0) return reply.error(ci);
    const h = historyQuery(q, 1000, 100);
    if (typeof h === 'number') return reply.error(h);
    const m = ex().futures.marketOf[ci]!;
    const out: { t: number; r: string }[] = [];
    const rows = ex().futures.funding;
    for (let i = rows.length - 1; i >= 0 && out.length < h.limit; i--) {
      const r = rows[i]!;
      if (r.market === m && r.t >= h.from && r.t <= h.to) out.push({ t: r.t, r: fundingRateText(r.rate) });
    }
    reply.json(200, out);
  });

  addSettleRoute(router, 'futures', '/insurance', valid, (settle, _rest, req, reply) => {
    const limit = intParam(queryOf(req), 'limit', 30, 1, 10000);
    if (limit < 0) return reply.error(ResultCode.InvalidParam);
    const sc = settleCurrency(ex(), settle);
    if (sc === undefined) return reply.json(200, []);
    const out: { t: number; b: string }[] = [];
    const rows = ex().futures.insurance;
    for (let i = rows.length - 1; i >= 0 && out.length < limit; i--) {
      const r = rows[i]!;
      if (r.cur === sc.cur) out.push({ t: r.t, b: formatSigned(BigInt(r.balance), sc.scale) });
    }
    // Before any change, the opening balance as of now.
    if (out.length === 0) out.push({ t: Math.floor(now() / 1e6), b: formatSigned(ex().ledger.futures.insuranceFund(sc.cur), sc.scale) });
    reply.json(200, out);
  });

  addSettleRoute(router, 'futures', '/liq_orders', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    let market = -1;
    if (q.contract !== undefined && q.contract !== '') {
      const ci = contractIn(ex(), settle, q.contract);
      if (ci < 0) return reply.error(ci);
      market = ex().futures.marketOf[ci]!;
    }
    const h = historyQuery(q, 1000, 100);
    if (typeof h === 'number') return reply.error(h);
    const S = ex().futures;
    const out: Record<string, unknown>[] = [];
    for (let i = S.liquidations.length - 1; i >= 0 && out.length < h.limit; i--) {
      const r = S.liquidations[i]!;
      const ci = S.contractOf(r.market);
      const t = Math.floor(r.t / 1e6);
      if (ci < 0 || S.contracts[ci]!.settle !== settle || (market >= 0 && r.market !== market) || t < h.from || t > h.to) continue;
      // The liquidator's closing order: the opposite of the liquidated size, at the order price.
      out.push({ time: t, contract: S.contracts[ci]!.name, size: r.size, order_size: -r.size, order_price: r.orderPrice,
        fill_price: r.orderPrice, left: 0 });
    }
    reply.json(200, out);
  });

  addSettleRoute(router, 'futures', '/contract_stats', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    const ci = contractIn(ex(), settle, q.contract);
    if (ci < 0) return reply.error(ci);
    const interval = intervalIndex(q.interval ?? '5m');
    const limit = intParam(q, 'limit', 30, 1, 2000);
    const from = secondsParamUs(q, 'from', 0);
    if (interval < 0 || limit < 0 || from < 0) return reply.error(ResultCode.InvalidParam);
    const point = contractStatsPoint(ex(), feed, ci, interval, now());
    reply.json(200, point.time < from / 1e6 ? [] : [point]);
  });

  addSettleRoute(router, 'futures', '/index_constituents/{index}', valid, (settle, rest, _req, reply) => {
    const ci = contractIn(ex(), settle, rest[0]);
    if (ci < 0) return reply.error(ci);
    const c = ex().futures.contracts[ci]!;
    const source = c.spec.index_source ?? (ex().marketIndex(c.name) >= 0 ? c.name : '');
    reply.json(200, { index: c.name, constituents: source === '' ? [] : [{ exchange: 'ringmatch', symbols: [source] }] });
  });

  registerFuturesMarketRoutes(router, deps, feed);
}
