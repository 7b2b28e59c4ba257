/**
 * Perpetual-futures account and history routes (permission group `futures`):
 *   GET /futures/{settle}/accounts             FuturesAccount (USER_NOT_FOUND before the account is first funded)
 *   GET /futures/{settle}/account_book         type dnw|pnl|fee|refr|fund, contract, from, to, limit ≤ 1000, offset;
 *                                              newest first; fund entries' `text` is the contract
 *   GET /futures/{settle}/fee                  contract? → {contract: {taker_fee, maker_fee}}
 *   GET /futures/{settle}/my_trades            contract, order, limit ≤ 1000, offset, last_id; newest first
 *   GET /futures/{settle}/my_trades_timerange  contract, from, to, limit, offset, role
 *   GET /futures/{settle}/position_close       contract, from, to, side long|short, limit, offset
 *   GET /futures/{settle}/liquidates           the user's liquidations (contract, limit, at)
 *   GET /futures/{settle}/auto_deleverages     the user's auto-deleveraged closes (contract, from, to, limit, offset)
 * (The public liquidation list, GET /futures/{settle}/liq_orders, is the public market-data routes'.)
 * Lists read the bounded histories of the futures state, the trade ring and the account book (their retention
 * bounds what they show). Costs: one pass over the history read.
 */
import { curOf, kindOfAcct } from '../../core/ledger/futures-funds.js';
import type { AccountBookEntry } from '../../core/ledger/queries.js';
import { ResultCode } from '../../core/result-code.js';
import { parseContract } from '../../gate/futures-request.js';
import { renderAdl, renderFuturesAccount, renderLiquidation, renderPositionClose } from '../../gate/futures-position-shapes.js';
import { futuresBookType, rateText, renderFuturesBookEntry, renderFuturesTrade, type TradeRole } from '../../gate/futures-shapes.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { intParam, paginationHeaders, timeParamUs } from './common.js';
import { accountCur, F, FUTURES, settleCur, settleMarkets, settleOf, sizeForm } from './futures-common.js';
import { parseOrderId } from '../../gate/spot-order-request.js';

const BOOK_TYPES = new Set(['dnw', 'pnl', 'fee', 'refr', 'fund', 'point_dnw', 'point_fee', 'point_refr', 'bonus_offset']);

