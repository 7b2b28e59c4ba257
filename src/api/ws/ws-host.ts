/**
 * The connection machinery every WebSocket v4 endpoint shares (spot at `/ws/v4/`, perpetual futures at
 * `/v4/ws/fx/{settle}`, delivery at `/v4/ws/delivery/{settle}`, options at `/v4/ws/options/{settle}`, the control
 * plane's at `/ws/sim`), over one uWebSockets.js app: the output gate, per-connection frame limits, parsing,
 * pings, the subscribe / unsubscribe flow with its first pushes, slow-consumer cut-off and keepalive. An
 * endpoint supplies a WsProtocol: its paths, its channels (resolution of a payload into topics), its first
 * pushes and, optionally, order entry (event "api").
 *
 * Per frame: the per-connection frame limit → parse (envelope.ts) → `<prefix>.ping` → pong; event "api" →
 * the protocol's `api`; subscribe / unsubscribe → authentication for private channels (ws-auth.ts, or the
 * protocol's own `authorize`: the control-plane token) → payload →
 * topics → acknowledgement, then, per topic, the subscription and the channel's first push to this socket alone
 * (`firstFrame`), subscribed and rendered in one synchronous step so that later pushes continue from exactly that
 * state. Anything malformed gets an error reply on that connection and changes nothing else.
 * Fan-out: pushes are published once per topic (`publish`) and uWebSockets.js copies them to each subscriber;
 * topics are global to the app, so endpoints keep them distinct by channel name. Backpressure: a socket whose
 * send buffer passes `maxBackpressure` bytes (seen after a direct send or by a sweep every 50 ms) is closed with
 * SLOW_CONSUMER_CLOSE, the close frame queued behind what it has not read; uWebSockets.js's own ceiling is twice
 * that: there it skips the socket's pushes (and we end it). The engine never waits for a socket.
 * Keepalive: protocol pings are answered by uWebSockets.js; the server pings idle sockets itself.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket, WebSocketBehavior } from 'uWebSockets.js';
import { ResultCode } from '../../core/result-code.js';
import { gateError } from '../../gate/error-catalogue.js';
import type { ApiDeps } from '../deps.js';
import type { PermGroup } from '../auth/key-store.js';
import { wallMicros } from '../http/wall-time.js';
import type { RateLimitOptions } from '../rate-limit.js';
import { ackFrame, authErrorMessage, errorFrame, parseFrame, pongFrame, type WsRequest, WsErrorCode } from './envelope.js';
import type { ApiSession } from './ws-api.js';
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
  /** Period of the futures.contract_stats restatement pushes, ms; default 10 000. */
  readonly contractStatsMs?: number | undefined;
  /** Signature time window, seconds; default 60. */
  readonly authWindowS?: number | undefined;
}

/** Per-connection state. */
export interface Conn extends ApiSession {
  /** The upgrade request's X-Forwarded-For ('' without one): the caller's address behind a trusted proxy. */
  readonly forwardedFor: string;
  readonly topics: Set<string>;
  windowStart: number;
  frames: number;
  /** False once closed or being cut off: nothing more is sent. */
  open: boolean;
}

/** What a subscription payload resolves to: topics and, for public channels, one target per topic. */
export type WsResolution<T> = { readonly ok: true; readonly value: { readonly topics: readonly string[]; readonly targets: readonly T[] } }
  | { readonly ok: false; readonly code: WsErrorCode; readonly message: string };

/** One endpoint's channels and paths over the shared machinery. */
export interface WsProtocol<T> {
  /** Paths it answers on (e.g. `/ws/v4/`). */
  readonly paths: readonly string[];
  /** `spot`, `futures`, `options` or `sim`: pings arrive on `<prefix>.ping` and are answered on `<prefix>.pong`. */
  readonly prefix: string;
  /** The key permission a private subscription needs (read access suffices); default `spot`. */
  readonly group?: PermGroup | undefined;
  /**
   * Checks a private subscription itself instead of Gate's key signature (the control plane's token on `/ws/sim`):
   * Ok admits it (its `uid` is then 0: the payload names the users); another code refuses it with that code's label.
   */
  authorize?(req: WsRequest, c: Conn): ResultCode;
  isChannel(channel: string): boolean;
  isPrivate(channel: string): boolean;
  /** The topics of a (channel-checked) subscription; `uid` is the authenticated user of a private one (else 0). */
  resolve(channel: string, payload: unknown, uid: number): WsResolution<T>;
  /** The first push of a public topic for a new subscriber (called right after it subscribed), if any. */
  firstFrame(channel: string, topic: string, target: T, nowUs: number): string | undefined;
  /** After a subscription is acknowledged and its topics subscribed (e.g. to start timers or prime balances). */
  afterSubscribe?(channel: string, uid: number, topics: readonly string[], targets: readonly T[]): void;
  /** Order entry (event "api"); unknown api channels get error 1 when absent or when it answers false. */
  api?(c: Conn, req: WsRequest, auth: WsAuthContext, nowMs: number, answer: (frame: string) => void): boolean;
}

let connCounter = 0;

