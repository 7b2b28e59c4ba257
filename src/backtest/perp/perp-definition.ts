/**
 * The exchange of a perpetual market-data replay: one linear contract (no spot market, so the contract's book
 * is market 0), the liquidity account and the configured users, all on the real futures engine.
 *
 * Units: one lot of the data is one contract. Tardis sizes are base amounts, so the contract's
 * `quanto_multiplier` defaults to 10^-amount_precision of the base (1 contract = the data's smallest size);
 * Gate futures dumps count contracts (amount precision 0) and then need the real multiplier in the config.
 * Prices: `order_price_round` = `mark_price_round` = the data's price tick (recorded marks are rounded to it).
 *
 * Defaults chosen so the replayed book never hits an exchange limit: risk limits, order sizes and the orders
 * limit are wide (the liquidity account carries the whole market's side of our fills); Gate's usual fees
 * (maker 0.02 %, taker 0.05 %), leverage 1–100 (default 10, isolated), maintenance 0.5 %, funding every 8 h.
 */
import { ConfigError } from '../../core/invariant.js';
import type { ContractConfig } from '../../core/futures/contract.js';
import type { ExchangeDefinition, MarketConfig } from '../../core/exchange/exchange-definition.js';
import { settleScales } from '../../sim/futures-config.js';
import { replayCurrencies } from '../replay-currencies.js';
import type { ReplayConfig } from '../replay-config.js';

/** Risk limit and size bounds wide enough for any replayed book. */
const WIDE_RISK = '1000000000000';
const WIDE_SIZE = 1_000_000_000_000;
const WIDE_ORDERS = 1_000_000;

/** Default opening balance of the insurance fund (settle currency). */
export const DEFAULT_INSURANCE = '1000000';

/** True when the config describes a perpetual replay (a `contract` section, added by `--ticker` too). */
export const isPerp = (cfg: ReplayConfig): boolean => cfg.contract !== undefined;

const unit = (scale: number): string => (scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`);

/** The replayed contract at the data's scales, config fields over the defaults above. @allocates */
export function perpContract(cfg: ReplayConfig, priceScale: number, amountScale: number): ContractConfig {
  const id = cfg.market?.id ?? 'BTC_USDT';
  const [base, quote] = id.split('_');
  if (base === undefined || quote === undefined) throw new ConfigError(`market.id "${id}" is not BASE_QUOTE`);
  const fields: Record<string, unknown> = { ...cfg.contract };
  delete fields.insurance;
  const tick = unit(priceScale);
  return {
    settle: quote.toLowerCase(), quanto_multiplier: unit(amountScale), leverage_min: '1', leverage_max: '100', default_leverage: '10',
    maintenance_rate: '0.005', maker_fee_rate: '0.0002', taker_fee_rate: '0.0005', risk_limit_base: WIDE_RISK,
    risk_limit_step: WIDE_RISK, risk_limit_max: WIDE_RISK, funding_interval: 28_800, order_size_min: 1, order_size_max: WIDE_SIZE,
    orders_limit: WIDE_ORDERS,
    ...fields,
    name: id, order_price_round: tick, mark_price_round: tick,
  };
}

/** The definition (currencies, the contract, the liquidity account and users) and the users' uids. */
export function perpDefinition(cfg: ReplayConfig, priceScale: number, amountScale: number, liquidityUid: number,
  defaultUser: number): { def: ExchangeDefinition; users: number[] } {
  const contract = perpContract(cfg, priceScale, amountScale);
  if (contract.settle.toUpperCase() !== contract.name.split('_')[1]) {
    throw new ConfigError(`contract.settle: a perpetual replay is of a linear contract, settled in its quote currency`);
  }
  const [base, quote] = contract.name.split('_') as [string, string];
  // The spot-like view of the same units, so the base and quote currencies get the decimals the data needs.
  const like: MarketConfig = { id: contract.name, base, quote, precision: priceScale, amount_precision: amountScale, fee: '0.2' };
  const explicit = new Set((cfg.currencies ?? []).map((c) => c.code));
  const currencies = settleScales(replayCurrencies(like, cfg.currencies), { contracts: [contract] }, explicit);
  const users = (cfg.users ?? [{ uid: defaultUser }]).map((u) => u.uid);
  if (users.includes(liquidityUid)) throw new ConfigError(`uid ${liquidityUid} is reserved for the replayed market`);
  return {
    def: {
      currencies, markets: [], users: [liquidityUid, ...users].map((uid) => ({ uid })), stp_groups: cfg.stp_groups ?? [],
      futures: { contracts: [contract] },
    },
    users,
  };
}
