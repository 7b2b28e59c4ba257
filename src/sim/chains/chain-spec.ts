/**
 * Chains of currencies: the config format (`"chains": {"USDT": [{chain: "ETH", …}, …]}`), its validation
 * (ConfigError naming the field's path) and its resolution into integer units of each currency.
 *
 * A currency without configured chains gets one implicit chain named after it: no fee, no limits, no tag,
 * credited and DONE at once (0 confirmations) — what `POST /sim/deposits` did before chains existed.
 *
 * Amounts are decimal strings in the config and BigInt units of the currency's ledger scale once resolved;
 * `decimals` (the chain's withdrawal precision) may not exceed that scale.
 */
import { ConfigError } from '../../core/invariant.js';
import type { CurrencyRules } from '../config-amounts.js';
import { optionalAmount } from '../config-check.js';

/** One chain of one currency, as written in the config file. */
export interface ChainConfig {
  readonly chain: string;
  readonly name_cn?: string | undefined;
  readonly name_en?: string | undefined;
  readonly contract_address?: string | undefined;
  /** Withdrawal precision (decimals); default the currency's scale. */
  readonly decimals?: number | undefined;
  readonly deposit_enabled?: boolean | undefined;
  readonly withdraw_enabled?: boolean | undefined;
  /** Deposits need a tag/memo (one platform address per chain, the tag names the user). */
  readonly is_tag?: boolean | undefined;
  /** Confirmations before a deposit is credited (DEP_CREDITED) and a withdrawal is DONE; default 0. */
  readonly min_confirms?: number | undefined;
  /** Confirmations before a credited deposit unlocks for withdrawal (DONE); default min_confirms. */
  readonly unlock_confirms?: number | undefined;
  /** Simulated block interval in ms of the clock; default 1000. */
  readonly block_time_ms?: number | undefined;
  /** Time a withdrawal spends in each processing status (REQUEST, PEND, PROCES); default 1000 ms. */
  readonly withdraw_step_ms?: number | undefined;
  readonly withdraw_fix?: string | undefined;
  /** Percent of the amount (e.g. "0.1" is 0.1 %). */
  readonly withdraw_percent?: string | undefined;
  readonly withdraw_amount_mini?: string | undefined;
  /** Per-withdrawal maximum; "0" or absent: none. */
  readonly withdraw_eachtime_limit?: string | undefined;
  /** Per user, chain and UTC day of the clock; "0" or absent: none. */
  readonly withdraw_day_limit?: string | undefined;
  readonly min_deposit_amount?: string | undefined;
  readonly deposit_fee?: string | undefined;
}

export type ChainsConfig = Readonly<Record<string, readonly ChainConfig[]>>;

/** A chain resolved against its currency's scale (units are BigInt). Mutable switches: the control plane's. */
export interface ChainSpec {
  readonly currency: string;
  readonly chain: string;
  readonly nameCn: string;
  readonly nameEn: string;
  readonly contractAddress: string;
  readonly decimals: number;
  /** The currency's ledger scale. */
  readonly scale: number;
  depositEnabled: boolean;
  withdrawEnabled: boolean;
  readonly isTag: boolean;
  readonly minConfirms: number;
  readonly unlockConfirms: number;
  readonly blockTimeMs: number;
  readonly stepMs: number;
  readonly fix: bigint;
  /** Fee rate in parts per 10^8 of the amount (percent × 10^6). */
  readonly percentE8: bigint;
  readonly percentText: string;
  readonly min: bigint;
  /** 0n: no maximum. */
  readonly eachMax: bigint;
  /** 0n: no daily limit. */
  readonly dayLimit: bigint;
  readonly minDeposit: bigint;
  readonly depositFee: string;
  /** Control plane: new deposits / withdrawals stop in this status ('' for none). */
  depositHold: '' | 'MANUAL' | 'REVIEW';
  withdrawHold: '' | 'MANUAL' | 'REVIEW';
}

type Obj = Record<string, unknown>;
const FIELDS = ['chain', 'name_cn', 'name_en', 'contract_address', 'decimals', 'deposit_enabled', 'withdraw_enabled',
  'is_tag', 'min_confirms', 'unlock_confirms', 'block_time_ms', 'withdraw_step_ms', 'withdraw_fix', 'withdraw_percent',
  'withdraw_amount_mini', 'withdraw_eachtime_limit', 'withdraw_day_limit', 'min_deposit_amount', 'deposit_fee'];
const AMOUNTS = ['withdraw_fix', 'withdraw_amount_mini', 'withdraw_eachtime_limit', 'withdraw_day_limit', 'min_deposit_amount', 'deposit_fee'];
/** Percent of the amount with at most 6 decimals, below 100. */
const PERCENT = { scale: 6, of: 'a percent', max: 99_999_999n, maxText: 'below 100' };

function fail(path: string, what: string): never {
  throw new ConfigError(`config: ${path}: ${what}`);
}

/**
 * Validates the config's `chains` (at `path`) against the config's currencies: amounts at the currency's
 * decimals and within its max supply, `decimals` not above them. Throws ConfigError naming the field.
 */
