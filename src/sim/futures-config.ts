/**
 * The `futures` section of the simulator's config: perpetual and delivery contracts (Gate's Contract fields, see
 * core/futures/contract.ts ContractConfig) and the insurance funds' opening balances, plus users' opening
 * futures balances (`users[].balances.futures.USDT`, credited to the futures account of that settle currency;
 * `users[].balances.delivery.USDT` to the delivery account).
 *
 * A delivery contract is a contract with a dated name and `expire_time` (seconds since the epoch, on the name's
 * UTC day), optional `cycle`, `settle_price_duration`, `delisting_duration` and `settle_fee_rate`
 * (docs/derivatives.md "Delivery"):
 *     { "name": "BTC_USDT_20261225", "settle": "usdt", "expire_time": 1798185600, "cycle": "QUARTERLY", … }
 *
 *   "futures": {
 *     "contracts": [{ "name": "BTC_USDT", "settle": "usdt", "quanto_multiplier": "0.0001", "order_price_round": "0.1", … }],
 *     "insurance": { "USDT": "1000000" },
 *     "clock": { "price_interval_ms": 1000, "mark_ema_samples": 30, "mark_basis_cap": "0.005", "basis_interval_ms": 60000,
 *                "liquidation_interval_ms": 1000, "liquidations_per_pass": 1000 }
 *   }
 *
 * `clock` (all optional, defaults as shown; `"enabled": false` stops them) sets the futures services of the
 * engine clock (engine/futures/futures-services.ts): the price clock's period, the basis EMA and its cap, how often
 * a delivery contract's reasonable basis rate is computed again, the periodic liquidation scan and the liquidations
 * one pass issues at most.
 *
 * A settle currency needs the decimals of quanto × price (linear contracts): a derived currency's scale is raised
 * to that (settleScales); an explicit one below it is refused. Every contract is validated exactly as the engine
 * will build it (defineContract), so a config that loads also starts.
 */
import type { ContractConfig } from '../core/futures/contract.js';
import { defineContract } from '../core/futures/contract.js';
import { decimalsOf, parseSignedUnits, RATE_SCALE } from '../core/futures/futures-math.js';
import { ConfigError } from '../core/invariant.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import { FUTURES_SERVICE_DEFAULTS, type FuturesServiceOptions } from '../engine/futures/futures-services.js';
import { array, bool, fail, integer, object, type Obj, optional } from './config-check.js';

/** The futures services of the engine clock (`futures.clock`); every field optional. */
export interface FuturesClockConfig {
  /** Default true: prices, funding and liquidation run by themselves. */
  readonly enabled?: boolean | undefined;
  /** Engine-clock ms between price updates (default 1000). */
  readonly price_interval_ms?: number | undefined;
  /** Samples the mark's basis EMA spans (default 30). */
  readonly mark_ema_samples?: number | undefined;
  /** Largest |mark − index| / index (default "0.005"). */
  readonly mark_basis_cap?: string | undefined;
  /** Engine-clock ms between computations of a delivery contract's reasonable basis rate (default 60000). */
  readonly basis_interval_ms?: number | undefined;
  /** Engine-clock ms between periodic liquidation scans (default 1000; every price change scans too). */
  readonly liquidation_interval_ms?: number | undefined;
  /** Liquidations one pass issues at most (default 1000). */
  readonly liquidations_per_pass?: number | undefined;
}

export interface FuturesConfig {
  readonly contracts: readonly ContractConfig[];
  /** Opening balance of each settle currency's insurance fund (decimal strings). */
  readonly insurance?: Readonly<Record<string, string>> | undefined;
  /** The futures services of the engine clock (see the module header). */
  readonly clock?: FuturesClockConfig | undefined;
}

const CLOCK_FIELDS = ['enabled', 'price_interval_ms', 'mark_ema_samples', 'mark_basis_cap', 'basis_interval_ms', 'liquidation_interval_ms',
  'liquidations_per_pass'];
const DAY_MS = 86_400_000;

/** `mark_basis_cap` as a rate of 10^-8, or undefined when it is not a decimal in 0..1 with at most 8 decimals. */
function basisCap(v: unknown): bigint | undefined {
  if (typeof v !== 'string' || !/^\d+(\.\d+)?$/.test(v)) return undefined;
  const r = parseSignedUnits(v, RATE_SCALE);
  return r !== undefined && r >= 0n && r <= 100_000_000n ? r : undefined;
}

function validateClock(v: unknown, p: string): void {
  const o = object(v, p, CLOCK_FIELDS);
  optional(o, 'enabled', p, bool);
  optional(o, 'price_interval_ms', p, integer(1, DAY_MS));
  optional(o, 'mark_ema_samples', p, integer(1, 100_000));
  optional(o, 'basis_interval_ms', p, integer(1, DAY_MS));
  optional(o, 'liquidation_interval_ms', p, integer(1, DAY_MS));
  optional(o, 'liquidations_per_pass', p, integer(1, 1_000_000));
  if (o.mark_basis_cap !== undefined && basisCap(o.mark_basis_cap) === undefined) {
    fail(`${p}.mark_basis_cap`, 'must be a decimal string from 0 to 1 with at most 8 decimals');
  }
}

/**
 * The services' options of a (validated) futures section, or undefined when there are no contracts or
 * `clock.enabled` is false.
 */
