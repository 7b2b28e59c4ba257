/**
 * From a config's `market_maker` (true, or the object of MarketMakerSettings) to what the simulator runs:
 * the resolved MarketMakerConfig, the users it trades as that the config lacks, and their funds.
 *
 * - Users: `uid` (default DEFAULT_MAKER_UID) and `taker_uid` (default DEFAULT_TAKER_UID for `true` and for an
 *   object without `uid`; an object that names its `uid` has a taker only if it names one, as before). A user
 *   the config does not define is created at start-up; each of the maker's users is credited, in every currency
 *   of the markets it quotes that the config gives it no opening balance of, FUND_LADDERS full ladders' worth
 *   (base: size × levels; quote: twice that at the reference price, room for the price to rise), at most a
 *   tenth of the currency's max supply and at most their share of what the other opening credits leave of it.
 * - Markets: those listed, else every configured pair, in config order.
 * - Reference price, when a market gives none: the ratio of the two currencies' values, else the demo's price
 *   for a demo pair (DEMO_QUOTES), else 1. Values: each currency's `unified.currencies.X.index_price`, USDT 1,
 *   and whatever the given prices (the market maker's, then the demo's) imply for a currency of unknown value
 *   from the other of their pair. Rounded half-up to the pair's precision, at least one tick.
 * - Size per level, when a market gives none: for the markets of `true` or of an object without `markets`, the
 *   demo's size for a demo pair, else worth about SIZE_USD (in quote units at the quote's value; 1,000 quote units
 *   when that is unknown), rounded up to the pair's amount_precision; for a market listed in `markets`, none,
 *   as before: the maker then quotes the pair's minimum. The maker raises sizes to the pair's minimums.
 * - Contracts: those listed in `contracts`, else every configured perpetual (`futures.contracts`), quoted by
 *   futures orders (futures-quotes.ts). Each of the maker's users without an opening futures balance of a
 *   quoted contract's settle currency is credited FUTURES_FUND_USD worth of it (at the currency's value; that
 *   many units when unknown), within the same caps as spot funds.
 * Exact decimal arithmetic (big.js); errors are ConfigError naming the field.
 */
import Big from 'big.js';
import type { MarketConfig } from '../../core/exchange/exchange-definition.js';
import type { CurrencySpec } from '../../core/ledger/currencies.js';
import { currencyRules } from '../config-amounts.js';
import { type AmountRule, amount, fail, formatScaled } from '../config-check.js';
import { DEMO_MARKET_MAKER_UID, DEMO_MARKET_TAKER_UID, DEMO_QUOTES } from '../demo.js';
import type { OpeningBalance, SimConfig } from '../sim-config.js';
import {
  type MarketMakerConfig, type MarketMakerContractConfig, type MarketMakerMarketConfig, type MarketMakerSettings, parseMarketMakerSettings,
} from './config.js';

export const DEFAULT_MAKER_UID = DEMO_MARKET_MAKER_UID;
export const DEFAULT_TAKER_UID = DEMO_MARKET_TAKER_UID;
/** A derived size per level is worth about this many USD. */
export const SIZE_USD = 1000;
/** Funds of a created or unfunded maker user: this many full ladders of every market it quotes. */
export const FUND_LADDERS = 1000;
const DEFAULT_LEVELS = 5;
/** Futures funds of a maker user without an opening futures balance, per settle currency, in USD. */
export const FUTURES_FUND_USD = 1_000_000;