export function validateChains(v: unknown, path: string, currencies: CurrencyRules): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object {CURRENCY: [chain, …]}');
  for (const [code, list] of Object.entries(v as Obj)) {
    const cp = `${path}.${code}`;
    const cur = currencies.get(code);
    if (cur === undefined) fail(cp, 'unknown currency');
    if (!Array.isArray(list) || list.length === 0) fail(cp, 'must be a non-empty array of chains');
    const names = new Set<string>();
    list.forEach((c, i) => {
      const p = `${cp}[${i}]`;
      if (typeof c !== 'object' || c === null || Array.isArray(c)) fail(p, 'must be an object');
      const o = c as Obj;
      for (const k of Object.keys(o)) if (!FIELDS.includes(k)) fail(`${p}.${k}`, 'unknown field');
      if (typeof o.chain !== 'string' || !/^[A-Z0-9_]{1,32}$/.test(o.chain)) fail(`${p}.chain`, 'must be 1 to 32 of A-Z, 0-9, _');
      if (names.has(o.chain)) fail(`${p}.chain`, 'duplicate');
      names.add(o.chain);
      for (const k of ['name_cn', 'name_en', 'contract_address']) {
        if (o[k] !== undefined && typeof o[k] !== 'string') fail(`${p}.${k}`, 'must be a string');
      }
      for (const k of ['deposit_enabled', 'withdraw_enabled', 'is_tag']) {
        if (o[k] !== undefined && typeof o[k] !== 'boolean') fail(`${p}.${k}`, 'must be true or false');
      }
      const ints: [string, number, number][] = [['decimals', 0, 18], ['min_confirms', 0, 100_000], ['unlock_confirms', 0, 100_000],
        ['block_time_ms', 0, 86_400_000], ['withdraw_step_ms', 0, 86_400_000]];
      for (const [k, min, max] of ints) {
        const n = o[k];
        if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max)) fail(`${p}.${k}`, `must be an integer in ${min}..${max}`);
      }
      if (o.unlock_confirms !== undefined && (o.unlock_confirms as number) < ((o.min_confirms ?? 0) as number)) {
        fail(`${p}.unlock_confirms`, 'must be at least min_confirms');
      }
      if (o.decimals !== undefined && (o.decimals as number) > cur.scale) fail(`${p}.decimals`, `${o.decimals as number} is above the ${cur.scale} decimals of ${code}`);
      for (const k of AMOUNTS) optionalAmount(o, k, p, cur);
      optionalAmount(o, 'withdraw_percent', p, PERCENT);
    });
  }
}

/** Decimal string → BigInt units at `scale`, or ConfigError naming `path` when it has more decimals. */
export function decimalUnits(text: string, scale: number, path: string): bigint {
  const [int = '0', frac = ''] = text.split('.');
  const f = frac.replace(/0+$/, '');
  if (f.length > scale) fail(path, `"${text}" has more than ${scale} decimals`);
  return BigInt(int + f.padEnd(scale, '0'));
}

/** Resolves one chain of `currency` (ledger scale `scale`). Throws ConfigError. */
export function resolveChain(currency: string, scale: number, c: ChainConfig, path: string): ChainSpec {
  const decimals = c.decimals ?? scale;
  if (decimals > scale) fail(`${path}.decimals`, `${decimals} is above the ${scale} decimals of ${currency}`);
  const units = (k: keyof ChainConfig, fallback: string): bigint => {
    const v = c[k];
    return decimalUnits(typeof v === 'string' ? v : fallback, scale, `${path}.${k}`);
  };
  const minConfirms = c.min_confirms ?? 0;
  return {
    currency, chain: c.chain, nameCn: c.name_cn ?? c.chain, nameEn: c.name_en ?? c.chain,
    contractAddress: c.contract_address ?? '', decimals, scale,
    depositEnabled: c.deposit_enabled ?? true, withdrawEnabled: c.withdraw_enabled ?? true, isTag: c.is_tag ?? false,
    minConfirms, unlockConfirms: c.unlock_confirms ?? minConfirms,
    blockTimeMs: c.block_time_ms ?? 1000, stepMs: c.withdraw_step_ms ?? 1000,
    fix: units('withdraw_fix', '0'),
    percentE8: decimalUnits(c.withdraw_percent ?? '0', 6, `${path}.withdraw_percent`),
    percentText: c.withdraw_percent ?? '0',
    min: units('withdraw_amount_mini', '0'), eachMax: units('withdraw_eachtime_limit', '0'),
    dayLimit: units('withdraw_day_limit', '0'), minDeposit: units('min_deposit_amount', '0'),
    depositFee: c.deposit_fee ?? '0',
    depositHold: '', withdrawHold: '',
  };
}

/** Every currency's chains (implicit ones for currencies without configuration). Throws ConfigError. */
export function resolveChains(currencies: readonly { code: string; scale: number }[], config: ChainsConfig | undefined): Map<string, ChainSpec[]> {
  const out = new Map<string, ChainSpec[]>();
  for (const { code, scale } of currencies) {
    const list = config?.[code];
    out.set(code, list === undefined
      ? [resolveChain(code, scale, { chain: code, min_confirms: 0, block_time_ms: 0, withdraw_step_ms: 0 }, `chains.${code}`)]
      : list.map((c, i) => resolveChain(code, scale, c, `chains.${code}[${i}]`)));
  }
  return out;
}
