/**
 * The built-in demo of `npm start` without `--config`: three markets with Gate-like precisions, minimums and
 * fees, three funded users with fixed keys (printed at start-up; local use only), a read-only key, an STP
 * group, and the market maker's account (uid 10000).
 */
import type { SimulatorConfig } from './config-file.js';

export const DEMO_MARKET_MAKER_UID = 10000;
/** The market maker's second user, which sometimes takes its quotes so that trades (and candles) happen. */
export const DEMO_MARKET_TAKER_UID = 9999;

/** Where the built-in market maker starts, and how much it shows per level, for `market_maker: true`. */
export const DEMO_QUOTES: Readonly<Record<string, { price: string; size: string }>> = {
  BTC_USDT: { price: '60000', size: '0.05' },
  ETH_USDT: { price: '3000', size: '0.5' },
  ETH_BTC: { price: '0.05', size: '0.5' },
};

export const DEMO_CONFIG: SimulatorConfig = {
  currency_pairs: [
    { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 6,
      min_base_amount: '0.00001', min_quote_amount: '3', fee: '0.2', maker_fee_rate: '0.2' },
    { id: 'ETH_USDT', base: 'ETH', quote: 'USDT', precision: 2, amount_precision: 4,
      min_base_amount: '0.0001', min_quote_amount: '3', fee: '0.2', maker_fee_rate: '0.2' },
    { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 5, amount_precision: 4,
      min_base_amount: '0.001', min_quote_amount: '0.0001', fee: '0.2', maker_fee_rate: '0.2' },
  ],
  users: [
    { uid: DEMO_MARKET_MAKER_UID, balances: { spot: { USDT: '10000000', BTC: '100', ETH: '1000' } } },
    { uid: DEMO_MARKET_TAKER_UID, balances: { spot: { USDT: '1000000', BTC: '10', ETH: '100' } } },
    { uid: 10001,
      keys: [
        { key: 'demo-alice-key', secret: 'demo-alice-secret', mode: 1, perms: 'all', ip_whitelist: [] },
        { key: 'demo-alice-readonly', secret: 'demo-alice-readonly-secret', mode: 1,
          perms: [{ name: 'spot', read_only: true }, { name: 'wallet', read_only: true }, { name: 'account', read_only: true }] },
      ],
      balances: { spot: { USDT: '100000', BTC: '2', ETH: '20' } } },
    { uid: 10002,
      keys: [{ key: 'demo-bob-key', secret: 'demo-bob-secret', mode: 1, perms: 'all', ip_whitelist: [] }],
      balances: { spot: { USDT: '50000', BTC: '1', ETH: '10' } } },
    { uid: 10003,
      keys: [{ key: 'demo-carol-key', secret: 'demo-carol-secret', mode: 1, perms: 'all', ip_whitelist: [] }],
      balances: { spot: { USDT: '25000' } } },
  ],
  stp_groups: [{ id: 1, name: 'demo-desk', users: [10001, 10003] }],
  market_maker: true,
  rate_limits: true,
};
