/**
 * Isolated-margin borrowing, the replacements of section 4.7 (permission group `margin`; the pair lists are
 * public). Loans are on the user's Margin account of the pair, lent by the platform's lending pool:
 *   GET  /margin/uni/currency_pairs[/{pair}]  → {currency_pair, base_min_borrow_amount, quote_min_borrow_amount, leverage}
 *   GET  /margin/currency_pairs     (public; deprecated by Gate, still served, read by ccxt's loadMarkets) → every pair:
 *                                   {id, base, quote, leverage (number), min_base_amount, min_quote_amount (the
 *                                   minimum loans), max_quote_amount (the quote's max_borrow, omitted when none), status: 1}
 *   POST /margin/uni/loans          {currency, currency_pair, type: borrow|repay, amount, repaid_all?} → 204   15 / 10 s
 *   GET  /margin/uni/loans          ?currency_pair, currency, page, limit (1..100) → what each pair account owes
 *   GET  /margin/uni/loan_records   ?type (borrow|repay), currency, currency_pair, page, limit → records
 *   GET  /margin/uni/interest_records ?currency_pair, currency, from, to (s), page, limit → hourly interest
 *   GET  /margin/uni/borrowable     ?currency, currency_pair (both required) → {currency, currency_pair, borrowable}
 *   GET  /earn/uni/currencies[/{currency}] (public) → what the lending pool lends
 * A borrow or repay is one MarginBorrow / MarginRepay command (checks and codes in core/margin/); reads first
 * accrue interest that is due. Lists are newest first; times in seconds (`create_time`, as Gate's margin lists).
 */
import { spotMarketIndexes } from '../../core/exchange/exchange.js';
import { CommandType } from '../../core/command.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { marginBorrowableOf, pairCurrencies } from '../../core/margin/margin-account.js';
import { ResultCode } from '../../core/result-code.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import { formatScaled } from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, bodyObject, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { afterAccrual } from '../unified/unified-view.js';
import { intParam, optionalPair, timeParamUs } from './common.js';
import { startMarginLiquidator } from '../unified/margin-liquidator.js';

const MARGIN = { kind: 'private', group: 'margin' } as const;
const PUBLIC = { kind: 'public' } as const;

/** How often locked margin and cross-margin accounts are checked for liquidation (wall clock). */
const LIQUIDATION_PERIOD_MS = 1000;

