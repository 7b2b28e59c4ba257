/**
 * The options market data the REST routes (routes/options-public.ts) and the options WebSocket endpoint
 * (ws/options-ws.ts) both serve, kept current from the engine's results: per market the last trade price
 * (ticks), the last trade id and the contracts traded, and a MarketDataFeed over every market (candles of the
 * contracts and of the underlyings' spot index sources; book versions, the REST book's `id`).
 *
 * One instance per server (`optionsFeedOf(deps)`), observing the gateway before the WebSocket pushes, so a push
 * and a REST read after it agree (book ids, last prices). Costs: O(events) per command, no allocation in steady
 * state; `figures` reads one level per book side.
 */
import type { Command } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { Side } from '../../core/matching/order-types.js';
import type { MarketFigures } from '../../gate/options-shapes.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import type { ApiDeps } from '../deps.js';
import { MarketDataFeed } from './market-data-feed.js';

export class OptionsMarketData {
  readonly exchange: Exchange;
  readonly feed: MarketDataFeed;
  /** Per market: last trade price (ticks), last trade id, contracts traded since the retained log began. */
  readonly last: Float64Array;
  readonly tradeId: Float64Array;
  readonly traded: Float64Array;
  readonly #depth: ExchangeGateway['depth'];
  readonly #p = new Float64Array(1);
  readonly #l = new Float64Array(1);

  /** Rebuilt from the retained trade log. @allocates */
  constructor(gateway: Pick<ExchangeGateway, 'exchange' | 'depth'>) {
    const ex = this.exchange = gateway.exchange;
    this.#depth = (m, side, limit, p, l) => gateway.depth(m, side, limit, p, l);
    const n = ex.markets.length;
    this.last = new Float64Array(n);
    this.tradeId = new Float64Array(n);
    this.traded = new Float64Array(n);
    this.feed = new MarketDataFeed(ex);
    const T = ex.trades;
    for (let id = Math.max(1, T.count - T.capacity + 1); id <= T.count; id++) {
      const s = T.slotOf(id);
      const m = T.market[s]!;
      this.last[m] = T.price[s]!;
      this.tradeId[m] = id;
      this.traded[m] = this.traded[m]! + T.lots[s]!;
    }
    this.feed.replayTradeLog();
  }

  /** Feeds one applied command and its events (the gateway's observer). */
  onResult(cmd: Command, ev: BookEvents): void {
    this.feed.onResult(cmd, ev);
    const m = cmd.market;
    for (let i = 0; i < ev.count; i++) {
      if (ev.kind[i] !== EventKind.Fill) continue;
      this.last[m] = ev.price[i]!;
      this.traded[m] = this.traded[m]! + ev.lots[i]!;
      this.tradeId[m] = this.exchange.trades.count;
    }
  }

  /** The best price and lots of `side` of market `m` ([0, 0] when empty). @allocates the pair */
  top(m: number, side: number): [number, number] {
    return this.#depth(m, side, 1, this.#p, this.#l) > 0 ? [this.#p[0]!, this.#l[0]!] : [0, 0];
  }

  /** What a contract's ticker and contract objects show of its market (gate/options-shapes.ts). @allocates */
  figures(ci: number): MarketFigures {
    const m = this.exchange.options.marketOf[ci]!;
    return { lastTicks: this.last[m]!, tradeId: this.tradeId[m]!, tradeSize: this.traded[m]!, bid: this.top(m, Side.Buy), ask: this.top(m, Side.Sell) };
  }

  /** Contracts of underlying `ui` traded, calls and puts (GET /options/underlying/tickers, options.ul_tickers). */
  underlyingTraded(ui: number): { calls: number; puts: number } {
    const S = this.exchange.options;
    let calls = 0;
    let puts = 0;
    S.contracts.forEach((k, ci) => {
      if (k.u !== ui) return;
      const t = this.traded[S.marketOf[ci]!]!;
      if (k.call) calls += t;
      else puts += t;
    });
    return { calls, puts };
  }
}

const feeds = new WeakMap<ApiDeps, OptionsMarketData>();

/** The server's options feed, created and subscribed to the gateway on first use (the REST routes register first). */
export function optionsFeedOf(deps: ApiDeps): OptionsMarketData {
  let f = feeds.get(deps);
  if (f === undefined) {
    const feed = f = new OptionsMarketData(deps.gateway);
    deps.gateway.observe((_code, cmd, ev) => feed.onResult(cmd, ev));
    feeds.set(deps, f);
  }
  return f;
}