export function futuresServiceOptions(f: FuturesConfig | undefined): FuturesServiceOptions | undefined {
  if (f === undefined || f.contracts.length === 0 || f.clock?.enabled === false) return undefined;
  const c = f.clock ?? {};
  return {
    priceIntervalMs: c.price_interval_ms, markEmaSamples: c.mark_ema_samples,
    markBasisCap: c.mark_basis_cap === undefined ? FUTURES_SERVICE_DEFAULTS.markBasisCap : basisCap(c.mark_basis_cap),
    basisIntervalMs: c.basis_interval_ms,
    liquidationIntervalMs: c.liquidation_interval_ms, liquidationsPerPass: c.liquidations_per_pass,
  };
}

const CONTRACT_FIELDS = ['name', 'settle', 'type', 'quanto_multiplier', 'order_price_round', 'mark_price_round', 'leverage_min',
  'leverage_max', 'default_leverage', 'maintenance_rate', 'maker_fee_rate', 'taker_fee_rate', 'risk_limit_base', 'risk_limit_step',
  'risk_limit_max', 'funding_interval', 'funding_rate_limit', 'interest_rate', 'funding_impact_value', 'order_size_min',
  'order_size_max', 'order_price_deviate', 'orders_limit', 'market_order_slip_ratio', 'index_source',
  'expire_time', 'cycle', 'settle_price_duration', 'delisting_duration', 'settle_fee_rate'];
const NUMBER_FIELDS = new Set(['funding_interval', 'order_size_min', 'order_size_max', 'orders_limit', 'expire_time',
  'settle_price_duration', 'delisting_duration']);

/** Decimals a contract needs of its settle currency: quanto × price for a linear contract, 8 for an inverse one. */
export function settleDecimalsNeeded(c: ContractConfig): number {
  if (typeof c.quanto_multiplier !== 'string' && c.quanto_multiplier !== undefined) return 0;
  const inverse = c.type === 'inverse' || (c.type === undefined && c.name.split('_')[1] !== c.settle.toUpperCase());
  if (inverse) return 8;
  const price = Math.max(decimalsOf(c.order_price_round), decimalsOf(c.mark_price_round ?? c.order_price_round));
  return decimalsOf(c.quanto_multiplier ?? '1') + price;
}

/**
 * Currencies with each settle currency at the decimals its contracts need: a derived one raised, an absent one
 * added (8 decimals at least), an explicit one (`explicit`) kept, or ConfigError when it is short. @allocates
 */
export function settleScales(currencies: readonly CurrencySpec[], futures: FuturesConfig | undefined,
  explicit: ReadonlySet<string>): CurrencySpec[] {
  const out = [...currencies];
  const list: unknown = futures?.contracts;
  // A malformed section is left to validateFutures, which names the field.
  const contracts = Array.isArray(list) ? list.filter((c): c is ContractConfig => typeof c === 'object' && c !== null
    && typeof (c as Obj).name === 'string' && typeof (c as Obj).settle === 'string' && typeof (c as Obj).order_price_round === 'string') : [];
  for (const c of contracts) {
    const code = c.settle.toUpperCase();
    const need = settleDecimalsNeeded(c);
    const i = out.findIndex((x) => x.code === code);
    if (i < 0) out.push({ code, scale: Math.max(8, need), maxSupply: '1000000000000' });
    else if (out[i]!.scale < need) {
      if (explicit.has(code)) {
        throw new ConfigError(`config: currencies: ${code} has ${out[i]!.scale} decimals; futures contract ${c.name} needs ${need}`);
      }
      out[i] = { ...out[i]!, scale: need };
    }
  }
  return out;
}

/** Validates the `futures` section against the currencies (after settleScales). Throws ConfigError. */
export function validateFutures(v: unknown, p: string, currencies: readonly CurrencySpec[]): void {
  const o = object(v, p, ['contracts', 'insurance', 'clock'], ['contracts']);
  optional(o, 'clock', p, validateClock);
  const names = new Set<string>();
  array(o.contracts, `${p}.contracts`).forEach((x, i) => {
    const cp = `${p}.contracts[${i}]`;
    const c = object(x, cp, CONTRACT_FIELDS, ['name', 'settle', 'order_price_round']);
    for (const [k, val] of Object.entries(c)) {
      if (NUMBER_FIELDS.has(k) ? typeof val !== 'number' : k !== 'type' && typeof val !== 'string') {
        fail(`${cp}.${k}`, NUMBER_FIELDS.has(k) ? 'must be a number' : 'must be a string');
      }
    }
    const settle = String(c.settle).toUpperCase();
    const cur = currencies.find((s) => s.code === settle);
    if (cur === undefined) fail(`${cp}.settle`, `${settle} is not a currency of the exchange`);
    const key = `${settle}/${String(c.name)}`;
    if (names.has(key)) fail(`${cp}.name`, `duplicate contract ${String(c.name)} in ${String(c.settle)}`);
    names.add(key);
    try {
      defineContract(c as unknown as ContractConfig, cur.scale);
    } catch (e) {
      fail(cp, (e as Error).message.replace(/^futures contract [^:]+: /, ''));
    }
  });
  if (o.insurance !== undefined) {
    const ins = object(o.insurance, `${p}.insurance`, undefined);
    for (const [code, amount] of Object.entries(ins)) {
      if (!currencies.some((s) => s.code === code)) fail(`${p}.insurance.${code}`, 'must be a currency of the exchange');
      if (typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount)) fail(`${p}.insurance.${code}`, 'must be a decimal string');
    }
  }
}