/** The shared pieces an app's endpoints use: the publisher through the output gate, and `serve`. */
export interface WsHost {
  readonly nowUs: () => number;
  /** Publishes a push to a topic through the output gate. */
  readonly publish: (topic: string, message: string) => void;
  readonly subscribers: (topic: string) => number;
  /** Whether any topic of a channel has a subscriber (Publisher.active). */
  readonly active: (channel: string) => boolean;
  /** Registers a protocol's paths on the app. */
  readonly serve: <T>(protocol: WsProtocol<T>) => void;
  /** Open connections, every path together (GET /metrics). */
  readonly connections: () => number;
}

export function createWsHost(app: TemplatedApp, deps: ApiDeps, options: WsOptions = {}): WsHost {
  const maxBackpressure = options.maxBackpressure ?? 4 << 20;
  const frameLimit = options.frameLimit ?? { frames: 200, windowMs: 1000 };
  const maxSubs = options.maxSubscriptions ?? 1000;
  const windowS = options.authWindowS ?? 60;
  const { gateway } = deps;
  // Every frame leaves through the gateway's output gate (see OutputGate): never before the journal covers
  // what it shows; a push held when the journal fails is dropped.
  const gate = gateway.output;
  const publish = (topic: string, message: string): void => {
    if (gate.passes()) app.publish(topic, message, false);
    else gate.hold(() => { app.publish(topic, message, false); });
  };
  const sockets = new Set<WebSocket<Conn>>();
  // Subscriptions counted here, per topic and per channel, as uWebSockets.js holds them (every subscribe and
  // unsubscribe goes through `subscription` below, and a closed socket leaves all of its topics): answering
  // `subscribers` from a Map spares a native call and a string copy per lookup, and `active` lets a pusher skip
  // a whole channel before it builds a topic. Updated only when subscriptions change.
  const topicSubs = new Map<string, number>();
  const channelSubs = new Map<string, number>();
  const count = (topic: string, delta: number): void => {
    const n = (topicSubs.get(topic) ?? 0) + delta;
    if (n === 0) topicSubs.delete(topic); else topicSubs.set(topic, n);
    const channel = topic.slice(0, topic.indexOf('|'));
    const m = (channelSubs.get(channel) ?? 0) + delta;
    if (m === 0) channelSubs.delete(channel); else channelSubs.set(channel, m);
  };
  const sweep = setInterval(() => {
    for (const ws of sockets) if (ws.getBufferedAmount() > maxBackpressure) cutOff(ws, ws.getUserData());
  }, 50);
  sweep.unref();
  deps.onClose.push(() => clearInterval(sweep));
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

  function serve<T>(p: WsProtocol<T>): void {
    const pingChannel = `${p.prefix}.ping`;
    const pongChannel = `${p.prefix}.pong`;
    const subscription = (ws: WebSocket<Conn>, c: Conn, req: WsRequest): void => {
      const channel = req.channel;
      const err = (code: WsErrorCode, message: string): void => send(ws, c, errorFrame(c, req, code, message, nowUs()));
      if (!p.isChannel(channel)) return err(WsErrorCode.BadRequest, `unknown channel: ${channel}`);
      let uid = 0;
      if (p.isPrivate(channel) && p.authorize !== undefined) {
        const code = p.authorize(req, c);
        if (code !== ResultCode.Ok) {
          const e = gateError(code);
          return err(WsErrorCode.AuthFailed, authErrorMessage(e.label, e.message));
        }
      } else if (p.isPrivate(channel)) {
        const a = verifySubscription(authContext(c), req.auth, channel, req.event, req.time, p.group);
        if (a.key === undefined) {
          const e = gateError(a.code);
          return err(WsErrorCode.AuthFailed, authErrorMessage(e.label, e.message));
        }
        uid = a.key.uid;
      }
      const res = p.resolve(channel, req.payload, uid);
      if (!res.ok) return err(res.code, res.message);
      const { topics, targets } = res.value;
      if (req.event === 'unsubscribe') {
        for (const t of topics) {
          ws.unsubscribe(t);
          if (c.topics.delete(t)) count(t, -1);
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
        if (!c.topics.has(topic)) {
          c.topics.add(topic);
          count(topic, 1);
        }
        const t = targets[i];
        if (t === undefined) return;
        const first = p.firstFrame(channel, topic, t, nowUs());
        if (first !== undefined) send(ws, c, first);
      });
      p.afterSubscribe?.(channel, uid, topics, targets);
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
      if (req.channel === pingChannel) return send(ws, c, pongFrame(c, req, nowUs(), pongChannel));
      if (req.event === 'api') {
        const handled = p.api?.(c, req, authContext(c), nowMs, (frame) => send(ws, c, frame)) ?? false;
        if (!handled) send(ws, c, errorFrame(c, req, WsErrorCode.BadRequest, `unknown api channel: ${req.channel}`, nowUs()));
        return;
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
        const data: Conn = { connId, ip, forwardedFor: req.getHeader('x-forwarded-for'), uid: 0, apiKey: '', topics: new Set(), windowStart: 0, frames: 0, open: true };
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
        for (const t of c.topics) count(t, -1);
        c.topics.clear();
      },
    };
    for (const path of p.paths) app.ws<Conn>(path, behavior);
  }

  return {
    nowUs, publish, subscribers: (topic) => topicSubs.get(topic) ?? 0, active: (channel) => channelSubs.has(channel), serve,
    connections: () => sockets.size,
  };
}
