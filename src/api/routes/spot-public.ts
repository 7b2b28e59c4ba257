/**
 * Public spot reference data and depth (no credentials; rate class `public`, per IP):
 * GET /spot/currencies, /spot/currencies/{currency}, /spot/currency_pairs, /spot/currency_pairs/{pair},
 * and /spot/time (GET /margin/currency_pairs, which ccxt's loadMarkets reads, is in margin-uni.ts).
 */
import { type Exchange , spotMarketIndexes } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import type { ChainSpec } from '../../sim/chains/chain-spec.js';
import type { ApiDeps } from '../deps.js';
import type { Router } from '../router.js';

const PUBLIC = { kind: 'public' } as const;

/**
 * Gate's Currency object for `code` and its chains (the chain simulation's, as GET /wallet/currency_chains and
 * /wallet/deposit_address name them): each chain `{name: chain id, addr: contract address, withdraw_disabled,
 * withdraw_delayed, deposit_disabled}`, `chain` the first one's id, and the currency-level switches off only
 * when every chain has them off.
 */
export function renderCurrency(code: string, chains: readonly ChainSpec[]): Record<string, unknown> {
  return {
    currency: code, name: code, delisted: false,
    withdraw_disabled: !chains.some((c) => c.withdrawEnabled), withdraw_delayed: false,
    deposit_disabled: !chains.some((c) => c.depositEnabled), trade_disabled: false, fixed_rate: '',
    chain: chains[0]?.chain ?? code,
    chains: chains.map((c) => ({ name: c.chain, addr: c.contractAddress, withdraw_disabled: !c.withdrawEnabled,
      withdraw_delayed: false, deposit_disabled: !c.depositEnabled })),
  };
}

/**
 * Gate's CurrencyPair object for market `m`. Limits the config leaves unset (`min_base_amount`,
 * `min_quote_amount`, `max_base_amount`, `max_quote_amount`) are omitted, as Gate omits them (an empty string
 * reads as 0 in JavaScript and fails Python's Decimal).
 */
export function renderCurrencyPair(ex: Exchange, m: number): Record<string, unknown> {
  const spec = ex.definition.markets[m]!;
  const limits: Record<string, string> = {};
  for (const k of ['min_base_amount', 'min_quote_amount', 'max_base_amount', 'max_quote_amount'] as const) {
    const v = spec[k];
    if (v !== undefined && v !== '') limits[k] = v;
  }
  return {
    id: spec.id, base: spec.base, base_name: spec.base, quote: spec.quote, quote_name: spec.quote,
    fee: spec.fee ?? '0.2', maker_fee_rate: spec.maker_fee_rate ?? spec.fee ?? '0.2', ...limits,
    amount_precision: spec.amount_precision, precision: spec.precision, trade_status: 'tradable',
    sell_start: 0, buy_start: 0, delisting_time: 0, type: 'normal', trade_url: '', st_tag: false,
  };
}

export function registerSpotPublicRoutes(router: Router, deps: ApiDeps): void {
  const { gateway } = deps;
  const ex = (): Exchange => gateway.exchange;

  router.add({ method: 'GET', pattern: '/api/v4/spot/currencies', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, ex().currencies.map((c) => renderCurrency(c, deps.wallet.chainsOf(c) ?? []))) });

  router.add({ method: 'GET', pattern: '/api/v4/spot/currencies/{currency}', access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const code = req.params[0]!;
      if (ex().currencyIndex(code) < 0) return reply.error(ResultCode.CurrencyNotFound);
      reply.json(200, renderCurrency(code, deps.wallet.chainsOf(code) ?? []));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/currency_pairs', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, spotMarketIndexes(ex()).map((m) => renderCurrencyPair(ex(), m))) });

  router.add({ method: 'GET', pattern: '/api/v4/spot/currency_pairs/{currency_pair}', access: PUBLIC, limit: 'public',
    handler: (req, reply) => {
      const m = ex().marketIndex(req.params[0]!);
      if (m < 0) return reply.error(ResultCode.InvalidMarket);
      reply.json(200, renderCurrencyPair(ex(), m));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/time', access: PUBLIC, limit: 'public',
    handler: (_req, reply) => reply.json(200, { server_time: Math.floor(gateway.clock.nowUs() / 1000) }) });
}
