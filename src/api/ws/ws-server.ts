/**
 * Gate's spot WebSocket v4 at `/ws/v4/` on the HTTP server's uWebSockets.js app.
 *
 * Per frame: the per-connection frame limit → parse (envelope.ts) → `spot.ping` → pong; event "api" →
 * order entry (ws-api.ts, with the REST rate classes counted per connection); subscribe / unsubscribe →
 * authentication for private channels (ws-auth.ts) → payload → topics (channels.ts) → acknowledgement,
 * then, per topic, the subscription and the channel's first push to this socket alone: the current state of
 * every state channel (book, ticker, best levels, candle; PublicPushes.firstFrame), so that no client waits
 * for the market to move. Anything malformed gets an error reply on that connection and changes nothing else.
 * Fan-out: pushes are published once per topic (push-feed.ts) and uWebSockets.js copies them to each
 * subscriber. Backpressure: a socket whose send buffer passes `maxBackpressure` bytes (seen after a direct
 * send or by a sweep every 50 ms) is closed with SLOW_CONSUMER_CLOSE, the close frame queued behind what it
 * has not read; uWebSockets.js's own ceiling is twice that: there it skips the socket's pushes (and we end it,
 * though the close frame may not fit). The engine never waits for a socket.
 * Keepalive: protocol pings are answered by uWebSockets.js; the server pings idle sockets itself.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket, WebSocketBehavior } from 'uWebSockets.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { wallMicros } from '../http/wall-time.js';
import type { MarketDataFeed } from '../market-data/market-data-feed.js';
import { RateLimiter, type RateLimitOptions } from '../rate-limit.js';
import { isChannel, isPrivateChannel, resolveSubscription } from './channels.js';
import { ackFrame, authErrorMessage, errorFrame, parseFrame, pongFrame, type WsRequest, WsErrorCode } from './envelope.js';
import { gateError } from '../../gate/error-catalogue.js';
import { PushFeed } from './push-feed.js';
import { API_CHANNELS, apiRejection, type ApiSession, handleApiRequest } from './ws-api.js';
import type { WsAuthContext } from './ws-auth.js';
import { verifySubscription } from './ws-auth.js';

/** Close code of a connection cut off for not reading its pushes (policy violation). */
export const SLOW_CONSUMER_CLOSE = 1008;

export interface WsOptions {
  /** Send-buffer bytes per socket before it is cut off (checked after each direct send and every 50 ms); default 4 MiB. */
  readonly maxBackpressure?: number | undefined;
  /** Largest client frame in bytes (larger ones close the socket, code 1009); default 64 KiB. */
  readonly maxPayloadLength?: number | undefined;
  /** Seconds without traffic before the socket is pinged and then closed; default 120. */
  readonly idleTimeoutS?: number | undefined;
  /** Frames a connection may send per `windowMs`; further frames get error code 5. Default 200 per 1000 ms. */
  readonly frameLimit?: { readonly frames: number; readonly windowMs: number } | undefined;
  /** Order-entry limits per connection, at the REST classes' rates (rate-limit.ts); default enabled. */
  readonly rateLimits?: RateLimitOptions | undefined;
  /** Topics one connection may hold; default 1000. */
  readonly maxSubscriptions?: number | undefined;
  /** Signature time window, seconds; default 60. */
  readonly authWindowS?: number | undefined;
}

interface Conn extends ApiSession {
  readonly topics: Set<string>;
  windowStart: number;
  frames: number;
  /** False once closed or being cut off: nothing more is sent. */
  open: boolean;
}

let connCounter = 0;

