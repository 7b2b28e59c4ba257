/**
 * The options switches of the simulator's control plane (not Gate's API; token or loopback like every /sim/
 * route, see sim-access). They need the options services (options.clock enabled); without them the POSTs answer
 * 400 INVALID_PARAM_VALUE.
 *   POST /sim/options/index       {underlying, index: "61000" | null} → sets (or clears: back to its spot source) the
 *                                                                       underlying's index override; the index, the
 *                                                                       marks and a liquidation scan follow at once
 *   POST /sim/options/liquidate   {}                 → one pass now (index, marks, liquidation); answers the
 *                                                       liquidations it made [{uid, contract, size, price, order_id}]
 *   GET  /sim/options/insurance                      → {USDT: "…"}: each settle currency's options insurance fund
 *                                                       (Gate's options API shows none)
 *   GET  /sim/options/liquidations?limit=            → the liquidation rows, newest first (renderOptionsLiquidation)
 * Bad input answers its label and changes nothing.
 */
import { formatSigned } from '../../core/futures/futures-math.js';
import { ResultCode } from '../../core/result-code.js';
import { parseUnits } from '../../core/units.js';
import { optionsServicesOf } from '../../engine/options/options-services.js';
import { parseUnderlying } from '../../gate/options-request.js';
import { renderOptionsLiquidation } from '../../gate/options-shapes.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Handler, Router } from '../router.js';
import { intParam } from './common.js';

const SIM = { kind: 'sim' } as const;

export function registerSimOptionsRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const post = (path: string, handler: Handler): void => { router.add({ method: 'POST', pattern: `/sim/options/${path}`, access: SIM, limit: 'public', handler }); };
  const get = (path: string, handler: Handler): void => { router.add({ method: 'GET', pattern: `/sim/options/${path}`, access: SIM, limit: 'public', handler }); };
  /** Replies 500 when a switch's promise fails (an engine stop, a bug). */
  const guard = (p: Promise<void>, reply: Reply, what: string): void => {
    p.catch((e: unknown) => {
      console.error(`ringmatch: ${what} failed:`, e);
      reply.json(500, { label: 'SERVER_ERROR', message: 'Internal server error' });
    });
  };

  post('index', (req, reply) => {
    const body = bodyObject(req) ?? {};
    const ui = parseUnderlying(ex(), body.underlying);
    if (ui < 0) return reply.error(ui);
    if (!('index' in body)) return reply.error(ResultCode.MissingParam, 'index is required (null clears the override)');
    const u = ex().options.underlyings[ui]!;
    const ticks = body.index === null ? null : parseUnits(body.index, u.priceScale);
    if (ticks !== null && (ticks <= 0 || ticks % u.tick !== 0)) return reply.error(ResultCode.InvalidParam, 'index must be a positive price on order_price_round');
    const services = optionsServicesOf(ex());
    if (services === undefined) return reply.error(ResultCode.InvalidParam, 'the options services are not running');
    guard(services.setIndexPrice(ui, ticks).then(() => {
      reply.json(200, { underlying: u.name, index_price: formatSigned(BigInt(ex().options.index[ui]!), u.priceScale) });
    }), reply, 'POST /sim/options/index');
  });

  post('liquidate', (_req, reply) => {
    const services = optionsServicesOf(ex());
    if (services === undefined) return reply.error(ResultCode.InvalidParam, 'the options services are not running');
    const before = ex().options.liquidations.at(-1);
    guard(services.runNow().then(() => {
      const L = ex().options.liquidations;
      let i = L.length;
      while (i > 0 && L[i - 1] !== before) i--;
      reply.json(200, L.slice(i).map((r) => renderOptionsLiquidation(ex(), r)));
    }), reply, 'POST /sim/options/liquidate');
  });

  get('insurance', (_req, reply) => {
    const out: Record<string, string> = {};
    for (const cur of new Set(ex().options.settleCur)) {
      out[ex().currencies[cur]!] = formatSigned(ex().ledger.options.insuranceFund(cur), ex().definition.currencies[cur]!.scale);
    }
    reply.json(200, out);
  });

  get('liquidations', (req, reply) => {
    const limit = intParam(req, 'limit', 100, 1, 1000);
    if (limit < 0) return reply.error(limit);
    const L = ex().options.liquidations;
    reply.json(200, L.slice(-limit).reverse().map((r) => renderOptionsLiquidation(ex(), r)));
  });
}
