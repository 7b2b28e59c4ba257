/**
 * The strategy interface of market-data replays: callbacks in simulated time. A strategy sees the market
 * through its feed (the book view and trades arrive after the feed latency) and its orders through notes
 * (after the ack latency); what it sends reaches the exchange after the entry or cancel latency. Nothing in
 * the context reads the exchange's state directly, so a strategy cannot see the future.
 *
 * Units: prices in ticks and amounts in lots (integers; `ctx.market` has the scales, `ctx.ticks('60000.1')`
 * and `ctx.lots('0.01')` convert exact decimals). A market buy's amount is its quote budget (Gate's rule),
 * given as a decimal string.
 *
 * A module passed with `--strategy FILE` exports `default` (or `createStrategy`): a function from the
 * config's `strategy.options` object to a Strategy.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { OrderNote } from './market-sim.js';

export interface MarketInfo {
  readonly id: string;
  readonly base: string;
  readonly quote: string;
  readonly priceScale: number;
  readonly amountScale: number;
}

/** The strategy's (delayed) view of the public book. Sides: 1 bids, 2 asks; level 0 is the best. */
export interface BookView {
  best(side: number): number;
  levels(side: number): number;
  priceAt(side: number, k: number): number;
  sizeAtLevel(side: number, k: number): number;
  sizeAt(side: number, price: number): number;
}

export interface PublicTrade {
  /** Exchange time, µs. */
  readonly time: number;
  /** Aggressor side: 1 buy, 2 sell, 0 unknown. */
  readonly side: number;
  readonly price: number;
  readonly amount: number;
}

export interface NewOrder {
  readonly side: 'buy' | 'sell';
  /** Ticks, or a decimal string. Absent for market orders. */
  readonly price?: number | string;
  /** Lots, or a decimal string (for a market buy: the quote budget, a decimal string). */
  readonly amount: number | string;
  readonly type?: 'limit' | 'market';
  readonly time_in_force?: 'gtc' | 'ioc' | 'poc' | 'fok';
  /** Which of the run's users sends it; default the first. */
  readonly uid?: number;
  /** Client label `t-…`. */
  readonly text?: string;
}

export interface StrategyContext {
  /** Simulated time, µs since the epoch. */
  readonly now: number;
  readonly market: MarketInfo;
  readonly book: BookView;
  readonly users: readonly number[];
  /** Sends an order; returns its reference (used by cancel and in notes). Throws on malformed input. */
  place(order: NewOrder): number;
  /** Sends a cancel for a reference. */
  cancel(ref: number): void;
  /** Calls onTimer(tag) after `afterUs` µs of simulated time (timers stop when the data ends). */
  timer(afterUs: number, tag?: number): void;
  /** Position from the fills notified so far: base lots (signed) and the count of orders believed open. */
  position(uid?: number): { readonly lots: number; readonly open: number };
  ticks(decimal: string): number;
  lots(decimal: string): number;
}

export interface Strategy {
  onStart?(ctx: StrategyContext): void;
  /** A depth batch arrived (the book view already includes it). */
  onBook?(ctx: StrategyContext): void;
  onTrade?(ctx: StrategyContext, trade: PublicTrade): void;
  onOrder?(ctx: StrategyContext, note: OrderNote): void;
  onTimer?(ctx: StrategyContext, tag: number): void;
  onEnd?(ctx: StrategyContext): void;
}

export type StrategyFactory = (options: Readonly<Record<string, unknown>>) => Strategy;

/**
 * The module to import for a strategy file. Running from dist/ (scripts/ensure-build.mjs), a TypeScript file of
 * this package is imported as its transpiled sibling, so it shares the running modules; another TypeScript file
 * (a user's strategy) is imported through tsx, registered on first need; JavaScript is imported as is.
 */
async function strategyModuleUrl(path: string): Promise<string> {
  const file = resolve(path);
  if (!/\.[cm]?ts$/.test(file)) return pathToFileURL(file).href;
  const here = fileURLToPath(import.meta.url);
  const dist = here.lastIndexOf(`${sep}dist${sep}src${sep}`);
  if (dist >= 0) {
    const root = here.slice(0, dist + 1);
    const rel = relative(root, file);
    const built = join(root, 'dist', rel.replace(/\.([cm]?)ts$/, '.$1js'));
    if (!rel.startsWith('..') && !isAbsolute(rel) && existsSync(built)) return pathToFileURL(built).href;
    const { register } = await import('tsx/esm/api');
    tsxRegistered ??= register();
  }
  return pathToFileURL(file).href;
}
let tsxRegistered: unknown;

/** Loads a strategy module (`default` or `createStrategy` export); TypeScript files too (strategyModuleUrl). @allocates */
export async function loadStrategy(path: string, options: Readonly<Record<string, unknown>>): Promise<Strategy> {
  const mod = await import(await strategyModuleUrl(path)) as Record<string, unknown>;
  const f = typeof mod.default === 'function' ? mod.default : mod.createStrategy;
  if (typeof f !== 'function') throw new Error(`${path}: exports neither a default function nor createStrategy`);
  const factory = f as StrategyFactory;
  return factory(options);
}
