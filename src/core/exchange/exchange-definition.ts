/**
 * What an exchange is made of before any command: currencies, markets with their fees, users and STP groups.
 * The journal header carries it, so a journal alone rebuilds the exchange. Balances are not here: they
 * arrive as Credit commands, like every other change of state.
 */
import { ConfigError } from '../invariant.js';
import type { CurrencySpec } from '../ledger/currencies.js';
import { type ContractConfig, contractMarketSpec } from '../futures/contract.js';
import { optionMarketSpecs, type OptionsDefinition } from '../options/options-contract.js';
import type { MarketSpec } from '../market.js';
import { parseUnits } from '../units.js';
import type { UnifiedDefinition } from '../unified/unified-params.js';

/** A market as Gate's currency pair describes it, with its fees in percent (`fee` taker, `maker_fee_rate`). */
export interface MarketConfig extends MarketSpec {
  /** Taker fee in percent, e.g. "0.2"; default "0.2". */
  readonly fee?: string | undefined;
  /** Maker fee in percent; default equal to `fee`. */
  readonly maker_fee_rate?: string | undefined;
}

export interface UserDefinition {
  readonly uid: number;
  /** The main account of a sub-account; 0 or absent for a main account. */
  readonly main_uid?: number | undefined;
}

export interface StpGroupDefinition {
  readonly id: number;
  readonly name?: string | undefined;
  readonly users: readonly number[];
}

export interface ExchangeDefinition {
  readonly currencies: readonly CurrencySpec[];
  readonly markets: readonly MarketConfig[];
  readonly users?: readonly UserDefinition[] | undefined;
  readonly stp_groups?: readonly StpGroupDefinition[] | undefined;
  /** Account-book entries kept (oldest dropped). Default 65,536. */
  readonly accountBookCapacity?: number | undefined;
  /** Finished orders kept for queries (oldest dropped). Default 100,000. */
  readonly finishedOrders?: number | undefined;
  /** Trades kept for queries (oldest dropped). Default 65,536. */
  readonly trades?: number | undefined;
  /** Unified-account parameters: index prices, discount tiers, rates, borrow limits (docs/unified.md). */
  readonly unified?: UnifiedDefinition | undefined;
  /** Perpetual futures (docs/futures.md): each contract is also a market (a book) after the spot markets. */
  readonly futures?: FuturesDefinition | undefined;
  /** Options (docs/derivatives.md): each contract is also a market (a book) after the perpetual contracts. */
  readonly options?: OptionsDefinition | undefined;
}

export interface FuturesDefinition {
  readonly contracts: readonly ContractConfig[];
}

/** The market of every book, in book order: the spot markets, then one per perpetual contract. @allocates */
export function bookMarketSpecs(def: ExchangeDefinition): MarketSpec[] {
  return [...def.markets, ...(def.futures?.contracts ?? []).map(contractMarketSpec),
    ...optionMarketSpecs(def.options, (code) => def.currencies.find((c) => c.code === code)?.scale)];
}

const PERCENT_TO_PPM_SCALE = 4;
const DEFAULT_FEE = '0.2';

/** A fee in percent ("0.2") as an integer rate in parts per million (2000). Throws ConfigError. */
export function percentToPpm(text: string, what: string): number {
  if (/^0+(\.0*)?$/.test(text)) return 0;
  const ppm = parseUnits(text, PERCENT_TO_PPM_SCALE);
  if (ppm < 0 || ppm > 1_000_000) throw new ConfigError(`${what}: "${text}" is not a percent in (0, 100] with at most 4 decimals`);
  return ppm;
}

/** Taker and maker rates of a market in ppm. */
export function marketFees(m: MarketConfig): { taker: number; maker: number } {
  const taker = percentToPpm(m.fee ?? DEFAULT_FEE, `market ${m.id} fee`);
  const maker = m.maker_fee_rate === undefined ? taker : percentToPpm(m.maker_fee_rate, `market ${m.id} maker_fee_rate`);
  return { taker, maker };
}
