/**
 * Public options routes (no credentials; rate class `public`), answered from the exchange's options state, its
 * books and trade log, and the option model for display figures (gate/options-shapes.ts):
 *   GET /options/underlyings                                   [{name, index_price}]
 *   GET /options/expirations?underlying=                       expiration times (s), ascending
 *   GET /options/contracts?underlying=&expiration=             OptionsContract list (unsettled contracts)
 *   GET /options/contracts/{contract}                          one OptionsContract
 *   GET /options/settlements?underlying=&limit=&offset=&from=&to=   OptionsSettlement, newest first
 *   GET /options/settlements/{contract}?underlying=&at=        one contract's settlement
 *   GET /options/order_book?contract=&interval=&limit=&with_id=   `{id?, current, update, asks: [{p, s}], bids}`
 *   GET /options/tickers?underlying=                           OptionsTicker list (mark, IV, greeks)
 *   GET /options/underlying/tickers/{underlying}               {trade_put, trade_call, index_price}
 *   GET /options/candlesticks?contract=&interval=&from=&to=&limit=      [{t, v, c, h, l, o}]
 *   GET /options/underlying/candlesticks?underlying=&…         the index source's spot candles, same shape
 *   GET /options/trades?contract=&type=C|P&limit=&offset=&from=&to=     OptionsTrade, newest first
 * Bad input: a missing underlying or contract MISSING_REQUIRED_PARAM; an unknown underlying gives the lists (expirations,
 * contracts, tickers, settlements) an empty answer and the other routes INVALID_PARAM_VALUE;
 * an unknown contract CONTRACT_NOT_FOUND, malformed numbers INVALID_PARAM_VALUE; nothing reaches the engine.
 * The private routes are options-private.ts and options-mmp.ts (registered here too, so the server registers options once).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import {
  type MarketFigures, priceText, renderOptionContract, renderOptionPublicTrade, renderOptionTicker, renderUnderlying,
} from '../../gate/options-shapes.js';
import type { ApiDeps } from '../deps.js';
import type { Reply } from '../http/reply.js';
import { optionsFeedOf } from '../market-data/options-market-data.js';
import { orderBookView } from '../market-data/order-book-view.js';
import { type Answer, answer, intParam, type QueryParams, reject, secondsParamUs } from '../market-data/query.js';
import type { Router } from '../router.js';
import { PUBLIC, queryOf } from './futures-public-params.js';
import { registerOptionsCountdownRoutes } from './options-countdown.js';
import { registerOptionsMmpRoutes } from './options-mmp.js';
import { registerOptionsPrivateRoutes } from './options-private.js';

const O = '/api/v4/options';

function send<T>(reply: Reply, a: Answer<T>): void {
  if (a.ok) reply.json(200, a.value);
  else reply.error(a.code);
}

/** The underlying of the query: its index, or MissingParam / InvalidParam. */
function underlyingOf(ex: Exchange, name: string | undefined): number {
  if (name === undefined || name === '') return ResultCode.MissingParam;
  const ui = ex.options.underlyingIndex(name);
  return ui < 0 ? ResultCode.InvalidParam : ui;
}

/** The contract of a query or path value: its index, or MissingParam / ContractNotFound. */
function contractOf(ex: Exchange, name: string | undefined): number {
  if (name === undefined || name === '') return ResultCode.MissingParam;
  const ci = ex.options.contractIndex(name);
  return ci < 0 ? ResultCode.ContractNotFound : ci;
}

