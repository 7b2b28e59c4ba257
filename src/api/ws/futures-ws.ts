/**
 * Gate's perpetual-futures WebSocket v4 at `/v4/ws/fx/{settle}` (usdt, btc, and any other settle a contract
 * uses) on the same app and connection machinery as spot (ws-host.ts): same envelope, `futures.ping` →
 * `futures.pong`, the public channels of futures-channels.ts with the pushes of futures-pushes.ts over the
 * futures market-data feed the REST routes serve, and futures.public_liquidates / futures.contract_stats
 * (futures-stats-pushes.ts). The paths carry `fx` because ccxt.pro tells a swap connection from a spot one by it.
 * Private channels (futures-private-pushes.ts; futures.autoorders and futures.reduce_risk_limits in
 * futures-account-pushes.ts, the former fed by the price-order store's change callback after spot's) are signed
 * as spot's; order entry (futures-ws-api.ts: futures.login, order_place, order_batch_place, order_cancel,
 * order_cancel_ids, order_cancel_cp, order_amend, order_status, order_list) is counted under the REST rate
 * classes per UID (its own windows: `ws:<uid>`), placements at the user's fill-ratio tier.
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
import { FuturesStatsPushes } from './futures-stats-pushes.js';
import { FuturesAccountPushes } from './futures-account-pushes.js';
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
  // The host publishes through the output gate and counts subscribers: it is the pushes' Publisher.
  const out = host;
  const pushes = new FuturesPushes(gateway, feed, out).attach(gateway);
  const privates = new FuturesPrivatePushes(gateway, out).attach(gateway);
  const stats = new FuturesStatsPushes(gateway, feed, out, options.contractStatsMs).attach(gateway);
  const account = new FuturesAccountPushes(gateway, out).attach(gateway);
  // The spot endpoint registered its spot.priceorders callback first; futures triggers go to futures.autoorders.
  const store = deps.priceTriggers.store;
  const spotChange = store.onChange;
  store.onChange = (o, event) => {
    spotChange?.(o, event);
    if (o.product === 'futures') account.onPriceOrder(o, event, gateway.clock.nowUs());
  };
  deps.onClose.push(() => { pushes.stop(); privates.stop(); stats.stop(); account.stop(); });
  // Perpetual scopes only: delivery contracts (scope `delivery:{settle}`) are served below.
  const settles = new Set([...DEFAULT_SETTLES, ...gateway.exchange.futures.contracts.filter((c) => !isDelivery(c)).map((c) => c.settle)]);
  /** One endpoint: the public, private and order-entry channels of the contracts of `scope` at `paths`. */
  const serve = (scope: string, paths: string[]): void => {
    host.serve<FxTarget>({
      paths,
      prefix: 'futures',
      group: scope.startsWith(DELIVERY_SCOPE) ? 'delivery' : 'futures',
      isChannel: (channel) => isFuturesChannel(channel) || isFuturesPrivateChannel(channel),
      isPrivate: isFuturesPrivateChannel,
      resolve: (channel, payload, uid) => (isFuturesChannel(channel) ? resolveFuturesSubscription(gateway.exchange, scope, channel, payload)
        : isFuturesPrivateChannel(channel) ? resolveFuturesPrivate<FxTarget>(gateway.exchange, scope, channel, payload, uid)
          : { ok: false, code: WsErrorCode.BadRequest, message: `unknown channel: ${channel}` }),
      afterSubscribe: (channel, uid) => privates.subscribed(channel, scope, uid),
      firstFrame: (channel, topic, t, now) => (channel === 'futures.contract_stats' ? stats.firstFrame(channel, topic, t, now)
        : channel === 'futures.public_liquidates' ? undefined : pushes.firstFrame(channel, topic, t, now)),
      api: (c, req, auth, nowMs, answer) => {
        if (!req.channel.startsWith('futures.')) return false;
        handleFuturesApiRequest(deps, scope, c, req, auth, host.nowUs, admit(req.channel, nowMs), answer);
        return true;
      },
    });
  };
  for (const settle of settles) serve(settle, [`/v4/ws/fx/${settle}`, `/v4/ws/fx/${settle}/`]);
  // Delivery (docs/derivatives.md): `/v4/ws/delivery/{settle}` (Gate's path, which ccxt.pro uses) and
  // `/v4/ws/fx/delivery/{settle}` serve the same channels and order entry for the delivery contracts of the settle
  // (scope `delivery:{settle}`): their books, orders, positions and the delivery account's balance.
  const deliverySettles = new Set([...DEFAULT_SETTLES, ...gateway.exchange.futures.contracts.filter(isDelivery).map((c) => settleOfScope(c.settle))]);
  for (const plain of deliverySettles) {
    serve(DELIVERY_SCOPE + plain, [`/v4/ws/delivery/${plain}`, `/v4/ws/delivery/${plain}/`, `/v4/ws/fx/delivery/${plain}`, `/v4/ws/fx/delivery/${plain}/`]);
  }
  return pushes;
}
