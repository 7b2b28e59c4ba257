/**
 * The built-in market maker's configuration and its validation: unknown or invalid fields throw ConfigError
 * naming the field, as start-up requires. Two forms: MarketMakerSettings, the `market_maker` object of a config
 * file (every field optional; ./plan.ts fills in what it leaves out), and MarketMakerConfig, the resolved form
 * the MarketMaker runs (a uid, and a price for every market).
 */
import { ConfigError } from '../../core/invariant.js';

export interface MarketMakerMarketConfig {
  /** Currency pair id, e.g. "BTC_USDT". */
  readonly market: string;
  /** Starting reference price (decimal string, at the pair's precision). */
  readonly price: string;
  /** Quotes per side (default 5). */
  readonly levels?: number;
  /** Distance between best bid and best ask, in basis points of the reference (default 10). */
  readonly spread_bps?: number;
  /** Distance between consecutive levels, in basis points (default 5). */
  readonly step_bps?: number;
  /** Base amount per quote (decimal string; default the pair's minimum, raised to meet min_quote_amount). */
  readonly size?: string;
  /** Random-walk volatility: standard deviation of log-returns per √second (default 0.0002). */
  readonly volatility?: number;
  /** Random-walk drift: expected log-return per second (default 0). */
  readonly drift?: number;
}

/** A perpetual contract the maker quotes (futures-quotes.ts): sizes in contracts, prices around the mark. */
export interface MarketMakerContractConfig {
  /** Contract name, e.g. "BTC_USDT". */
  readonly contract: string;
  /** Settle currency path name (usdt, btc); needed only when two settle currencies list the name. */
  readonly settle?: string;
  /** Starting reference price while the contract has no mark or index (default: the maker's spot pair of that name). */
  readonly price?: string;
  /** Quotes per side (default 5). */
  readonly levels?: number;
  /** Best bid to best ask, in basis points of the reference (default 10). */
  readonly spread_bps?: number;
  /** Between consecutive levels, in basis points (default 5). */
  readonly step_bps?: number;
  /** Contracts per quote (default: about 1,000 USD worth, at least order_size_min). */
  readonly size?: number;
  /** Random-walk volatility of the reference while there is no mark (default 0.0002). */
  readonly volatility?: number;
  /** Most contracts the maker holds either way; past it, it quotes only the side that reduces (default 20 ladders). */
  readonly max_position?: number;
}

export interface MarketMakerConfig {
  /** The quoting user (must exist, funded in base and quote). */
  readonly uid: number;
  /** A second user that occasionally takes the quotes (IOC) so trades happen; none when absent. */
  readonly taker_uid?: number;
  readonly seed?: number;
  /** Re-quote period in ms of the injected clock (default 1000). */
  readonly requote_ms?: number;
  /** Chance per market and re-quote that the taker trades (default 0.3). */
  readonly take_probability?: number;
  readonly markets: readonly MarketMakerMarketConfig[];
  /** Perpetual contracts quoted with futures orders (none when absent). */
  readonly contracts?: readonly MarketMakerContractConfig[];
}

/** The `market_maker` object of a config file: MarketMakerConfig with what ./plan.ts derives left optional. */
export interface MarketMakerSettings extends Partial<Omit<MarketMakerConfig, 'markets'>> {
  readonly markets?: readonly (Omit<MarketMakerMarketConfig, 'price'> & { readonly price?: string })[];
}

const TOP = new Set(['uid', 'taker_uid', 'seed', 'requote_ms', 'take_probability', 'markets', 'contracts']);
const CONTRACT = new Set(['contract', 'settle', 'price', 'levels', 'spread_bps', 'step_bps', 'size', 'volatility', 'max_position']);
const MARKET = new Set(['market', 'price', 'levels', 'spread_bps', 'step_bps', 'size', 'volatility', 'drift']);