export function registerOptionsPublicRoutes(router: Router, deps: ApiDeps): void {
  const { gateway } = deps;
  const ex = (): Exchange => gateway.exchange;
  const now = (): number => gateway.clock.nowUs();
  // Last trades, traded contracts, candles and book versions: the feed the options WebSocket pushes from too.
  const data = optionsFeedOf(deps);
  const { feed } = data;
  const figures = (ci: number): MarketFigures => data.figures(ci);
  const contractsOf = (ui: number, expiration: number): number[] => {
    const out: number[] = [];
    ex().options.contracts.forEach((k, ci) => {
      if (k.u === ui && (expiration < 0 || k.expiration === expiration) && ex().options.settled[ci] === 0) out.push(ci);
    });
    return out;
  };
  const get = (path: string, handler: (q: QueryParams, reply: Reply, params: readonly string[]) => void): void => {
    router.add({ method: 'GET', pattern: `${O}${path}`, access: PUBLIC, limit: 'public',
      handler: (req, reply) => handler(queryOf(req), reply, req.params) });
  };

  get('/underlyings', (_q, reply) => reply.json(200, ex().options.underlyings.map((_, ui) => renderUnderlying(ex(), ui))));

  get('/expirations', (q, reply) => {
    const ui = underlyingOf(ex(), q.underlying);
    if (ui < 0) return ui === ResultCode.InvalidParam ? reply.json(200, []) : reply.error(ui);
    const t = now();
    reply.json(200, ex().options.underlyings[ui]!.expirations.filter((e) => e * 1e6 > t));
  });

  get('/contracts', (q, reply) => {
    const ui = underlyingOf(ex(), q.underlying);
    if (ui < 0) return ui === ResultCode.InvalidParam ? reply.json(200, []) : reply.error(ui);
    const exp = q.expiration === undefined || q.expiration === '' ? -1 : /^[0-9]{1,12}$/.test(q.expiration) ? Number(q.expiration) : -2;
    if (exp === -2) return reply.error(ResultCode.InvalidParam);
    reply.json(200, contractsOf(ui, exp).map((ci) => renderOptionContract(ex(), ci, now(), figures(ci))));
  });

  get('/contracts/{contract}', (_q, reply, params) => {
    const ci = contractOf(ex(), params[0]);
    if (ci < 0) return reply.error(ci);
    reply.json(200, renderOptionContract(ex(), ci, now(), figures(ci)));
  });

  const settlementRow = (i: number): Record<string, unknown> => {
    const S = ex().options;
    const row = S.settlements[i]!;
    const k = S.contracts[row.ci]!;
    const u = S.underlyings[k.u]!;
    return { time: row.t, contract: k.name, profit: '0', fee: '0', strike_price: k.strikeText, settle_price: priceText(u, row.price) };
  };

  get('/settlements', (q, reply) => {
    const ui = underlyingOf(ex(), q.underlying);
    if (ui < 0) return ui === ResultCode.InvalidParam ? reply.json(200, []) : reply.error(ui);
    const limit = intParam(q, 'limit', 100, 1, 1000);
    const offset = intParam(q, 'offset', 0, 0, 1_000_000);
    const from = secondsParamUs(q, 'from', 0);
    const to = secondsParamUs(q, 'to', Number.MAX_SAFE_INTEGER);
    if (limit < 0 || offset < 0 || from < 0 || to < 0) return reply.error(ResultCode.InvalidParam);
    const S = ex().options;
    const rows: number[] = [];
    for (let i = S.settlements.length - 1; i >= 0; i--) {
      const r = S.settlements[i]!;
      if (S.contracts[r.ci]!.u === ui && r.t * 1e6 >= from && r.t * 1e6 <= to) rows.push(i);
    }
    reply.json(200, rows.slice(offset, offset + limit).map(settlementRow));
  });

  get('/settlements/{contract}', (q, reply, params) => {
    const ui = underlyingOf(ex(), q.underlying);
    if (ui < 0) return reply.error(ui);
    const ci = contractOf(ex(), params[0]);
    if (ci < 0) return reply.error(ci);
    const i = ex().options.settlements.findIndex((r) => r.ci === ci);
    if (i < 0) return reply.error(ResultCode.ContractNotFound);
    reply.json(200, settlementRow(i));
  });

  get('/order_book', (q, reply) => {
    const ci = contractOf(ex(), q.contract);
    if (ci < 0) return reply.error(ci);
    const m = ex().options.marketOf[ci]!;
    const a = orderBookView(ex().markets[m]!, { depth: (side, limit, p, l) => gateway.depth(m, side, limit, p, l) }, q,
      feed.versions.version[m]!, feed.versions.updateUs[m]!, now());
    if (!a.ok) return reply.error(a.code);
    const v = a.value;
    const levels = (side: readonly [string, string][]): { p: string; s: number }[] => side.map(([p, s]) => ({ p, s: Number(s) }));
    const out = { current: v.current / 1000, update: v.update / 1000, asks: levels(v.asks), bids: levels(v.bids) };
    reply.json(200, v.id === undefined ? out : { id: v.id, ...out });
  });

  get('/tickers', (q, reply) => {
    const ui = underlyingOf(ex(), q.underlying);
    if (ui < 0) return ui === ResultCode.InvalidParam ? reply.json(200, []) : reply.error(ui);
    reply.json(200, contractsOf(ui, -1).map((ci) => renderOptionTicker(ex(), ci, now(), figures(ci))));
  });

  get('/underlying/tickers/{underlying}', (_q, reply, params) => {
    const ui = underlyingOf(ex(), params[0]);
    if (ui < 0) return reply.error(ui);
    const t = data.underlyingTraded(ui);
    reply.json(200, { trade_put: t.puts, trade_call: t.calls, index_price: renderUnderlying(ex(), ui).index_price });
  });

  const candles = (m: number, q: QueryParams, reply: Reply): void => {
    const a = feed.candles.query(m, q, now());
    if (!a.ok) return reply.error(a.code);
    reply.json(200, a.value.map((r) => ({ t: Number(r[0]), v: Number(r[6]), c: r[2], h: r[3], l: r[4], o: r[5] })));
  };

  get('/candlesticks', (q, reply) => {
    const ci = contractOf(ex(), q.contract);
    if (ci < 0) return reply.error(ci);
    candles(ex().options.marketOf[ci]!, q, reply);
  });

  get('/underlying/candlesticks', (q, reply) => {
    const ui = underlyingOf(ex(), q.underlying);
    if (ui < 0) return reply.error(ui);
    const spot = ex().marketIndex(ex().options.underlyings[ui]!.indexSource);
    if (spot < 0) return reply.json(200, []);
    candles(spot, q, reply);
  });

  get('/trades', (q, reply) => {
    const ci = q.contract === undefined || q.contract === '' ? -1 : contractOf(ex(), q.contract);
    if (ci < -1) return reply.error(ci);
    const type = q.type ?? '';
    if (type !== '' && type !== 'C' && type !== 'P') return reply.error(ResultCode.InvalidParam);
    send(reply, publicTrades(ex(), ci, type, q));
  });

  registerOptionsPrivateRoutes(router, deps);
  registerOptionsMmpRoutes(router, deps);
  registerOptionsCountdownRoutes(router, deps);
}

