/**
 * Currencies and markets as the ledger sees them.
 *
 * Registration proves exactness once, so operations never re-check it:
 * - a currency is narrow when maxSupply × 10^scale ≤ Number.MAX_SAFE_INTEGER (amounts are numbers) and wide
 *   otherwise (amounts are BigInt); the platform-wide total of a currency never exceeds maxSupply because
 *   credits beyond it are refused, so every balance, hold and sum of a narrow currency is a safe integer;
 * - a market's lots convert to base units by × 10^(baseScale − amountScale) and its notional units to quote
 *   units by × 10^(quoteScale − notionalScale), both exact because registration requires the exponents ≥ 0.
 * Registration allocates; lookups by index do not.
 */
import { ConfigError } from '../invariant.js';
import type { Market } from '../market.js';
import { ResultCode } from '../result-code.js';
import { POW10, parseUnits } from '../units.js';
import { MAX_SUB } from './account-kinds.js';
import type { Amount } from './amount.js';

/** A currency: code, decimals and the most that may ever exist of it on the platform. */
export interface CurrencySpec {
  readonly code: string;
  /** Decimals of one unit, 0..18. */
  readonly scale: number;
  /** Decimal string; default DEFAULT_MAX_SUPPLY. */
  readonly maxSupply?: string | undefined;
}

export const DEFAULT_MAX_SUPPLY = '100000000000';
const MAX_SCALE = 18;
const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

function parseSupply(code: string, text: string, scale: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (m === null) throw new ConfigError(`currency ${code}: maxSupply "${text}" is not a decimal`);
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > scale) throw new ConfigError(`currency ${code}: maxSupply "${text}" has more than ${scale} decimals`);
  const units = BigInt((m[1] ?? '0') + frac.padEnd(scale, '0'));
  if (units <= 0n) throw new ConfigError(`currency ${code}: maxSupply must be positive`);
  return units;
}

/** Registered currencies by dense index (0, 1, …), with their external in/out totals. */
export class CurrencyTable {
  readonly codes: string[] = [];
  readonly scales: number[] = [];
  readonly wide: boolean[] = [];
  /** maxSupply in units: number when narrow, bigint when wide. */
  readonly maxUnits: Amount[] = [];
  /** totalIn − totalOut in the currency's representation: at most maxUnits, so exact when narrow. */
  readonly supply: Amount[] = [];
  /** Σ credits from outside (deposits), per currency; BigInt because it grows without bound (@allocates per credit). */
  readonly totalIn: bigint[] = [];
  /** Σ debits to outside (withdrawals), per currency; BigInt like totalIn. */
  readonly totalOut: bigint[] = [];
  /**
   * The futures clearing balance, signed (futures-funds.ts): what realised futures PnL has paid out (−) or taken
   * in (+) ahead of the counterparties' own realisations. Σ accounts + clearing = supply.
   */
  readonly clearing: bigint[] = [];
  readonly #byCode = new Map<string, number>();

  get count(): number {
    return this.codes.length;
  }