function check(ok: boolean, field: string, what: string): void {
  if (!ok) throw new ConfigError(`config: market_maker${field === '' ? '' : `.${field}`}: ${what}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown, min: number, max: number): boolean => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const optional = (o: Record<string, unknown>, k: string, ok: (v: unknown) => boolean, field: string, what: string): void => {
  if (o[k] !== undefined) check(ok(o[k]), field, what);
};

/** Validates a resolved configuration; throws ConfigError naming the first bad field. */
export function parseMarketMakerConfig(raw: unknown): MarketMakerConfig {
  return parse(raw, true) as MarketMakerConfig;
}

/** Validates a config file's `market_maker` object (uid, markets and prices optional); throws ConfigError naming the field. */
export function parseMarketMakerSettings(raw: unknown): MarketMakerSettings {
  return parse(raw, false);
}

function parse(raw: unknown, resolved: boolean): MarketMakerSettings {
  check(isObject(raw), '', 'must be an object');
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) check(TOP.has(k), k, 'unknown field');
  if (resolved || o.uid !== undefined) check(Number.isInteger(o.uid) && (o.uid as number) > 0 && (o.uid as number) < 2 ** 31, 'uid', 'must be a positive integer');
  optional(o, 'taker_uid', (v) => Number.isInteger(v) && (v as number) > 0 && (v as number) < 2 ** 31 && v !== o.uid, 'taker_uid',
    'must be a positive integer other than uid');
  optional(o, 'seed', (v) => Number.isSafeInteger(v), 'seed', 'must be an integer');
  optional(o, 'requote_ms', (v) => isNum(v, 1, 3_600_000), 'requote_ms', 'must be a number in 1..3600000');
  optional(o, 'take_probability', (v) => isNum(v, 0, 1), 'take_probability', 'must be a number in 0..1');
  if (resolved || o.markets !== undefined) check(Array.isArray(o.markets) && o.markets.length > 0, 'markets', 'must be a non-empty array');
  ((o.markets ?? []) as unknown[]).forEach((m, i) => {
    const f = `markets[${i}]`;
    check(isObject(m), f, 'must be an object');
    const e = m as Record<string, unknown>;
    for (const k of Object.keys(e)) check(MARKET.has(k), `${f}.${k}`, 'unknown field');
    check(typeof e.market === 'string', `${f}.market`, 'must be a currency pair id');
    if (resolved || e.price !== undefined) check(typeof e.price === 'string', `${f}.price`, 'must be a decimal string');
    optional(e, 'levels', (v) => Number.isInteger(v) && isNum(v, 1, 100), `${f}.levels`, 'must be an integer in 1..100');
    optional(e, 'spread_bps', (v) => isNum(v, 0, 5000), `${f}.spread_bps`, 'must be a number in 0..5000');
    optional(e, 'step_bps', (v) => isNum(v, 0, 1000), `${f}.step_bps`, 'must be a number in 0..1000');
    optional(e, 'size', (v) => typeof v === 'string', `${f}.size`, 'must be a decimal string');
    optional(e, 'volatility', (v) => isNum(v, 0, 0.1), `${f}.volatility`, 'must be a number in 0..0.1');
    optional(e, 'drift', (v) => isNum(v, -0.01, 0.01), `${f}.drift`, 'must be a number in -0.01..0.01');
  });
  optional(o, 'contracts', (v) => Array.isArray(v), 'contracts', 'must be an array');
  ((o.contracts ?? []) as unknown[]).forEach((m, i) => {
    const f = `contracts[${i}]`;
    check(isObject(m), f, 'must be an object');
    const e = m as Record<string, unknown>;
    for (const k of Object.keys(e)) check(CONTRACT.has(k), `${f}.${k}`, 'unknown field');
    check(typeof e.contract === 'string', `${f}.contract`, 'must be a contract name');
    optional(e, 'settle', (v) => typeof v === 'string', `${f}.settle`, 'must be a settle currency (usdt, btc)');
    optional(e, 'price', (v) => typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) && Number(v) > 0, `${f}.price`, 'must be a positive decimal string');
    optional(e, 'levels', (v) => Number.isInteger(v) && isNum(v, 1, 100), `${f}.levels`, 'must be an integer in 1..100');
    optional(e, 'spread_bps', (v) => isNum(v, 0, 5000), `${f}.spread_bps`, 'must be a number in 0..5000');
    optional(e, 'step_bps', (v) => isNum(v, 0, 1000), `${f}.step_bps`, 'must be a number in 0..1000');
    optional(e, 'size', (v) => Number.isSafeInteger(v) && (v as number) > 0, `${f}.size`, 'must be a positive integer (contracts)');
    optional(e, 'volatility', (v) => isNum(v, 0, 0.1), `${f}.volatility`, 'must be a number in 0..0.1');
    optional(e, 'max_position', (v) => Number.isSafeInteger(v) && (v as number) > 0, `${f}.max_position`, 'must be a positive integer (contracts)');
  });
  return o;
}
