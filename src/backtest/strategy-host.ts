/**
 * Runs a strategy against a MarketSim in simulated time. Three legs of latency separate it from the
 * exchange: its orders and cancels arrive after the entry/cancel latency, notes about its orders come back
 * after the ack latency, and market data reaches it after the feed latency (delivered in order: a draw that
 * would overtake the previous batch waits for it, as on one connection).
 *
 * Time order: the replay loop applies a data batch at its exchange time first; scheduled events at the same
 * time run after it, feed deliveries before other events of equal time, others in scheduling order.
 */
import type { SimClock } from '../core/clock.js';
import { parseLots, parsePrice, parseQuoteBudget } from '../core/market.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import { EventHeap } from './event-heap.js';
import { L2Book } from './l2-book.js';
import type { MarketSim, OrderNote, PlaceRequest } from './market-sim.js';
import type { LatencyModel } from './models/latency.js';
import type { MarketInfo, NewOrder, PublicTrade, Strategy, StrategyContext } from './strategy.js';

type Item =
  | { readonly kind: 'arrive'; readonly req: PlaceRequest }
  | { readonly kind: 'cancel'; readonly uid: number; readonly ref: number }
  | { readonly kind: 'note'; readonly note: OrderNote }
  | { readonly kind: 'timer'; readonly tag: number };

export interface Legs { readonly entry: LatencyModel; readonly cancel: LatencyModel; readonly ack: LatencyModel; readonly feed: LatencyModel }

const TIFS: Readonly<Record<string, number>> = { gtc: TimeInForce.Gtc, ioc: TimeInForce.Ioc, poc: TimeInForce.Poc, fok: TimeInForce.Fok };

export class StrategyHost {
  readonly view = new L2Book();
  readonly heap = new EventHeap<Item>();
  /** Feed batches waiting for delivery: [time, kind (1 book, 2 trades), reset, first row, end row]. */
  readonly #batches: number[] = [];
  #bHead = 0;
  readonly #rows: number[] = [];
  #lastDelivery = 0;
  #ref = 0;
  readonly #orderOf = new Map<number, number>();
  readonly #pos = new Map<number, { lots: number; open: number }>();
  dataEnded = false;
  readonly ctx: StrategyContext;

