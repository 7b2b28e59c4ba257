/**
 * The built-in demo of `npm start` without `--config`: three markets with Gate-like precisions, minimums and
 * fees, three funded users with fixed keys (printed at start-up; local use only), a read-only key, an STP
 * group, the market maker's account (uid 10000), and chains: USDT on ERC20, TRC20, BEP20 and TON (a memo chain),
 * BTC and ETH on their own chains. Futures: perpetual BTC_USDT, ETH_USDT and BTC_USD, and two BTC_USDT delivery
 * contracts dated from the moment the demo starts (demoDeliveryContracts).
 */
import type { ContractConfig } from '../core/futures/contract.js';
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

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** `YYYYMMDD` of a UTC time (ms). */
const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');

/** The first Friday 08:00 UTC at least a day after `nowMs`. */
export function nextFriday(nowMs: number): number {
  const d = new Date(nowMs + DAY_MS);
  let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 8);
  while (new Date(t).getUTCDay() !== 5 || t < nowMs + DAY_MS) t += DAY_MS;
  return t;
}

/** The last Friday 08:00 UTC of the quarter holding `ms` (Gate's quarterly delivery time). */
function quarterEnd(ms: number): number {
  const d = new Date(ms);
  const lastMonth = Math.floor(d.getUTCMonth() / 3) * 3 + 2;
  let t = Date.UTC(d.getUTCFullYear(), lastMonth + 1, 0, 8);
  while (new Date(t).getUTCDay() !== 5) t -= DAY_MS;
  return t;
}

/**
 * The demo's delivery contracts for a start at `nowMs`: BTC_USDT settling next Friday 08:00 UTC (WEEKLY) and at
 * the end of the quarter (QUARTERLY: the last Friday 08:00 UTC of its last month, the next quarter's when that is
 * within two weeks). Expiries depend on the start time only, so a restart the same week lists the same contracts.
 */
