/**
 * Account routes (permission group `account`): GET /account/detail (ccxt reads `key.mode` to choose
 * classic or unified: 2 for a unified key or a user in a non-classic unified mode), GET /account/stp_groups
 * and GET /account/stp_groups/{stp_id}/users (the groups the caller's account, or its main account, belongs
 * to; read-only here: groups come from the config), and GET /account/rate_limit (the futures fill-ratio tier of a
 * VIP 14+ user, seed 8.2: api/fill-ratio.ts).
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';

const ACCOUNT = { kind: 'private', group: 'account' } as const;

/** A ratio as a decimal string, at most 8 decimals, no trailing zeros. */
const ratioText = (r: number): string => String(Number(r.toFixed(8)));

export function registerAccountRoutes(router: Router, deps: ApiDeps): void {
  const visible = (uid: number): typeof deps.stpGroups => {
    const main = deps.keys.account(uid)?.mainUid ?? 0;
    return deps.stpGroups.filter((g) => g.users.includes(uid) || (main !== 0 && g.users.includes(main)));
  };

  router.add({ method: 'GET', pattern: '/api/v4/account/detail', access: ACCOUNT, limit: 'private',
    handler: (req, reply) => {
      const key = req.key!;
      reply.json(200, {
        user_id: req.uid, ip_whitelist: key.ipWhitelist, currency_pairs: [], tier: deps.fillRatio.vipLevel(req.uid),
        key: { mode: key.mode === 2 || deps.gateway.exchange.unified.modeOf(req.uid) !== 0 ? 2 : key.mode }, copy_trading_role: 0,
      });
    } });

  // Gate's AccountRateLimit rows: the tier, the user's own ratio and its main account's overall ratio of the
  // evaluation in force, and when it was made (seconds, 00:00 UTC of the engine clock). `limit` (not Gate's)
  // is the placement limit of the tier (r/s, before the limiter's scale). No row where the scheme does not apply.
  router.add({ method: 'GET', pattern: '/api/v4/account/rate_limit', access: ACCOUNT, limit: 'private',
    handler: (req, reply) => {
      const s = deps.fillRatio.status(req.uid);
      reply.json(200, s === undefined ? [] : [{
        type: 'futures', tier: String(s.tier), ratio: ratioText(s.ratio), main_ratio: ratioText(s.mainRatio),
        limit: String(s.limit), updated_at: String(Math.floor(s.updatedUs / 1_000_000)),
      }]);
    } });

  router.add({ method: 'GET', pattern: '/api/v4/account/stp_groups', access: ACCOUNT, limit: 'private',
    handler: (req, reply) => {
      const name = queryParam(req, 'name');
      reply.json(200, visible(req.uid).filter((g) => name === undefined || g.name === name)
        .map((g) => ({ id: g.id, name: g.name ?? '', creator_id: g.users[0] ?? 0, create_time: 0 })));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/account/stp_groups/{stp_id}/users', access: ACCOUNT, limit: 'private',
    handler: (req, reply) => {
      const id = Number(req.params[0]);
      const g = visible(req.uid).find((x) => x.id === id);
      if (g === undefined) return reply.error(ResultCode.NotFound, 'STP group not found');
      reply.json(200, g.users.map((uid) => ({ user_id: uid, stp_id: g.id, create_time: 0 })));
    } });
}