  constructor(readonly sim: MarketSim, readonly clock: SimClock, readonly strategy: Strategy, readonly legs: Legs,
    market: MarketInfo, readonly users: readonly number[]) {
    const m = sim.engine.exchange.markets[0]!;
    const place = (o: NewOrder): number => this.#place(o);
    const cancel = (ref: number): void => { this.heap.push(clock.nowUs() + legs.cancel.draw(), { kind: 'cancel', uid: this.#uidOfRef(ref), ref }); };
    const timer = (afterUs: number, tag = 0): void => {
      if (!this.dataEnded) this.heap.push(clock.nowUs() + Math.max(0, Math.round(afterUs)), { kind: 'timer', tag });
    };
    const position = (uid = users[0]!): { lots: number; open: number } => this.#position(uid);
    this.ctx = {
      get now() { return clock.nowUs(); },
      market, book: this.view, users,
      place, cancel, timer, position,
      ticks: (d) => checked(parsePrice(m, d), d),
      lots: (d) => checked(parseLots(m, d), d),
    };
  }

  /** The exchange-side note sink: accounting happens elsewhere; the strategy hears it after the ack latency. */
  onNote(n: OrderNote): void {
    if (n.kind === 'accepted') this.#orderOf.set(n.ref, n.orderId);
    this.heap.push(n.time + this.legs.ack.draw(), { kind: 'note', note: n });
  }

  beginBatch(kind: number, reset: boolean): void {
    this.#batches.push(0, kind, reset ? 1 : 0, this.#rows.length, 0);
  }

  row(side: number, price: number, amount: number, time: number): void {
    this.#rows.push(side, price, amount, time);
  }

  /** Closes the open batch: delivered at exchange time + feed latency (or the recorded local time). */
  endBatch(exchTime: number, localTime: number): void {
    const b = this.#batches;
    const at = b.length - 5;
    const lat = this.legs.feed.draw(Math.max(0, localTime - exchTime));
    const t = Math.max(this.#lastDelivery, exchTime + lat);
    this.#lastDelivery = t;
    b[at] = t;
    b[at + 4] = this.#rows.length;
  }

  /** Time of the next feed delivery or scheduled event (+Infinity when none). */
  nextTime(): number {
    const d = this.#bHead < this.#batches.length ? this.#batches[this.#bHead]! : Number.POSITIVE_INFINITY;
    return Math.min(d, this.heap.peekTime());
  }

  /** Runs the earliest pending delivery or event (the clock is moved to its time). */
  runNext(): void {
    const d = this.#bHead < this.#batches.length ? this.#batches[this.#bHead]! : Number.POSITIVE_INFINITY;
    if (d <= this.heap.peekTime()) { this.clock.advanceTo(d); this.#deliver(); return; }
    const e = this.heap.pop()!;
    this.clock.advanceTo(e.time);
    const it = e.item;
    const s = this.strategy;
    switch (it.kind) {
      case 'arrive': this.sim.place(it.req); break;
      case 'cancel': {
        const id = this.#orderOf.get(it.ref);
        this.sim.cancel(it.uid, it.ref, id ?? 0);
        break;
      }
      case 'note': {
        const n = it.note;
        const p = this.#position(n.uid);
        if (n.kind === 'accepted') p.open++;
        else if (n.kind === 'finished') p.open--;
        else if (n.kind === 'fill') p.lots += n.side === Side.Buy ? n.lots : -n.lots;
        s.onOrder?.(this.ctx, n);
        break;
      }
      case 'timer': if (!this.dataEnded) s.onTimer?.(this.ctx, it.tag); break;
    }
  }

  #deliver(): void {
    const b = this.#batches;
    const h = this.#bHead;
    const kind = b[h + 1]!;
    const from = b[h + 3]!;
    const to = b[h + 4]!;
    const r = this.#rows;
    if (kind === 1) {
      if (b[h + 2] === 1) this.view.clear();
      for (let i = from; i < to; i += 4) this.view.set(r[i]!, r[i + 1]!, r[i + 2]!);
      this.strategy.onBook?.(this.ctx);
    } else if (this.strategy.onTrade !== undefined) {
      for (let i = from; i < to; i += 4) {
        const t: PublicTrade = { side: r[i]!, price: r[i + 1]!, amount: r[i + 2]!, time: r[i + 3]! };
        this.strategy.onTrade(this.ctx, t);
      }
    }
    this.#bHead += 5;
    if (this.#bHead === b.length) {
      b.length = 0; r.length = 0; this.#bHead = 0;
    } else if (this.#bHead > 65536) {
      const first = b[this.#bHead + 3]!;
      b.splice(0, this.#bHead);
      for (let i = 3; i < b.length; i += 5) { b[i] = b[i]! - first; b[i + 1] = b[i + 1]! - first; }
      r.splice(0, first);
      this.#bHead = 0;
    }
  }

  #position(uid: number): { lots: number; open: number } {
    let p = this.#pos.get(uid);
    if (p === undefined) { p = { lots: 0, open: 0 }; this.#pos.set(uid, p); }
    return p;
  }

  #uidOfRef(ref: number): number {
    return this.#refUid.get(ref) ?? this.users[0]!;
  }

  readonly #refUid = new Map<number, number>();

  #place(o: NewOrder): number {
    const m = this.sim.engine.exchange.markets[0]!;
    const uid = o.uid ?? this.users[0]!;
    const side = o.side === 'buy' ? Side.Buy : o.side === 'sell' ? Side.Sell : fail(`side "${String(o.side)}"`);
    const type = (o.type ?? 'limit') === 'limit' ? OrderType.Limit : o.type === 'market' ? OrderType.Market : fail(`type "${String(o.type)}"`);
    const tif = TIFS[o.time_in_force ?? (type === OrderType.Market ? 'ioc' : 'gtc')] ?? fail(`time_in_force "${String(o.time_in_force)}"`);
    const price = type === OrderType.Market ? 0 : typeof o.price === 'number' ? o.price : checked(parsePrice(m, o.price ?? ''), String(o.price));
    let amount: number;
    // A perpetual's market buy is in contracts, as its sell.
    if (type === OrderType.Market && side === Side.Buy && !this.sim.perp) {
      amount = typeof o.amount === 'string' ? checked(parseQuoteBudget(m, o.amount), o.amount) : fail('a market buy amount is a decimal string of quote');
    } else {
      amount = typeof o.amount === 'number' ? o.amount : checked(parseLots(m, o.amount), o.amount);
    }
    const ref = ++this.#ref;
    this.#refUid.set(ref, uid);
    const req: PlaceRequest = { ref, uid, side, type, tif, price, amount, text: o.text ?? '' };
    this.heap.push(this.clock.nowUs() + this.legs.entry.draw(), { kind: 'arrive', req });
    return ref;
  }
}

function fail(what: string): never {
  throw new Error(`strategy order: bad ${what}`);
}

function checked(v: number, text: string): number {
  if (v < 0 || !Number.isSafeInteger(v)) fail(`decimal "${text}"`);
  return v;
}