export function registerMarginUniRoutes(router: Router, deps: ApiDeps): void {
  startMarginLiquidator(deps, LIQUIDATION_PERIOD_MS);
  const ex = () => deps.gateway.exchange;
  const fmt = (cur: number, v: bigint): string => formatScaled(v, ex().definition.currencies[cur]!.scale, 18);
  const params = () => ex().unified.params;
  const leverage = (): string => formatScaled(params().marginLeveragePpm, 6, 6);
  const minOf = (cur: number): string => fmt(cur, params().currencies.get(ex().currencies[cur]!)!.minBorrow);
  const pairRow = (m: number): Record<string, string> => {
    const [b, q] = pairCurrencies(ex(), m);
    return { currency_pair: ex().markets[m]!.id, base_min_borrow_amount: minOf(b), quote_min_borrow_amount: minOf(q), leverage: leverage() };
  };

  /** The deprecated MarginCurrencyPair of market `m` (see the module header). */
  const legacyPair = (m: number): Record<string, unknown> => {
    const [b, q] = pairCurrencies(ex(), m);
    const spec = ex().markets[m]!.spec;
    const maxBorrow = params().currencies.get(ex().currencies[q]!)!.maxBorrow;
    return { id: spec.id, base: spec.base, quote: spec.quote, leverage: Number(leverage()), min_base_amount: minOf(b),
      min_quote_amount: minOf(q), ...(maxBorrow === null ? {} : { max_quote_amount: fmt(q, maxBorrow) }), status: 1 };
  };
  router.add({ method: 'GET', pattern: '/api/v4/margin/currency_pairs', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, spotMarketIndexes(ex()).map(legacyPair)) });

  router.add({ method: 'GET', pattern: '/api/v4/margin/uni/currency_pairs', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, spotMarketIndexes(ex()).map(pairRow)) });
  router.add({ method: 'GET', pattern: '/api/v4/margin/uni/currency_pairs/{currency_pair}', access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const m = ex().marketIndex(req.params[0]!);
      if (m < 0) return reply.error(ResultCode.InvalidMarket);
      reply.json(200, pairRow(m));
    } });

  /** The pair (required) and its currency named by `currency`, or a code. */
  const pairAndCurrency = (pair: unknown, currency: unknown): [number, number] | ResultCode => {
    if (pair === undefined || pair === null || pair === '') return ResultCode.MissingParam;
    if (currency === undefined || currency === null || currency === '') return ResultCode.MissingParam;
    if (typeof pair !== 'string' || typeof currency !== 'string') return ResultCode.InvalidParam;
    const m = ex().marketIndex(pair.toUpperCase());
    if (m < 0) return ResultCode.InvalidMarket;
    const cur = ex().currencyIndex(currency.toUpperCase());
    if (cur < 0) return ResultCode.CurrencyNotFound;
    const [b, q] = pairCurrencies(ex(), m);
    return cur === b || cur === q ? [m, cur] : ResultCode.InvalidParam;
  };

  router.add({ method: 'POST', pattern: '/api/v4/margin/uni/loans', access: MARGIN, limit: 'unified-loans',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Body {currency, currency_pair, type, amount} required');
      const pc = pairAndCurrency(body.currency_pair, body.currency);
      if (typeof pc === 'number') return reply.error(pc, pc === ResultCode.InvalidParam ? 'currency must be the pair\'s base or quote' : undefined);
      const [m, cur] = pc;
      if (body.type !== 'borrow' && body.type !== 'repay') {
        return reply.error(body.type === undefined || body.type === '' ? ResultCode.MissingParam : ResultCode.InvalidParam, 'type must be borrow or repay');
      }
      const all = body.repaid_all;
      if (all !== undefined && all !== null && typeof all !== 'boolean') return reply.error(ResultCode.InvalidParam, 'repaid_all must be true or false');
      const repayAll = body.type === 'repay' && all === true;
      let units = 0n;
      if (!repayAll) {
        if (body.amount === undefined || body.amount === null || body.amount === '') return reply.error(ResultCode.MissingParam, 'amount is required');
        if (typeof body.amount !== 'string') return reply.error(ResultCode.InvalidParam, 'amount must be a decimal string');
        const parsed = ex().ledger.parse(ex().currencies[cur]!, body.amount);
        if (typeof parsed === 'number' && parsed < 0) return reply.error(parsed, 'amount must be above 0 within the currency\'s decimals');
        units = BigInt(parsed);
      }
      afterAccrual(deps, () => {
        const c = deps.cmd.clear();
        c.type = body.type === 'borrow' ? CommandType.MarginBorrow : CommandType.MarginRepay;
        c.uid = req.uid; c.market = m; c.currency = cur; c.side = LoanKind.Manual;
        if (units > BigInt(Number.MAX_SAFE_INTEGER)) c.text = units.toString();
        else c.amount = Number(units);
        deps.gateway.submit(c, (code) => (code === ResultCode.Ok ? reply.noContent() : reply.error(code)));
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/margin/uni/borrowable', access: MARGIN, limit: 'private',
    handler: (req, reply) => afterAccrual(deps, () => {
      const pc = pairAndCurrency(queryParam(req, 'currency_pair'), queryParam(req, 'currency'));
      if (typeof pc === 'number') return reply.error(pc);
      const [m, cur] = pc;
      reply.json(200, { currency: ex().currencies[cur]!, currency_pair: ex().markets[m]!.id, borrowable: fmt(cur, marginBorrowableOf(ex(), req.uid, m, cur)) });
    }) });

  /** Filters of a list query: pair (-1 all), currency (-1 all), page, limit; or a code. */
  interface Filter { readonly m: number; readonly cur: number; readonly page: number; readonly limit: number }
  const filter = (req: ApiRequest): Filter | ResultCode => {
    const m = optionalPair(ex(), req);
    if (m < -1) return m as ResultCode;
    const code = queryParam(req, 'currency');
    const cur = code === undefined || code === '' ? -1 : ex().currencyIndex(code.toUpperCase());
    if (code !== undefined && code !== '' && cur < 0) return ResultCode.CurrencyNotFound;
    const page = intParam(req, 'page', 1, 1, 100_000);
    const limit = intParam(req, 'limit', 100, 1, 100);
    if (page < 0) return page as ResultCode;
    if (limit < 0) return limit as ResultCode;
    return { m, cur, page, limit };
  };
  const list = (path: string, handler: (req: ApiRequest, reply: Reply, f: Filter) => void): void => {
    router.add({ method: 'GET', pattern: `/api/v4/margin/uni/${path}`, access: MARGIN, limit: 'private',
      handler: (req, reply) => afterAccrual(deps, () => {
        const f = filter(req);
        if (typeof f === 'number') return reply.error(f);
        handler(req, reply, f);
      }) });
  };
  const keep = (f: Filter, market: number, cur: number): boolean => market >= 0 && (f.m < 0 || f.m === market) && (f.cur < 0 || f.cur === cur);
  const pageOf = <T>(rows: readonly T[], f: Filter): T[] => rows.slice((f.page - 1) * f.limit, f.page * f.limit);
  const secs = (us: number): number => Math.floor(us / 1_000_000);

  list('loans', (req, reply, f) => {
    const U = ex().unified;
    const rows = ex().ledger.openLoans().filter((l) => l.uid === req.uid && l.kind === AccountKind.Margin && keep(f, l.sub, l.cur))
      .map((l) => {
        const mine = U.loans.filter((r) => r.uid === req.uid && r.cur === l.cur && r.market === l.sub);
        return {
          currency: ex().currencies[l.cur]!, currency_pair: ex().markets[l.sub]!.id, amount: fmt(l.cur, l.borrowed + l.interest),
          type: 'platform', create_time: secs(mine.find((r) => r.borrow)?.time ?? 0), update_time: secs(mine.at(-1)?.time ?? 0),
        };
      });
    reply.json(200, pageOf(rows, f));
  });

  list('loan_records', (req, reply, f) => {
    const t = queryParam(req, 'type');
    if (t !== undefined && t !== '' && t !== 'borrow' && t !== 'repay') return reply.error(ResultCode.InvalidParam, 'type must be borrow or repay');
    const rows = ex().unified.loans.filter((r) => r.uid === req.uid && keep(f, r.market, r.cur)
      && (t === undefined || t === '' || (t === 'borrow') === r.borrow)).reverse();
    reply.json(200, pageOf(rows, f).map((r) => ({
      type: r.borrow ? 'borrow' : 'repay', currency_pair: ex().markets[r.market]!.id, currency: ex().currencies[r.cur]!,
      amount: fmt(r.cur, r.amount), create_time: secs(r.time),
    })));
  });

  list('interest_records', (req, reply, f) => {
    const from = timeParamUs(req, 'from', 0);
    const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
    if (from < 0 || to < 0) return reply.error(ResultCode.InvalidParam, 'from and to are Unix seconds');
    const rows = ex().unified.interest.filter((r) => r.uid === req.uid && keep(f, r.market, r.cur) && r.time >= from && r.time <= to).reverse();
    reply.json(200, pageOf(rows, f).map((r) => ({
      currency: ex().currencies[r.cur]!, currency_pair: ex().markets[r.market]!.id, actual_rate: formatScaled(r.rate, 12, 12),
      interest: fmt(r.cur, r.interest), status: r.paid ? 1 : 0, type: 'platform', create_time: secs(r.time),
    })));
  });

  const lendRow = (cur: number): Record<string, string> => {
    const cp = params().currencies.get(ex().currencies[cur]!)!;
    const rate = formatScaled(cp.hourlyRate, 12, 12);
    return { currency: ex().currencies[cur]!, min_lend_amount: fmt(cur, cp.minBorrow), max_lend_amount: fmt(cur, cp.lendable), max_rate: rate, min_rate: rate };
  };
  router.add({ method: 'GET', pattern: '/api/v4/earn/uni/currencies', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, ex().currencies.map((_c, i) => i).filter((i) => params().currencies.get(ex().currencies[i]!)!.lendable > 0n).map(lendRow)) });
  router.add({ method: 'GET', pattern: '/api/v4/earn/uni/currencies/{currency}', access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const cur = ex().currencyIndex(req.params[0]!.toUpperCase());
      if (cur < 0) return reply.error(ResultCode.CurrencyNotFound);
      reply.json(200, lendRow(cur));
    } });
}
