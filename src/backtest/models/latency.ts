/**
 * Latency per leg, in µs: constant, or drawn from a seeded distribution. Each leg draws from its own PRNG
 * (seeded from the run's seed and the leg's index), so adding draws on one leg never shifts another's.
 *
 *   { "type": "constant", "us": 500 }
 *   { "type": "uniform", "min_us": 200, "max_us": 900 }
 *   { "type": "normal", "mean_us": 500, "std_us": 100, "min_us": 50 }      truncated below at min_us
 *   { "type": "lognormal", "median_us": 400, "sigma": 0.5, "max_us": 50000 }
 *   { "type": "recorded" }       feed leg only: the data's own local_timestamp − timestamp
 *
 * Draws are integers (µs, rounded half up) and never negative.
 */
import { ConfigError } from '../../core/invariant.js';
import { Prng } from '../../core/prng.js';

export type LatencySpec =
  | { readonly type: 'constant'; readonly us: number }
  | { readonly type: 'uniform'; readonly min_us: number; readonly max_us: number }
  | { readonly type: 'normal'; readonly mean_us: number; readonly std_us: number; readonly min_us?: number }
  | { readonly type: 'lognormal'; readonly median_us: number; readonly sigma: number; readonly max_us?: number }
  | { readonly type: 'recorded' };

export const LEGS = ['entry', 'cancel', 'ack', 'feed'] as const;
export type Leg = (typeof LEGS)[number];

const nonNeg = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ConfigError(`${what} must be a non-negative number`);
  return v;
};

const FIELDS: Readonly<Record<string, readonly string[]>> = {
  constant: ['us'], uniform: ['min_us', 'max_us'], normal: ['mean_us', 'std_us', 'min_us'],
  lognormal: ['median_us', 'sigma', 'max_us'], recorded: [],
};

/** Validates a spec (throws ConfigError naming the leg); a field the type does not use is an error. */
export function checkLatency(spec: LatencySpec, leg: Leg): LatencySpec {
  const w = `latency.${leg}`;
  const allowed = FIELDS[spec.type];
  for (const k of Object.keys(spec)) {
    if (k !== 'type' && allowed !== undefined && !allowed.includes(k)) throw new ConfigError(`${w}.${k} does not apply to type ${spec.type}`);
  }
  switch (spec.type) {
    case 'constant': nonNeg(spec.us, `${w}.us`); break;
    case 'uniform': if (nonNeg(spec.min_us, `${w}.min_us`) > nonNeg(spec.max_us, `${w}.max_us`)) throw new ConfigError(`${w}: min_us > max_us`); break;
    case 'normal': nonNeg(spec.mean_us, `${w}.mean_us`); nonNeg(spec.std_us, `${w}.std_us`); if (spec.min_us !== undefined) nonNeg(spec.min_us, `${w}.min_us`); break;
    case 'lognormal': nonNeg(spec.median_us, `${w}.median_us`); nonNeg(spec.sigma, `${w}.sigma`); if (spec.max_us !== undefined) nonNeg(spec.max_us, `${w}.max_us`); break;
    case 'recorded': if (leg !== 'feed') throw new ConfigError(`${w}: "recorded" applies to the feed leg only`); break;
    default: throw new ConfigError(`${w}.type must be constant, uniform, normal, lognormal or recorded`);
  }
  return spec;
}

/** One leg's latency source, with running statistics for the report. */
export class LatencyModel {
  readonly #spec: LatencySpec;
  readonly #r: Prng;
  count = 0;
  sum = 0;
  min = Number.POSITIVE_INFINITY;
  max = 0;

  constructor(spec: LatencySpec, leg: Leg, seed: number) {
    this.#spec = checkLatency(spec, leg);
    this.#r = new Prng(seed * 8 + LEGS.indexOf(leg) + 1);
  }

  get recorded(): boolean {
    return this.#spec.type === 'recorded';
  }

  /** The next latency in µs (for `recorded`, the data's own delay, passed in). */
  draw(recordedUs = 0): number {
    const s = this.#spec;
    let v: number;
    switch (s.type) {
      case 'constant': v = s.us; break;
      case 'uniform': v = s.min_us + this.#r.nextFloat() * (s.max_us - s.min_us); break;
      case 'normal': v = Math.max(s.min_us ?? 0, s.mean_us + s.std_us * this.#r.nextGaussian()); break;
      case 'lognormal': v = Math.min(s.max_us ?? Number.MAX_SAFE_INTEGER, s.median_us * Math.exp(s.sigma * this.#r.nextGaussian())); break;
      case 'recorded': v = recordedUs; break;
    }
    const us = Math.max(0, Math.round(v));
    this.count++;
    this.sum += us;
    if (us < this.min) this.min = us;
    if (us > this.max) this.max = us;
    return us;
  }

  /** Report fields. @allocates */
  stats(): { spec: LatencySpec; draws: number; mean_us: number; min_us: number; max_us: number } {
    return {
      spec: this.#spec, draws: this.count, mean_us: this.count === 0 ? 0 : Number((this.sum / this.count).toFixed(3)),
      min_us: this.count === 0 ? 0 : this.min, max_us: this.max,
    };
  }
}
