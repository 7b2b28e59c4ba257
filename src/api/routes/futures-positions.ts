/**
 * Perpetual-futures position routes (permission group `futures`); settings travel in the query, as on Gate:
 *   GET  /futures/{settle}/positions                        holding=true (non-empty only), limit ≤ 1000, offset; the
 *                                                            positions of the current mode (single, or both dual legs)
 *   GET  /futures/{settle}/positions/{contract}             single mode (POSITION_DUAL_MODE in dual mode)
 *   POST /futures/{settle}/positions/{contract}/margin      change= (signed decimal; isolated only)
 *   POST /futures/{settle}/positions/{contract}/leverage    leverage= (0 = cross), cross_leverage_limit=
 *   POST /futures/{settle}/positions/{contract}/risk_limit  risk_limit=
 *   POST /futures/{settle}/dual_mode                        dual_mode=true|false → FuturesAccount
 *   GET  /futures/{settle}/dual_comp/positions/{contract}   [long, short] in dual mode
 *   POST /futures/{settle}/dual_comp/positions/{contract}/margin|leverage|risk_limit  (margin: dual_side=
 *                                                            dual_long|dual_short) → [long, short]
 * Every change is one engine command (core/futures/futures-commands.ts), journaled before the answer; the
 * answer is the position (or both legs) after it.
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { parseSignedUnits } from '../../core/futures/futures-math.js';
import { PositionSlot } from '../../core/futures/position-store.js';
import { ResultCode } from '../../core/result-code.js';
import { parseContract } from '../../gate/futures-request.js';
import { renderEmptyPosition, renderFuturesAccount, renderPosition } from '../../gate/futures-position-shapes.js';
import type { SizeForm } from '../../gate/futures-shapes.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { intParam, paginationHeaders } from './common.js';
import { accountCur, F, FUTURES, settleOf, sizeForm } from './futures-common.js';

/** A whole number given as a decimal ("10", "10.0"), or -1 when malformed. */
function wholeParam(v: string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  return /^[0-9]{1,6}(\.0*)?$/.test(v) ? Number.parseInt(v, 10) : -1;
}

/** A position of (uid, contract `ci`, slot): its row's rendering, or the defaults of an untouched one. */
export function positionOf(ex: Exchange, uid: number, ci: number, slot: number, form: SizeForm): Record<string, unknown> {
  const row = ex.futures.positions.find(uid, ex.futures.marketOf[ci]!, slot);
  return row >= 0 ? renderPosition(ex, row, form) : renderEmptyPosition(ex, uid, ci, slot, form);
}

