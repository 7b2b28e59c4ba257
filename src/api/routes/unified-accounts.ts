/**
 * Unified account queries (permission group `unified`, 150 / 10 s each):
 *   GET /unified/accounts          ?currency (comma-separated), sub_uid (a sub-account of the caller) → section 2.11
 *   GET /unified/borrowable        ?currency (required) → {currency, amount}
 *   GET /unified/batch_borrowable  ?currencies (required, at most 10) → [{currency, amount}]
 *   GET /unified/transferable      ?currency (required) → {currency, amount}
 *   GET /unified/transferables     ?currencies (required, at most 100) → [{currency, amount}]
 *   GET /unified/estimate_rate     ?currencies (required, at most 10) → {CURRENCY: hourly rate}
 *   GET /unified/risk_units        portfolio mode only → {user_id, spot_hedge, risk_units[]}
 *   GET /unified/currency_discount_tiers (public) → [{currency, discount_tiers: [{tier, discount, lower_limit, upper_limit}]}]
 * Each read first accrues interest that is due (one UnifiedAccrue command when an hour has passed); reading an
 * account whose margin is below maintenance first liquidates it (unified/liquidator.ts), as does a timer.
 */
import { ResultCode } from '../../core/result-code.js';
import { borrowableOf, figuresOf, holdingsOf } from '../../core/unified/unified-account.js';
import { UnifiedSetting } from '../../core/unified/unified-state.js';
import { formatScaled, transferable, UnifiedMode } from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';
import type { ApiRequest } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { liquidate, startLiquidator } from '../unified/liquidator.js';
import { accountView, afterAccrual, currencyList, targetUid, UNIFIED, usd } from '../unified/unified-view.js';
import { optionsGreeksByBase } from '../../gate/options-shapes.js';

/** How often every borrower is checked for liquidation (wall-clock ms). */
const LIQUIDATION_PERIOD_MS = 1000;

export function registerUnifiedAccountRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  startLiquidator(deps, LIQUIDATION_PERIOD_MS);
  const get = (path: string, handler: (req: ApiRequest, reply: Reply) => void): void => {
    router.add({ method: 'GET', pattern: `/api/v4/unified/${path}`, access: UNIFIED, limit: 'private',
      handler: (req, reply) => afterAccrual(deps, () => handler(req, reply)) });
  };
  const fmt = (cur: number, v: bigint): string => formatScaled(v, ex().definition.currencies[cur]!.scale, 18);

  get('accounts', (req, reply) => {
    const uid = targetUid(deps, req);
    if (uid < 0) return reply.error(uid);
    const only = req.query.has('currency') ? currencyList(ex(), req, 'currency', true, 100) : undefined;
    if (typeof only === 'number') return reply.error(only);
    liquidate(deps, uid, () => reply.json(200, accountView(ex(), uid, deps.gateway.clock.nowUs(), only)));
  });

  const borrowables = (uid: number, list: readonly number[]): { currency: string; amount: string }[] => {
    const holdings = holdingsOf(ex(), uid);
    return list.map((cur) => ({ currency: ex().currencies[cur]!, amount: fmt(cur, borrowableOf(ex(), uid, cur, holdings)) }));
  };
  const transferables = (uid: number, list: readonly number[]): { currency: string; amount: string }[] => {
    const holdings = holdingsOf(ex(), uid);
    const fig = figuresOf(ex(), holdings);
    const mode = ex().unified.modeOf(uid);
    return list.map((cur) => ({ currency: ex().currencies[cur]!, amount: fmt(cur, transferable(mode, holdings[cur]!, fig)) }));
  };
  const single = (name: string, compute: typeof borrowables) => (req: ApiRequest, reply: Reply): void => {
    const list = currencyList(ex(), req, name, true, 1);
    if (typeof list === 'number') return reply.error(list, list === ResultCode.InvalidParam ? `one ${name} only` : undefined);
    reply.json(200, compute(req.uid, list)[0]);
  };
  const batch = (max: number, compute: typeof borrowables) => (req: ApiRequest, reply: Reply): void => {
    const list = currencyList(ex(), req, 'currencies', true, max);
    if (typeof list === 'number') return reply.error(list, list === ResultCode.InvalidParam ? `at most ${max} currencies` : undefined);
    reply.json(200, compute(req.uid, list));
  };
  get('borrowable', single('currency', borrowables));
  get('batch_borrowable', batch(10, borrowables));
  get('transferable', single('currency', transferables));
  get('transferables', batch(100, transferables));

  get('estimate_rate', (req, reply) => {
    const list = currencyList(ex(), req, 'currencies', true, 10);
    if (typeof list === 'number') return reply.error(list);
    const out: Record<string, string> = {};
    for (const cur of list) {
      const code = ex().currencies[cur]!;
      out[code] = formatScaled(ex().unified.params.currencies.get(code)!.hourlyRate, 12, 12);
    }
    reply.json(200, out);
  });

  get('risk_units', (req, reply) => {
    const U = ex().unified;
    if (U.modeOf(req.uid) !== UnifiedMode.Portfolio) return reply.error(ResultCode.InvalidParam, 'risk units exist in portfolio mode only');
    const holdings = holdingsOf(ex(), req.uid);
    const fig = figuresOf(ex(), holdings);
    const P = U.params;
    // Option positions add their greeks to their base currency's unit (display; gate/options-shapes.ts).
    const greeks = optionsGreeksByBase(ex(), req.uid, deps.gateway.clock.nowUs());
    const g = (code: string, k: 'gamma' | 'theta' | 'vega'): string => greeks.get(code)?.[k].toFixed(8) ?? '0';
    const units = holdings.filter((h) => h.available + h.freeze + h.borrowed + h.interest > 0n || greeks.has(h.code)).map((h) => {
      const f = fig.currencies.get(h.code)!;
      const optionDelta = greeks.get(h.code)?.delta ?? 0;
      const spotDelta = formatScaled(f.equity, h.scale, h.scale);
      return {
        symbol: h.code, spot_in_use: formatScaled(h.freeze, h.scale, h.scale),
        maintain_margin: usd((f.liabUsd * P.mmrPpm) / 1_000_000n), initial_margin: usd((f.liabUsd * P.imrPpm) / 1_000_000n),
        delta: optionDelta === 0 ? spotDelta : (Number(spotDelta) + optionDelta).toFixed(8), gamma: g(h.code, 'gamma'),
        theta: g(h.code, 'theta'), vega: g(h.code, 'vega'),
      };
    });
    reply.json(200, { user_id: req.uid, spot_hedge: (U.settingsOf(req.uid) & UnifiedSetting.SpotHedge) !== 0, risk_units: units });
  });

  router.add({ method: 'GET', pattern: '/api/v4/unified/currency_discount_tiers', access: { kind: 'public' }, limit: 'public',
    handler: (_req, reply) => {
    reply.json(200, [...ex().unified.params.currencies].map(([currency, cp]) => {
      let lo = 0n;
      return {
        currency,
        discount_tiers: cp.tiers.map((t, i) => {
          const row = { tier: String(i + 1), discount: formatScaled(t.ppm, 6, 6), lower_limit: usd(lo), upper_limit: t.upTo === null ? '+' : usd(t.upTo) };
          if (t.upTo !== null) lo = t.upTo;
          return row;
        }),
      };
    }));
    } });
}

