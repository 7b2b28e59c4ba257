/**
 * One WebSocket v4 connection (spot `/ws/v4/` or futures `/v4/ws/fx/{settle}`) shared by every view: public
 * channels only. Views subscribe with a channel and a payload and get every update of that channel (they pick
 * their market out of it); a subscription is sent once however many views share it and dropped when the last
 * leaves. A lost connection is dialled again (1 s, 2 s, … at most 10 s apart) and every subscription renewed.
 */

/** What a listener gets: the update's `result` and the envelope's engine time in ms. */
export type Listener = (result: unknown, timeMs: number) => void;

interface Sub {
  readonly channel: string;
  readonly payload: readonly string[];
  readonly listeners: Set<Listener>;
}

export class Feed {
  readonly #url: string;
  readonly #subs = new Map<string, Sub>();
  readonly #statusListeners = new Set<(open: boolean) => void>();
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

  /** Told when the connection opens (true) or closes (false). Returns the unsubscriber. */
  onStatus(f: (open: boolean) => void): () => void {
    this.#statusListeners.add(f);
    return () => this.#statusListeners.delete(f);
  }

  /** Subscribes `listener` to `channel` with `payload`; returns the unsubscriber. */
  subscribe(channel: string, payload: readonly string[], listener: Listener): () => void {
    const key = `${channel}|${JSON.stringify(payload)}`;
    let sub = this.#subs.get(key);
    if (sub === undefined) {
      sub = { channel, payload, listeners: new Set() };
      this.#subs.set(key, sub);
      if (this.open) this.#send(channel, 'subscribe', payload);
      else this.#connect();
    }
    sub.listeners.add(listener);
    return () => {
      const s = this.#subs.get(key);
      if (s === undefined) return;
      s.listeners.delete(listener);
      if (s.listeners.size > 0) return;
      this.#subs.delete(key);
      if (this.open) this.#send(channel, 'unsubscribe', payload);
    };
  }

  #send(channel: string, event: string, payload: readonly string[]): void {
    this.#ws?.send(JSON.stringify({ id: this.#nextId++, time: Math.floor(Date.now() / 1000), channel, event, payload }));
  }

  #connect(): void {
    if (this.#ws !== undefined || this.#timer !== undefined) return;
    const ws = new WebSocket(this.#url);
    this.#ws = ws;
    ws.onopen = () => {
      this.#retryMs = 1000;
      for (const s of this.#subs.values()) this.#send(s.channel, 'subscribe', s.payload);
      for (const f of this.#statusListeners) f(true);
    };
    ws.onmessage = (m) => this.#onMessage(m.data);
    ws.onclose = () => {
      this.#ws = undefined;
      for (const f of this.#statusListeners) f(false);
      if (this.#subs.size === 0) return;
      this.#timer = setTimeout(() => { this.#timer = undefined; this.#connect(); }, this.#retryMs);
      this.#retryMs = Math.min(this.#retryMs * 2, 10_000);
    };
  }

  #onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let msg: { channel?: unknown; event?: unknown; result?: unknown; time_ms?: unknown };
    try {
      msg = JSON.parse(data) as typeof msg;
    } catch {
      return;
    }
    // Updates are `event: "update"`; futures.order_book pushes `event: "all"`.
    if (msg.event !== 'update' && msg.event !== 'all') return;
    const timeMs = typeof msg.time_ms === 'number' ? msg.time_ms : 0;
    for (const s of this.#subs.values()) {
      if (s.channel !== msg.channel) continue;
      for (const l of s.listeners) l(msg.result, timeMs);
    }
  }
}

const feeds = new Map<string, Feed>();

/** The shared connection to `url`. */
export function feed(url: string): Feed {
  let f = feeds.get(url);
  if (f === undefined) feeds.set(url, f = new Feed(url));
  return f;
}
