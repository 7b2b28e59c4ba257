/**
 * Unified account mode (permission group `unified`):
 *   GET /unified/unified_mode   → {mode, settings: {usdt_futures, spot_hedge, use_funding, options}}
 *   PUT /unified/unified_mode   {mode, settings?} → 204
 * A switch is one UnifiedSetMode command: refused with USER_PENDING_ORDERS while the account has open orders,
 * USER_LIAB when it owes and the target mode does not borrow (classic, single_currency), and
 * INVALID_PARAM_VALUE when multi_currency's usdt_futures or options would be switched off, POSITION_HOLDING /
 * USER_PENDING_ORDERS when the switch starts or stops carrying USDT futures with a USDT position or futures order
 * open (docs/unified.md, "USDT futures in the unified account"). Settings not sent
 * keep their value; settings the target mode does not have are dropped (see docs/unified.md).
 */
import { CommandType } from '../../core/command.js';
import { ResultCode } from '../../core/result-code.js';
import { UnifiedSetting } from '../../core/unified/unified-state.js';
import { MODE_NAMES } from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import type { Router } from '../router.js';
import { afterAccrual, settingsView, UNIFIED } from '../unified/unified-view.js';

const SETTING_BITS: readonly [string, number][] = [
  ['usdt_futures', UnifiedSetting.UsdtFutures], ['spot_hedge', UnifiedSetting.SpotHedge],
  ['use_funding', UnifiedSetting.UseFunding], ['options', UnifiedSetting.Options],
];

export function registerUnifiedModeRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  router.add({ method: 'GET', pattern: '/api/v4/unified/unified_mode', access: UNIFIED, limit: 'private',
    handler: (req, reply) => {
      const U = ex().unified;
      reply.json(200, { mode: MODE_NAMES[U.modeOf(req.uid)], settings: settingsView(U.settingsOf(req.uid)) });
    } });

  router.add({ method: 'PUT', pattern: '/api/v4/unified/unified_mode', access: UNIFIED, limit: 'private',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Body {mode, settings} required');
      if (body.mode === undefined || body.mode === null || body.mode === '') return reply.error(ResultCode.MissingParam, 'mode is required');
      const mode = typeof body.mode === 'string' ? (MODE_NAMES as readonly string[]).indexOf(body.mode) : -1;
      if (mode < 0) return reply.error(ResultCode.InvalidParam, `mode must be one of ${MODE_NAMES.join(', ')}`);
      let bits = ex().unified.settingsOf(req.uid);
      const settings = body.settings;
      if (settings !== undefined && settings !== null) {
        if (typeof settings !== 'object' || Array.isArray(settings)) return reply.error(ResultCode.InvalidParam, 'settings must be an object');
        const s = settings as Record<string, unknown>;
        for (const [name, bit] of SETTING_BITS) {
          const v = s[name];
          if (v === undefined || v === null) continue;
          if (typeof v !== 'boolean') return reply.error(ResultCode.InvalidParam, `settings.${name} must be true or false`);
          bits = v ? bits | bit : bits & ~bit;
        }
      }
      afterAccrual(deps, () => {
        const c = deps.cmd.clear();
        c.type = CommandType.UnifiedSetMode;
        c.uid = req.uid; c.side = mode; c.price = bits;
        deps.gateway.submit(c, (code) => {
          if (code !== ResultCode.Ok) return reply.error(code, code === ResultCode.InvalidParam ? 'usdt_futures and options can only be switched on in multi_currency' : undefined);
          reply.noContent();
        });
      });
    } });
}
