/**
 * Spot account routes (permission group `spot`): GET /spot/fee, /spot/batch_fee, /spot/accounts,
 * /spot/account_book and /spot/my_trades. Lists are newest first with Gate's page/limit (page from 1,
 * limit ≤ 1000); times in the query are seconds.
 */
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { bookTypesNamed } from '../../core/ledger/account-book.js';
import { ResultCode } from '../../core/result-code.js';
import { accountBookCode, orderOfRole, userTrades } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import { queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { accountKindParam, parseOrderId, parsePair } from '../../gate/spot-order-request.js';
import { accountKindOf } from '../../core/exchange/order-store.js';
import { intParam, optionalPair, queryAccount, timeParamUs } from './common.js';
import { renderFee } from './fees.js';

const SPOT = { kind: 'private', group: 'spot' } as const;

export function registerSpotAccountRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  router.add({ method: 'GET', pattern: '/api/v4/spot/fee', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const m = optionalPair(ex(), req);
      if (m < -1) return reply.error(m);
      reply.json(200, renderFee(ex(), req.uid, m));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/batch_fee', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const list = queryParam(req, 'currency_pairs');
      if (list === undefined || list === '') return reply.error(ResultCode.MissingParam, 'currency_pairs is required');
      const pairs = list.split(',');
      if (pairs.length > 50) return reply.error(ResultCode.InvalidParam, 'at most 50 currency pairs');
      const out: Record<string, unknown> = {};
      for (const p of pairs) {
        const m = parsePair(ex(), p);
        if (m < 0) return reply.error(m);
        out[p] = renderFee(ex(), req.uid, m);
      }
      reply.json(200, out);
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/accounts', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency');
      if (currency !== undefined && ex().currencyIndex(currency) < 0) return reply.error(ResultCode.CurrencyNotFound);
      reply.json(200, ex().ledger.balances(req.uid, AccountKind.Spot, 0)
        .filter((b) => currency === undefined || b.currency === currency)
        .map((b) => ({ currency: b.currency, available: b.available, locked: b.locked, update_id: 0 })));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/account_book', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency');
      if (currency !== undefined && ex().currencyIndex(currency) < 0) return reply.error(ResultCode.CurrencyNotFound);
      const typeName = queryParam(req, 'type');
      if (typeName !== undefined && bookTypesNamed(typeName).length === 0) return reply.error(ResultCode.InvalidParam, 'unknown type');
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const page = intParam(req, 'page', 1, 1, 100_000);
      const from = timeParamUs(req, 'from', 0);
      const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
      for (const v of [limit, page, from, to]) if (v < 0) return reply.error(v);
      const entries = ex().ledger.accountBook(req.uid, {
        kind: AccountKind.Spot, sub: 0, currency, typeName, from, to, limit: limit * page,
      }).slice((page - 1) * limit);
      reply.json(200, entries.map((e) => ({
        id: String(e.id), time: Math.floor(e.time / 1000), currency: e.currency, change: e.change,
        balance: e.balance, type: e.type, code: accountBookCode(e.type), text: e.text,
      })));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/my_trades', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const acct = queryAccount(req);
      if (acct !== ResultCode.Ok) return reply.error(acct);
      const m = optionalPair(ex(), req);
      if (m < -1) return reply.error(m);
      const orderText = queryParam(req, 'order_id');
      const order = orderText === undefined || orderText === '' ? 0 : parseOrderId(orderText);
      if (order < 0) return reply.json(200, []);
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const page = intParam(req, 'page', 1, 1, 100_000);
      const from = timeParamUs(req, 'from', 0);
      const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
      for (const v of [limit, page, from, to]) if (v < 0) return reply.error(v);
      const T = ex().trades;
      const O = ex().orders;
      const kind = accountKindParam(queryParam(req, 'account'));
      // A row's account is its order's; an order gone from the finished window counts as spot. A self-trade
      // is two rows (taker and maker), each filtered by its own order.
      const kindOf = (id: number): number => { const r = O.find(id); return r < 0 ? AccountKind.Spot : accountKindOf(O.account[r]!); };
      const rows = userTrades(ex(), req.uid, (slot, role) => {
        if ((m >= 0 && T.market[slot] !== m) || T.market[slot]! >= ex().spotMarkets) return false;
        const own = orderOfRole(ex(), slot, role);
        if ((order > 0 && own !== order) || kindOf(own) !== kind) return false;
        const t = T.time[slot]!;
        return t >= from && t <= to;
      }, limit * page).slice((page - 1) * limit);
      reply.json(200, rows);
    } });
}
