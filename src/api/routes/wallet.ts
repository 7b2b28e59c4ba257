/** Wallet routes served so far (permission group `wallet`): GET /wallet/fee. */
import type { ApiDeps } from '../deps.js';
import type { Router } from '../router.js';
import { queryParam } from '../http/api-request.js';
import { optionalPair } from './common.js';
import { renderTradeFee } from './fees.js';

export function registerWalletRoutes(router: Router, deps: ApiDeps): void {
  router.add({ method: 'GET', pattern: '/api/v4/wallet/fee', access: { kind: 'private', group: 'wallet' }, limit: 'wallet',
    handler: (req, reply) => {
      const m = optionalPair(deps.gateway.exchange, req);
      if (m < -1) return reply.error(m);
      reply.json(200, renderTradeFee(deps.gateway.exchange, req.uid, m, queryParam(req, 'settle')));
    } });
}