export function registerFuturesAccountRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  /** The markets the query's optional `contract` selects (every contract of the settle when absent), or a code. */
  const contractMarkets = (req: ApiRequest): Set<number> | number => {
    const v = queryParam(req, 'contract');
    if (v === undefined || v === '') return new Set(settleMarkets(ex(), settleOf(req)));
    const ci = parseContract(ex(), settleOf(req), v);
    return ci < 0 ? ci : new Set([ex().futures.marketOf[ci]!]);
  };

  /** Time window, limit and offset of a list query, or a negative code. */
  const window = (req: ApiRequest, maxLimit = 1000): { from: number; to: number; limit: number; offset: number } | number => {
    const from = timeParamUs(req, 'from', 0);
    const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
    const limit = intParam(req, 'limit', 100, 1, maxLimit);
    const offset = intParam(req, 'offset', 0, 0, 1_000_000);
    for (const v of [from, to, limit, offset]) if (v < 0) return v;
    return { from, to, limit, offset };
  };

  router.add({ method: 'GET', pattern: `${F}/accounts`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      reply.json(200, renderFuturesAccount(ex(), req.uid, cur));
    } });

  router.add({ method: 'GET', pattern: `${F}/account_book`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const type = queryParam(req, 'type');
      if (type !== undefined && type !== '' && !BOOK_TYPES.has(type)) return reply.error(ResultCode.InvalidParam, 'unknown type');
      const w = window(req);
      if (typeof w === 'number') return reply.error(w);
      const markets = contractMarkets(req);
      if (typeof markets === 'number') return reply.error(markets);
      const contract = queryParam(req, 'contract') ?? '';
      const entries: AccountBookEntry[] = ex().ledger.accountBook(req.uid, {
        kind: kindOfAcct(cur), sub: curOf(cur), currency: ex().currencies[curOf(cur)], from: w.from, to: w.to, limit: Number.MAX_SAFE_INTEGER,
      });
      const rows = entries.filter((e) => type === undefined || type === '' || futuresBookType(e.type) === type)
        .map((e) => renderFuturesBookEntry(ex(), e))
        .filter((e) => contract === '' || e.contract === contract);
      reply.json(200, rows.slice(w.offset, w.offset + w.limit));
    } });

  router.add({ method: 'GET', pattern: `${F}/fee`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = settleCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const markets = contractMarkets(req);
      if (typeof markets === 'number') return reply.error(markets);
      const S = ex().futures;
      const out: Record<string, unknown> = {};
      for (const m of markets) {
        const c = S.contracts[S.contractOf(m)]!;
        out[c.name] = { taker_fee: rateText(c.takerRate), maker_fee: rateText(c.makerRate) };
      }
      reply.json(200, out);
    } });

  /** The user's trades in `markets`, newest first, as (trade id, role) pairs kept by `keep`. */
  const tradesOf = (uid: number, markets: Set<number>, keep: (slot: number, role: TradeRole, id: number) => boolean, max: number): [number, TradeRole][] => {
    const T = ex().trades;
    const out: [number, TradeRole][] = [];
    const oldest = Math.max(1, T.count - T.capacity + 1);
    for (let id = T.count; id >= oldest && out.length < max; id--) {
      const s = T.slotOf(id);
      if (!markets.has(T.market[s]!)) continue;
      if (T.takerUid[s] === uid && keep(s, 'taker', id)) out.push([id, 'taker']);
      if (T.makerUid[s] === uid && out.length < max && keep(s, 'maker', id)) out.push([id, 'maker']);
    }
    return out;
  };

  /** The settle's account, the contract filter and the window of a list request; undefined once an error was answered. */
  const listScope = (req: ApiRequest, reply: Reply): { markets: Set<number>; w: Exclude<ReturnType<typeof window>, number> } | undefined => {
    const cur = accountCur(ex(), req);
    if (cur < 0) { reply.error(cur); return undefined; }
    const markets = contractMarkets(req);
    if (typeof markets === 'number') { reply.error(markets); return undefined; }
    const w = window(req);
    if (typeof w === 'number') { reply.error(w); return undefined; }
    return { markets, w };
  };

  router.add({ method: 'GET', pattern: `${F}/my_trades`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const scope = listScope(req, reply);
      if (scope === undefined) return;
      const { markets, w } = scope;
      const orderText = queryParam(req, 'order');
      const order = orderText === undefined || orderText === '' ? 0 : parseOrderId(orderText);
      const lastText = queryParam(req, 'last_id');
      const lastId = lastText === undefined || lastText === '' ? 0 : /^[1-9][0-9]{0,15}$/.test(lastText) ? Number(lastText) : -1;
      if (lastId < 0) return reply.error(ResultCode.InvalidParam, 'last_id must be a trade id');
      if (order < 0) return reply.json(200, []);
      const T = ex().trades;
      const rows = tradesOf(req.uid, markets, (s, role, id) => {
        const own = role === 'taker' ? T.takerOrder[s]! : T.makerOrder[s]!;
        return (order === 0 || own === order) && (lastId === 0 || id < lastId);
      }, w.offset + w.limit);
      const form = sizeForm(req);
      reply.json(200, rows.slice(w.offset).map(([id, role]) => renderFuturesTrade(ex(), id, role, form)));
    } });

  router.add({ method: 'GET', pattern: `${F}/my_trades_timerange`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const scope = listScope(req, reply);
      if (scope === undefined) return;
      const { markets, w } = scope;
      const role = queryParam(req, 'role');
      if (role !== undefined && role !== '' && role !== 'taker' && role !== 'maker') return reply.error(ResultCode.InvalidParam, 'role must be taker or maker');
      const T = ex().trades;
      const rows = tradesOf(req.uid, markets, (s, r) => (role === undefined || role === '' || r === role)
        && T.time[s]! >= w.from && T.time[s]! <= w.to, w.offset + w.limit);
      const form = sizeForm(req);
      reply.json(200, rows.slice(w.offset).map(([id, r]) => renderFuturesTrade(ex(), id, r, form, true)));
    } });

  router.add({ method: 'GET', pattern: `${F}/position_close`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const scope = listScope(req, reply);
      if (scope === undefined) return;
      const { markets, w } = scope;
      const side = queryParam(req, 'side');
      if (side !== undefined && side !== '' && side !== 'long' && side !== 'short') return reply.error(ResultCode.InvalidParam, 'side must be long or short');
      const rows = ex().futures.closes.filter((c) => c.uid === req.uid && markets.has(c.market) && c.t >= w.from && c.t <= w.to
        && (side === undefined || side === '' || c.side === side)).reverse();
      const form = sizeForm(req);
      reply.json(200, rows.slice(w.offset, w.offset + w.limit).map((c) => renderPositionClose(ex(), c, form)),
        paginationHeaders(w.limit, w.offset, rows.length));
    } });

  /** A user's history rows of the settle (contract filter, time window, offset/limit), newest first. */
  const history = <T extends { readonly uid: number; readonly market: number; readonly t: number }>(path: string,
    rows: () => readonly T[], render: (row: T, form: ReturnType<typeof sizeForm>) => unknown): void => {
    router.add({ method: 'GET', pattern: `${F}/${path}`, access: FUTURES, limit: 'futures',
      handler: (req, reply) => {
        const scope = listScope(req, reply);
        if (scope === undefined) return;
        const { markets, w } = scope;
        const mine = rows().filter((r) => r.uid === req.uid && markets.has(r.market) && r.t >= w.from && r.t <= w.to).reverse();
        const form = sizeForm(req);
        reply.json(200, mine.slice(w.offset, w.offset + w.limit).map((r) => render(r, form)));
      } });
  };
  history('liquidates', () => ex().futures.liquidations, (l, form) => renderLiquidation(ex(), l, form));
  history('auto_deleverages', () => ex().futures.adl, (a, form) => renderAdl(ex(), a, form));
}
