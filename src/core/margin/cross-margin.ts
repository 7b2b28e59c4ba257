/**
 * The cross-margin account read from the exchange: the holdings of (uid, CrossMargin, 0) in every currency,
 * valued at the unified account's USD index prices, and the figures of margin-risk.ts over all of them: assets
 * A = Σ (available + freeze) × price, liabilities L = Σ (borrowed + interest) × price, risk = A / L, locked when
 * L > 0 and A < L × `cross_margin_liquidation_risk` (default 1.1). Borrowing is held to the shared margin
 * leverage λ (L ≤ E × (λ − 1)), so a loan never leaves the account at the lock. Reads only; cost: one balance
 * lookup and one valuation per registered currency. @allocates
 */
import type { ExchangeContext } from '../exchange/context.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { priceOf } from '../unified/unified-account.js';
import type { Holding } from '../unified/valuation.js';
export { CROSS_MARKET } from '../unified/unified-state.js';
import { accountFigures, marginBorrowable, type MarginFigures } from './margin-risk.js';

/** The holding of currency index `cur` in `uid`'s cross-margin account. */
export function crossHolding(ex: ExchangeContext, uid: number, cur: number): Holding {
  const code = ex.currencies[cur]!;
  const b = ex.ledger.balance(uid, AccountKind.CrossMargin, 0, code)!;
  return {
    code, scale: ex.definition.currencies[cur]!.scale,
    available: BigInt(b.available), freeze: BigInt(b.locked), borrowed: BigInt(b.borrowed), interest: BigInt(b.interest),
    price: priceOf(ex, code),
  };
}

export interface CrossAccountView {
  /** By currency index. */
  readonly holdings: readonly Holding[];
  readonly figures: MarginFigures;
}

/** Holdings and figures of `uid`'s cross-margin account. */
export function crossAccountOf(ex: ExchangeContext, uid: number): CrossAccountView {
  const holdings = ex.currencies.map((_c, i) => crossHolding(ex, uid, i));
  return { holdings, figures: accountFigures(holdings, ex.unified.params.crossLiquidationPpm) };
}

/** Units of currency index `cur` `uid` may borrow on its cross-margin account now (leverage, pool, maximum). */
export function crossBorrowableOf(ex: ExchangeContext, uid: number, cur: number): bigint {
  const v = crossAccountOf(ex, uid);
  const h = v.holdings[cur]!;
  const cp = ex.unified.params.currencies.get(h.code)!;
  return marginBorrowable(h, v.figures, ex.unified.params, ex.ledger.poolAvailable(cur), cp.maxBorrow);
}
