/**
 * Isolated-margin risk arithmetic, pure and exact (BigInt), over one pair account's two holdings (base and
 * quote, each with its loan columns; valuation.ts's Holding, USD index prices of unified-account.ts).
 *
 * In USD (USD_SCALE): assets A = Σ (available + freeze) × price, liabilities L = Σ (borrowed + interest) × price,
 * equity E = A − L. With leverage λ (ppm) the account may owe up to E × (λ − 1):
 *   borrowable(h)   = ⌊(E × (λ − 1) − L) / unit price of h⌋, at most the pool and h's max_borrow less its principal
 *   transferable(h) = available of h; with liabilities at most ⌊(E × (λ − 1) − L) / ((λ − 1) × unit price)⌋
 *   risk            = A / L ("0" without liabilities); the account is locked when L > 0 and A < L × liquidation risk.
 * Borrowing x adds x to A and L alike, so E is unchanged; at the limit A / L = λ / (λ − 1), above the
 * liquidation risk by configuration (unified-params.ts). A currency without a price is worth 0 and cannot be
 * borrowed. The cross-margin account (cross-margin.ts) uses the same arithmetic over all its currencies.
 */
import { PPM, type UnifiedParams } from '../unified/unified-params.js';
import { type Holding, unitUsd, usdOf } from '../unified/valuation.js';

export interface MarginFigures {
  readonly assetUsd: bigint;
  readonly liabUsd: bigint;
  readonly equityUsd: bigint;
  readonly locked: boolean;
}

/** The figures of an account holding `holdings`, locked below `liquidationPpm` (A / L in ppm). */
export function accountFigures(holdings: readonly Holding[], liquidationPpm: bigint): MarginFigures {
  let assetUsd = 0n; let liabUsd = 0n;
  for (const h of holdings) {
    assetUsd += usdOf(h.available + h.freeze, h.scale, h.price);
    liabUsd += usdOf(h.borrowed + h.interest, h.scale, h.price);
  }
  const locked = liabUsd > 0n && assetUsd * PPM < liabUsd * liquidationPpm;
  return { assetUsd, liabUsd, equityUsd: assetUsd - liabUsd, locked };
}

/** The figures of an isolated account holding `base` and `quote`. */
export const marginFigures = (base: Holding, quote: Holding, params: UnifiedParams): MarginFigures =>
  accountFigures([base, quote], params.marginLiquidationPpm);

/** USD × ppm the account may still borrow: E × (λ − 1) − L (may be negative). */
const roomPpm = (f: MarginFigures, params: UnifiedParams): bigint =>
  f.equityUsd * (params.marginLeveragePpm - PPM) - f.liabUsd * PPM;

/** Most units of `h` the account may borrow now (see the module header); 0 when locked or without a price. */
export function marginBorrowable(h: Holding, f: MarginFigures, params: UnifiedParams, pool: bigint, maxBorrow: bigint | null): bigint {
  if (h.price === undefined || f.locked) return 0n;
  const room = roomPpm(f, params);
  let n = room <= 0n ? 0n : room / (unitUsd(h.scale, h.price) * PPM);
  if (n > pool) n = pool;
  if (maxBorrow !== null && n > maxBorrow - h.borrowed) n = maxBorrow - h.borrowed;
  return n < 0n ? 0n : n;
}

/** Most units of `h` that may leave the account (see the module header). */
export function marginTransferable(h: Holding, f: MarginFigures, params: UnifiedParams): bigint {
  if (f.liabUsd === 0n || h.price === undefined) return h.available;
  const room = roomPpm(f, params);
  if (room <= 0n) return 0n;
  const n = room / ((params.marginLeveragePpm - PPM) * unitUsd(h.scale, h.price));
  return n < h.available ? n : h.available;
}

/** A / L at 8 decimals, cut toward zero, as a scaled integer (10^8 = 1); 0 without liabilities. */
export const riskE8 = (f: MarginFigures): bigint => (f.liabUsd === 0n ? 0n : (f.assetUsd * 100_000_000n) / f.liabUsd);
