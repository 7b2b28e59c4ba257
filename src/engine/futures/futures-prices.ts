/**
 * The price side of the futures clock: where a contract's index comes from, how its mark is smoothed, and the
 * premium index and funding rate. Reads the exchange (and the contract's book through the host's `depth`);
 * changes nothing — futures-services.ts turns what it computes into FuturesSetPrices and FuturesFunding commands.
 *
 * Formulas (docs/futures.md "Prices, funding and liquidation"; prices in contract ticks, rates in 10^-8):
 * - index: a control-plane override, else the last trade of the spot market named by the contract's
 *   `index_source` (default its own name; a `_USD` contract without one falls back to `BASE_USDT`), converted to
 *   the contract's ticks, else the contract's own last trade; none of these: no index (no prices yet).
 * - basis sample: mid of the contract's best bid and ask − index (one-sided book: last trade − index; neither: 0);
 *   basis = EMA of the samples (α = 2 / (samples + 1)), clamped to ±`basisCap` × index.
 * - mark: an override, else index + basis, rounded to the nearest `mark_price_round`.
 *   (Gate: median(P1, P2, last) with P2's MA over 30 one-second samples; see the docs for why this differs.)
 * - delivery mark (Gate help 17601): index + index × r × T / year, T the time left to expiry and r the reasonable
 *   basis rate = (impact mid / index − 1) × year / T, the impact mid the mean of the impact bid and ask, each the
 *   depth-weighted price of the book side over `funding_impact_value` (basis_impact_value). r is computed again
 *   every `basis interval` of the engine clock, and only taken when both impact prices exist and their spread is
 *   below the maintenance rate × index; otherwise the previous r stays (0 before the first). Between updates the
 *   basis shrinks with T and follows the index. Exact: BigInt, r in 10^-8, half-up rounding.
 * - premium P = [max(0, impact_bid − index) − max(0, index − impact_ask)] / index, the impact prices being the
 *   level at which the book's depth (value at each level's price) reaches `funding_impact_value`; a side too
 *   thin for it adds nothing. Averaged over the samples since the last funding.
 * - rate F = P̄ + clamp(I − P̄, ±0.05 %), I = `interest_rate`, then clamped to ±`funding_rate_limit`.
 *
 * Costs: one incremental pass over trades appended since the last call (never more than the trade log holds);
 * up to DEPTH levels per book side per contract per step; a few BigInt operations.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { type Contract, indexSourceOf, valueAt } from '../../core/futures/contract.js';
import { divRound, maxBig, minBig, RATE_ONE, Round } from '../../core/futures/futures-math.js';
import { Side } from '../../core/matching/order-types.js';

/** Book levels read per side for the mid and the impact prices. */
const DEPTH = 50;
/** Gate's clamp of (interest − premium): ±0.05 % (10^-8). */
const INTEREST_CLAMP = 50_000n;
/** A year of 365 days in µs: the basis rate's annualisation. */
const YEAR_US = 365n * 86_400_000_000n;

/** What the price code reads the contract books through (an ExchangeGateway has it). */
export type DepthReader = (market: number, side: number, limit: number, prices: Float64Array, lots: Float64Array) => number;

/** Last trade price (ticks of the market) per market, kept up to date by an incremental pass over the trade log. */
export class LastPrices {
  readonly #ex: Exchange;
  readonly #last: Float64Array;
  #seen = 0;

  constructor(ex: Exchange) {
    this.#ex = ex;
    this.#last = new Float64Array(ex.markets.length).fill(Number.NaN);
  }

