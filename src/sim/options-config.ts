/**
 * The `options` section of the simulator's config: option underlyings (core/options/options-contract.ts
 * OptionUnderlyingConfig) and the options services of the engine clock; users' opening options balances are
 * `users[].balances.options.USDT` (the options account of that currency).
 *
 *   "options": {
 *     "underlyings": [{ "name": "BTC_USDT", "multiplier": "0.01", "order_price_round": "0.1", "volatility": "0.6",
 *                       "strikes": ["55000", "60000", "65000"], "expiration_days": [1, 7] }],
 *     "clock": { "enabled": true, "index_interval_ms": 1000 },
 *     "quoter": { "uid": 10000, "size": 10, "spread": "0.05", "requote_ms": 30000 },
 *     "insurance": { "USDT": "100000" }
 *   }
 *
 * `insurance` funds the options insurance fund of each settle currency (the liquidator's options account).
 *
 * Expirations are absolute (`expirations`: seconds since the epoch) or relative (`expiration_days`: 08:00 UTC of
 * the day that many days after the start's UTC day), or both. Relative ones resolve when the exchange definition
 * is built (optionsDefinition), against the start: the simulated clock's `start_ms`, or the wall clock's day. The
 * journal (and its snapshots) keep the resolved definition; a journaled run restarted on another UTC day keeps the
 * expirations it resolved then (engine/open-gateway.ts restartDefinition, given relativeUnderlyings).
 */
import type { OptionsDefinition, OptionUnderlyingConfig } from '../core/options/options-contract.js';
import { defineUnderlying } from '../core/options/options-contract.js';
import { ConfigError } from '../core/invariant.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import type { OptionsServiceOptions } from '../engine/options/options-services.js';
import type { OptionsQuoterConfig } from './options-quoter.js';
import { array, bool, fail, integer, object, optional } from './config-check.js';

export interface OptionUnderlyingInput extends Omit<OptionUnderlyingConfig, 'expirations'> {
  readonly expirations?: readonly number[] | undefined;
  readonly expiration_days?: readonly number[] | undefined;
}

export interface OptionsConfig {
  readonly underlyings: readonly OptionUnderlyingInput[];
  readonly clock?: { readonly enabled?: boolean | undefined; readonly index_interval_ms?: number | undefined } | undefined;
  /** A user quoting every contract (options-quoter.ts); absent: nobody quotes. */
  readonly quoter?: OptionsQuoterConfig | undefined;
  /** Opening balance of each settle currency's options insurance fund (decimal strings). */
  readonly insurance?: Readonly<Record<string, string>> | undefined;
}

const DAY_S = 86_400;
const EXPIRY_HOUR_S = 8 * 3600;
/** The simulated clock's default start (as src/main.ts). */
const DEFAULT_SIM_START_MS = Date.UTC(2026, 0, 1);
const FIELDS = ['name', 'multiplier', 'order_price_round', 'expirations', 'expiration_days', 'strikes', 'volatility', 'maker_fee_rate',
  'taker_fee_rate', 'fee_cap_rate', 'initial_margin_rate', 'min_margin_rate', 'maintenance_rate', 'maintenance_min_rate',
  'order_size_min', 'order_size_max', 'orders_limit', 'index_source', 'liquidation_price_band', 'settle_price_duration'];

/** The start a config's relative expirations count from when no start is given: its simulated clock's start. */
export function configStartMs(config: object): number {
  const clock = (config as { clock?: { type?: string; start_ms?: number } }).clock;
  return clock?.type === 'sim' ? clock.start_ms ?? DEFAULT_SIM_START_MS : DEFAULT_SIM_START_MS;
}