  /** Registers a currency and returns its index. Throws ConfigError on a bad or duplicate spec. @allocates */
  register(spec: CurrencySpec): number {
    const { code, scale } = spec;
    if (!/^[A-Za-z0-9_]{1,32}$/.test(code)) throw new ConfigError(`currency code "${code}" is malformed`);
    if (this.#byCode.has(code)) throw new ConfigError(`currency ${code} registered twice`);
    if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new ConfigError(`currency ${code}: scale must be in 0..${MAX_SCALE}`);
    if (this.codes.length > MAX_SUB) throw new ConfigError('too many currencies');
    const units = parseSupply(code, spec.maxSupply ?? DEFAULT_MAX_SUPPLY, scale);
    const wide = units > SAFE_BIG;
    const index = this.codes.length;
    this.codes.push(code);
    this.scales.push(scale);
    this.wide.push(wide);
    this.maxUnits.push(wide ? units : Number(units));
    this.supply.push(wide ? 0n : 0);
    this.totalIn.push(0n);
    this.totalOut.push(0n);
    this.clearing.push(0n);
    this.#byCode.set(code, index);
    return index;
  }

  /** Index of a currency code, or -1. */
  indexOf(code: string): number {
    return this.#byCode.get(code) ?? -1;
  }

  /** The zero of currency `cur`'s representation. */
  zero(cur: number): Amount {
    return this.wide[cur] === true ? 0n : 0;
  }

  /**
   * Normalises a caller's amount to currency `cur`'s representation. Returns the amount, or a negative number
   * code: InvalidParam (not an integer, negative, or zero unless `allowZero`), AmountTooMuch (beyond exact range
   * or max supply). Allocates only for wide currencies.
   */
  normalize(cur: number, v: number | bigint, allowZero: boolean): Amount {
    const min = allowZero ? 0 : 1;
    let out: Amount;
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v) || v < min) return ResultCode.InvalidParam;
      out = this.wide[cur] === true ? BigInt(v) : v;
    } else {
      if (typeof v !== 'bigint' || v < BigInt(min)) return ResultCode.InvalidParam;
      if (this.wide[cur] === true) out = v;
      else if (v > SAFE_BIG) return ResultCode.AmountTooMuch;
      else out = Number(v);
    }
    return this.withinSupply(cur, out) ? out : ResultCode.AmountTooMuch;
  }

  /** True when `v` (currency `cur`'s representation) is at most its max supply; a non-safe number is not. */
  withinSupply(cur: number, v: Amount): boolean {
    if (typeof v === 'number') return Number.isSafeInteger(v) && v <= (this.maxUnits[cur] as number);
    return v <= (this.maxUnits[cur] as bigint);
  }

  /** Parses a positive decimal string into units of `cur`, or a negative number code. @allocates when wide */
  parse(cur: number, text: string): Amount {
    const scale = this.scales[cur]!;
    if (this.wide[cur] !== true) return parseUnits(text, scale);
    const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
    if (m === null || text.length > 80) return ResultCode.InvalidParam;
    const frac = (m[2] ?? '').replace(/0+$/, '');
    if (frac.length > scale) return ResultCode.InvalidPrecision;
    const units = BigInt((m[1] ?? '0') + frac.padEnd(scale, '0'));
    return units > 0n ? units : ResultCode.InvalidParam;
  }
}

/** Registered markets by dense index, with their base/quote currencies and unit factors. */
export class MarketTable {
  readonly markets: Market[] = [];
  readonly base: number[] = [];
  readonly quote: number[] = [];
  /** Base units per lot (10^(baseScale − amountScale)), in the base currency's representation. */
  readonly baseFactor: Amount[] = [];
  /** Quote units per notional unit (10^(quoteScale − notionalScale)), in the quote currency's representation. */
  readonly quoteFactor: Amount[] = [];
  readonly #byId = new Map<string, number>();

  get count(): number {
    return this.markets.length;
  }

  /** Registers `market` over registered currencies; returns its index. Throws ConfigError. @allocates */
  register(market: Market, base: string, quote: string, currencies: CurrencyTable): number {
    const b = currencies.indexOf(base);
    const q = currencies.indexOf(quote);
    if (b < 0 || q < 0) throw new ConfigError(`market ${market.id}: unknown currency ${b < 0 ? base : quote}`);
    if (b === q) throw new ConfigError(`market ${market.id}: base and quote are the same currency`);
    if (this.#byId.has(market.id)) throw new ConfigError(`market ${market.id} registered twice`);
    if (this.markets.length > MAX_SUB) throw new ConfigError('too many markets');
    const bs = currencies.scales[b]!;
    const qs = currencies.scales[q]!;
    if (market.amountScale > bs) throw new ConfigError(`market ${market.id}: amount precision ${market.amountScale} exceeds ${base} scale ${bs}`);
    if (market.notionalScale > qs) {
      throw new ConfigError(`market ${market.id}: price + amount precision ${market.notionalScale} exceeds ${quote} scale ${qs}`);
    }
    const index = this.markets.length;
    this.markets.push(market);
    this.base.push(b);
    this.quote.push(q);
    this.baseFactor.push(factor(bs - market.amountScale, currencies.wide[b] === true));
    this.quoteFactor.push(factor(qs - market.notionalScale, currencies.wide[q] === true));
    this.#byId.set(market.id, index);
    return index;
  }

  /** Index of a market id, or -1. */
  indexOf(id: string): number {
    return this.#byId.get(id) ?? -1;
  }

  /** lots → base units of market `m` (a non-safe number when beyond exact range). @allocates when wide */
  lotsToBase(m: number, lots: number): Amount {
    const f = this.baseFactor[m]!;
    return typeof f === 'number' ? lots * f : BigInt(lots) * f;
  }

  /** notional units → quote units of market `m` (a non-safe number when beyond exact range). @allocates when wide */
  notionalToQuote(m: number, notional: number): Amount {
    const f = this.quoteFactor[m]!;
    return typeof f === 'number' ? notional * f : BigInt(notional) * f;
  }
}

function factor(exp: number, wide: boolean): Amount {
  return wide ? 10n ** BigInt(exp) : POW10[exp]!;
}
