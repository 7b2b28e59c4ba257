/**
 * Reading users through the control plane (not Gate's API; token or loopback like every /sim/ route, see
 * sim-access), for operators and the dashboard, which hold the control-plane token and no user's API key:
 *   GET /sim/users        → [{uid, main_uid}]: every user (the platform's own account left out), in creation order
 *   GET /sim/users/{uid}  → {uid, main_uid, spot: {balances, open_orders}, futures: [{settle, account, positions,
 *                           open_orders}]}: what the user's own signed reads answer (GET /spot/accounts,
 *                           /spot/open_orders, /futures/{settle}/accounts, …/positions?holding=true,
 *                           …/orders?status=open), in the same shapes; `futures` lists each perpetual settle
 *                           currency whose account the user has (funded once)
 * Unknown uid: USER_NOT_FOUND; a uid that is not a positive integer: INVALID_PARAM_VALUE. Reads only.
 * Costs: one pass over the user's records, the order store's open orders and positions (allocates the answer).
 */
import { DELIVERY_SCOPE } from '../../core/futures/contract.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import { renderFuturesAccount, renderPosition } from '../../gate/futures-position-shapes.js';
import { renderFuturesOrder } from '../../gate/futures-shapes.js';
import { settleCurrency } from '../../gate/futures-request.js';
import { renderOrder } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import type { Router } from '../router.js';
import { futuresOrdersOf } from './futures-common.js';

const SIM = { kind: 'sim' } as const;

export function registerSimUserRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  router.add({ method: 'GET', pattern: '/sim/users', access: SIM, limit: 'public',
    handler: (_req, reply) => {
      reply.json(200, ex().ledger.users().map(([uid, main]) => ({ uid, main_uid: main })));
    } });

  router.add({ method: 'GET', pattern: '/sim/users/{uid}', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const text = req.params[0]!;
      if (!/^[1-9][0-9]{0,9}$/.test(text) || Number(text) >= 2 ** 31) return reply.error(ResultCode.InvalidParam, 'uid must be a positive integer');
      const uid = Number(text);
      const e = ex();
      const main = e.ledger.mainOf(uid);
      if (main < 0) return reply.error(ResultCode.UserNotFound);
      const O = e.orders;
      const openSpot: unknown[] = [];
      for (let m = 0; m < e.spotMarkets; m++) for (const r of O.openOf(uid, m)) openSpot.push(renderOrder(e, r));
      const S = e.futures;
      const P = S.positions;
      const settles = [...new Set(S.contracts.map((k) => k.settle).filter((s) => !s.startsWith(DELIVERY_SCOPE)))];
      const futures = settles.flatMap((settle) => {
        const cur = settleCurrency(e, settle);
        if (cur < 0 || !e.ledger.futures.hasAccount(uid, cur)) return [];
        const positions = P.rowsOf(uid).filter((r) => P.size[r] !== 0 && S.acct[S.contractOf(P.market[r]!)] === cur)
          .map((r) => renderPosition(e, r, 'int'));
        const orders = futuresOrdersOf(deps, uid, settle, -1, true).map((r) => renderFuturesOrder(e, r, 'int'));
        return [{ settle, account: renderFuturesAccount(e, uid, cur), positions, open_orders: orders }];
      });
      reply.json(200, {
        uid, main_uid: main,
        spot: {
          balances: e.ledger.balances(uid, AccountKind.Spot, 0).map((b) => ({ currency: b.currency, available: b.available, locked: b.locked })),
          open_orders: openSpot,
        },
        futures,
      });
    } });
}
