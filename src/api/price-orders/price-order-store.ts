/**
 * Price-triggered orders, spot (Gate's SpotPriceTriggeredOrder) and futures (FuturesPriceTriggeredOrder): the
 * in-memory projection of their records (price-order-record.ts), and per (market, price type) the open triggers
 * indexed by trigger price so that a new price finds exactly the orders it fires. Spot triggers watch the last
 * trade price (price type 0); futures ones the last price, the mark (1) or the index (2) of their contract.
 * Both share one id sequence and one store; lists filter by product.
 *
 * The store never decides a change: the trigger service (price-triggers.ts) submits a command carrying the
 * trigger's new record and, once it completes, `project`s the record the table then holds. Start-up projects
 * every row the same way, so the live store and the restored one are one projection of the records.
 *
 * A trigger with rule `>=` fires when the last price rises to or above its price; `<=` when it falls to or
 * below. Per market, `>=` triggers are kept sorted by price ascending and `<=` triggers descending, so the
 * orders a price fires are always a prefix: `due` costs O(fired + log n), insertion and removal O(n).
 *
 * Pending: an open trigger whose change (fire, cancel, expiry) is in flight is `take`n out of the price index
 * until its record is projected again; `due`, `expiredBy` and cancels skip it, so no trigger is changed by
 * two commands at once.
 *
 * Statuses: open → finish (the put order was accepted, `firedOrderId` set), failed (the engine refused
 * the put order; `reason` holds the label), cancelled, expired.
 */
import type { FuturesInitial, PriceType } from '../../gate/futures-price-order-request.js';

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

export type { FuturesInitial, PriceType } from '../../gate/futures-price-order-request.js';
export const PRICE_TYPES = 3;

/** What spot and futures triggers share. */
interface PriceOrderBase {
  readonly id: number;
  readonly uid: number;
  readonly market: number;
  /** Trigger price in ticks, and as given. */
  readonly triggerTicks: number;
  readonly triggerPrice: string;
  readonly rule: TriggerRule;
  /** Seconds the trigger waits before it expires (0: never). */
  readonly expiration: number;
  readonly priceType: PriceType;
  /** µs since the epoch. */
  readonly createUs: number;
  /** µs since the epoch; 0 while open. */
  readonly finishUs: number;
  readonly status: PriceOrderStatus;
  readonly firedOrderId: number;
  readonly reason: string;
}

export interface SpotPriceOrder extends PriceOrderBase {
  readonly product: 'spot';
  /** Spot triggers watch the last trade price. */
  readonly priceType: 0;
  readonly put: PutOrder;
}

export interface FuturesPriceOrder extends PriceOrderBase {
  readonly product: 'futures';
  readonly initial: FuturesInitial;
  /** Gate's `order_type` (position TP/SL kinds such as close-long-position), '' for a plain trigger. */
  readonly orderType: string;
}

/** One trigger's whole state (immutable: a change projects a new object). */
export type PriceOrder = SpotPriceOrder | FuturesPriceOrder;
export type Product = PriceOrder['product'];

/** The index slot of (market, price type). */
const slotOf = (market: number, priceType: number): number => market * PRICE_TYPES + priceType;

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
export const expiryUs = (o: PriceOrder): number => o.createUs + o.expiration * 1e6;

/** `put` when a trigger is created, `finish` when it ends (any final status). */
export type PriceOrderChange = (o: PriceOrder, event: 'put' | 'finish') => void;

/** A finished trigger and the seq of the command that finished it (the finished list's order). */
interface Finished {
  readonly o: PriceOrder;
  readonly seq: number;
}

const before = (a: Finished, b: Finished): boolean => a.seq < b.seq || (a.seq === b.seq && a.o.id < b.o.id);

export class PriceOrderStore {
  /** Told of every creation and ending projected live (WebSocket pushes); not of start-up's. */
  onChange: PriceOrderChange | undefined;
  readonly #byId = new Map<number, PriceOrder>();
  readonly #index: MarketTriggers[] = [];
  /** Every open trigger, pending ones included. */
  readonly #open = new Map<number, PriceOrder>();
  /** Ids of open triggers with a change in flight (out of the price index). */
  readonly #pending = new Set<number>();
  /** No open trigger expires before this (µs); `expiredBy` returns at once until then. */
  #nextExpiryUs = Number.POSITIVE_INFINITY;
  /** Finished triggers by (finishing seq, id), oldest first; bounded: the oldest are dropped past `#keepFinished`. */
  readonly #finished: Finished[] = [];
  readonly #keepFinished: number;
  #nextId: number;

  constructor(options: { firstId?: number; keepFinished?: number } = {}) {
    this.#nextId = options.firstId ?? 1;
    this.#keepFinished = options.keepFinished ?? 100_000;
  }

  /** A new trigger's id: above every id projected or issued so far. */
  issueId(): number {
    return this.#nextId++;
  }

  get(id: number): PriceOrder | undefined {
    return this.#byId.get(id);
  }

  /** Whether open trigger `id` has a change in flight. */
  isPending(id: number): boolean {
    return this.#pending.has(id);
  }

