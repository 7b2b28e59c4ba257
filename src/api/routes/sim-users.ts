/**
 * Reading users through the control plane (not Gate's API; token or loopback like every /sim/ route, see
 * sim-access), for operators and the dashboard, which hold the control-plane token and no user's API key:
 *   GET /sim/users        → [{uid, main_uid}]: every user (the platform's own account left out), in creation order
 *   GET /sim/users/{uid}  → the user's view (sim-user-view.ts): spot balances and open orders, and per settle currency
 *                           the futures, delivery and options accounts the user has, with open positions and open
 *                           orders, in the shapes of the user's own signed reads. The `sim.user` channel of `/ws/sim`
 *                           pushes the same object whenever a command changes it.
 * Unknown uid: USER_NOT_FOUND; a uid that is not a positive integer: INVALID_PARAM_VALUE. Reads only.
 * Costs: those of renderUserView (allocates the answer).
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import type { Router } from '../router.js';
import { renderUserView } from './sim-user-view.js';

const SIM = { kind: 'sim' } as const;

/** A uid as the control plane takes it in a path or payload: a positive integer below 2^31, or -1. */
export const parseUid = (text: string): number => (/^[1-9][0-9]{0,9}$/.test(text) && Number(text) < 2 ** 31 ? Number(text) : -1);

export function registerSimUserRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  router.add({ method: 'GET', pattern: '/sim/users', access: SIM, limit: 'public',
    handler: (_req, reply) => {
      reply.json(200, ex().ledger.users().map(([uid, main]) => ({ uid, main_uid: main })));
    } });

  router.add({ method: 'GET', pattern: '/sim/users/{uid}', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const uid = parseUid(req.params[0]!);
      if (uid < 0) return reply.error(ResultCode.InvalidParam, 'uid must be a positive integer');
      const view = renderUserView(deps, uid, deps.gateway.clock.nowUs());
      if (view === undefined) return reply.error(ResultCode.UserNotFound);
      reply.json(200, view);
    } });
}
