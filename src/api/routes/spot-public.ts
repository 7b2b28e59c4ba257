/**
 * Public spot reference data and depth (no credentials; rate class `public`, per IP):
 * GET /spot/currencies, /spot/currencies/{currency}, /spot/currency_pairs, /spot/currency_pairs/{pair},
 * /spot/order_book, /spot/time, and GET /margin/currency_pairs (empty: no margin markets yet; ccxt's
 * loadMarkets requires the route).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { formatUnits, parseUnits } from '../../core/units.js';
import type { ApiDeps } from '../deps.js';
import { queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { intParam, queryPair } from './common.js';

const PUBLIC = { kind: 'public' } as const;

/** Gate's Currency object for a currency code. */
export function renderCurrency(code: string): Record<string, unknown> {
  const chain = { name: code, addr: '', withdraw_disabled: false, withdraw_delayed: false, deposit_disabled: false };
  return {
    currency: code, name: code, delisted: false, withdraw_disabled: false, withdraw_delayed: false,
    deposit_disabled: false, trade_disabled: false, fixed_rate: '', chain: code, chains: [chain],
  };
}

/** Gate's CurrencyPair object for market `m`. */
export function renderCurrencyPair(ex: Exchange, m: number): Record<string, unknown> {
  const spec = ex.definition.markets[m]!;
  return {
    id: spec.id, base: spec.base, base_name: spec.base, quote: spec.quote, quote_name: spec.quote,
    fee: spec.fee ?? '0.2', maker_fee_rate: spec.maker_fee_rate ?? spec.fee ?? '0.2',
    min_base_amount: spec.min_base_amount ?? '', min_quote_amount: spec.min_quote_amount ?? '',
    max_base_amount: spec.max_base_amount ?? '', max_quote_amount: spec.max_quote_amount ?? '',
    amount_precision: spec.amount_precision, precision: spec.precision, trade_status: 'tradable',
    sell_start: 0, buy_start: 0, delisting_time: 0, type: 'normal', trade_url: '', st_tag: false,
  };
}

/** Merges depth levels onto multiples of `step` ticks (asks up, bids down), summing lots. @allocates */
function merged(prices: Float64Array, lots: Float64Array, n: number, step: number, up: boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const p = up ? Math.ceil(prices[i]! / step) * step : Math.floor(prices[i]! / step) * step;
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === p) last[1] += lots[i]!;
    else out.push([p, lots[i]!]);
  }
  return out;
}

export function registerSpotPublicRoutes(router: Router, deps: ApiDeps): void {
  const { gateway } = deps;
  const ex = (): Exchange => gateway.exchange;
  const maxDepth = 1000;
  const prices = new Float64Array(maxDepth);
  const lots = new Float64Array(maxDepth);

  router.add({ method: 'GET', pattern: '/api/v4/spot/currencies', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, ex().currencies.map(renderCurrency)) });

  router.add({ method: 'GET', pattern: '/api/v4/spot/currencies/{currency}', access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const code = req.params[0]!;
      if (ex().currencyIndex(code) < 0) return reply.error(ResultCode.CurrencyNotFound);
      reply.json(200, renderCurrency(code));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/currency_pairs', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, ex().markets.map((_, m) => renderCurrencyPair(ex(), m))) });

  router.add({ method: 'GET', pattern: '/api/v4/spot/currency_pairs/{currency_pair}', access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const m = ex().marketIndex(req.params[0]!);
      if (m < 0) return reply.error(ResultCode.InvalidMarket);
      reply.json(200, renderCurrencyPair(ex(), m));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/margin/currency_pairs', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, []) });

  router.add({ method: 'GET', pattern: '/api/v4/spot/time', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, { server_time: Math.floor(gateway.clock.nowUs() / 1000) }) });

  router.add({ method: 'GET', pattern: '/api/v4/spot/order_book', access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const m = queryPair(ex(), req);
      if (m < 0) return reply.error(m);
      const limit = intParam(req, 'limit', 10, 1, maxDepth);
      if (limit < 0) return reply.error(limit, 'limit must be an integer in 1..1000');
      const market = ex().markets[m]!;
      const interval = queryParam(req, 'interval') ?? '0';
      let step = 1;
      if (!/^0*(\.0*)?$/.test(interval)) {
        step = parseUnits(interval, market.priceScale);
        if (step < 0) return reply.error(ResultCode.InvalidParam, 'interval must be 0 or a multiple of the price tick');
      }
      const side = (s: number): [string, string][] => {
        const n = gateway.depth(m, s, step === 1 ? limit : maxDepth, prices, lots);
        return merged(prices, lots, n, step, s === Side.Sell).slice(0, limit)
          .map(([p, l]) => [formatUnits(p, market.priceScale), formatUnits(l, market.amountScale)]);
      };
      const version = gateway.bookVersion(m);
      const nowMs = Math.floor(gateway.clock.nowUs() / 1000);
      const body: Record<string, unknown> = {};
      if (queryParam(req, 'with_id') === 'true') body.id = version.id;
      body.current = nowMs;
      body.update = version.updateUs === 0 ? nowMs : Math.floor(version.updateUs / 1000);
      body.asks = side(Side.Sell);
      body.bids = side(Side.Buy);
      reply.json(200, body);
    } });
}
