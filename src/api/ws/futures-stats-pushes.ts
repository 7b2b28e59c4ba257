/**
 * Two public channels of the perpetual-futures endpoint that follow positions rather than the book:
 *
 *   futures.public_liquidates  [contract | "!all", …]    `[{price, size, time_ms, contract}]` per liquidation (no user):
 *                                                        price the liquidation order's price (number), size the
 *                                                        liquidated position's size (signed: + long, − short), as
 *                                                        REST liq_orders' `size`; pushed by the command that
 *                                                        liquidated, after it is applied
 *   futures.contract_stats     [contract, interval]      `[{time, contract, …}]` one point of REST contract_stats
 *                                                        (market-data/contract-stats.ts) with its figures as numbers
 *                                                        except `mark_price`: on subscribe, after every command that
 *                                                        changes the contract's positions or prices (fills,
 *                                                        liquidation, deleveraging, new mark), and every
 *                                                        `periodMs` (default 10 s) while subscribed
 *
 * Costs: per command, a few topic lookups when nobody is subscribed; liquidations are found by a cursor over the
 * futures state's liquidation history (O(new rows)); a stats point walks the liquidation history (bounded).
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import type { LiquidationRow } from '../../core/futures/futures-state.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { contractStatsPoint } from '../market-data/contract-stats.js';
import type { FuturesMarketData } from '../market-data/futures-market-data.js';
import { intervalIndex } from '../market-data/intervals.js';
import { topicOf } from './channels.js';
import { updateFrame } from './envelope.js';
import { allLiquidatesKey, type FxTarget } from './futures-channels.js';
import { HistoryCursor } from './history-cursor.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';

/** Stats fields Gate's push carries as numbers (REST: decimal strings). */
const NUMERIC = ['lsr_taker', 'lsr_account', 'long_liq_amount', 'long_liq_usd', 'short_liq_amount', 'short_liq_usd', 'open_interest_usd',
  'top_lsr_account', 'top_lsr_size'] as const;
/** Commands after which a contract's stats are pushed (when they succeeded). */
const STATS_COMMANDS: ReadonlySet<number> = new Set<number>([CommandType.FuturesLiquidate, CommandType.FuturesDeleverage, CommandType.FuturesSetPrices]);

export class FuturesStatsPushes extends PushObserver {
  readonly #ex: Exchange;
  readonly #feed: FuturesMarketData;
  readonly #out: Publisher;
  readonly #liquidations: HistoryCursor<LiquidationRow>;
  /** Subscribed contract_stats topics → [contract index, interval index]; pruned when their last subscriber leaves. */
  readonly #stats = new Map<string, [number, number]>();
  readonly #timer: NodeJS.Timeout;
  readonly #now: () => number;

  constructor(gateway: ExchangeGateway, feed: FuturesMarketData, out: Publisher, periodMs = 10_000) {
    super('futures stats push');
    this.#ex = gateway.exchange;
    this.#feed = feed;
    this.#out = out;
    this.#now = () => gateway.clock.nowUs();
    this.#liquidations = new HistoryCursor(this.#ex.futures.liquidations);
    this.#timer = setInterval(() => { this.#periodic(); }, periodMs);
    this.#timer.unref();
  }

  /** Also ends the restatement timer. */
  override stop(): void {
    super.stop();
    clearInterval(this.#timer);
  }

  /** The first push of a new futures.contract_stats subscriber (and registers its topic); undefined for other channels. */
  firstFrame(channel: string, topic: string, x: FxTarget, nowUs: number): string | undefined {
    if (channel !== 'futures.contract_stats') return undefined;
    const interval = intervalIndex(x.interval);
    this.#stats.set(topic, [x.contract, interval]);
    return this.#statsFrame(x.contract, interval, nowUs);
  }

  override onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.stopped) return;
    const t = cmd.time;
    this.#liquidates(t);
    if (code !== ResultCode.Ok || this.#stats.size === 0) return;
    const ci = this.#ex.futures.contractOf(cmd.market);
    if (ci < 0) return;
    let changed = STATS_COMMANDS.has(cmd.type);
    for (let i = 0; i < events.count && !changed; i++) if (events.kind[i] === EventKind.Fill) changed = true;
    if (changed) this.#pushStats(ci, t);
  }

  #statsFrame(ci: number, interval: number, nowUs: number): string {
    const point: Record<string, unknown> = contractStatsPoint(this.#ex, this.#feed, ci, interval, nowUs);
    for (const k of NUMERIC) point[k] = Number(point[k]);
    return updateFrame('futures.contract_stats', [{ ...point, contract: this.#ex.futures.contracts[ci]!.name }], nowUs);
  }

  /** Pushes the stats of contract `ci` (every ci < 0: all) to their subscribed topics; drops topics nobody holds. */
  #pushStats(ci: number, nowUs: number): void {
    for (const [topic, [c, interval]] of this.#stats) {
      if (ci >= 0 && c !== ci) continue;
      if (this.#out.subscribers(topic) === 0) {
        this.#stats.delete(topic);
        continue;
      }
      this.#out.publish(topic, this.#statsFrame(c, interval, nowUs));
    }
  }

  #periodic(): void {
    if (!this.stopped && this.#stats.size > 0) this.#pushStats(-1, this.#now());
  }

  #liquidates(nowUs: number): void {
    const S = this.#ex.futures;
    const fresh = this.#liquidations.fresh(S.liquidations, nowUs);
    // Indexed: every command passes here, and an iterator over the (usually empty) list would allocate.
    for (let i = 0; i < fresh.length; i++) {
      const r = fresh[i]!;
      const c = S.contracts[S.contractOf(r.market)];
      if (c === undefined) continue;
      const topics = [topicOf('futures.public_liquidates', c.name), topicOf('futures.public_liquidates', allLiquidatesKey(c.settle))]
        .filter((topic) => this.#out.subscribers(topic) > 0);
      if (topics.length === 0) continue;
      const frame = updateFrame('futures.public_liquidates', [{ price: Number(r.orderPrice), size: r.size, time_ms: Math.floor(r.t / 1000), contract: c.name }], nowUs);
      for (const topic of topics) this.#out.publish(topic, frame);
    }
  }
}
