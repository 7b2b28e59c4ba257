/**
 * Public options routes, answered from configuration: the simulator configures no options yet, so the lists
 * are empty (ccxt's default loadMarkets reads GET /options/underlyings, then /options/contracts per underlying).
 *   GET /options/underlyings, /options/settlements                          []
 *   GET /options/expirations, /options/contracts, /options/tickers ?underlying=   [] (underlying required)
 *   GET /options/contracts/{contract}, /options/order_book?contract=        CONTRACT_NOT_FOUND
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import type { Router } from '../router.js';
import { PUBLIC, queryOf } from './futures-public-params.js';

export function registerOptionsPublicRoutes(router: Router, _deps: ApiDeps): void {
  for (const path of ['/api/v4/options/underlyings', '/api/v4/options/settlements']) {
    router.add({ method: 'GET', pattern: path, access: PUBLIC, limit: 'public', handler: (_req, reply) => reply.json(200, []) });
  }
  for (const path of ['/api/v4/options/expirations', '/api/v4/options/contracts', '/api/v4/options/tickers']) {
    router.add({ method: 'GET', pattern: path, access: PUBLIC, limit: 'public', handler: (req, reply) => {
      const u = queryOf(req).underlying;
      if (u === undefined || u === '') return reply.error(ResultCode.MissingParam);
      reply.json(200, []);
    } });
  }
  router.add({ method: 'GET', pattern: '/api/v4/options/contracts/{contract}', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.error(ResultCode.ContractNotFound) });
  router.add({ method: 'GET', pattern: '/api/v4/options/order_book', access: PUBLIC, limit: 'public', handler: (req, reply) => {
    const c = queryOf(req).contract;
    reply.error(c === undefined || c === '' ? ResultCode.MissingParam : ResultCode.ContractNotFound);
  } });
}
