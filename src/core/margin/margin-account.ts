/**
 * One isolated-margin account read from the exchange: the holdings of (uid, Margin, market) for the pair's base
 * and quote, with the unified account's USD index prices, and the figures of margin-risk.ts. Reads only.
 */
import type { ExchangeContext } from '../exchange/context.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { priceOf } from '../unified/unified-account.js';
import type { Holding } from '../unified/valuation.js';
import { marginBorrowable, type MarginFigures, marginFigures } from './margin-risk.js';

/** The holding of currency index `cur` in `uid`'s margin account of `market`. */
export function marginHolding(ex: ExchangeContext, uid: number, market: number, cur: number): Holding {
  const code = ex.currencies[cur]!;
  const b = ex.ledger.balance(uid, AccountKind.Margin, market, code)!;
  return {
    code, scale: ex.definition.currencies[cur]!.scale,
    available: BigInt(b.available), freeze: BigInt(b.locked), borrowed: BigInt(b.borrowed), interest: BigInt(b.interest),
    price: priceOf(ex, code),
  };
}

/** Currency indexes [base, quote] of `market`. */
export function pairCurrencies(ex: ExchangeContext, market: number): [number, number] {
  const spec = ex.markets[market]!.spec;
  return [ex.currencyIndex(spec.base), ex.currencyIndex(spec.quote)];
}

export interface MarginAccountView {
  readonly base: Holding;
  readonly quote: Holding;
  readonly figures: MarginFigures;
}

/** Holdings and figures of `uid`'s margin account of `market`. @allocates */
export function marginAccountOf(ex: ExchangeContext, uid: number, market: number): MarginAccountView {
  const [b, q] = pairCurrencies(ex, market);
  const base = marginHolding(ex, uid, market, b);
  const quote = marginHolding(ex, uid, market, q);
  return { base, quote, figures: marginFigures(base, quote, ex.unified.params) };
}

/** Units of currency index `cur` (the pair's base or quote) `uid` may borrow on `market` now. */
export function marginBorrowableOf(ex: ExchangeContext, uid: number, market: number, cur: number): bigint {
  const v = marginAccountOf(ex, uid, market);
  const h = cur === ex.currencyIndex(v.base.code) ? v.base : v.quote;
  const cp = ex.unified.params.currencies.get(h.code)!;
  return marginBorrowable(h, v.figures, ex.unified.params, ex.ledger.poolAvailable(cur), cp.maxBorrow);
}
