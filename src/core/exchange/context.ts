/**
 * What a product of the exchange sees of it, and what a product is.
 *
 * The exchange (exchange.ts) is the pipeline: R1 → book → R2, dispatched to products. A product owns a set of
 * command types (a CommandProduct: funds, users, records, unified and margin loans; each completes in R1) or the
 * orders of a set of markets (a BookProduct: spot and perpetual futures, then delivery, options: R1 before the
 * book, R2 after it). Products work on the narrow ExchangeContext below, never on the Exchange class: the
 * dependency points from the pipeline to its products, not back.
 *
 * Contracts every product keeps:
 * - R1 (`apply`, `pre`) changes nothing when it rejects (it answers a ResultCode).
 * - Deterministic: state is a pure fold of the commands; no clocks (a command carries its time), no randomness.
 * - R2 (`post`) of a pipelined product never takes funds from `available`: a pipelined R1 of a later command may
 *   already count on them (exchange.ts explains why that makes pipelining safe). A `serial` product's R2 may.
 */
import type { Command } from '../command.js';
import type { Ledger } from '../ledger/ledger.js';
import type { Market } from '../market.js';
import type { BookEvents } from '../matching/book-events.js';
import type { RecordTable } from '../records/record-table.js';
import type { ResultCode } from '../result-code.js';
import type { UnifiedState } from '../unified/unified-state.js';
import type { FuturesState } from '../futures/futures-state.js';
import type { OptionsState } from '../options/options-state.js';
import type { ExchangeDefinition } from './exchange-definition.js';
import type { OrderStore } from './order-store.js';
import type { TradeLog } from './trade-log.js';

/** The exchange's state as products read and change it. */
export interface ExchangeContext {
  readonly definition: ExchangeDefinition;
  readonly ledger: Ledger;
  readonly orders: OrderStore;
  readonly trades: TradeLog;
  /** Unified-account modes, accrual hour and loan records (loans themselves are ledger columns). */
  readonly unified: UnifiedState;
  readonly records: RecordTable;
  /** Perpetual contracts, their prices, positions and futures accounts (empty without contracts). */
  readonly futures: FuturesState;
  /** Options underlyings, contracts, index prices, positions and settlements (empty without options). */
  readonly options: OptionsState;
  /** Every book's market: the spot markets, then one per contract (FuturesState.marketOf). */
  readonly markets: readonly Market[];
  /** How many of `markets` are spot markets (they come first). */
  readonly spotMarkets: number;
  /** Currency codes by index (the `currency` field of commands). */
  readonly currencies: readonly string[];
  /** Index of a spot market id, or -1. */
  marketIndex(id: string): number;
  /** Index of a currency code, or -1. */
  currencyIndex(code: string): number;
  /** STP group of a user; 0 for none. */
  stpOf(uid: number): number;
  /** Taker and maker fee rates of a market, in parts per million. */
  feesOf(market: number): { readonly taker: number; readonly maker: number };
  /** The last order id issued (any product's). */
  readonly lastOrderId: number;
  /** Issues `id` (= lastOrderId + 1) to an order R1 accepted. */
  issueOrderId(id: number): void;
  /**
   * Takes back `id` (= lastOrderId), issued to an order that then left no trace (a futures post-only or
   * fill-or-kill refused in R2): a refusal changes nothing, its id included. Serial products only.
   */
  retractOrderId(id: number): void;
}

/** A product whose commands complete in R1. */
export interface CommandProduct {
  readonly name: string;
  /** The command types it applies. */
  readonly commands: readonly number[];
  /** R1: applies `c`; Ok, or the rejection with nothing changed. */
  apply(ctx: ExchangeContext, c: Command): ResultCode;
}

/** A product whose orders go through a book: R1 before it, R2 after. */
export interface BookProduct {
  readonly name: string;
  /**
   * True when its commands must run alone: a pipelining runner starts one only when nothing is in flight and
   * starts nothing else until its R2 is done, so R1 sees exact state and R2 may take from available balances.
   */
  readonly serial: boolean;
  /**
   * R1 of a place, amend, cancel or cancel-all on one of its markets: checks and holds, stamps the order id;
   * Ok sends the command to the book. `pessimistic`: fills of this market may be in flight (pipelining).
   */
  pre(ctx: ExchangeContext, c: Command, pessimistic: boolean): ResultCode;
  /** R2: applies the book's answer `code` and `events`; returns the final code. */
  post(ctx: ExchangeContext, c: Command, code: ResultCode, ev: BookEvents): ResultCode;
  /**
   * True while an amend of `orderId` has passed R1 and not R2: a pipelining runner holds a later amend of the
   * same order until then (exchange.ts).
   */
  amendInFlight(ctx: ExchangeContext, orderId: number): boolean;
}