export interface MarketMakerPlan {
  readonly config: MarketMakerConfig;
  /** The maker's users the config does not define: created at start-up. */
  readonly newUsers: readonly number[];
  /** Opening credits of the maker's users (see the module header). */
  readonly funding: readonly OpeningBalance[];
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The plan for `config` (see the module header), or undefined without a market maker. Throws ConfigError. */
export function planMarketMaker(config: SimConfig, currencies: readonly CurrencySpec[],
  used: ReadonlyMap<string, bigint> = new Map()): MarketMakerPlan | undefined {
  const mm = config.market_maker;
  if (mm === undefined || mm === false) return undefined;
  const s = mm === true ? {} : parseMarketMakerSettings(mm);
  const uid = s.uid ?? DEFAULT_MAKER_UID;
  const takerUid = s.taker_uid ?? (s.uid === undefined ? DEFAULT_TAKER_UID : undefined);
  if (takerUid === uid) fail('market_maker.taker_uid', `must differ from uid (${uid})`);
  const pairs = new Map(config.currency_pairs.map((p) => [p.id, p]));
  const listed: NonNullable<MarketMakerSettings['markets']> = s.markets ?? config.currency_pairs.map((p) => ({ market: p.id }));
  const seen = new Set<string>();
  const given = new Map<string, Big>();
  listed.forEach((m, i) => {
    const pair = pairs.get(m.market);
    if (pair === undefined) fail(`market_maker.markets[${i}].market`, `"${m.market}" is not a configured currency pair`);
    if (seen.has(m.market)) fail(`market_maker.markets[${i}].market`, `${m.market} is listed twice`);
    seen.add(m.market);
    if (m.price !== undefined) given.set(m.market, new Big(checkPrice(pair, m.price, `market_maker.markets[${i}].price`)));
    if (m.size !== undefined) amount(m.size, `market_maker.markets[${i}].size`, sizeRule(pair));
  });
  const values = currencyValues(config, given);
  // Listed markets keep the object form's old meaning of an absent size: the pair's minimum (the maker's default).
  const deriveSizes = s.markets === undefined;
  const markets: MarketMakerMarketConfig[] = listed.map((m) => {
    const pair = pairs.get(m.market)!;
    const price = m.price ?? derivedPrice(pair, values);
    const size = m.size ?? (deriveSizes ? derivedSize(pair, new Big(price), values) : undefined);
    return { ...m, price, ...(size === undefined ? {} : { size }) };
  });
  const perpetuals = config.futures?.contracts ?? [];
  const contracts: MarketMakerContractConfig[] = s.contracts !== undefined ? [...s.contracts]
    : perpetuals.map((k) => ({ contract: k.name, settle: k.settle }));
  contracts.forEach((c, i) => {
    const n = perpetuals.filter((k) => k.name === c.contract && (c.settle === undefined || k.settle === c.settle)).length;
    if (n !== 1) fail(`market_maker.contracts[${i}].contract`, n === 0 ? `"${c.contract}" is not a configured contract` : `give settle: ${c.contract} is listed twice`);
  });
  const resolved: MarketMakerConfig = {
    uid, ...(takerUid === undefined ? {} : { taker_uid: takerUid }), seed: s.seed ?? 1,
    ...(s.requote_ms === undefined ? {} : { requote_ms: s.requote_ms }),
    ...(s.take_probability === undefined ? {} : { take_probability: s.take_probability }),
    markets, ...(contracts.length === 0 ? {} : { contracts }),
  };
  const users = takerUid === undefined ? [uid] : [uid, takerUid];
  const configured = new Map((config.users ?? []).map((u) => [u.uid, u]));
  const needs = fundsFor(markets, pairs);
  const rules = currencyRules(currencies);
  const funding: OpeningBalance[] = [];
  for (const [currency, need] of needs) {
    const to = users.filter((u) => configured.get(u)?.balances?.spot?.[currency] === undefined);
    if (to.length === 0) continue;
    const rule = rules.get(currency)!;
    let units = BigInt(need.times(new Big(10).pow(rule.scale)).round(0, Big.roundDown).toFixed(0));
    for (const cap of [rule.max / 10n, (rule.max - (used.get(currency) ?? 0n)) / BigInt(to.length)]) if (cap < units) units = cap;
    if (units <= 0n) continue;
    for (const u of to) funding.push({ uid: u, account: 'spot', currency, amount: formatScaled(units, rule.scale) });
  }
  // Margin for each (account, settle currency) the quoted contracts use: futures, or delivery for a dated contract.
  const settles = new Set(contracts.map((c) => {
    const k = perpetuals.find((x) => x.name === c.contract && (c.settle === undefined || x.settle === c.settle))!;
    return `${k.expire_time === undefined ? 'futures' : 'delivery'}:${k.settle.toUpperCase()}`;
  }));
  for (const key of settles) {
    const [account, currency] = key.split(':') as [string, string];
    const to = users.filter((u) => configured.get(u)?.balances?.[account]?.[currency] === undefined);
    const rule = rules.get(currency);
    if (to.length === 0 || rule === undefined) continue;
    const value = values.get(currency);
    const worth = value === undefined || value.eq(0) ? new Big(FUTURES_FUND_USD) : new Big(FUTURES_FUND_USD).div(value);
    let units = BigInt(worth.times(new Big(10).pow(rule.scale)).round(0, Big.roundDown).toFixed(0));
    for (const cap of [rule.max / 10n, (rule.max - (used.get(currency) ?? 0n)) / BigInt(to.length)]) if (cap < units) units = cap;
    if (units <= 0n) continue;
    for (const u of to) funding.push({ uid: u, account, currency, amount: formatScaled(units, rule.scale) });
  }
  funding.sort((a, b) => users.indexOf(a.uid) - users.indexOf(b.uid));
  return { config: resolved, newUsers: users.filter((u) => !configured.has(u)), funding };
}

const priceRule = (p: MarketConfig): AmountRule => ({ scale: p.precision, of: `${p.id} prices (precision ${p.precision})`, max: SAFE, positive: true });
const sizeRule = (p: MarketConfig): AmountRule => ({ scale: p.amount_precision, of: `${p.id} amounts (amount_precision ${p.amount_precision})`,
  max: SAFE, positive: true });

function checkPrice(p: MarketConfig, v: unknown, path: string): string {
  amount(v, path, priceRule(p));
  return v as string;
}

/** Currency values (module header): index prices and USDT, then what given pair prices imply, to a fixed point. */
function currencyValues(config: SimConfig, given: ReadonlyMap<string, Big>): Map<string, Big> {
  const v = new Map<string, Big>();
  for (const [code, c] of Object.entries(config.unified?.currencies ?? {})) if (c.index_price !== undefined) v.set(code, new Big(c.index_price));
  if (!v.has('USDT')) v.set('USDT', new Big(1));
  const prices: [MarketConfig, Big][] = [];
  for (const p of config.currency_pairs) {
    const g = given.get(p.id) ?? (DEMO_QUOTES[p.id] === undefined ? undefined : new Big(DEMO_QUOTES[p.id]!.price));
    if (g !== undefined) prices.push([p, g]);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [p, price] of prices) {
      const base = v.get(p.base);
      const quote = v.get(p.quote);
      if (base === undefined && quote !== undefined) v.set(p.base, price.times(quote));
      else if (quote === undefined && base !== undefined) v.set(p.quote, base.div(price));
      else continue;
      changed = true;
    }
  }
  return v;
}

