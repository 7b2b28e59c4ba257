/**
 * Gate's perpetual-futures WebSocket v4 at `/v4/ws/fx/{settle}` (usdt, btc, and any other settle a contract
 * uses) on the same app and connection machinery as spot (ws-host.ts): same envelope, `futures.ping` →
 * `futures.pong`, the public channels of futures-channels.ts with the pushes of futures-pushes.ts over the
 * futures market-data feed the REST routes serve. The paths carry `fx` because ccxt.pro tells a swap connection
 * from a spot one by it. Private channels (futures-private-pushes.ts) are signed as spot's; order entry is not
 * served yet (an api request answers error 1).
 */
import type { TemplatedApp } from 'uWebSockets.js';
import type { ApiDeps } from '../deps.js';
import { futuresFeedOf } from '../routes/futures-public.js';
import { DEFAULT_SETTLES } from '../routes/futures-public-params.js';
import { type FxTarget, isFuturesChannel, resolveFuturesSubscription } from './futures-channels.js';
import { FuturesPrivatePushes, isFuturesPrivateChannel, resolveFuturesPrivate } from './futures-private-pushes.js';
import { FuturesPushes } from './futures-pushes.js';
import { WsErrorCode } from './envelope.js';
import { createWsHost, type WsHost, type WsOptions } from './ws-host.js';

/** Registers one endpoint per settle; returns the pushes (observing the gateway), or undefined without a futures feed. */
export function registerFuturesWebSocket(app: TemplatedApp, deps: ApiDeps, options: WsOptions = {},
  host: WsHost = createWsHost(app, deps, options)): FuturesPushes | undefined {
  const feed = futuresFeedOf(deps);
  if (feed === undefined) return undefined;
  const { gateway } = deps;
  const pushes = new FuturesPushes(gateway, feed, { publish: host.publish, subscribers: host.subscribers }).attach(gateway);
  const privates = new FuturesPrivatePushes(gateway, { publish: host.publish, subscribers: host.subscribers }).attach(gateway);
  deps.onClose.push(() => { pushes.stop(); privates.stop(); });
  const settles = new Set([...DEFAULT_SETTLES, ...gateway.exchange.futures.contracts.map((c) => c.settle)]);
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
    });
  }
  return pushes;
}
