/**
 * The unified account's risk arithmetic, pure and exact (BigInt), over one user's holdings.
 *
 * Per currency (integer units): equity = available + freeze − borrowed − interest (may be negative);
 * total_liab = borrowed + interest. In USD (USD_SCALE): value = units × price; a positive equity counts as
 * collateral after its liquidity discount (tiers applied slice by slice, each slice floored); a negative equity
 * counts fully against the account. Account figures (multi_currency and portfolio):
 *   margin balance MB = Σ collateral − Σ negative equity
 *   initial margin IM = ⌊Σ liab_usd × imr⌋,  maintenance margin MM = ⌊Σ liab_usd × mmr⌋  (ratios in ppm)
 *   available margin  = MB − IM; the account is locked (liquidation zone) when it owes and MB < MM.
 * A currency without a price (no index price, no CUR_USDT trade yet) is worth 0 and cannot be borrowed.
 */
import { type CurrencyParams, type DiscountTier, PPM, type Price, RATE_ONE, USD_SCALE, type UnifiedParams } from './unified-params.js';

export const UnifiedMode = { Classic: 0, MultiCurrency: 1, Portfolio: 2, SingleCurrency: 3 } as const;
export type UnifiedMode = (typeof UnifiedMode)[keyof typeof UnifiedMode];
export const MODE_NAMES = ['classic', 'multi_currency', 'portfolio', 'single_currency'] as const;

/** True for the modes in which the account borrows against its margin. */
export const borrowingMode = (mode: number): boolean => mode === UnifiedMode.MultiCurrency || mode === UnifiedMode.Portfolio;

export interface Holding {
  readonly code: string;
  readonly scale: number;
  readonly available: bigint;
  readonly freeze: bigint;
  readonly borrowed: bigint;
  readonly interest: bigint;
  readonly price: Price | undefined;
  /**
   * USDT futures carried by the unified account (seed 4.6), in units of this currency: unrealised PnL at mark
   * (part of equity), and the positions' initial and maintenance margins (added to the account's). Absent: none.
   */
  readonly futures?: { readonly upnl: bigint; readonly initial: bigint; readonly maintenance: bigint } | undefined;
}

export interface CurrencyFigures {
  readonly equity: bigint;
  readonly totalLiab: bigint;
  /** USD of available + freeze. */
  readonly assetUsd: bigint;
  readonly liabUsd: bigint;
  readonly collateralUsd: bigint;
  /** USD of a negative equity (0 otherwise). */
  readonly shortUsd: bigint;
}

export interface AccountFigures {
  readonly currencies: ReadonlyMap<string, CurrencyFigures>;
  readonly totalUsd: bigint;
  readonly liabUsd: bigint;
  readonly borrowedUsd: bigint;
  readonly marginBalance: bigint;
  readonly initialMargin: bigint;
  readonly maintenanceMargin: bigint;
  readonly availableMargin: bigint;
  readonly locked: boolean;
}

const POW10N: readonly bigint[] = Array.from({ length: USD_SCALE + 1 }, (_, k) => 10n ** BigInt(k));

/** USD (USD_SCALE) of one smallest unit of a currency of `scale` decimals at `price`. */
export const unitUsd = (scale: number, price: Price): bigint => price.num * POW10N[USD_SCALE - scale - price.scale]!;

/** USD (USD_SCALE) of `units`; 0 without a price. */
export const usdOf = (units: bigint, scale: number, price: Price | undefined): bigint =>
  price === undefined ? 0n : units * unitUsd(scale, price);

/** A USD value after the liquidity discount tiers (each slice floored). */
export function discounted(value: bigint, tiers: readonly DiscountTier[]): bigint {
  let out = 0n;
  let lo = 0n;
  for (const t of tiers) {
    if (value <= lo) break;
    const hi = t.upTo === null || value < t.upTo ? value : t.upTo;
    out += ((hi - lo) * t.ppm) / PPM;
    if (t.upTo === null) break;
    lo = t.upTo;
  }
  return out;
}