/** Registers the endpoint on `app`; returns the push feed (already observing the gateway). */
export function registerSpotWebSocket(app: TemplatedApp, deps: ApiDeps, feed: MarketDataFeed, options: WsOptions = {}): PushFeed {
  const maxBackpressure = options.maxBackpressure ?? 4 << 20;
  const frameLimit = options.frameLimit ?? { frames: 200, windowMs: 1000 };
  const maxSubs = options.maxSubscriptions ?? 1000;
  const windowS = options.authWindowS ?? 60;
  const limiter = new RateLimiter(options.rateLimits ?? { enabled: true });
  const { gateway } = deps;
  // Every frame leaves through the gateway's output gate (see OutputGate): never before the journal covers
  // what it shows; a push held when the journal fails is dropped.
  const gate = gateway.output;
  const publish = (topic: string, message: string): void => {
    if (gate.passes()) app.publish(topic, message, false);
    else gate.hold(() => { app.publish(topic, message, false); });
  };
  const push = new PushFeed(gateway, feed, {
    publish,
    subscribers: (topic) => app.numSubscribers(topic),
  }).attach();
  deps.priceTriggers.store.onChange = (o, event) => { if (o.product === 'spot') push.private.onPriceOrder(o, event, gateway.clock.nowUs()); };
  const timers = new Map<string, NodeJS.Timeout>();
  const sockets = new Set<WebSocket<Conn>>();
  const sweep = setInterval(() => {
    for (const ws of sockets) if (ws.getBufferedAmount() > maxBackpressure) cutOff(ws, ws.getUserData());
  }, 50);
  sweep.unref();
  deps.onClose.push(() => {
    clearInterval(sweep);
    push.stop();
    deps.priceTriggers.store.onChange = undefined;
    for (const t of timers.values()) clearInterval(t);
    timers.clear();
  });
  const nowUs = (): number => gateway.clock.nowUs();

  const cutOff = (ws: WebSocket<Conn>, c: Conn): void => {
    if (!c.open) return;
    c.open = false;
    setImmediate(() => {
      try {
        ws.end(SLOW_CONSUMER_CLOSE, 'slow consumer: send buffer over limit');
      } catch {
        // Already closed by the peer in the meantime: nothing to do.
      }
    });
  };
  const sendNow = (ws: WebSocket<Conn>, c: Conn, frame: string): void => {
    if (!c.open) return;
    const status = ws.send(frame, false);
    if (status === 2 || ws.getBufferedAmount() > maxBackpressure) cutOff(ws, c);
  };
  const send = (ws: WebSocket<Conn>, c: Conn, frame: string): void => {
    if (gate.passes()) sendNow(ws, c, frame);
    else gate.hold(() => sendNow(ws, c, frame));
  };
  const authContext = (c: Conn): WsAuthContext => ({ keys: deps.keys, windowS, nowS: wallMicros() / 1e6, ip: c.ip });

  const startSnapshots = (topic: string, m: number, depth: number, intervalMs: number): void => {
    if (timers.has(topic)) return;
    const t = setInterval(() => {
      if (app.numSubscribers(topic) === 0) {
        clearInterval(t);
        timers.delete(topic);
        return;
      }
      publish(topic, push.public.bookSnapshot(m, depth, nowUs()));
    }, intervalMs);
    t.unref();
    timers.set(topic, t);
  };

  const subscription = (ws: WebSocket<Conn>, c: Conn, req: WsRequest): void => {
    const channel = req.channel;
    const err = (code: WsErrorCode, message: string): void => send(ws, c, errorFrame(c, req, code, message, nowUs()));
    if (!isChannel(channel)) return err(WsErrorCode.BadRequest, `unknown channel: ${channel}`);
    let uid = 0;
    if (isPrivateChannel(channel)) {
      const a = verifySubscription(authContext(c), req.auth, channel, req.event, req.time);
      if (a.key === undefined) {
        const e = gateError(a.code);
        return err(WsErrorCode.AuthFailed, authErrorMessage(e.label, e.message));
      }
      uid = a.key.uid;
    }
    const res = resolveSubscription(channel, req.payload, (p) => gateway.exchange.marketIndex(p), uid);
    if (!res.ok) return err(res.code, res.message);
    const { topics, targets } = res.value;
    if (req.event === 'unsubscribe') {
      for (const t of topics) {
        ws.unsubscribe(t);
        c.topics.delete(t);
      }
      return send(ws, c, ackFrame(c, req, nowUs()));
    }
    const fresh = topics.filter((t) => !c.topics.has(t));
    if (c.topics.size + fresh.length > maxSubs) return err(WsErrorCode.InvalidArgument, `at most ${maxSubs} subscriptions per connection`);
    send(ws, c, ackFrame(c, req, nowUs()));
    // Subscribing before rendering the first push, both in this synchronous block: every later push of the
    // topic describes a state after the one the first push shows, and none is missed in between. Through the
    // output gate (a journal not yet durable) frames leave in render order, so pushes rendered earlier and
    // still held may reach this socket before its acknowledgement: older states, which a client discards
    // until its first push (ccxt.pro does).
    topics.forEach((topic, i) => {
      ws.subscribe(topic);
      c.topics.add(topic);
      const t = targets[i];
      if (t === undefined) return;
      const first = push.public.firstFrame(channel, t, nowUs());
      if (first !== undefined) send(ws, c, first);
      if (channel === 'spot.order_book') startSnapshots(topic, t.market, t.depth, t.intervalMs);
    });
    if (channel === 'spot.balances') push.private.prime(uid);
  };

  const onFrame = (ws: WebSocket<Conn>, c: Conn, text: string): void => {
    const nowMs = Date.now();
    if (nowMs - c.windowStart >= frameLimit.windowMs) {
      c.windowStart = nowMs;
      c.frames = 0;
    }
    const parsed = parseFrame(text);
    if (++c.frames > frameLimit.frames) {
      const r = parsed.ok ? parsed.req : parsed;
      return send(ws, c, errorFrame(c, r, WsErrorCode.TooManyRequests, `too many requests: over ${frameLimit.frames} frames per ${frameLimit.windowMs} ms`, nowUs()));
    }
    if (!parsed.ok) return send(ws, c, errorFrame(c, parsed, parsed.code, parsed.message, nowUs()));
    const req = parsed.req;
    if (req.channel === 'spot.ping') return send(ws, c, pongFrame(c, req, nowUs()));
    if (req.event === 'api') {
      const cls = API_CHANNELS[req.channel];
      if (cls === undefined) return send(ws, c, errorFrame(c, req, WsErrorCode.BadRequest, `unknown api channel: ${req.channel}`, nowUs()));
      const answer = (frame: string): void => send(ws, c, frame);
      if (limiter.enabled && !limiter.take(cls, `ws:${c.connId}`, nowMs)) return answer(apiRejection(c, req, ResultCode.TooManyRequests, nowUs()));
      return handleApiRequest(deps, c, req, authContext(c), nowUs, answer);
    }
    if (req.event !== 'subscribe' && req.event !== 'unsubscribe') {
      return send(ws, c, errorFrame(c, req, WsErrorCode.BadRequest, `unknown event: ${req.event}`, nowUs()));
    }
    subscription(ws, c, req);
  };

  const behavior: WebSocketBehavior<Conn> = {
    maxPayloadLength: options.maxPayloadLength ?? 64 * 1024,
    maxBackpressure: 2 * maxBackpressure,
    closeOnBackpressureLimit: false,
    idleTimeout: options.idleTimeoutS ?? 120,
    sendPingsAutomatically: true,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      const ip = Buffer.from(res.getRemoteAddressAsText()).toString().replace(/^::ffff:/, '');
      const connId = `${process.pid.toString(16)}${(++connCounter).toString(16).padStart(8, '0')}`;
      const data: Conn = { connId, ip, uid: 0, apiKey: '', topics: new Set(), windowStart: 0, frames: 0, open: true };
      res.upgrade(data, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'), context);
    },
    message: (ws: WebSocket<Conn>, message: ArrayBuffer) => {
      const c = ws.getUserData();
      if (!c.open) return;
      try {
        onFrame(ws, c, Buffer.from(message).toString('utf8'));
      } catch (e) {
        console.error('ringmatch: websocket frame failed:', e);
        send(ws, c, errorFrame(c, { id: undefined, channel: '', event: '' }, WsErrorCode.BadRequest, 'server error', nowUs()));
      }
    },
    open: (ws: WebSocket<Conn>) => { sockets.add(ws); },
    dropped: (ws: WebSocket<Conn>) => cutOff(ws, ws.getUserData()),
    close: (ws: WebSocket<Conn>) => {
      sockets.delete(ws);
      const c = ws.getUserData();
      c.open = false;
      c.topics.clear();
    },
  };
  app.ws<Conn>('/ws/v4/', behavior);
  app.ws<Conn>('/ws/v4', behavior);
  return push;
}
