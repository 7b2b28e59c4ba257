/**
 * Gate's perpetual-futures WebSocket v4 at `/v4/ws/fx/{settle}` (usdt, btc, and any other settle a contract
 * uses) on the same app and connection machinery as spot (ws-host.ts): same envelope, `futures.ping` →
 * `futures.pong`, the public channels of futures-channels.ts with the pushes of futures-pushes.ts over the
 * futures market-data feed the REST routes serve. The paths carry `fx` because ccxt.pro tells a swap connection
 * from a spot one by it. Private channels (futures-private-pushes.ts) are signed as spot's; order entry
 * (futures-ws-api.ts: futures.login, order_place, order_cancel, order_amend, order_status) is counted under the
 * REST rate classes per UID (its own windows: `ws:<uid>`), placements at the user's fill-ratio tier.
 */
import { DELIVERY_SCOPE, isDelivery, settleOfScope } from '../../core/futures/contract.js';
import type { TemplatedApp } from 'uWebSockets.js';
import type { ApiDeps } from '../deps.js';
import { type LimitClass, RateLimiter } from '../rate-limit.js';
import { futuresFeedOf } from '../routes/futures-public.js';
import { DEFAULT_SETTLES } from '../routes/futures-public-params.js';
import { type FxTarget, isFuturesChannel, resolveFuturesSubscription } from './futures-channels.js';
import { FuturesPrivatePushes, isFuturesPrivateChannel, resolveFuturesPrivate } from './futures-private-pushes.js';
import { FuturesPushes } from './futures-pushes.js';
import { WsErrorCode } from './envelope.js';
import { handleFuturesApiRequest } from './futures-ws-api.js';
import { createWsHost, type WsHost, type WsOptions } from './ws-host.js';

/** Registers one endpoint per settle; returns the pushes (observing the gateway), or undefined without a futures feed. */
export function registerFuturesWebSocket(app: TemplatedApp, deps: ApiDeps, options: WsOptions = {},
  host: WsHost = createWsHost(app, deps, options)): FuturesPushes | undefined {
  const feed = futuresFeedOf(deps);
  if (feed === undefined) return undefined;
  const { gateway } = deps;
  const limiter = new RateLimiter(options.rateLimits ?? { enabled: true });
  const fill = deps.fillRatio;
  /** REST's keys (server.ts): place and cancel per UID in total, the others per UID and channel. */
  const admit = (channel: string, nowMs: number) => (cls: LimitClass, uid: number): boolean => {
    if (!limiter.enabled) return true;
    const key = cls === 'futures' ? `ws:${uid}|${channel}` : `ws:${uid}`;
    const ok = limiter.take(cls, key, nowMs, cls === 'futures-place' && fill.enabled ? fill.placeLimit(uid) : undefined);
    if (ok && fill.enabled && cls !== 'futures') fill.countRequest(uid);
    return ok;
  };
  const pushes = new FuturesPushes(gateway, feed, { publish: host.publish, subscribers: host.subscribers }).attach(gateway);
  const privates = new FuturesPrivatePushes(gateway, { publish: host.publish, subscribers: host.subscribers }).attach(gateway);
  deps.onClose.push(() => { pushes.stop(); privates.stop(); });
  // Perpetual scopes only: delivery contracts (scope `delivery:{settle}`) have no socket here yet.
  const settles = new Set([...DEFAULT_SETTLES, ...gateway.exchange.futures.contracts.filter((c) => !isDelivery(c)).map((c) => c.settle)]);
  for (const settle of settles) {
    host.serve<FxTarget>({
      paths: [`/v4/ws/fx/${settle}`, `/v4/ws/fx/${settle}/`],
      prefix: 'futures',
      isChannel: (channel) => isFuturesChannel(channel) || isFuturesPrivateChannel(channel),
      isPrivate: isFuturesPrivateChannel,
      resolve: (channel, payload, uid) => (isFuturesChannel(channel) ? resolveFuturesSubscription(gateway.exchange, settle, channel, payload)
        : isFuturesPrivateChannel(channel) ? resolveFuturesPrivate<FxTarget>(gateway.exchange, settle, channel, payload, uid)
          : { ok: false, code: WsErrorCode.BadRequest, message: `unknown channel: ${channel}` }),
      afterSubscribe: (channel, uid) => privates.subscribed(channel, settle, uid),
      firstFrame: (channel, topic, t, now) => pushes.firstFrame(channel, topic, t, now),
      api: (c, req, auth, nowMs, answer) => {
        if (!req.channel.startsWith('futures.')) return false;
        handleFuturesApiRequest(deps, settle, c, req, auth, host.nowUs, admit(req.channel, nowMs), answer);
        return true;
      },
    });
  }
  // Delivery (docs/derivatives.md): `/v4/ws/delivery/{settle}` serves the public channels of the delivery
  // contracts (scope `delivery:{settle}`), the path carrying `delivery` as ccxt.pro tells a future connection by it.
  // Private channels and order entry are not served there yet.
  const deliverySettles = new Set([...DEFAULT_SETTLES, ...gateway.exchange.futures.contracts.filter(isDelivery).map((c) => settleOfScope(c.settle))]);
  for (const plain of deliverySettles) {
    const settle = DELIVERY_SCOPE + plain;
    host.serve<FxTarget>({
      paths: [`/v4/ws/delivery/${plain}`, `/v4/ws/delivery/${plain}/`],
      prefix: 'futures',
      isChannel: isFuturesChannel,
      isPrivate: () => false,
      resolve: (channel, payload) => (isFuturesChannel(channel) ? resolveFuturesSubscription(gateway.exchange, settle, channel, payload)
        : { ok: false, code: WsErrorCode.BadRequest, message: `unknown channel: ${channel}` }),
      afterSubscribe: () => undefined,
      firstFrame: (channel, topic, t, now) => pushes.firstFrame(channel, topic, t, now),
      api: () => false,
    });
  }
  return pushes;
}