  /** Folds in trades appended since the last call: newest first, each market's newest one wins. */
  refresh(): void {
    const T = this.#ex.trades;
    const oldest = Math.max(this.#seen + 1, T.count - T.capacity + 1, 1);
    const fresh = new Uint8Array(this.#last.length);
    for (let id = T.count; id >= oldest; id--) {
      const slot = (id - 1) % T.capacity;
      const m = T.market[slot]!;
      if (fresh[m] === 0) { fresh[m] = 1; this.#last[m] = T.price[slot]!; }
    }
    this.#seen = T.count;
  }

  /** Last price of market `m` in its ticks, NaN when it never traded (or not since the log wrapped). */
  of(m: number): number {
    return this.#last[m] ?? Number.NaN;
  }
}

/** The spot market whose trades make contract `k`'s index, or -1. */
export function indexMarketOf(ex: Exchange, k: Contract): number {
  const named = ex.marketIndex(indexSourceOf(k));
  if (named >= 0 || k.spec.index_source !== undefined) return named;
  return k.quote === 'USD' ? ex.marketIndex(`${k.base}_USDT`) : -1;
}

/** `ticks` of a market with `fromScale` decimals as ticks of `toScale` decimals, rounded half up. */
export function rescaleTicks(ticks: number, fromScale: number, toScale: number): number {
  if (toScale >= fromScale) return ticks * 10 ** (toScale - fromScale);
  const d = 10 ** (fromScale - toScale);
  return Math.floor((ticks + d / 2) / d);
}

/** `ticks` rounded to the nearest multiple of `step` (at least one step). */
export const roundToStep = (ticks: number, step: number): number => Math.max(step, Math.round(ticks / step) * step);

/** Per contract: the smoothed basis and the premium samples since the last funding. */
export interface PriceMemory {
  /** EMA of the basis samples (ticks); NaN before the first sample. */
  ema: number;
  premiumSum: bigint;
  premiumCount: number;
}

export const freshMemory = (): PriceMemory => ({ ema: Number.NaN, premiumSum: 0n, premiumCount: 0 });

/** Best bid and ask of a book side read into the scratch arrays, and the impact prices. */
export class BookProbe {
  readonly #prices = new Float64Array(DEPTH);
  readonly #lots = new Float64Array(DEPTH);
  readonly #depth: DepthReader;

  constructor(depth: DepthReader) {
    this.#depth = depth;
  }

  /** The best price of `side` (ticks), or 0 when the side is empty. */
  best(market: number, side: number): number {
    return this.#depth(market, side, 1, this.#prices, this.#lots) > 0 ? this.#prices[0]! : 0;
  }

  /**
   * The depth-weighted price (ticks, half up) of `side` over `value` (settle units): Σ price × lots / Σ lots of the
   * levels from the best one until their value reaches `value`, the last level only for the whole contracts it
   * takes to get there; 0 when the side is thinner than `value`.
   */
  impactAverage(k: Contract, market: number, side: number, value: bigint): number {
    const n = this.#depth(market, side, DEPTH, this.#prices, this.#lots);
    let sum = 0n;
    let lots = 0n;
    let notional = 0n;
    for (let i = 0; i < n; i++) {
      const p = BigInt(this.#prices[i]!);
      const level = BigInt(this.#lots[i]!);
      const levelValue = valueAt(k, level, p);
      let take = level;
      if (sum + levelValue >= value) {
        const one = valueAt(k, 1n, p);
        if (one > 0n) take = minBig(level, maxBig(1n, divRound(value - sum, one, Round.Up)));
      }
      lots += take;
      notional += take * p;
      sum += take === level ? levelValue : valueAt(k, take, p);
      if (sum >= value) return Number(divRound(notional, lots, Round.HalfUp));
    }
    return 0;
  }

  /** The price of the level at which `side`'s depth reaches `value` (settle units), or 0 when it never does. */
  impact(k: Contract, market: number, side: number, value: bigint): number {
    const n = this.#depth(market, side, DEPTH, this.#prices, this.#lots);
    let sum = 0n;
    for (let i = 0; i < n; i++) {
      sum += valueAt(k, BigInt(this.#lots[i]!), BigInt(this.#prices[i]!));
      if (sum >= value) return this.#prices[i]!;
    }
    return 0;
  }
}

/** The basis sample of contract `ci` at `index`: book mid, or last trade, minus the index (ticks). */
export function basisSample(ex: Exchange, probe: BookProbe, last: LastPrices, ci: number, index: number): number {
  const m = ex.futures.marketOf[ci]!;
  const bid = probe.best(m, Side.Buy);
  const ask = probe.best(m, Side.Sell);
  if (bid > 0 && ask > 0) return (bid + ask) / 2 - index;
  const l = last.of(m);
  return Number.isNaN(l) ? 0 : l - index;
}

/** Folds `sample` into the EMA of `mem` over `samples`, and returns the basis clamped to ±cap × index (ticks). */
export function smoothBasis(mem: PriceMemory, sample: number, samples: number, cap: bigint, index: number): number {
  mem.ema = Number.isNaN(mem.ema) ? sample : mem.ema + ((sample - mem.ema) * 2) / (samples + 1);
  const limit = Number((BigInt(index) * cap) / RATE_ONE);
  return Math.max(-limit, Math.min(limit, Math.round(mem.ema)));
}

/** The premium index of contract `ci` at `index` (10^-8). */
export function premiumOf(ex: Exchange, probe: BookProbe, ci: number, index: number): bigint {
  const k = ex.futures.contracts[ci]!;
  const m = ex.futures.marketOf[ci]!;
  const bid = probe.impact(k, m, Side.Buy, k.impactValue);
  const ask = probe.impact(k, m, Side.Sell, k.impactValue);
  const up = bid > index ? bid - index : 0;
  const down = ask > 0 && ask < index ? index - ask : 0;
  return (BigInt(up - down) * RATE_ONE) / BigInt(index);
}

/** Gate's funding rate from the mean premium: P̄ + clamp(I − P̄, ±0.05 %), capped by the contract. */
export function fundingRateOf(k: Contract, mem: PriceMemory): bigint {
  const p = mem.premiumCount === 0 ? 0n : mem.premiumSum / BigInt(mem.premiumCount);
  const f = p + maxBig(-INTEREST_CLAMP, minBig(INTEREST_CLAMP, k.interestRate - p));
  return maxBig(-k.fundingCap, minBig(k.fundingCap, f));
}

/** Per delivery contract: the reasonable basis rate (10^-8, annualised) and the engine time of its last computation. */
export interface BasisMemory {
  rate: bigint;
  /** µs of the last attempt; -Infinity before the first. */
  triedUs: number;
}

export const freshBasis = (): BasisMemory => ({ rate: 0n, triedUs: Number.NEGATIVE_INFINITY });

/** Time left to contract `k`'s expiry at `nowUs`, µs (≤ 0 once expired). */
const leftUs = (k: Contract, nowUs: number): bigint => BigInt(k.expireTime) * 1_000_000n - BigInt(Math.floor(nowUs));

/**
 * The basis rate implied by a mark and an index at `nowUs`: (mark / index − 1) × year / T (10^-8, half up), 0 without
 * prices or time left. Used to carry the rate over a restart, whose services start without memory.
 */
export function impliedBasisRate(k: Contract, mark: number, index: number, nowUs: number): bigint {
  const left = leftUs(k, nowUs);
  if (mark <= 0 || index <= 0 || left <= 0n) return 0n;
  return divRound(BigInt(mark - index) * RATE_ONE * YEAR_US, BigInt(index) * left, Round.HalfUp);
}

/**
 * Gate's reasonable basis rate of delivery contract `ci` at `index` and `nowUs` (see the module header), or undefined
 * when it is not to be updated: an impact price missing, or the impact spread at or above the maintenance rate × index.
 */
export function reasonableBasisRate(ex: Exchange, probe: BookProbe, ci: number, index: number, nowUs: number): bigint | undefined {
  const k = ex.futures.contracts[ci]!;
  const m = ex.futures.marketOf[ci]!;
  const left = leftUs(k, nowUs);
  if (index <= 0 || left <= 0n) return undefined;
  const bid = probe.impactAverage(k, m, Side.Buy, k.impactValue);
  const ask = probe.impactAverage(k, m, Side.Sell, k.impactValue);
  if (bid <= 0 || ask <= 0) return undefined;
  if (BigInt(ask - bid) * RATE_ONE >= k.maintenanceRate * BigInt(index)) return undefined;
  // (mid / index − 1) × year / T with mid = (bid + ask) / 2.
  return divRound(BigInt(bid + ask - 2 * index) * RATE_ONE * YEAR_US, 2n * BigInt(index) * left, Round.HalfUp);
}

/** Delivery contract `k`'s mark before rounding: index + index × rate × T / year (ticks, half up). */
export function deliveryMark(k: Contract, index: number, rate: bigint, nowUs: number): number {
  const left = leftUs(k, nowUs);
  if (left <= 0n) return index;
  return index + Number(divRound(BigInt(index) * rate * left, RATE_ONE * YEAR_US, Round.HalfUp));
}
