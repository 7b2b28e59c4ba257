/**
 * Public perpetual-futures market data over the FuturesMarketData feed (futures-public.ts creates it):
 *   GET /futures/{settle}/order_book?contract=&interval=&limit=&with_id=   `{id?, current, update, asks, bids}`
 *   GET /futures/{settle}/trades?contract=&limit=&offset=&last_id=&from=&to=
 *   GET /futures/{settle}/candlesticks?contract=[mark_|index_]X&interval=&from=&to=&limit=
 *   GET /futures/{settle}/tickers?contract=   one contract, or every listed contract of the settle (always an array)
 * (and the settle-less legacy paths, btc). Handlers only read.
 */
import type { DepthSource } from '../market-data/depth-source.js';
import type { FuturesMarketData } from '../market-data/futures-market-data.js';
import { CandleKind } from '../market-data/futures-candles.js';
import type { Answer } from '../market-data/query.js';
import type { ApiDeps } from '../deps.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { addSettleRoute, contractIn, isFuturesSettle, isListed, queryOf } from './futures-public-params.js';

function send<T>(reply: Reply, a: Answer<T>): void {
  if (a.ok) reply.json(200, a.value);
  else reply.error(a.code);
}

/** The candle kind and contract name of a candlesticks `contract` (`mark_X`, `index_X` or `X`). */
function candleTarget(contract: string | undefined): [CandleKind, string | undefined] {
  if (contract?.startsWith('mark_') === true) return [CandleKind.Mark, contract.slice(5)];
  if (contract?.startsWith('index_') === true) return [CandleKind.Index, contract.slice(6)];
  return [CandleKind.Trade, contract];
}

export function registerFuturesMarketRoutes(router: Router, deps: ApiDeps, feed: FuturesMarketData): void {
  const { gateway } = deps;
  const ex = feed.exchange;
  const valid = (settle: string): boolean => isFuturesSettle(gateway.exchange, settle);
  const now = (): number => gateway.clock.nowUs();
  const bookOf = (ci: number): DepthSource => {
    const m = ex.futures.marketOf[ci]!;
    return { depth: (side, limit, prices, lots) => gateway.depth(m, side, limit, prices, lots) };
  };

  addSettleRoute(router, 'futures', '/order_book', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    const ci = contractIn(gateway.exchange, settle, q.contract);
    if (ci < 0) return reply.error(ci);
    send(reply, feed.orderBook(ci, q, now(), bookOf(ci)));
  });

  addSettleRoute(router, 'futures', '/trades', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    const ci = contractIn(gateway.exchange, settle, q.contract);
    if (ci < 0) return reply.error(ci);
    send(reply, feed.trades(ci, q));
  });

  addSettleRoute(router, 'futures', '/candlesticks', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    const [kind, name] = candleTarget(q.contract);
    const ci = contractIn(gateway.exchange, settle, name);
    if (ci < 0) return reply.error(ci);
    send(reply, feed.candlesticks(ci, kind, q, now()));
  });

  addSettleRoute(router, 'futures', '/tickers', valid, (settle, _rest, req, reply) => {
    const q = queryOf(req);
    if (q.contract !== undefined && q.contract !== '') {
      const ci = contractIn(gateway.exchange, settle, q.contract);
      if (ci < 0) return reply.error(ci);
      return reply.json(200, [feed.ticker(ci, now(), bookOf(ci))]);
    }
    const list: Record<string, unknown>[] = [];
    ex.futures.contracts.forEach((c, ci) => { if (c.settle === settle && isListed(ex, ci)) list.push(feed.ticker(ci, now(), bookOf(ci))); });
    reply.json(200, list);
  });
}
