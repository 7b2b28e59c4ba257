/**
 * Unified borrowing (permission group `unified`):
 *   POST /unified/loans           {currency, type: borrow|repay, amount, repaid_all?, text?} → {tran_id}   15 / 10 s
 *   GET  /unified/loans           ?currency, type (platform|margin), page, limit (1..100) → what is owed
 *   GET  /unified/loan_records    ?type (borrow|repay), currency, page, limit → borrow and repay records
 *   GET  /unified/interest_records ?currency, from, to (s), type, page, limit → hourly interest records
 * Loans here are of type `margin` (the records' default); `type=platform` lists none. A borrow or repay is one
 * UnifiedBorrow / UnifiedRepay command (checks and codes in core/unified/unified-commands.ts); `tran_id` is
 * the id of its loan record. Lists are newest first; times are ms (`create_time`).
 */
import { CommandType } from '../../core/command.js';
import { ResultCode } from '../../core/result-code.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import { formatScaled } from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, bodyObject, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { intParam, timeParamUs } from './common.js';
import { afterAccrual, currencyList, UNIFIED } from '../unified/unified-view.js';

const TEXT = /^[0-9A-Za-z_.-]{1,64}$/;

export function registerUnifiedLoanRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const fmt = (cur: number, v: bigint): string => formatScaled(v, ex().definition.currencies[cur]!.scale, 18);

  router.add({ method: 'POST', pattern: '/api/v4/unified/loans', access: UNIFIED, limit: 'unified-loans',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Body {currency, type, amount} required');
      for (const k of ['currency', 'type', 'amount']) {
        if (body[k] === undefined || body[k] === null || body[k] === '') return reply.error(ResultCode.MissingParam, `${k} is required`);
      }
      if (typeof body.currency !== 'string') return reply.error(ResultCode.InvalidParam, 'currency must be a string');
      const cur = ex().currencyIndex(body.currency.toUpperCase());
      if (cur < 0) return reply.error(ResultCode.CurrencyNotFound);
      if (body.type !== 'borrow' && body.type !== 'repay') return reply.error(ResultCode.InvalidParam, 'type must be borrow or repay');
      const all = body.repaid_all;
      if (all !== undefined && all !== null && typeof all !== 'boolean') return reply.error(ResultCode.InvalidParam, 'repaid_all must be true or false');
      const text = body.text;
      if (text !== undefined && text !== null && text !== '' && (typeof text !== 'string' || !TEXT.test(text))) {
        return reply.error(ResultCode.InvalidParam, 'text must be 1 to 64 of letters, digits, \'_\', \'.\' and \'-\'');
      }
      const repayAll = body.type === 'repay' && all === true;
      let units = 0n;
      if (!repayAll) {
        if (typeof body.amount !== 'string') return reply.error(ResultCode.InvalidParam, 'amount must be a decimal string');
        const parsed = ex().ledger.parse(ex().currencies[cur]!, body.amount);
        if (typeof parsed === 'number' && parsed < 0) return reply.error(parsed, 'amount must be above 0 within the currency\'s decimals');
        units = BigInt(parsed);
      }
      const borrow = body.type === 'borrow';
      afterAccrual(deps, () => {
        const c = deps.cmd.clear();
        c.type = borrow ? CommandType.UnifiedBorrow : CommandType.UnifiedRepay;
        c.uid = req.uid; c.currency = cur; c.side = LoanKind.Manual;
        if (units > BigInt(Number.MAX_SAFE_INTEGER)) c.text = units.toString();
        else c.amount = Number(units);
        deps.gateway.submit(c, (code) => {
          if (code !== ResultCode.Ok) return reply.error(code);
          reply.json(200, { tran_id: ex().unified.lastRecordId });
        });
      });
    } });

  /** page and limit (1..100, default 100) of a list query, or a negative code. */
  const paging = (req: ApiRequest): [number, number] | ResultCode => {
    const page = intParam(req, 'page', 1, 1, 100_000);
    const limit = intParam(req, 'limit', 100, 1, 100);
    if (page < 0) return page as ResultCode;
    if (limit < 0) return limit as ResultCode;
    return [page, limit];
  };
  const list = (path: string, handler: (req: ApiRequest, reply: Reply, only: ReadonlySet<number>, page: number, limit: number) => void): void => {
    router.add({ method: 'GET', pattern: `/api/v4/unified/${path}`, access: UNIFIED, limit: 'private',
      handler: (req, reply) => afterAccrual(deps, () => {
        const p = paging(req);
        if (typeof p === 'number') return reply.error(p);
        const only = currencyList(ex(), req, 'currency', false, 100);
        if (typeof only === 'number') return reply.error(only);
        handler(req, reply, new Set(only), p[0], p[1]);
      }) });
  };
  const loanType = (req: ApiRequest): string | ResultCode => {
    const t = queryParam(req, 'type');
    if (t === undefined || t === '') return 'margin';
    return t === 'margin' || t === 'platform' ? t : ResultCode.InvalidParam;
  };
  const pageOf = <T>(rows: readonly T[], page: number, limit: number): T[] => rows.slice((page - 1) * limit, page * limit);

  list('loans', (req, reply, only, page, limit) => {
    const type = loanType(req);
    if (typeof type === 'number') return reply.error(type, 'type must be platform or margin');
    const U = ex().unified;
    const rows = type === 'platform' ? [] : ex().currencies.flatMap((code, cur) => {
      const [b, i] = ex().ledger.loanOf(req.uid, cur);
      if (!only.has(cur) || b + i === 0n) return [];
      const mine = U.loans.filter((r) => r.uid === req.uid && r.cur === cur && r.market === -1);
      const firstBorrow = mine.find((r) => r.borrow);
      return [{
        currency: code, currency_pair: '', amount: fmt(cur, b + i), type: 'margin',
        create_time: Math.floor((firstBorrow?.time ?? 0) / 1000), update_time: Math.floor((mine.at(-1)?.time ?? 0) / 1000),
      }];
    });
    reply.json(200, pageOf(rows, page, limit));
  });

  list('loan_records', (req, reply, only, page, limit) => {
    const t = queryParam(req, 'type');
    if (t !== undefined && t !== '' && t !== 'borrow' && t !== 'repay') return reply.error(ResultCode.InvalidParam, 'type must be borrow or repay');
    const rows = ex().unified.loans.filter((r) => r.uid === req.uid && r.market === -1 && only.has(r.cur)
      && (t === undefined || t === '' || (t === 'borrow') === r.borrow)).reverse();
    reply.json(200, pageOf(rows, page, limit).map((r) => ({
      id: r.id, type: r.borrow ? 'borrow' : 'repay',
      repayment_type: r.borrow ? 'none' : r.kind === LoanKind.Auto ? 'auto_repay' : 'manual_repay',
      ...(r.borrow ? { borrow_type: r.kind === LoanKind.Auto ? 'auto_borrow' : 'manual_borrow' } : {}),
      currency_pair: '', currency: ex().currencies[r.cur]!, amount: fmt(r.cur, r.amount), create_time: Math.floor(r.time / 1000),
    })));
  });

  list('interest_records', (req, reply, only, page, limit) => {
    const type = loanType(req);
    if (typeof type === 'number') return reply.error(type, 'type must be platform or margin');
    const from = timeParamUs(req, 'from', 0);
    const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
    if (from < 0 || to < 0) return reply.error(ResultCode.InvalidParam, 'from and to are Unix seconds');
    const rows = type === 'platform' ? [] : ex().unified.interest.filter((r) => r.uid === req.uid && r.market === -1 && only.has(r.cur)
      && r.time >= from && r.time <= to).reverse();
    reply.json(200, pageOf(rows, page, limit).map((r) => ({
      currency: ex().currencies[r.cur]!, currency_pair: '', actual_rate: formatScaled(r.rate, 12, 12),
      interest: fmt(r.cur, r.interest), status: r.paid ? 1 : 0, type: 'margin', create_time: Math.floor(r.time / 1000),
    })));
  });
}
