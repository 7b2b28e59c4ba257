/**
 * One user's unified account read from the exchange: holdings (the Spot account a unified user trades from,
 * with its loan columns), index prices, and the figures of valuation.ts. Reads only; allocates its results.
 *
 * Index price of a currency: the configured `index_price`, else USDT = 1, else the last retained trade of
 * CUR_USDT (a currency with neither has no price: worth 0, not borrowable).
 */
import type { ExchangeContext } from '../exchange/context.js';
import { crossFigures } from '../futures/account-figures.js';
import { AccountKind } from '../ledger/account-kinds.js';
import type { Price } from './unified-params.js';
import { type AccountFigures, accountFigures, borrowable, type Holding } from './valuation.js';

/** Last trade price per market, valid while the trade log's count is `count`. */
interface LastPrices { count: number; readonly byMarket: Map<number, Price> }
const lastPrices = new WeakMap<ExchangeContext, LastPrices>();

/**
 * The last retained trade price of market `m`. One backward pass over the trade ring finds every market's last
 * price; it is cached until the next trade, so reads between trades cost a map lookup.
 */
function lastPrice(ex: ExchangeContext, m: number): Price | undefined {
  const T = ex.trades;
  let cache = lastPrices.get(ex);
  if (cache === undefined || cache.count !== T.count) {
    cache = { count: T.count, byMarket: new Map() };
    lastPrices.set(ex, cache);
    const byMarket = cache.byMarket;
    const markets = ex.markets.length;
    T.newest((slot) => {
      const mk = T.market[slot]!;
      if (!byMarket.has(mk)) byMarket.set(mk, { num: BigInt(T.price[slot]!), scale: ex.markets[mk]!.priceScale });
      return byMarket.size === markets;
    }, 1);
  }
  return cache.byMarket.get(m);
}

/** The USD index price of `code`, or undefined. */
export function priceOf(ex: ExchangeContext, code: string): Price | undefined {
  const cp = ex.unified.params.currencies.get(code);
  if (cp?.indexPrice !== undefined) return cp.indexPrice;
  const m = ex.marketIndex(`${code}_USDT`);
  return m < 0 ? undefined : lastPrice(ex, m);
}

/**
 * The holding of `uid` in currency index `cur`. When the account carries the currency's futures (USDT futures
 * in multi_currency with usdt_futures, or portfolio), their margin is already in `freeze` (margin holds on
 * this balance) and `futures` adds their unrealised PnL and margin requirements.
 */
export function holdingOf(ex: ExchangeContext, uid: number, cur: number, price?: Price): Holding {
  const code = ex.currencies[cur]!;
  const b = ex.ledger.balance(uid, AccountKind.Spot, 0, code)!;
  const holding: Holding = {
    code, scale: ex.definition.currencies[cur]!.scale,
    available: BigInt(b.available), freeze: BigInt(b.locked), borrowed: BigInt(b.borrowed), interest: BigInt(b.interest),
    price: price ?? priceOf(ex, code),
  };
  if (ex.futures.contracts.length === 0 || !ex.ledger.futures.onSpot(uid, cur)) return holding;
  const f = crossFigures(ex, uid, cur);
  if (f.allInitial === 0n && f.upnl === 0n && f.allMaintenance === 0n) return holding;
  return { ...holding, futures: { upnl: f.upnl, initial: f.allInitial, maintenance: f.allMaintenance } };
}

/** Every currency's holding of `uid`, in currency order. @allocates */
export function holdingsOf(ex: ExchangeContext, uid: number): Holding[] {
  return ex.currencies.map((_c, cur) => holdingOf(ex, uid, cur));
}

export const figuresOf = (ex: ExchangeContext, holdings: readonly Holding[]): AccountFigures => accountFigures(holdings, ex.unified.params);

/** Units of currency index `cur` `uid` may borrow now (mode, margin, pool, user maximum). */
export function borrowableOf(ex: ExchangeContext, uid: number, cur: number, holdings = holdingsOf(ex, uid)): bigint {
  const fig = figuresOf(ex, holdings);
  const cp = ex.unified.params.currencies.get(ex.currencies[cur]!)!;
  return borrowable(ex.unified.modeOf(uid), holdings[cur]!, cp, fig, ex.unified.params, ex.ledger.poolAvailable(cur));
}
