/**
 * One WebSocket connection per endpoint (spot `/ws/v4/`, futures `/v4/ws/fx/{settle}`, delivery
 * `/v4/ws/delivery/{settle}`, options `/v4/ws/options/{settle}`, the control plane's `/ws/sim`) shared by every view.
 * Views subscribe with a channel and a payload and get every update of that channel (they pick their market out of
 * it); a subscription is sent once however many views share it and dropped when the last leaves. A subscription may
 * carry an `auth` object (the control-plane token: it travels in the frame, never in the URL) and be told of the
 * server's refusal. A lost connection is dialled again (1 s, 2 s, … at most 10 s apart) and every subscription renewed.
 */

/** What a listener gets: the update's `result` and the envelope's engine time in ms. */
export type Listener = (result: unknown, timeMs: number) => void;
/** A refusal of a subscription: Gate's error code and message (code 4: the label and message of the refusal). */
export type Refusal = (code: number, label: string, message: string) => void;

interface Sub {
  readonly channel: string;
  readonly payload: readonly string[];
  readonly auth: Readonly<Record<string, string>> | undefined;
  readonly listeners: Set<Listener>;
  readonly refusals: Set<Refusal>;
}

export interface SubscribeOptions {
  /** Sent as the subscription's `auth` (with its unsubscribe too). */
  readonly auth?: Readonly<Record<string, string>> | undefined;
  /** Told when the server refuses the subscription. */
  readonly onRefused?: Refusal | undefined;
}

/** Told whenever any connection opens or closes, or a feed starts being used. */
const statusListeners = new Set<() => void>();
const changed = (): void => { for (const f of statusListeners) f(); };

export class Feed {
  readonly #url: string;
  readonly #subs = new Map<string, Sub>();
  #ws: WebSocket | undefined;
  #retryMs = 1000;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #nextId = 1;

  constructor(url: string) {
    this.#url = url;
  }

  get open(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN;
  }

  /** Whether any view subscribes through this connection. */
  get used(): boolean {
    return this.#subs.size > 0;
  }

  /** Subscribes `listener` to `channel` with `payload`; returns the unsubscriber. */
  subscribe(channel: string, payload: readonly string[], listener: Listener, options: SubscribeOptions = {}): () => void {
    const key = `${channel}|${JSON.stringify(payload)}`;
    let sub = this.#subs.get(key);
    if (sub === undefined) {
      sub = { channel, payload, auth: options.auth, listeners: new Set(), refusals: new Set() };
      this.#subs.set(key, sub);
      if (this.open) this.#send(sub, 'subscribe');
      else this.#connect();
      changed();
    }
    sub.listeners.add(listener);
    if (options.onRefused !== undefined) sub.refusals.add(options.onRefused);
    return () => {
      const s = this.#subs.get(key);
      if (s === undefined) return;
      s.listeners.delete(listener);
      if (options.onRefused !== undefined) s.refusals.delete(options.onRefused);
      if (s.listeners.size > 0) return;
      this.#subs.delete(key);
      if (this.open) this.#send(s, 'unsubscribe');
      changed();
    };
  }

  #send(s: Sub, event: string): void {
    this.#ws?.send(JSON.stringify({ id: this.#nextId++, time: Math.floor(Date.now() / 1000), channel: s.channel, event, payload: s.payload,
      ...(s.auth === undefined ? {} : { auth: s.auth }) }));
  }

  #connect(): void {
    if (this.#ws !== undefined || this.#timer !== undefined) return;
    const ws = new WebSocket(this.#url);
    this.#ws = ws;
    ws.onopen = () => {
      this.#retryMs = 1000;
      for (const s of this.#subs.values()) this.#send(s, 'subscribe');
      changed();
    };
    ws.onmessage = (m) => this.#onMessage(m.data);
    ws.onclose = () => {
      this.#ws = undefined;
      changed();
      if (this.#subs.size === 0) return;
      this.#timer = setTimeout(() => { this.#timer = undefined; this.#connect(); }, this.#retryMs);
      this.#retryMs = Math.min(this.#retryMs * 2, 10_000);
    };
  }

  #onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let msg: { channel?: unknown; event?: unknown; result?: unknown; time_ms?: unknown; payload?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      msg = JSON.parse(data) as typeof msg;
    } catch {
      return;
    }
    if (msg.error !== undefined && msg.event === 'subscribe') return this.#onRefused(msg.channel, msg.payload, msg.error);
    // Updates are `event: "update"`; futures.order_book and options.order_book push `event: "all"`.
    if (msg.event !== 'update' && msg.event !== 'all') return;
    const timeMs = typeof msg.time_ms === 'number' ? msg.time_ms : 0;
    for (const s of this.#subs.values()) {
      if (s.channel !== msg.channel) continue;
      for (const l of s.listeners) l(msg.result, timeMs);
    }
  }

  #onRefused(channel: unknown, payload: unknown, error: { code?: unknown; message?: unknown }): void {
    const s = this.#subs.get(`${String(channel)}|${JSON.stringify(payload)}`);
    if (s === undefined) return;
    const code = typeof error.code === 'number' ? error.code : 0;
    const text = typeof error.message === 'string' ? error.message : '';
    let label = `error ${code}`;
    let message = text;
    if (code === 4) {
      // Authentication failures carry the REST error object as JSON.
      try {
        const e = JSON.parse(text) as { label?: unknown; message?: unknown };
        if (typeof e.label === 'string') label = e.label;
        message = typeof e.message === 'string' ? e.message : '';
      } catch {
        // Not JSON: the text as it came.
      }
    }
    for (const f of s.refusals) f(code, label, message);
  }
}

const feeds = new Map<string, Feed>();

/** The shared connection to `url`. */
export function feed(url: string): Feed {
  let f = feeds.get(url);
  if (f === undefined) feeds.set(url, f = new Feed(url));
  return f;
}

/** Whether every connection in use is open (and at least one is). */
export function allOpen(): boolean {
  const used = [...feeds.values()].filter((f) => f.used);
  return used.length > 0 && used.every((f) => f.open);
}

/** Told whenever a connection opens or closes or starts or stops being used; returns the unsubscriber. */
export function onFeedsChange(f: () => void): () => void {
  statusListeners.add(f);
  return () => statusListeners.delete(f);
}
