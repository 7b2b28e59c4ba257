/**
 * Public delivery-futures routes, answered from configuration: the simulator configures no delivery contracts
 * yet, so every list is empty (ccxt's default loadMarkets reads GET /delivery/usdt/contracts and must get `[]`,
 * not NOT_FOUND). Settles served: usdt and btc (others INVALID_PARAM_VALUE).
 *   GET /delivery/{settle}/contracts, /tickers, /insurance, /risk_limit_tiers   []
 *   GET /delivery/{settle}/contracts/{contract}                                 CONTRACT_NOT_FOUND
 *   GET /delivery/{settle}/order_book, /trades, /candlesticks (contract required) MISSING_REQUIRED_PARAM or CONTRACT_NOT_FOUND
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import type { Router } from '../router.js';
import { addSettleRoute, DEFAULT_SETTLES, queryOf } from './futures-public-params.js';

const valid = (settle: string): boolean => DEFAULT_SETTLES.includes(settle);

export function registerDeliveryPublicRoutes(router: Router, _deps: ApiDeps): void {
  for (const suffix of ['/contracts', '/tickers', '/insurance', '/risk_limit_tiers']) {
    addSettleRoute(router, 'delivery', suffix, valid, (_settle, _rest, _req, reply) => reply.json(200, []));
  }
  addSettleRoute(router, 'delivery', '/contracts/{contract}', valid, (_settle, _rest, _req, reply) =>
    reply.error(ResultCode.ContractNotFound));
  for (const suffix of ['/order_book', '/trades', '/candlesticks']) {
    addSettleRoute(router, 'delivery', suffix, valid, (_settle, _rest, req, reply) => {
      const c = queryOf(req).contract;
      reply.error(c === undefined || c === '' ? ResultCode.MissingParam : ResultCode.ContractNotFound);
    });
  }
}