/** The exchange's options definition of a (validated) section, relative expirations resolved against `startMs`. */
export function optionsDefinition(o: OptionsConfig | undefined, startMs: number): OptionsDefinition | undefined {
  if (o === undefined || o.underlyings.length === 0) return undefined;
  const day = Math.floor(startMs / 1000 / DAY_S) * DAY_S;
  return {
    underlyings: o.underlyings.map((u) => {
      const { expiration_days: days, expirations, ...rest } = u;
      const all = [...(expirations ?? []), ...(days ?? []).map((d) => day + d * DAY_S + EXPIRY_HOUR_S)];
      return { ...rest, expirations: [...new Set(all)].sort((a, b) => a - b) };
    }),
  };
}

/** Names of the underlyings whose expirations are (also) relative: a journal keeps what they resolved to. */
export function relativeUnderlyings(o: OptionsConfig | undefined): string[] {
  return (o?.underlyings ?? []).filter((u) => (u.expiration_days ?? []).length > 0).map((u) => u.name);
}

/** The services' options, or undefined without underlyings or with `clock.enabled` false. */
export function optionsServiceOptions(o: OptionsConfig | undefined): OptionsServiceOptions | undefined {
  if (o === undefined || o.underlyings.length === 0 || o.clock?.enabled === false) return undefined;
  return { indexIntervalMs: o.clock?.index_interval_ms };
}

/** Validates the `options` section against the currencies. Throws ConfigError naming the field. */
export function validateOptions(v: unknown, p: string, currencies: readonly CurrencySpec[], startMs: number): void {
  const o = object(v, p, ['underlyings', 'clock', 'quoter', 'insurance'], ['underlyings']);
  optional(o, 'insurance', p, (ins, ip) => {
    for (const [code, amount] of Object.entries(object(ins, ip, undefined))) {
      if (!currencies.some((s) => s.code === code)) fail(`${ip}.${code}`, 'must be a currency of the exchange');
      if (typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount)) fail(`${ip}.${code}`, 'must be a decimal string');
    }
  });
  optional(o, 'quoter', p, (q, qp) => {
    const qo = object(q, qp, ['uid', 'size', 'spread', 'requote_ms'], ['uid']);
    integer(1, 2 ** 31 - 1)(qo.uid, `${qp}.uid`);
    optional(qo, 'size', qp, integer(1, 1_000_000));
    optional(qo, 'requote_ms', qp, integer(100, DAY_S * 1000));
    if (qo.spread !== undefined && (typeof qo.spread !== 'string' || !/^0(\.[0-9]{1,8})?$/.test(qo.spread) || Number(qo.spread) <= 0)) {
      fail(`${qp}.spread`, 'must be a decimal string in (0, 1)');
    }
  });
  optional(o, 'clock', p, (c, cp) => {
    const co = object(c, cp, ['enabled', 'index_interval_ms']);
    optional(co, 'enabled', cp, bool);
    optional(co, 'index_interval_ms', cp, integer(1, DAY_S * 1000));
  });
  array(o.underlyings, `${p}.underlyings`).forEach((u, i) => {
    const up = `${p}.underlyings[${i}]`;
    const uo = object(u, up, FIELDS, ['name', 'multiplier', 'order_price_round', 'strikes']);
    optional(uo, 'expiration_days', up, (d, dp) => array(d, dp).forEach((x, j) => integer(0, 3650)(x, `${dp}[${j}]`)));
    optional(uo, 'expirations', up, (d, dp) => array(d, dp).forEach((x, j) => integer(1, 253402300799)(x, `${dp}[${j}]`)));
    if (uo.expiration_days === undefined && uo.expirations === undefined) fail(up, 'needs expirations or expiration_days');
  });
  try {
    const def = optionsDefinition(o as unknown as OptionsConfig, startMs);
    const names = new Set<string>();
    for (const u of def?.underlyings ?? []) {
      defineUnderlying(u, (code) => currencies.find((c) => c.code === code)?.scale);
      if (names.has(u.name)) throw new ConfigError(`options underlying ${u.name} listed twice`);
      names.add(u.name);
    }
  } catch (e) {
    if (e instanceof ConfigError) fail(p, e.message);
    throw e;
  }
}
