/**
 * The option model on a contract's grid: Black–Scholes (black-scholes.ts, r = 0) at the underlying's index (the
 * strike while there is none), its configured volatility and the time to expiry, with the value rounded to the
 * nearest tick (at least one tick). The engine's edge turns this into the journaled mark price
 * (OptionsSetMark, engine/options/options-services.ts); the routes show its greeks. Floats stay here and in the
 * display: the mark enters exact arithmetic only as the integer ticks a command carried.
 * Costs: a few Math calls; allocates the result.
 */
import { greeks, YEAR_SECONDS } from './black-scholes.js';
import type { OptionContract, OptionUnderlying } from './options-contract.js';

/** Model figures of a contract: value in ticks, IV and greeks (display floats). */
export interface ModelFigures {
  readonly markTicks: number; readonly iv: number; readonly delta: number; readonly gamma: number; readonly vega: number;
  readonly theta: number;
}

/** The model of contract `k` of underlying `u` at index `index` (ticks; 0: none yet) and engine time `nowUs`. */
export function contractModel(u: OptionUnderlying, k: OptionContract, index: number, nowUs: number): ModelFigures {
  const scale = 10 ** u.priceScale;
  const I = (index > 0 ? index : k.strike) / scale;
  const T = Math.max(0, (k.expiration * 1e6 - nowUs) / 1e6 / YEAR_SECONDS);
  const g = greeks(k.call, I, k.strike / scale, T, u.volatility);
  const markTicks = Math.max(u.tick, Math.round((g.price * scale) / u.tick) * u.tick);
  return { markTicks, iv: u.volatility, delta: g.delta, gamma: g.gamma, vega: g.vega, theta: g.theta };
}
