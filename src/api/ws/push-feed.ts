/**
 * The WebSocket push pipeline: an observer of the engine gateway (`gateway.observe`) that turns each applied
 * command into the public and private pushes of its market and users.
 *
 * Ordering and commitment: the gateway calls observers after the command is applied to the read model and
 * in sequence order (inline: synchronously after `submit`; threaded: as results are applied in order), and
 * pushes are published from inside that call, so every push describes committed state and a topic's pushes
 * leave in sequence order. The market-data feed must observe first (book versions, candles, tickers):
 * main.ts registers it before the server starts.
 * Never slows the engine beyond rendering: `app.publish` queues bytes per socket and slow sockets are cut
 * off by the server (ws-server.ts), never waited for.
 */
import { type Command, CommandType } from '../../core/command.js';
import { isBookCommand } from '../../core/exchange/exchange.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import type { DepthSource } from '../market-data/depth-source.js';
import type { MarketDataFeed } from '../market-data/market-data-feed.js';
import { PrivatePushes } from './private-pushes.js';
import { PublicPushes } from './public-pushes.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';

export class PushFeed extends PushObserver {
  readonly gateway: ExchangeGateway;
  readonly feed: MarketDataFeed;
  readonly public: PublicPushes;
  readonly private: PrivatePushes;
  /** Book version per market at the last command seen (a difference means the book changed). */
  readonly #versions: Float64Array;

  constructor(gateway: ExchangeGateway, feed: MarketDataFeed, out: Publisher) {
    super('websocket push');
    this.gateway = gateway;
    this.feed = feed;
    const ex = gateway.exchange;
    const sources: DepthSource[] = ex.markets.map((_, m) => ({
      depth: (side, limit, prices, lots) => gateway.depth(m, side, limit, prices, lots),
    }));
    this.public = new PublicPushes(ex, feed, out, (m) => sources[m]!);
    this.private = new PrivatePushes(ex, out);
    this.#versions = Float64Array.from(feed.versions.version);
  }

  /** Observes its own gateway unless told another. */
  override attach(gateway: Pick<ExchangeGateway, 'observe'> = this.gateway): this {
    return super.attach(gateway);
  }

  override onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.stopped || code !== ResultCode.Ok) return;
    if (!isBookCommand(cmd.type)) {
      if (cmd.type === CommandType.Credit || cmd.type === CommandType.Debit || cmd.type === CommandType.Transfer) {
        this.private.onFundsCommand(cmd, cmd.time);
      }
      return;
    }
    const m = cmd.market;
    // The spot channels carry spot markets; a contract's book commands are not theirs.
    if (m >= this.gateway.exchange.spotMarkets) return;
    let fills = 0;
    for (let i = 0; i < events.count; i++) if (events.kind[i] === EventKind.Fill) fills++;
    const version = this.feed.versions.version[m]!;
    const bookChanged = version !== this.#versions[m];
    this.#versions[m] = version;
    const lastTrade = this.gateway.exchange.trades.count;
    this.public.onCommand(m, cmd.time, fills, lastTrade, bookChanged);
    if (events.count > 0) this.private.onBookCommand(cmd, events, fills, lastTrade, cmd.time);
  }
}