export function demoDeliveryContracts(nowMs: number): ContractConfig[] {
  const weekly = nextFriday(nowMs);
  let quarterly = quarterEnd(nowMs);
  if (quarterly < weekly + 14 * DAY_MS) quarterly = quarterEnd(quarterEnd(nowMs) + 7 * DAY_MS);
  const contract = (ms: number, cycle: string): ContractConfig => ({
    name: `BTC_USDT_${ymd(ms)}`, settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.1',
    leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
    risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '8000000', order_size_min: 1, order_size_max: 1000000,
    order_price_deviate: '0.5', orders_limit: 200, market_order_slip_ratio: '0.05', index_source: 'BTC_USDT',
    expire_time: ms / 1000, cycle, settle_price_duration: HOUR_MS / 1000 / 6, delisting_duration: HOUR_MS / 1000 / 6,
    settle_fee_rate: '0.0015',
  });
  return [contract(weekly, 'WEEKLY'), contract(quarterly, 'QUARTERLY')];
}

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
    { uid: DEMO_MARKET_MAKER_UID, balances: { spot: { USDT: '10000000', BTC: '100', ETH: '1000' }, futures: { USDT: '10000000', BTC: '100' }, delivery: { USDT: '1000000' },
      options: { USDT: '1000000' } } },
    { uid: DEMO_MARKET_TAKER_UID, balances: { spot: { USDT: '1000000', BTC: '10', ETH: '100' }, futures: { USDT: '1000000', BTC: '10' }, delivery: { USDT: '1000000' } } },
    { uid: 10001,
      keys: [
        { key: 'demo-alice-key', secret: 'demo-alice-secret', mode: 1, perms: 'all', ip_whitelist: [] },
        { key: 'demo-alice-readonly', secret: 'demo-alice-readonly-secret', mode: 1,
          perms: [{ name: 'spot', read_only: true }, { name: 'wallet', read_only: true }, { name: 'account', read_only: true }] },
      ],
      balances: { spot: { USDT: '100000', BTC: '2', ETH: '20' }, futures: { USDT: '10000', BTC: '0.5' }, delivery: { USDT: '10000' },
        options: { USDT: '10000' } } },
    { uid: 10002,
      keys: [{ key: 'demo-bob-key', secret: 'demo-bob-secret', mode: 1, perms: 'all', ip_whitelist: [] }],
      balances: { spot: { USDT: '50000', BTC: '1', ETH: '10' }, futures: { USDT: '10000' }, delivery: { USDT: '10000' }, options: { USDT: '10000' } } },
    { uid: 10003,
      keys: [{ key: 'demo-carol-key', secret: 'demo-carol-secret', mode: 1, perms: 'all', ip_whitelist: [] }],
      balances: { spot: { USDT: '25000' } } },
  ],
  stp_groups: [{ id: 1, name: 'demo-desk', users: [10001, 10003] }],
  // A lending pool, so a demo user who switches to a unified mode (PUT /unified/unified_mode) or trades on margin
  // can borrow; index prices follow the market maker's trades.
  unified: {
    currencies: {
      USDT: { hourly_rate: '0.00001', min_borrow: '1', lendable: '10000000' },
      BTC: { hourly_rate: '0.000005', min_borrow: '0.0001', lendable: '100' },
      ETH: { hourly_rate: '0.000005', min_borrow: '0.001', lendable: '1000' },
    },
  },
  // Perpetual futures (docs/futures.md): two USDT-settled linear contracts and a BTC-settled inverse one, with
  // Gate-like rounds, leverage, fees and risk limits; the insurance funds start funded.
  futures: {
    contracts: [
      { name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
        leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
        risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '8000000', funding_interval: 28800,
        funding_rate_limit: '0.003', interest_rate: '0.0001', funding_impact_value: '5000', order_size_min: 1, order_size_max: 1000000,
        order_price_deviate: '0.5', orders_limit: 200, market_order_slip_ratio: '0.05' },
      { name: 'ETH_USDT', settle: 'usdt', quanto_multiplier: '0.01', order_price_round: '0.01', mark_price_round: '0.001',
        leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
        risk_limit_base: '500000', risk_limit_step: '500000', risk_limit_max: '5000000', funding_interval: 28800,
        funding_rate_limit: '0.003', interest_rate: '0.0001', funding_impact_value: '5000', order_size_min: 1, order_size_max: 1000000,
        order_price_deviate: '0.5', orders_limit: 200, market_order_slip_ratio: '0.05' },
      { name: 'BTC_USD', settle: 'btc', type: 'inverse', order_price_round: '0.1', mark_price_round: '0.01',
        leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.00025', taker_fee_rate: '0.00075',
        risk_limit_base: '100', risk_limit_step: '50', risk_limit_max: '1000', funding_interval: 28800, funding_rate_limit: '0.003',
        interest_rate: '0.0001', funding_impact_value: '0.1', order_size_min: 1, order_size_max: 1000000, order_price_deviate: '0.5',
        orders_limit: 200, market_order_slip_ratio: '0.05', index_source: 'BTC_USDT' },
      // Delivery (docs/derivatives.md "Delivery"): weekly and quarterly BTC_USDT, dated from the start.
      ...demoDeliveryContracts(Date.now()),
    ],
    insurance: { USDT: '1000000', BTC: '20' },
  },
  // Options (docs/derivatives.md): BTC_USDT calls and puts expiring 1 and 7 days after the start (08:00 UTC), at
  // strikes around the market maker's 60000; the index follows BTC_USDT spot trades.
  options: {
    underlyings: [
      { name: 'BTC_USDT', multiplier: '0.01', order_price_round: '0.1', volatility: '0.6', expiration_days: [1, 7],
        strikes: ['55000', '60000', '65000'], maker_fee_rate: '0.0003', taker_fee_rate: '0.0003', order_size_min: 1,
        order_size_max: 100000, orders_limit: 50 },
    ],
    // The market maker's user quotes every contract around the model's mark (sim/options-quoter.ts).
    quoter: { uid: DEMO_MARKET_MAKER_UID, size: 10, spread: '0.05', requote_ms: 30_000 },
    // The options insurance fund starts funded (it takes over liquidated sellers' positions).
    insurance: { USDT: '100000' },
  },
  market_maker: true,
  rate_limits: true,
  chains: {
    USDT: [
      { chain: 'ETH', name_cn: '以太坊ERC20', name_en: 'ETH/ERC20', contract_address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
        decimals: 6, min_confirms: 12, unlock_confirms: 20, block_time_ms: 2000, withdraw_fix: '5', withdraw_amount_mini: '10',
        withdraw_eachtime_limit: '500000', withdraw_day_limit: '1000000', min_deposit_amount: '1' },
      { chain: 'TRX', name_cn: '波场TRC20', name_en: 'TRX/TRC20', contract_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        decimals: 6, min_confirms: 20, block_time_ms: 1000, withdraw_fix: '1', withdraw_amount_mini: '2',
        withdraw_eachtime_limit: '500000', withdraw_day_limit: '1000000', min_deposit_amount: '1' },
      { chain: 'BSC', name_cn: '币安智能链BEP20', name_en: 'BSC/BEP20', contract_address: '0x55d398326f99059fF775485246999027B3197955',
        decimals: 6, min_confirms: 15, block_time_ms: 1000, withdraw_fix: '0.5', withdraw_percent: '0.1', withdraw_amount_mini: '1',
        withdraw_eachtime_limit: '200000', withdraw_day_limit: '1000000', min_deposit_amount: '1' },
      { chain: 'TON', name_cn: 'TON', name_en: 'TON (memo)', contract_address: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
        decimals: 6, is_tag: true, min_confirms: 1, block_time_ms: 5000, withdraw_fix: '0.3', withdraw_amount_mini: '1',
        withdraw_day_limit: '100000' },
    ],
    BTC: [{ chain: 'BTC', name_cn: '比特币', name_en: 'Bitcoin', decimals: 8, min_confirms: 1, unlock_confirms: 2,
      block_time_ms: 10000, withdraw_fix: '0.0005', withdraw_amount_mini: '0.001', withdraw_eachtime_limit: '50',
      withdraw_day_limit: '100', min_deposit_amount: '0.0001' }],
    ETH: [{ chain: 'ETH', name_cn: '以太坊', name_en: 'Ethereum', decimals: 4, min_confirms: 6, block_time_ms: 2000,
      withdraw_fix: '0.002', withdraw_amount_mini: '0.01', withdraw_eachtime_limit: '1000', withdraw_day_limit: '2000' }],
  },
};
