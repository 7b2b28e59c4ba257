/**
 * Gate's spot WebSocket v4 at `/ws/v4/` on the HTTP server's uWebSockets.js app: the spot channels
 * (channels.ts), their pushes (push-feed.ts) and order entry (ws-api.ts, with the REST rate classes counted
 * per connection), over the connection machinery every endpoint shares (ws-host.ts). The first push of every
 * state channel (book, ticker, best levels, candle; PublicPushes.firstFrame) goes to a new subscriber at once,
 * so that no client waits for the market to move; spot.order_book also gets a snapshot every interval.
 */
import type { TemplatedApp } from 'uWebSockets.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import type { MarketDataFeed } from '../market-data/market-data-feed.js';
import { RateLimiter } from '../rate-limit.js';
import { type Channel, isChannel, isPrivateChannel, resolveSubscription, type Target } from './channels.js';
import { PushFeed } from './push-feed.js';
import { API_CHANNELS, apiRejection, handleApiRequest } from './ws-api.js';
import { createWsHost, type WsHost, type WsOptions } from './ws-host.js';

export { SLOW_CONSUMER_CLOSE, type WsOptions } from './ws-host.js';

/** Registers the endpoint on `app`; returns the push feed (already observing the gateway) and the host. */
export function registerSpotWebSocket(app: TemplatedApp, deps: ApiDeps, feed: MarketDataFeed, options: WsOptions = {},
  host: WsHost = createWsHost(app, deps, options)): PushFeed {
  const limiter = new RateLimiter(options.rateLimits ?? { enabled: true });
  const { gateway } = deps;
  const { publish, nowUs } = host;
  const push = new PushFeed(gateway, feed, { publish, subscribers: host.subscribers }).attach();
  deps.priceTriggers.store.onChange = (o, event) => { if (o.product === 'spot') push.private.onPriceOrder(o, event, gateway.clock.nowUs()); };
  const timers = new Map<string, NodeJS.Timeout>();
  deps.onClose.push(() => {
    push.stop();
    deps.priceTriggers.store.onChange = undefined;
    for (const t of timers.values()) clearInterval(t);
    timers.clear();
  });

  const startSnapshots = (topic: string, m: number, depth: number, intervalMs: number): void => {
    if (timers.has(topic)) return;
    const t = setInterval(() => {
      if (host.subscribers(topic) === 0) {
        clearInterval(t);
        timers.delete(topic);
        return;
      }
      publish(topic, push.public.bookSnapshot(m, depth, nowUs()));
    }, intervalMs);
    t.unref();
    timers.set(topic, t);
  };

  host.serve<Target>({
    paths: ['/ws/v4/', '/ws/v4'],
    prefix: 'spot',
    isChannel,
    isPrivate: isPrivateChannel,
    resolve: (channel, payload, uid) => resolveSubscription(channel as Channel, payload, (p) => gateway.exchange.marketIndex(p), uid),
    firstFrame: (channel, _topic, t, now) => push.public.firstFrame(channel, t, now),
    afterSubscribe: (channel, uid, topics, targets) => {
      if (channel === 'spot.order_book') {
        topics.forEach((topic, i) => {
          const t = targets[i]!;
          startSnapshots(topic, t.market, t.depth, t.intervalMs);
        });
      }
      if (channel === 'spot.balances') push.private.prime(uid);
    },
    api: (c, req, auth, nowMs, answer) => {
      const cls = API_CHANNELS[req.channel];
      if (cls === undefined) return false;
      if (limiter.enabled && !limiter.take(cls, `ws:${c.connId}`, nowMs)) answer(apiRejection(c, req, ResultCode.TooManyRequests, nowUs()));
      else handleApiRequest(deps, c, req, auth, nowUs, answer);
      return true;
    },
  });
  return push;
}
