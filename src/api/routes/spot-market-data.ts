/**
 * Public market-data routes served from the MarketDataFeed: GET /spot/order_book, /spot/tickers, /spot/trades
 * and /spot/candlesticks. The feed is updated from every command's result (see main.ts); these handlers only read.
 */
import type { BookOf, MarketDataFeed } from '../market-data/market-data-feed.js';
import type { Answer } from '../market-data/query.js';
import type { ApiDeps } from '../deps.js';
import type { ApiRequest } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';

const PUBLIC = { kind: 'public' } as const;

function send<T>(reply: Reply, a: Answer<T>): void {
  if (a.ok) reply.json(200, a.value);
  else reply.error(a.code);
}

const queryOf = (req: ApiRequest): Readonly<Record<string, string>> => Object.fromEntries(req.query);

/** Route registration for the feed (pass to createServer's `extraRoutes`). */
export function spotMarketDataRoutes(feed: MarketDataFeed): (router: Router, deps: ApiDeps) => void {
  return (router, deps) => {
    const { gateway } = deps;
    const bookOf: BookOf = (m) => ({ depth: (side, limit, prices, lots) => gateway.depth(m, side, limit, prices, lots) });
    router.add({ method: 'GET', pattern: '/api/v4/spot/order_book', access: PUBLIC, limit: 'public',
      handler: (req, reply) => send(reply, feed.spotOrderBook(queryOf(req), gateway.clock.nowUs(), bookOf)) });
    router.add({ method: 'GET', pattern: '/api/v4/spot/tickers', access: PUBLIC, limit: 'public',
      handler: (req, reply) => send(reply, feed.spotTickers(queryOf(req), gateway.clock.nowUs(), bookOf)) });
    router.add({ method: 'GET', pattern: '/api/v4/spot/trades', access: PUBLIC, limit: 'public',
      handler: (req, reply) => send(reply, feed.spotTrades(queryOf(req))) });
    router.add({ method: 'GET', pattern: '/api/v4/spot/candlesticks', access: PUBLIC, limit: 'public',
      handler: (req, reply) => send(reply, feed.spotCandlesticks(queryOf(req), gateway.clock.nowUs())) });
  };
}
