/**
 * Delivery-futures routes (`/delivery/{settle}`, permission group `delivery`). They are the perpetual handlers
 * registered a second time through a DeliveryRouter, which moves each route Gate's delivery API has from
 * `/api/v4/futures/{settle}…` to `/api/v4/delivery/{settle}…`, gives private ones the `delivery` group and
 * the delivery rate classes, and drops the rest (no batch, amend, time-range lists, dual mode, countdown).
 * Under /delivery a handler's route scope is `delivery:{settle}` (futures-public-params.ts scopeOf), so it
 * finds only delivery contracts, and the margin account is the user's Delivery account (futures-common.ts
 * accountCur). One engine serves both: docs/derivatives.md "Delivery".
 *
 *   public   GET contracts, contracts/{contract}, order_book, trades, candlesticks, tickers, insurance, risk_limit_tiers
 *   private  GET accounts, account_book, positions, positions/{contract}; POST positions/{contract}/margin,
 *            /leverage, /risk_limit; POST, GET, DELETE orders; GET, DELETE orders/{order_id}; GET my_trades,
 *            position_close, liquidates, settlements; POST, GET, DELETE price_orders; GET, DELETE price_orders/{order_id}
 *   rates    delivery-place and delivery-cancel 500 / 10 s per UID; every other private route 200 / 10 s (rate-limit.ts)
 *
 * GET settlements (this module): `uid`'s settlement rows of the settle, newest first; contract optional, limit
 * 1..1000 (100), `at` (seconds: only settlements at that time).
 */
import { DELIVERY_SCOPE } from '../../core/futures/contract.js';
import { ResultCode } from '../../core/result-code.js';
import { renderSettlement } from '../../gate/delivery-shapes.js';
import { parseContract } from '../../gate/futures-request.js';
import type { ApiDeps } from '../deps.js';
import { queryParam } from '../http/api-request.js';
import type { LimitClass } from '../rate-limit.js';
import { type Access, type Route, Router } from '../router.js';
import { intParam } from './common.js';
import { accountCur, settleOf, sizeForm } from './futures-common.js';
import { registerFuturesPriceOrderRoutes } from './futures-price-orders.js';
import { registerFuturesRoutes } from './futures-routes.js';

const FUTURES_PREFIX = '/api/v4/futures/{settle}';
export const DELIVERY_PREFIX = '/api/v4/delivery/{settle}';
export const DELIVERY: Access = { kind: 'private', group: 'delivery' };

/** `METHOD suffix` of every futures route that Gate's delivery API also has. */
const SERVED: ReadonlySet<string> = new Set([
  'GET /contracts', 'GET /contracts/{contract}', 'GET /order_book', 'GET /trades', 'GET /candlesticks', 'GET /tickers',
  'GET /insurance', 'GET /risk_limit_tiers',
  'GET /accounts', 'GET /account_book', 'GET /positions', 'GET /positions/{contract}', 'POST /positions/{contract}/margin',
  'POST /positions/{contract}/leverage', 'POST /positions/{contract}/risk_limit',
  'POST /orders', 'GET /orders', 'DELETE /orders', 'GET /orders/{order_id}', 'DELETE /orders/{order_id}',
  'GET /my_trades', 'GET /position_close', 'GET /liquidates',
  'POST /price_orders', 'GET /price_orders', 'DELETE /price_orders', 'GET /price_orders/{order_id}', 'DELETE /price_orders/{order_id}',
]);

const LIMITS: Readonly<Partial<Record<LimitClass, LimitClass>>> = {
  'futures-place': 'delivery-place', 'futures-cancel': 'delivery-cancel', futures: 'delivery',
};

/** A Router that registers the delivery copy of each futures route it is given into `target` (see the module comment). */
export class DeliveryRouter extends Router {
  readonly #target: Router;

  constructor(target: Router) {
    super();
    this.#target = target;
  }

  override add(route: Route): this {
    if (!route.pattern.startsWith(`${FUTURES_PREFIX}/`)) return this;
    const suffix = route.pattern.slice(FUTURES_PREFIX.length);
    if (!SERVED.has(`${route.method} ${suffix}`)) return this;
    this.#target.add({
      ...route, pattern: DELIVERY_PREFIX + suffix, access: route.access.kind === 'private' ? DELIVERY : route.access,
      limit: LIMITS[route.limit] ?? route.limit,
    });
    return this;
  }
}

/**
 * The private delivery routes: the futures ones through a DeliveryRouter, and settlements. (The public ones come
 * with registerFuturesPublicRoutes, which shares its market-data feed: server.ts passes it a DeliveryRouter.)
 */
export function registerDeliveryRoutes(router: Router, deps: ApiDeps): void {
  const scoped = new DeliveryRouter(router);
  registerFuturesRoutes(scoped, deps);
  registerFuturesPriceOrderRoutes(scoped, deps);
  const ex = () => deps.gateway.exchange;
  router.add({ method: 'GET', pattern: `${DELIVERY_PREFIX}/settlements`, access: DELIVERY, limit: 'delivery',
    handler: (req, reply) => {
      const acct = accountCur(ex(), req);
      if (acct < 0) return reply.error(acct);
      const scope = settleOf(req);
      const name = queryParam(req, 'contract');
      const ci = name === undefined || name === '' ? -1 : parseContract(ex(), scope, name);
      if (ci < -1) return reply.error(ci);
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const atText = queryParam(req, 'at');
      const at = atText === undefined || atText === '' ? 0 : /^[0-9]{1,12}$/.test(atText) ? Number(atText) : -1;
      if (limit < 0 || at < 0) return reply.error(ResultCode.InvalidParam, limit < 0 ? 'limit must be 1..1000' : 'at must be seconds');
      const S = ex().futures;
      const inScope = (m: number): boolean => S.contracts[S.contractOf(m)]?.settle === scope && scope.startsWith(DELIVERY_SCOPE);
      const market = ci >= 0 ? S.marketOf[ci]! : -1;
      const rows = S.settlements.filter((r) => r.uid === req.uid && (market < 0 ? inScope(r.market) : r.market === market)
        && (at === 0 || r.t === at)).reverse();
      const form = sizeForm(req);
      reply.json(200, rows.slice(0, limit).map((r) => renderSettlement(ex(), r, form)));
    } });
}