/** Public trades of contract `ci` (or every options contract, of `type` C or P when given), newest first. @allocates */
function publicTrades(ex: Exchange, ci: number, type: string, q: QueryParams): Answer<Record<string, unknown>[]> {
  const limit = intParam(q, 'limit', 100, 1, 1000);
  const offset = intParam(q, 'offset', 0, 0, 1_000_000);
  const from = secondsParamUs(q, 'from', 0);
  const to = secondsParamUs(q, 'to', Number.MAX_SAFE_INTEGER);
  if (limit < 0 || offset < 0 || from < 0 || to < 0 || from > to) return reject(ResultCode.InvalidParam);
  const S = ex.options;
  const T = ex.trades;
  const out: Record<string, unknown>[] = [];
  let skip = offset;
  for (let id = T.count; id >= 1 && id > T.count - T.capacity && out.length < limit; id--) {
    const s = T.slotOf(id);
    const k = S.contractOf(T.market[s]!);
    if (k < 0 || (ci >= 0 && k !== ci) || (type !== '' && S.contracts[k]!.call !== (type === 'C'))) continue;
    if (T.time[s]! < from || T.time[s]! > to) continue;
    if (skip > 0) { skip--; continue; }
    out.push(renderOptionPublicTrade(ex, id));
  }
  return answer(out);
}
