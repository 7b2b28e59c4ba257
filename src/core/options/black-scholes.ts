/**
 * The option model: Black–Scholes(–Merton) prices and greeks of European calls and puts, and the implied
 * volatility that reproduces a price. Pure float arithmetic — for DISPLAY only (mark price, mark IV, greeks
 * shown by the routes). Nothing here touches a balance: the ledger works from the mark price after it is rounded
 * onto the contract's exact grid (options-contract.ts), and margin and settlement are exact (options-margin.ts).
 *
 * Inputs: S underlying (index) price, K strike, T years to expiry (365-day years of seconds: T = s / 31_536_000),
 * σ annual volatility (0.6 = 60 %), r the continuously compounded risk-free rate (the simulator uses 0, which
 * is Black's model on the index; kept as a parameter so textbook values can be checked).
 *
 *   d1 = (ln(S/K) + (r + σ²/2)·T) / (σ·√T),  d2 = d1 − σ·√T
 *   call = S·N(d1) − K·e^(−rT)·N(d2)          put = K·e^(−rT)·N(−d2) − S·N(−d1)
 *   delta: call N(d1), put N(d1) − 1          gamma: n(d1) / (S·σ·√T)           (both option types)
 *   vega:  S·n(d1)·√T / 100                   — per one volatility point (σ + 0.01), as Gate shows it
 *   theta: per calendar day, (−S·n(d1)·σ / (2√T) ∓ r·K·e^(−rT)·N(±d2)) / 365   (− for a call, + for a put)
 *
 * At or after expiry (T ≤ 0) or with σ ≤ 0 the value is the intrinsic value (discounted strike), delta is
 * 0 or ±1 by moneyness, and gamma, vega and theta are 0. N is the standard normal distribution function
 * (Hart's double-precision algorithm as given by West, "Better approximations to cumulative normal functions",
 * absolute error below 1e-14); n its density. Costs: a few Math calls; `greeks` allocates its result object.
 */

/** Seconds in the model's year (365 days). */
export const YEAR_SECONDS = 31_536_000;

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** Standard normal density n(x). */
export function normPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/** Standard normal distribution function N(x) (Hart 1968, double precision; see the module comment). */
export function normCdf(x: number): number {
  const z = Math.abs(x);
  let c: number;
  if (z > 37) {
    c = 0;
  } else {
    const e = Math.exp(-z * z / 2);
    if (z < 7.07106781186547) {
      let n = 3.52624965998911e-2 * z + 0.700383064443688;
      n = n * z + 6.37396220353165;
      n = n * z + 33.912866078383;
      n = n * z + 112.079291497871;
      n = n * z + 221.213596169931;
      n = n * z + 220.206867912376;
      let d = 8.83883476483184e-2 * z + 1.75566716318264;
      d = d * z + 16.064177579207;
      d = d * z + 86.7807322029461;
      d = d * z + 296.564248779674;
      d = d * z + 637.333633378831;
      d = d * z + 793.826512519948;
      d = d * z + 440.413735824752;
      c = e * n / d;
    } else {
      let b = z + 0.65;
      b = z + 4 / b;
      b = z + 3 / b;
      b = z + 2 / b;
      b = z + 1 / b;
      c = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - c : c;
}

/** What the model answers for one option. */
export interface OptionGreeks {
  readonly price: number;
  readonly delta: number;
  readonly gamma: number;
  /** Per volatility point (σ + 0.01). */
  readonly vega: number;
  /** Per calendar day. */
  readonly theta: number;
}

/** The Black–Scholes value of a call (`call`) or put at (S, K, T, σ, r). */
export function optionPrice(call: boolean, S: number, K: number, T: number, sigma: number, r = 0): number {
  const df = Math.exp(-r * Math.max(T, 0));
  if (T <= 0 || sigma <= 0) return Math.max(0, call ? S - K * df : K * df - S);
  const sq = sigma * Math.sqrt(T);
  const d1 = (Math.log(S / K) + (r + sigma * sigma / 2) * T) / sq;
  const d2 = d1 - sq;
  return call ? S * normCdf(d1) - K * df * normCdf(d2) : K * df * normCdf(-d2) - S * normCdf(-d1);
}

/** Price and greeks of a call (`call`) or put at (S, K, T, σ, r); see the module comment for units. @allocates */
export function greeks(call: boolean, S: number, K: number, T: number, sigma: number, r = 0): OptionGreeks {
  if (T <= 0 || sigma <= 0 || S <= 0 || K <= 0) {
    const price = optionPrice(call, S, K, T, sigma, r);
    const itm = call ? S > K : S < K;
    return { price, delta: itm ? (call ? 1 : -1) : 0, gamma: 0, vega: 0, theta: 0 };
  }
  const sqT = Math.sqrt(T);
  const sq = sigma * sqT;
  const d1 = (Math.log(S / K) + (r + sigma * sigma / 2) * T) / sq;
  const d2 = d1 - sq;
  const df = Math.exp(-r * T);
  const pdf = normPdf(d1);
  const decay = -S * pdf * sigma / (2 * sqT);
  const price = call ? S * normCdf(d1) - K * df * normCdf(d2) : K * df * normCdf(-d2) - S * normCdf(-d1);
  return {
    price,
    delta: call ? normCdf(d1) : normCdf(d1) - 1,
    gamma: pdf / (S * sq),
    vega: S * pdf * sqT / 100,
    theta: (call ? decay - r * K * df * normCdf(d2) : decay + r * K * df * normCdf(-d2)) / 365,
  };
}

/**
 * The volatility at which the model's price equals `price` (bisection over [1e-4, 5], 100 steps: about 1e-12
 * of σ), or NaN when no σ in that range reaches it (a price below intrinsic value or above the underlying's).
 */
export function impliedVol(call: boolean, price: number, S: number, K: number, T: number, r = 0): number {
  if (!(price > 0) || T <= 0 || S <= 0 || K <= 0) return Number.NaN;
  let lo = 1e-4;
  let hi = 5;
  if (price < optionPrice(call, S, K, T, lo, r) || price > optionPrice(call, S, K, T, hi, r)) return Number.NaN;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (optionPrice(call, S, K, T, mid, r) < price) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