  /**
   * Makes `o` the trigger's state: its record as the table holds it, put by the command of `seq`. Clears its
   * pending mark; tells `onChange` of a creation or an ending unless `silent` (start-up).
   */
  project(o: PriceOrder, seq: number, silent = false): void {
    const old = this.#byId.get(o.id);
    if (old !== undefined) this.#unlink(old);
    this.#pending.delete(o.id);
    this.#byId.set(o.id, o);
    if (o.id >= this.#nextId) this.#nextId = o.id + 1;
    if (o.status === 'open') {
      this.#open.set(o.id, o);
      this.#market(slotOf(o.market, o.priceType)).add(o);
      if (o.expiration > 0) this.#nextExpiryUs = Math.min(this.#nextExpiryUs, expiryUs(o));
    } else {
      this.#insertFinished({ o, seq });
    }
    if (silent) return;
    if (old === undefined && o.status === 'open') this.onChange?.(o, 'put');
    else if (old?.status === 'open' && o.status !== 'open') this.onChange?.(o, 'finish');
  }

  /** Takes open trigger `o` out of the price index while a change is in flight (see the module header). */
  take(o: PriceOrder): void {
    if (o.status !== 'open' || this.#pending.has(o.id)) return;
    this.#pending.add(o.id);
    this.#market(slotOf(o.market, o.priceType)).remove(o);
  }

  /** Open triggers of `uid` of one product (optionally one market), oldest first; pending ones included. @allocates */
  openOf(uid: number, market?: number, product?: 'spot'): SpotPriceOrder[];
  openOf(uid: number, market: number, product: 'futures'): FuturesPriceOrder[];
  openOf(uid: number, market = -1, product: Product = 'spot'): PriceOrder[] {
    const out: PriceOrder[] = [];
    for (const o of this.#open.values()) if (o.uid === uid && o.product === product && (market < 0 || o.market === market)) out.push(o);
    return out.sort((a, b) => a.id - b.id);
  }

  /** Finished triggers of `uid` of one product (optionally one market), newest first. @allocates */
  finishedOf(uid: number, market?: number, product?: 'spot'): SpotPriceOrder[];
  finishedOf(uid: number, market: number, product: 'futures'): FuturesPriceOrder[];
  finishedOf(uid: number, market = -1, product: Product = 'spot'): PriceOrder[] {
    const out: PriceOrder[] = [];
    for (let i = this.#finished.length - 1; i >= 0; i--) {
      const o = this.#finished[i]!.o;
      if (o.uid === uid && o.product === product && (market < 0 || o.market === market)) out.push(o);
    }
    return out;
  }

  /**
   * The open, not pending triggers whose expiry is at or before `nowUs`, oldest first. O(1) until the
   * earliest expiry is due (it runs on every trade and read), then one pass over the open triggers. @allocates
   */
  expiredBy(nowUs: number): PriceOrder[] {
    if (nowUs < this.#nextExpiryUs) return [];
    const out: PriceOrder[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const o of this.#open.values()) {
      if (o.expiration === 0 || this.#pending.has(o.id)) continue;
      if (expiryUs(o) <= nowUs) out.push(o);
      else next = Math.min(next, expiryUs(o));
    }
    this.#nextExpiryUs = next;
    return out.sort((a, b) => a.id - b.id);
  }

  /**
   * Takes the open triggers of `market` watching `priceType` that a price of `ticks` fires out of the price
   * index (they are pending until projected again) and returns them in creation order. @allocates
   */
  due(market: number, ticks: number, priceType: PriceType = 0): PriceOrder[] {
    const t = this.#index[slotOf(market, priceType)];
    if (t === undefined || Number.isNaN(ticks)) return [];
    let r = 0;
    while (r < t.rising.length && t.rising[r]!.triggerTicks <= ticks) r++;
    let f = 0;
    while (f < t.falling.length && t.falling[f]!.triggerTicks >= ticks) f++;
    const fired = [...t.rising.splice(0, r), ...t.falling.splice(0, f)];
    for (const o of fired) this.#pending.add(o.id);
    return fired.sort((a, b) => a.id - b.id);
  }

  /** Open triggers in all markets. */
  get openCount(): number {
    return this.#open.size;
  }

  #unlink(o: PriceOrder): void {
    if (o.status === 'open') {
      this.#open.delete(o.id);
      if (!this.#pending.has(o.id)) this.#market(slotOf(o.market, o.priceType)).remove(o);
      return;
    }
    const i = this.#finished.findIndex((f) => f.o === o);
    if (i >= 0) this.#finished.splice(i, 1);
  }

  #insertFinished(f: Finished): void {
    const list = this.#finished;
    let i = list.length;
    while (i > 0 && before(f, list[i - 1]!)) i--;
    list.splice(i, 0, f);
    if (list.length > this.#keepFinished) this.#byId.delete(list.shift()!.o.id);
  }

  /** The triggers of index slot `s` (slotOf). */
  #market(s: number): MarketTriggers {
    let t = this.#index[s];
    if (t === undefined) this.#index[s] = t = new MarketTriggers();
    return t;
  }
}
