/**
 * Options market-maker protection settings (permission group `options`, rate class `private`):
 *   GET  /options/mmp?underlying=      [OptionsMMP] of the user (one per underlying set)
 *   POST /options/mmp                  {underlying, window, frozen_period, qty_limit, delta_limit} → OptionsMMP
 *   POST /options/mmp/reset            {underlying} → OptionsMMP (unfreezes: trigger and frozen-until 0)
 * Each setting is a journaled record `options-mmp/<uid>/<underlying>` (engine/records.ts), so it survives a
 * restart and replays with the state. The simulator stores and reports the settings; it does not freeze quotes
 * (no order carries the `mmp` flag here), so `trigger_time_ms` and `frozen_until_ms` stay 0 (docs/derivatives.md).
 * window and frozen_period are ms (window 1..5000, 0 disables; frozen_period ≥ 0), qty_limit and delta_limit
 * positive decimals.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import { putRecords } from '../../engine/records.js';
import { parseUnderlying } from '../../gate/options-request.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';

const OPTIONS = { kind: 'private', group: 'options' } as const;
const PREFIX = 'options-mmp/';

interface Mmp { underlying: string; window: number; frozen_period: number; qty_limit: string; delta_limit: string;
  trigger_time_ms: number; frozen_until_ms: number }

const keyOf = (uid: number, underlying: string): string => `${PREFIX}${uid}/${underlying}`;
const decimal = (v: unknown): string | undefined => {
  const t = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  return typeof t === 'string' && /^[0-9]{1,12}(\.[0-9]{1,8})?$/.test(t) && !/^0+(\.0*)?$/.test(t) ? t : undefined;
};
const ms = (v: unknown, max: number): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max ? v : -1);

function read(ex: Exchange, uid: number, underlying: string): Mmp | undefined {
  const row = ex.records.get(keyOf(uid, underlying));
  return row === undefined || row.value === 'null' ? undefined : JSON.parse(row.value) as Mmp;
}

export function registerOptionsMmpRoutes(router: Router, deps: ApiDeps): void {
  const ex = (): Exchange => deps.gateway.exchange;

  router.add({ method: 'GET', pattern: '/api/v4/options/mmp', access: OPTIONS, limit: 'private', handler: (req, reply) => {
    const u = queryParam(req, 'underlying');
    const only = u === undefined || u === '' ? -1 : parseUnderlying(ex(), u);
    if (only < -1) return reply.error(only);
    const out: Mmp[] = [];
    ex().options.underlyings.forEach((x, ui) => {
      const m = only >= 0 && ui !== only ? undefined : read(ex(), req.uid, x.name);
      if (m !== undefined) out.push(m);
    });
    reply.json(200, out);
  } });

  router.add({ method: 'POST', pattern: '/api/v4/options/mmp', access: OPTIONS, limit: 'private', handler: (req, reply) => {
    const body = bodyObject(req);
    if (body === undefined) return reply.error(ResultCode.InvalidBody, 'MMP body required');
    const ui = parseUnderlying(ex(), body.underlying);
    if (ui < 0) return reply.error(ui);
    for (const k of ['window', 'frozen_period', 'qty_limit', 'delta_limit']) if (body[k] === undefined || body[k] === null) return reply.error(ResultCode.MissingParam, `${k} is required`);
    const window = ms(body.window, 5000);
    const frozen = ms(body.frozen_period, 86_400_000);
    const qty = decimal(body.qty_limit);
    const delta = decimal(body.delta_limit);
    if (window < 0 || frozen < 0 || qty === undefined || delta === undefined) return reply.error(ResultCode.InvalidParam);
    const underlying = ex().options.underlyings[ui]!.name;
    const m: Mmp = { underlying, window, frozen_period: frozen, qty_limit: qty, delta_limit: delta, trigger_time_ms: 0, frozen_until_ms: 0 };
    putRecords(deps.gateway, { [keyOf(req.uid, underlying)]: m }, (code) => (code === ResultCode.Ok ? reply.json(200, m) : reply.error(code)));
  } });

  router.add({ method: 'POST', pattern: '/api/v4/options/mmp/reset', access: OPTIONS, limit: 'private', handler: (req, reply) => {
    const body = bodyObject(req);
    if (body === undefined) return reply.error(ResultCode.InvalidBody, 'MMP reset body required');
    const ui = parseUnderlying(ex(), body.underlying);
    if (ui < 0) return reply.error(ui);
    const underlying = ex().options.underlyings[ui]!.name;
    const m = read(ex(), req.uid, underlying);
    if (m === undefined) return reply.error(ResultCode.InvalidParam, 'no MMP settings for this underlying');
    const reset: Mmp = { ...m, trigger_time_ms: 0, frozen_until_ms: 0 };
    putRecords(deps.gateway, { [keyOf(req.uid, underlying)]: reset }, (code) => (code === ResultCode.Ok ? reply.json(200, reset) : reply.error(code)));
  } });
}