function derivedPrice(p: MarketConfig, values: ReadonlyMap<string, Big>): string {
  const base = values.get(p.base);
  const quote = values.get(p.quote);
  const tick = new Big(1).div(new Big(10).pow(p.precision));
  if (base === undefined || quote === undefined || quote.eq(0)) return DEMO_QUOTES[p.id]?.price ?? '1';
  const price = base.div(quote).round(p.precision, Big.roundHalfUp);
  return minimal((price.lt(tick) ? tick : price).toFixed(p.precision));
}

function derivedSize(p: MarketConfig, price: Big, values: ReadonlyMap<string, Big>): string {
  const demo = DEMO_QUOTES[p.id];
  if (demo !== undefined) return demo.size;
  const quote = values.get(p.quote);
  const notional = quote === undefined || quote.eq(0) ? new Big(1000) : new Big(SIZE_USD).div(quote);
  const lot = new Big(1).div(new Big(10).pow(p.amount_precision));
  const size = notional.div(price).round(p.amount_precision, Big.roundUp);
  return minimal((size.lt(lot) ? lot : size).toFixed(p.amount_precision));
}

/** A fixed-point decimal string without trailing fractional zeros. */
const minimal = (fixed: string): string => (fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed);

/** Per currency, FUND_LADDERS ladders' worth of every quoted market (module header), exact. */
function fundsFor(markets: readonly MarketMakerMarketConfig[], pairs: ReadonlyMap<string, MarketConfig>): Map<string, Big> {
  const sums = new Map<string, Big>();
  const add = (code: string, x: Big): void => { sums.set(code, (sums.get(code) ?? new Big(0)).plus(x)); };
  for (const m of markets) {
    const p = pairs.get(m.market)!;
    const price = new Big(m.price);
    let size = m.size === undefined ? new Big(1).div(new Big(10).pow(p.amount_precision)) : new Big(m.size);
    if (p.min_base_amount !== undefined && size.lt(p.min_base_amount)) size = new Big(p.min_base_amount);
    if (p.min_quote_amount !== undefined && size.times(price).lt(p.min_quote_amount)) size = new Big(p.min_quote_amount).div(price);
    const ladder = size.times((m.levels ?? DEFAULT_LEVELS) * FUND_LADDERS);
    add(p.base, ladder);
    add(p.quote, ladder.times(price).times(2));
  }
  return sums;
}