export function registerFuturesPositionRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  /** The request's (settle currency, contract index), or a negative code; `dual` true / false requires that mode. */
  const target = (req: ApiRequest, dual: boolean): { cur: number; ci: number } | number => {
    const cur = accountCur(ex(), req);
    if (cur < 0) return cur;
    const ci = parseContract(ex(), settleOf(req), req.params[1]);
    if (ci < 0) return ci;
    if (ex().futures.isDual(req.uid, cur) !== dual) return dual ? ResultCode.InvalidParam : ResultCode.PositionDualMode;
    return { cur, ci };
  };

  const slotsOf = (dual: boolean): number[] => (dual ? [PositionSlot.DualLong, PositionSlot.DualShort] : [PositionSlot.Single]);

  /** Answers the position(s) of `ci` after a command (an array in dual mode). */
  const answer = (req: ApiRequest, reply: Reply, ci: number, dual: boolean): void => {
    const form = sizeForm(req);
    const out = slotsOf(dual).map((slot) => positionOf(ex(), req.uid, ci, slot, form));
    reply.json(200, dual ? out : out[0]);
  };

  /** Submits `cmd` and answers the position(s), or the rejection. */
  const run = (req: ApiRequest, reply: Reply, ci: number, dual: boolean, cmd: Command): void => {
    deps.gateway.submit(cmd, (code) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      answer(req, reply, ci, dual);
    });
  };

  router.add({ method: 'GET', pattern: `${F}/positions`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const holding = queryParam(req, 'holding');
      if (holding !== undefined && holding !== '' && holding !== 'true' && holding !== 'false') return reply.error(ResultCode.InvalidParam, 'holding must be true or false');
      const limit = intParam(req, 'limit', 1000, 1, 1000);
      const offset = intParam(req, 'offset', 0, 0, 1_000_000);
      for (const v of [limit, offset]) if (v < 0) return reply.error(v);
      const S = ex().futures;
      const P = S.positions;
      // The positions of the account's current mode: single rows, or both legs in dual mode.
      const dual = S.isDual(req.uid, cur);
      const rows = P.rowsOf(req.uid).filter((r) => S.acct[S.contractOf(P.market[r]!)] === cur
        && (P.slot[r] !== PositionSlot.Single) === dual && (holding !== 'true' || P.size[r] !== 0));
      const form = sizeForm(req);
      reply.json(200, rows.slice(offset, offset + limit).map((r) => renderPosition(ex(), r, form)), paginationHeaders(limit, offset, rows.length));
    } });

  for (const dual of [false, true]) {
    const base = dual ? `${F}/dual_comp/positions/{contract}` : `${F}/positions/{contract}`;

    router.add({ method: 'GET', pattern: base, access: FUTURES, limit: 'futures',
      handler: (req, reply) => {
        const t = target(req, dual);
        if (typeof t === 'number') return reply.error(t, t === ResultCode.InvalidParam ? 'the account is not in dual mode' : undefined);
        answer(req, reply, t.ci, dual);
      } });

    router.add({ method: 'POST', pattern: `${base}/margin`, access: FUTURES, limit: 'futures',
      handler: (req, reply) => {
        const t = target(req, dual);
        if (typeof t === 'number') return reply.error(t, t === ResultCode.InvalidParam ? 'the account is not in dual mode' : undefined);
        const change = queryParam(req, 'change');
        if (change === undefined || change === '') return reply.error(ResultCode.MissingParam, 'change is required');
        const units = parseSignedUnits(change, ex().futures.contracts[t.ci]!.settleScale);
        if (units === undefined || units === 0n) return reply.error(ResultCode.InvalidParam, 'change must be a non-zero decimal of the settle currency');
        let slot: number = PositionSlot.Single;
        if (dual) {
          const side = queryParam(req, 'dual_side');
          if (side !== 'dual_long' && side !== 'dual_short') return reply.error(ResultCode.InvalidParam, 'dual_side must be dual_long or dual_short');
          slot = side === 'dual_long' ? PositionSlot.DualLong : PositionSlot.DualShort;
        }
        const cmd = deps.cmd.clear();
        cmd.type = CommandType.FuturesUpdateMargin;
        cmd.uid = req.uid; cmd.market = ex().futures.marketOf[t.ci]!; cmd.sub = slot; cmd.side = units > 0n ? 1 : 2;
        cmd.text = (units < 0n ? -units : units).toString();
        run(req, reply, t.ci, dual, cmd);
      } });

    router.add({ method: 'POST', pattern: `${base}/leverage`, access: FUTURES, limit: 'futures',
      handler: (req, reply) => {
        const t = target(req, dual);
        if (typeof t === 'number') return reply.error(t, t === ResultCode.InvalidParam ? 'the account is not in dual mode' : undefined);
        const text = queryParam(req, 'leverage');
        if (text === undefined || text === '') return reply.error(ResultCode.MissingParam, 'leverage is required');
        const leverage = wholeParam(text, 0);
        const limit = wholeParam(queryParam(req, 'cross_leverage_limit'), 0);
        if (leverage < 0 || limit < 0) return reply.error(ResultCode.InvalidParam, 'leverage and cross_leverage_limit must be whole numbers');
        const cmd = deps.cmd.clear();
        cmd.type = CommandType.FuturesSetLeverage;
        cmd.uid = req.uid; cmd.market = ex().futures.marketOf[t.ci]!; cmd.price = leverage; cmd.amount = limit;
        run(req, reply, t.ci, dual, cmd);
      } });

    router.add({ method: 'POST', pattern: `${base}/risk_limit`, access: FUTURES, limit: 'futures',
      handler: (req, reply) => {
        const t = target(req, dual);
        if (typeof t === 'number') return reply.error(t, t === ResultCode.InvalidParam ? 'the account is not in dual mode' : undefined);
        const text = queryParam(req, 'risk_limit');
        if (text === undefined || text === '') return reply.error(ResultCode.MissingParam, 'risk_limit is required');
        const units = parseSignedUnits(text, ex().futures.contracts[t.ci]!.settleScale);
        if (units === undefined || units <= 0n) return reply.error(ResultCode.InvalidParam, 'risk_limit must be a positive decimal');
        const cmd = deps.cmd.clear();
        cmd.type = CommandType.FuturesSetRiskLimit;
        cmd.uid = req.uid; cmd.market = ex().futures.marketOf[t.ci]!; cmd.text = units.toString();
        run(req, reply, t.ci, dual, cmd);
      } });
  }

  router.add({ method: 'POST', pattern: `${F}/dual_mode`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const v = queryParam(req, 'dual_mode');
      if (v === undefined || v === '') return reply.error(ResultCode.MissingParam, 'dual_mode is required');
      if (v !== 'true' && v !== 'false') return reply.error(ResultCode.InvalidParam, 'dual_mode must be true or false');
      const cmd = deps.cmd.clear();
      cmd.type = CommandType.FuturesSetDualMode;
      cmd.uid = req.uid; cmd.currency = cur; cmd.side = v === 'true' ? 1 : 0;
      deps.gateway.submit(cmd, (code) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, renderFuturesAccount(ex(), req.uid, cur));
      });
    } });
}
