/**
 * Options market maker protection (permission group `options`, rate class `private`):
 *   GET  /options/mmp?underlying=      [OptionsMMP] of the user (one per underlying with settings)
 *   POST /options/mmp                  {underlying, window, frozen_period, qty_limit, delta_limit} → OptionsMMP
 *   POST /options/mmp/reset            {underlying} → OptionsMMP (unfrozen: trigger_time_ms and frozen_until_ms 0)
 * Settings and freezes are engine state (core/options/options-mmp.ts: OptionsSetMmp, OptionsResetMmp, journaled);
 * orders placed with `mmp: true` count towards them and are refused (RISK_REJECT) while frozen.
 * window: ms, 0..5000 (0 disables); frozen_period: ms, 0..86400000 (0: frozen until reset); qty_limit and
 * delta_limit: positive decimals with at most 2 decimals (numbers or strings).
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { formatSigned } from '../../core/futures/futures-math.js';
import { MMP_FROZEN_MAX, MMP_LIMIT_MAX, MMP_WINDOW_MAX, type MmpState } from '../../core/options/options-mmp.js';
import { ResultCode } from '../../core/result-code.js';
import { parseUnderlying } from '../../gate/options-request.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';

const OPTIONS = { kind: 'private', group: 'options' } as const;

/** A positive decimal with at most 2 decimals in hundredths, or -1. */
function hundredths(v: unknown): number {
  const t = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  if (typeof t !== 'string' || !/^[0-9]{1,12}(\.[0-9]{1,2})?$/.test(t)) return -1;
  const [i, f = ''] = t.split('.') as [string, string | undefined];
  const n = Number(i) * 100 + Number(f.padEnd(2, '0'));
  return n > 0 && n <= MMP_LIMIT_MAX ? n : -1;
}

const ms = (v: unknown, max: number): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max ? v : -1);

/** Gate's OptionsMMP of a state. */
function renderMmp(underlying: string, m: MmpState): Record<string, unknown> {
  return { underlying, window: m.window, frozen_period: m.frozenPeriod, qty_limit: formatSigned(BigInt(m.qtyLimit), 2),
    delta_limit: formatSigned(BigInt(m.deltaLimit), 2), trigger_time_ms: m.triggerMs, frozen_until_ms: m.frozenUntilMs };
}

export function registerOptionsMmpRoutes(router: Router, deps: ApiDeps): void {
  const ex = (): Exchange => deps.gateway.exchange;
  const submit = (c: Command, ui: number, uid: number, reply: { error: (c: number) => void; json: (s: number, b: unknown) => void }): void => {
    deps.gateway.submit(c, (code) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      const S = ex().options;
      reply.json(200, renderMmp(S.underlyings[ui]!.name, S.mmpOf(uid, ui)!));
    });
  };

  router.add({ method: 'GET', pattern: '/api/v4/options/mmp', access: OPTIONS, limit: 'private', handler: (req, reply) => {
    const u = queryParam(req, 'underlying');
    const only = u === undefined || u === '' ? -1 : parseUnderlying(ex(), u);
    if (only < -1) return reply.error(only);
    const S = ex().options;
    const out: Record<string, unknown>[] = [];
    S.underlyings.forEach((x, ui) => {
      const m = only >= 0 && ui !== only ? undefined : S.mmpOf(req.uid, ui);
      if (m !== undefined) out.push(renderMmp(x.name, m));
    });
    reply.json(200, out);
  } });

  router.add({ method: 'POST', pattern: '/api/v4/options/mmp', access: OPTIONS, limit: 'private', handler: (req, reply) => {
    const body = bodyObject(req);
    if (body === undefined) return reply.error(ResultCode.InvalidBody, 'MMP body required');
    const ui = parseUnderlying(ex(), body.underlying);
    if (ui < 0) return reply.error(ui);
    for (const k of ['window', 'frozen_period', 'qty_limit', 'delta_limit']) if (body[k] === undefined || body[k] === null) return reply.error(ResultCode.MissingParam, `${k} is required`);
    const window = ms(body.window, MMP_WINDOW_MAX);
    const frozen = ms(body.frozen_period, MMP_FROZEN_MAX);
    const qty = hundredths(body.qty_limit);
    const delta = hundredths(body.delta_limit);
    if (window < 0 || frozen < 0 || qty < 0 || delta < 0) return reply.error(ResultCode.InvalidParam);
    const c = new Command();
    c.type = CommandType.OptionsSetMmp; c.uid = req.uid; c.sub = ui;
    c.price = window; c.amount = frozen; c.iceberg = qty; c.toUid = delta;
    submit(c, ui, req.uid, reply);
  } });

  router.add({ method: 'POST', pattern: '/api/v4/options/mmp/reset', access: OPTIONS, limit: 'private', handler: (req, reply) => {
    const body = bodyObject(req);
    if (body === undefined) return reply.error(ResultCode.InvalidBody, 'MMP reset body required');
    const ui = parseUnderlying(ex(), body.underlying);
    if (ui < 0) return reply.error(ui);
    if (ex().options.mmpOf(req.uid, ui) === undefined) return reply.error(ResultCode.InvalidParam, 'no MMP settings for this underlying');
    const c = new Command();
    c.type = CommandType.OptionsResetMmp; c.uid = req.uid; c.sub = ui;
    submit(c, ui, req.uid, reply);
  } });
}
