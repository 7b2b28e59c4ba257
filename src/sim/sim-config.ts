/**
 * The simulator's configuration (the fixed JSON format of `npm start -- --config FILE.json`, also what the
 * embedded API takes) and its translation into an ExchangeDefinition plus opening balances.
 *
 * Currencies not listed explicitly are derived from the pairs: scale = the most decimals any pair needs
 * (a base needs its pairs' amount_precision, a quote precision + amount_precision, so every trade is exact),
 * and a max supply as large as keeps amounts in exact JS numbers at that scale.
 * Every currency is lent by the platform's lending pool (unified-config.ts: the defaults fill what `unified`
 * leaves out); opening balances of zero credit nothing.
 */
import { ConfigError } from '../core/invariant.js';
import type { ExchangeDefinition, MarketConfig } from '../core/exchange/exchange-definition.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import { POW10 } from '../core/units.js';
import type { UnifiedDefinition } from '../core/unified/unified-params.js';
import { amountUnits, checkBalances, currencyRules } from './config-amounts.js';
import { withLendingDefaults } from './unified-config.js';

export interface SimKey {
  readonly key: string;
  readonly secret: string;
  /** 1 classic, 2 unified. */
  readonly mode?: number;
  readonly perms?: 'all' | readonly { name: string; read_only?: boolean }[];
  readonly ip_whitelist?: readonly string[];
}

export interface SimUser {
  readonly uid: number;
  readonly main_uid?: number;
  readonly keys?: readonly SimKey[];
  /** Opening balances per account kind, e.g. { spot: { USDT: "100000" } }. */
  readonly balances?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface SimConfig {
  readonly currency_pairs: readonly MarketConfig[];
  readonly currencies?: readonly { code: string; scale: number; max_supply?: string }[];
  readonly users?: readonly SimUser[];
  readonly stp_groups?: readonly { id: number; name?: string; users: readonly number[] }[];
  readonly market_maker?: boolean | Readonly<Record<string, unknown>>;
  /** Unified-account parameters (docs/unified.md); each currency's `lendable` funds the platform's lending pool. */
  readonly unified?: UnifiedDefinition;
}

/** An opening balance: credited by a Credit command at start-up (so it is journaled like any change). */
export interface OpeningBalance {
  readonly uid: number;
  readonly account: string;
  readonly currency: string;
  readonly amount: string;
}

const MAX_SCALE = 18;

/** Derives currency specs from the pairs (see module header), keeping explicit ones. @allocates */
export function deriveCurrencies(pairs: readonly MarketConfig[], explicit: SimConfig['currencies'] = []): CurrencySpec[] {
  const scale = new Map<string, number>();
  const need = (code: string, s: number): void => { scale.set(code, Math.max(scale.get(code) ?? 0, s)); };
  for (const p of pairs) {
    need(p.base, p.amount_precision);
    need(p.quote, p.precision + p.amount_precision);
  }
  const out: CurrencySpec[] = [];
  const given = new Map(explicit.map((c) => [c.code, c]));
  for (const [code, s] of scale) {
    const e = given.get(code);
    if (e !== undefined) {
      if (e.scale < s) {
        throw new ConfigError(`config: currencies[${explicit.indexOf(e)}].scale: ${e.scale} is below the ${s} decimals the pairs of ${code} need`);
      }
      out.push({ code, scale: e.scale, maxSupply: e.max_supply });
      continue;
    }
    if (s > MAX_SCALE) {
      throw new ConfigError(`config: currency_pairs: ${code} would need ${s} decimals (precision + amount_precision of a pair it quotes; `
        + `at most ${MAX_SCALE})`);
    }
    out.push({ code, scale: s, maxSupply: String(Math.floor(Number.MAX_SAFE_INTEGER / POW10[s]!)) });
  }
  for (const e of explicit) if (!scale.has(e.code)) out.push({ code: e.code, scale: e.scale, maxSupply: e.max_supply });
  return out;
}

/**
 * The exchange definition and opening balances of a simulator config. Balances are checked against their
 * currency (config-amounts.ts; zero credits nothing); the lending pools come last. Throws ConfigError. @allocates
 */
export function definitionFromConfig(config: SimConfig): { definition: ExchangeDefinition; balances: OpeningBalance[] } {
  if (!Array.isArray(config.currency_pairs) || config.currency_pairs.length === 0) {
    throw new ConfigError('config: currency_pairs: at least one pair is required');
  }
  const users = config.users ?? [];
  const currencies = deriveCurrencies(config.currency_pairs, config.currencies);
  const rules = currencyRules(currencies);
  const balances: OpeningBalance[] = [];
  const used = new Map<string, bigint>();
  users.forEach((u, i) => {
    if (u.balances === undefined) return;
    checkBalances(u.balances, `users[${i}].balances`, rules);
    for (const [account, byCurrency] of Object.entries(u.balances)) {
      for (const [currency, amount] of Object.entries(byCurrency)) {
        if (isZero(amount)) continue;
        balances.push({ uid: u.uid, account, currency, amount });
        used.set(currency, (used.get(currency) ?? 0n) + amountUnits(amount, rules.get(currency)!.scale));
      }
    }
  });
  const unified = withLendingDefaults(config.unified, currencies, used);
  const definition: ExchangeDefinition = {
    currencies,
    markets: config.currency_pairs,
    users: users.map((u) => ({ uid: u.uid, main_uid: u.main_uid ?? 0 })),
    stp_groups: config.stp_groups ?? [],
    unified,
  };
  for (const [currency, c] of Object.entries(unified.currencies ?? {})) {
    if (c.lendable !== undefined && !isZero(c.lendable)) balances.push({ uid: 0, account: 'unified', currency, amount: c.lendable });
  }
  return { definition, balances };
}

const isZero = (amount: string): boolean => /^0+(\.0*)?$/.test(amount);
