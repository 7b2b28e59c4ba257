/**
 * Gate's options WebSocket v4, one endpoint per settle currency on the server's port, on the connection machinery
 * every endpoint shares (ws-host.ts: envelope, output gate, frame limits, subscribe flow with first pushes,
 * slow-consumer cut-off):
 *
 *   /v4/ws/options/{settle}   Gate's testnet path (ccxt.pro's `test` urls: wss://ws-testnet.gate.com/v4/ws/options/{settle})
 *   /v4/ws/op-ws/{settle}     the same endpoint under a path with `op-`, by which ccxt.pro tells an options connection
 *                             (Gate's live host is op-ws.gateio.live); its watchPositions needs it
 *
 * `options.ping` → `options.pong`; the public channels of options-channels.ts with the pushes of options-pushes.ts
 * over the options market data the REST routes serve; the private ones (options-private-pushes.ts) signed as spot's,
 * with the `options` permission. Gate's options socket has no order entry: an "api" request is answered error 1
 * (unknown api channel), as on any endpoint without it. Settles: usdt and btc (which ccxt lists) and each
 * underlying's quote currency; a contract of another settle is unknown there (error 2).
 */
import type { TemplatedApp } from 'uWebSockets.js';
import type { ApiDeps } from '../deps.js';
import { optionsFeedOf } from '../market-data/options-market-data.js';
import { DEFAULT_SETTLES } from '../routes/futures-public-params.js';
import { WsErrorCode } from './envelope.js';
import {
  isOptionsChannel, isOptionsPrivateChannel, OptionsScope, type OpTarget, resolveOptionsPrivate, resolveOptionsSubscription,
} from './options-channels.js';
import { OptionsPrivatePushes } from './options-private-pushes.js';
import { OptionsPushes } from './options-pushes.js';
import { createWsHost, type WsHost, type WsOptions } from './ws-host.js';

/** The paths of the options endpoint of `settle`. */
const optionsPaths = (settle: string): string[] =>
  [`/v4/ws/options/${settle}`, `/v4/ws/options/${settle}/`, `/v4/ws/op-ws/${settle}`, `/v4/ws/op-ws/${settle}/`];

/** Registers the endpoints (none without options contracts); returns the public pushes, observing the gateway. */
export function registerOptionsWebSocket(app: TemplatedApp, deps: ApiDeps, options: WsOptions = {},
  host: WsHost = createWsHost(app, deps, options)): OptionsPushes | undefined {
  const { gateway } = deps;
  const ex = gateway.exchange;
  if (ex.options.contracts.length === 0) return undefined;
  // The host publishes through the output gate and counts subscribers: it is the pushes' Publisher.
  const pushes = new OptionsPushes(gateway, optionsFeedOf(deps), host).attach(gateway);
  const privates = new OptionsPrivatePushes(gateway, host).attach(gateway);
  deps.onClose.push(() => { pushes.stop(); privates.stop(); });
  const settles = new Set([...DEFAULT_SETTLES, ...ex.options.underlyings.map((u) => u.quote.toLowerCase())]);
  for (const settle of settles) {
    const scope = new OptionsScope(ex, settle);
    host.serve<OpTarget>({
      paths: optionsPaths(settle),
      prefix: 'options',
      group: 'options',
      isChannel: (channel) => isOptionsChannel(channel) || isOptionsPrivateChannel(channel),
      isPrivate: isOptionsPrivateChannel,
      resolve: (channel, payload, uid) => (isOptionsChannel(channel) ? resolveOptionsSubscription(scope, channel, payload)
        : isOptionsPrivateChannel(channel) ? resolveOptionsPrivate<OpTarget>(scope, channel, payload, uid)
          : { ok: false, code: WsErrorCode.BadRequest, message: `unknown channel: ${channel}` }),
      afterSubscribe: (channel, uid) => privates.subscribed(channel, settle, uid),
      firstFrame: (channel, topic, t, now) => pushes.firstFrame(channel, topic, t, now),
    });
  }
  return pushes;
}