/** Every figure of the module header for `holdings` (one per currency). @allocates */
export function accountFigures(holdings: readonly Holding[], params: UnifiedParams): AccountFigures {
  const currencies = new Map<string, CurrencyFigures>();
  let totalUsd = 0n; let liabUsd = 0n; let borrowedUsd = 0n; let collateral = 0n; let short = 0n;
  let futuresIm = 0n; let futuresMm = 0n;
  for (const h of holdings) {
    const cp = params.currencies.get(h.code);
    const equity = h.available + h.freeze + (h.futures?.upnl ?? 0n) - h.borrowed - h.interest;
    if (h.futures !== undefined) {
      futuresIm += usdOf(h.futures.initial, h.scale, h.price);
      futuresMm += usdOf(h.futures.maintenance, h.scale, h.price);
    }
    const totalLiab = h.borrowed + h.interest;
    const assetUsd = usdOf(h.available + h.freeze, h.scale, h.price);
    const lUsd = usdOf(totalLiab, h.scale, h.price);
    const collateralUsd = equity > 0n ? discounted(usdOf(equity, h.scale, h.price), cp?.tiers ?? []) : 0n;
    const shortUsd = equity < 0n ? usdOf(-equity, h.scale, h.price) : 0n;
    currencies.set(h.code, { equity, totalLiab, assetUsd, liabUsd: lUsd, collateralUsd, shortUsd });
    totalUsd += assetUsd; liabUsd += lUsd; borrowedUsd += usdOf(h.borrowed, h.scale, h.price);
    collateral += collateralUsd; short += shortUsd;
  }
  const marginBalance = collateral - short;
  const initialMargin = (liabUsd * params.imrPpm) / PPM + futuresIm;
  const maintenanceMargin = (liabUsd * params.mmrPpm) / PPM + futuresMm;
  return {
    currencies, totalUsd, liabUsd, borrowedUsd, marginBalance, initialMargin, maintenanceMargin,
    availableMargin: marginBalance - initialMargin,
    locked: liabUsd > 0n && marginBalance < maintenanceMargin,
  };
}

/**
 * Most units of `h` the account may borrow now: 0 outside the borrowing modes or without a price; else the
 * least of what keeps IM ≤ MB (borrowing leaves the equity, hence MB, unchanged and adds liab × imr to IM),
 * the lending pool and the user's maximum less what it already owes.
 */
export function borrowable(mode: number, h: Holding, cp: CurrencyParams, fig: AccountFigures, params: UnifiedParams,
  pool: bigint): bigint {
  if (!borrowingMode(mode) || h.price === undefined) return 0n;
  const u = unitUsd(h.scale, h.price);
  const room = fig.marginBalance * PPM - fig.liabUsd * params.imrPpm;
  let n = room <= 0n ? 0n : room / (u * params.imrPpm);
  if (n > pool) n = pool;
  if (cp.maxBorrow !== null) {
    const left = cp.maxBorrow - h.borrowed;
    if (n > left) n = left;
  }
  return n < 0n ? 0n : n;
}

/**
 * Most units of `h` that may leave the account: its available balance, and with liabilities in a borrowing
 * mode no more than keeps MB ≥ IM (each unit out lowers MB by at most its undiscounted value).
 */
export function transferable(mode: number, h: Holding, fig: AccountFigures): bigint {
  if (!borrowingMode(mode) || fig.liabUsd === 0n) return h.available;
  if (fig.availableMargin <= 0n) return 0n;
  if (h.price === undefined) return h.available;
  const n = fig.availableMargin / unitUsd(h.scale, h.price);
  return n < h.available ? n : h.available;
}

/** Interest for `hours` whole hours on `borrowed` units at `rate` (per 10^12 per hour): each hour rounded up. */
export function hourlyInterest(borrowed: bigint, rate: bigint, hours: bigint): bigint {
  if (borrowed <= 0n || rate === 0n || hours <= 0n) return 0n;
  return hours * ((borrowed * rate + RATE_ONE - 1n) / RATE_ONE);
}

/** `v` at `scale` decimals as a decimal string cut (toward zero) to at most `keep` decimals, zeros trimmed. */
export function formatScaled(v: bigint, scale: number, keep: number): string {
  const neg = v < 0n;
  let a = neg ? -v : v;
  if (keep < scale) a /= POW10N[scale - keep]!;
  const s = Math.min(keep, scale);
  const digits = a.toString().padStart(s + 1, '0');
  let out = s === 0 ? digits : `${digits.slice(0, -s)}.${digits.slice(-s)}`;
  if (s > 0) out = out.replace(/0+$/, '').replace(/\.$/, '');
  return neg && out !== '0' ? `-${out}` : out;
}

/** MB / margin as a decimal string with 8 decimals at most; "0" when `margin` is 0. */
export function marginRate(balance: bigint, margin: bigint): string {
  if (margin <= 0n) return '0';
  return formatScaled((balance * 100_000_000n) / margin, 8, 8);
}
