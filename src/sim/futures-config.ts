/**
 * The `futures` section of the simulator's config: perpetual contracts (Gate's Contract fields, see
 * core/futures/contract.ts ContractConfig) and the insurance funds' opening balances, plus users' opening
 * futures balances (`users[].balances.futures.USDT`, credited to the futures account of that settle currency).
 *
 *   "futures": {
 *     "contracts": [{ "name": "BTC_USDT", "settle": "usdt", "quanto_multiplier": "0.0001", "order_price_round": "0.1", … }],
 *     "insurance": { "USDT": "1000000" }
 *   }
 *
 * A settle currency needs the decimals of quanto × price (linear contracts): a derived currency's scale is raised
 * to that (settleScales); an explicit one below it is refused. Every contract is validated exactly as the engine
 * will build it (defineContract), so a config that loads also starts.
 */
import type { ContractConfig } from '../core/futures/contract.js';
import { defineContract } from '../core/futures/contract.js';
import { decimalsOf } from '../core/futures/futures-math.js';
import { ConfigError } from '../core/invariant.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import { array, fail, object, type Obj } from './config-check.js';

export interface FuturesConfig {
  readonly contracts: readonly ContractConfig[];
  /** Opening balance of each settle currency's insurance fund (decimal strings). */
  readonly insurance?: Readonly<Record<string, string>> | undefined;
}

const CONTRACT_FIELDS = ['name', 'settle', 'type', 'quanto_multiplier', 'order_price_round', 'mark_price_round', 'leverage_min',
  'leverage_max', 'default_leverage', 'maintenance_rate', 'maker_fee_rate', 'taker_fee_rate', 'risk_limit_base', 'risk_limit_step',
  'risk_limit_max', 'funding_interval', 'funding_rate_limit', 'interest_rate', 'funding_impact_value', 'order_size_min',
  'order_size_max', 'order_price_deviate', 'orders_limit', 'market_order_slip_ratio', 'index_source'];
const NUMBER_FIELDS = new Set(['funding_interval', 'order_size_min', 'order_size_max', 'orders_limit']);

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
  const o = object(v, p, ['contracts', 'insurance'], ['contracts']);
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
