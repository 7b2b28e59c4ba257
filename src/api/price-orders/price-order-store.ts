/**
 * Price-triggered spot orders (Gate's SpotPriceTriggeredOrder): records, and per market the open triggers
 * indexed by trigger price so that a new last price finds exactly the orders it fires.
 *
 * A trigger with rule `>=` fires when the last price rises to or above its price; `<=` when it falls to or
 * below. Per market, `>=` triggers are kept sorted by price ascending and `<=` triggers descending, so the
 * orders a price fires are always a prefix: `due` costs O(fired + log n), insertion and removal O(n).
 * Expiry is checked against the caller's clock when the store is read or evaluated (`expire`).
 *
 * Statuses: open → finish (the put order was accepted, `fired_order_id` set), failed (the engine refused
 * the put order; `reason` holds the label), cancelled, expired.
 */

export type TriggerRule = '>=' | '<=';
export type PriceOrderStatus = 'open' | 'cancelled' | 'finish' | 'failed' | 'expired';

/** The order placed when the trigger fires, as the client gave it (decimal strings, Gate's names). */
export interface PutOrder {
  readonly type: 'limit' | 'market';
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly amount: string;
  readonly account: string;
  readonly time_in_force: 'gtc' | 'ioc';
  readonly auto_borrow: boolean;
  readonly auto_repay: boolean;
  readonly text: string;
}

export interface PriceOrder {
  readonly id: number;
  readonly uid: number;
  readonly market: number;
  /** Trigger price in ticks, and as given. */
  readonly triggerTicks: number;
  readonly triggerPrice: string;
  readonly rule: TriggerRule;
  /** Seconds the trigger waits before it expires. */
  readonly expiration: number;
  readonly put: PutOrder;
  /** µs since the epoch. */
  readonly createUs: number;
  finishUs: number;
  status: PriceOrderStatus;
  firedOrderId: number;
  reason: string;
}

/** Open triggers of one market, split by rule, each sorted so the next to fire is first. */
class MarketTriggers {
  /** rule `>=`, trigger price ascending. */
  readonly rising: PriceOrder[] = [];
  /** rule `<=`, trigger price descending. */
  readonly falling: PriceOrder[] = [];

  add(o: PriceOrder): void {
    const list = o.rule === '>=' ? this.rising : this.falling;
    const before = o.rule === '>=' ? (x: PriceOrder) => x.triggerTicks > o.triggerTicks : (x: PriceOrder) => x.triggerTicks < o.triggerTicks;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(list[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    list.splice(lo, 0, o);
  }

  remove(o: PriceOrder): void {
    const list = o.rule === '>=' ? this.rising : this.falling;
    const i = list.indexOf(o);
    if (i >= 0) list.splice(i, 1);
  }
}

/** When an expiring trigger expires, µs since the epoch. */
const expiryUs = (o: PriceOrder): number => o.createUs + o.expiration * 1e6;

/** `put` when a trigger is created, `finish` when it ends (any final status). */
export type PriceOrderChange = (o: PriceOrder, event: 'put' | 'finish') => void;

export class PriceOrderStore {
  /** Told of every creation and ending (WebSocket pushes). */
  onChange: PriceOrderChange | undefined;
  readonly #byId = new Map<number, PriceOrder>();
  readonly #open: MarketTriggers[] = [];
  /** Every open trigger (what `expire` scans). */
  readonly #openSet = new Set<PriceOrder>();
  /** No open trigger expires before this (µs); `expire` returns at once until then. */
  #nextExpiryUs = Number.POSITIVE_INFINITY;
  /** Finished records, oldest first (bounded: the oldest are dropped past `#keepFinished`). */
  readonly #finished: PriceOrder[] = [];
  readonly #keepFinished: number;
  #nextId: number;

  constructor(options: { firstId?: number; keepFinished?: number } = {}) {
    this.#nextId = options.firstId ?? 1;
    this.#keepFinished = options.keepFinished ?? 100_000;
  }

  /** Records a new open trigger; returns it with its id. */
  add(fields: Omit<PriceOrder, 'id' | 'finishUs' | 'status' | 'firedOrderId' | 'reason'>): PriceOrder {
    const o: PriceOrder = { ...fields, id: this.#nextId++, finishUs: 0, status: 'open', firedOrderId: 0, reason: '' };
    this.#byId.set(o.id, o);
    this.#openSet.add(o);
    if (o.expiration > 0) this.#nextExpiryUs = Math.min(this.#nextExpiryUs, expiryUs(o));
    this.#market(o.market).add(o);
    this.onChange?.(o, 'put');
    return o;
  }

  get(id: number): PriceOrder | undefined {
    return this.#byId.get(id);
  }

  /** Open triggers of `uid` (optionally one market), oldest first. @allocates */
  openOf(uid: number, market = -1): PriceOrder[] {
    const out: PriceOrder[] = [];
    for (const o of this.#openSet) if (o.uid === uid && (market < 0 || o.market === market)) out.push(o);
    return out;
  }

  /** Finished triggers of `uid` (optionally one market), newest first. @allocates */
  finishedOf(uid: number, market = -1): PriceOrder[] {
    const out: PriceOrder[] = [];
    for (let i = this.#finished.length - 1; i >= 0; i--) {
      const o = this.#finished[i]!;
      if (o.uid === uid && (market < 0 || o.market === market)) out.push(o);
    }
    return out;
  }

  /** Ends an open trigger with `status` at `nowUs`. */
  finish(o: PriceOrder, status: Exclude<PriceOrderStatus, 'open'>, nowUs: number, reason = '', firedOrderId = 0): void {
    if (o.status !== 'open') return;
    this.#openSet.delete(o);
    this.#market(o.market).remove(o);
    o.status = status;
    o.finishUs = nowUs;
    o.reason = reason;
    o.firedOrderId = firedOrderId;
    this.#finished.push(o);
    if (this.#finished.length > this.#keepFinished) this.#byId.delete(this.#finished.shift()!.id);
    this.onChange?.(o, 'finish');
  }

  /**
   * Marks every open trigger whose expiry is at or before `nowUs` as expired. O(1) until the earliest expiry
   * is due (it runs on every trade), then one pass over the open triggers.
   */
  expire(nowUs: number): void {
    if (nowUs < this.#nextExpiryUs) return;
    let next = Number.POSITIVE_INFINITY;
    for (const o of [...this.#openSet]) {
      if (o.expiration === 0) continue;
      if (expiryUs(o) <= nowUs) this.finish(o, 'expired', expiryUs(o));
      else next = Math.min(next, expiryUs(o));
    }
    this.#nextExpiryUs = next;
  }

  /**
   * Takes the open triggers of `market` that a last price of `ticks` fires out of the price index and
   * returns them in creation order; they stay `open` until the caller `finish`es them. @allocates
   */
  due(market: number, ticks: number): PriceOrder[] {
    const t = this.#open[market];
    if (t === undefined) return [];
    let r = 0;
    while (r < t.rising.length && t.rising[r]!.triggerTicks <= ticks) r++;
    let f = 0;
    while (f < t.falling.length && t.falling[f]!.triggerTicks >= ticks) f++;
    const fired = [...t.rising.splice(0, r), ...t.falling.splice(0, f)];
    return fired.sort((a, b) => a.id - b.id);
  }

  /** Open triggers in all markets. */
  get openCount(): number {
    return this.#openSet.size;
  }

  #market(m: number): MarketTriggers {
    let t = this.#open[m];
    if (t === undefined) this.#open[m] = t = new MarketTriggers();
    return t;
  }
}
