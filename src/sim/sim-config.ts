/**
 * The simulator's configuration (the fixed JSON format of `npm start -- --config FILE.json`, also what the
 * embedded API takes) and its translation into an ExchangeDefinition plus opening balances.
 *
 * Currencies not listed explicitly are derived from the pairs (src/core/exchange/currency-scales.ts, shared with
 * replays): the decimals every trade of their pairs needs plus those of the pairs' fee rates, so no fee is rounded,
 * not even on the smallest order, and the default max supply of that scale. A listed currency keeps its scale (at
 * least what the amounts need) and its max supply (the ledger's default when it gives none).
 * Every currency is lent by the platform's lending pool (unified-config.ts: the defaults fill what `unified`
 * leaves out); opening balances of zero credit nothing. Perpetual contracts (`futures`, futures-config.ts) raise
 * their settle currencies to the decimals they need, and the insurance funds' balances are credited last.
 */
import { currencySpecs, MAX_CURRENCY_SCALE } from '../core/exchange/currency-scales.js';
import { ConfigError } from '../core/invariant.js';
import type { ExchangeDefinition, MarketConfig } from '../core/exchange/exchange-definition.js';
import type { CurrencySpec } from '../core/ledger/currencies.js';
import type { UnifiedDefinition } from '../core/unified/unified-params.js';
import { amountUnits, checkBalances, currencyRules } from './config-amounts.js';
import { withLendingDefaults } from './unified-config.js';
import { type FuturesConfig, settleScales } from './futures-config.js';
import { configStartMs, type OptionsConfig, optionsDefinition } from './options-config.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../core/ledger/futures-funds.js';

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
  /** Perpetual contracts and the insurance funds (futures-config.ts, docs/futures.md). */
  readonly futures?: FuturesConfig;
  /** Options underlyings, expirations and strikes (options-config.ts, docs/derivatives.md). */
  readonly options?: OptionsConfig;
}

/** An opening balance: credited by a Credit command at start-up (so it is journaled like any change). */
export interface OpeningBalance {
  readonly uid: number;
  /** spot, futures or delivery (the futures / delivery account of that settle currency) or unified (the platform's lending pool). */
  readonly account: string;
  readonly currency: string;
  readonly amount: string;
}

/** The ledger account (kind, sub) an opening balance of `account` in currency index `cur` is credited to. */
export function openingAccount(account: string, cur: number): { kind: number; sub: number } {
  if (account === 'unified') return { kind: AccountKind.Unified, sub: 0 };
  if (account === 'futures') return { kind: AccountKind.Futures, sub: cur };
  if (account === 'delivery') return { kind: AccountKind.Delivery, sub: cur };
  if (account === 'options') return { kind: AccountKind.Options, sub: 0 };
  return { kind: AccountKind.Spot, sub: 0 };
}

/** Derives currency specs from the pairs (see module header), keeping explicit ones. Throws ConfigError. @allocates */
export function deriveCurrencies(pairs: readonly MarketConfig[], explicit: SimConfig['currencies'] = []): CurrencySpec[] {
  return currencySpecs(pairs, explicit, {
    below: (e, i, need) => `config: currencies[${i}].scale: ${e.scale} is below the ${need} decimals the pairs of ${e.code} need`,
    tooMany: (code, need) => `config: currency_pairs: ${code} would need ${need} decimals (precision + amount_precision of a pair it `
      + `quotes; at most ${MAX_CURRENCY_SCALE})`,
  });
}

/**
 * The exchange definition and opening balances of a simulator config. Balances are checked against their
 * currency (config-amounts.ts; zero credits nothing); the lending pools come last. Throws ConfigError. @allocates
 */
export function definitionFromConfig(config: SimConfig, startMs = configStartMs(config)): { definition: ExchangeDefinition; balances: OpeningBalance[] } {
  if (!Array.isArray(config.currency_pairs) || config.currency_pairs.length === 0) {
    throw new ConfigError('config: currency_pairs: at least one pair is required');
  }
  const users = config.users ?? [];
  const currencies = settleScales(deriveCurrencies(config.currency_pairs, config.currencies), config.futures,
    new Set((config.currencies ?? []).map((c) => c.code)));
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
    ...(config.futures === undefined || config.futures.contracts.length === 0 ? {} : { futures: { contracts: config.futures.contracts } }),
  };
  // Options resolve their relative expirations against the start (options-config.ts).
  const options = optionsDefinition(config.options, startMs);
  if (options !== undefined) Object.assign(definition, { options });
  for (const [currency, c] of Object.entries(unified.currencies ?? {})) {
    if (c.lendable !== undefined && !isZero(c.lendable)) balances.push({ uid: 0, account: 'unified', currency, amount: c.lendable });
  }
  for (const [currency, amount] of Object.entries(config.futures?.insurance ?? {})) {
    if (!isZero(amount)) balances.push({ uid: INSURANCE_UID, account: 'futures', currency, amount });
  }
  for (const [currency, amount] of Object.entries(config.options?.insurance ?? {})) {
    if (!isZero(amount)) balances.push({ uid: INSURANCE_UID, account: 'options', currency, amount });
  }
  return { definition, balances };
}

const isZero = (amount: string): boolean => /^0+(\.0*)?$/.test(amount);
