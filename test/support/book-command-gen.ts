// Seeded generator of order book command streams (realistic and malformed) and a driver that applies them.
import { type BookEvents, EventKind } from '../../src/core/matching/book-events.js';
import type { OrderBook } from '../../src/core/matching/order-book.js';
import { OrderType, type PlaceOrder, Side, StpAct, TimeInForce } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';

/** The fields of a place command, as plain data. */
export interface PlaceFields {
  readonly orderId: number;
  readonly userId: number;
  readonly stpId: number;
  readonly side: number;
  readonly type: number;
  readonly tif: number;
  readonly price: number;
  readonly amount: number;
  readonly iceberg: number;
  readonly stpAct: number;
}

export type BookCommand =
  | { readonly op: 'place'; readonly p: PlaceFields }
  | { readonly op: 'amend'; readonly orderId: number; readonly price: number; readonly amount: number }
  | { readonly op: 'cancel'; readonly orderId: number }
  | { readonly op: 'cancelAll'; readonly userId: number; readonly side: number };

/** Applies `c` to `book`, writing into `out` (not cleared here); `scratch` is the reused place command. */
export function applyCommand(book: OrderBook, c: BookCommand, scratch: PlaceOrder, out: BookEvents): number {
  switch (c.op) {
    case 'place': {
      const p = c.p;
      scratch.set(p.orderId, p.userId, p.side, p.type, p.tif, p.price, p.amount, p.iceberg, p.stpId, p.stpAct);
      return book.place(scratch, out);
    }
    case 'amend':
      return book.amend(c.orderId, c.price, c.amount, out);
    case 'cancel':
      return book.cancel(c.orderId, out);
    case 'cancelAll':
      return book.cancelAll(c.userId, c.side, out);
  }
}

/** Values that break some rule of some field. */
const GARBAGE: readonly number[] = [
  0, -0, -1, -7, 0.5, 1.5, 2.25, Number.NaN, Infinity, -Infinity, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 53 - 1, 2 ** 60,
  1e300, 3, 4, 5, 255, 256, -(2 ** 31),
];

/** STP group of each user (index = userId); users 1, 2, 7 have none. */
const USER_GROUP: readonly number[] = [0, 0, 0, 3, 3, 5, 5, 0, 3];
export const GEN_USERS = USER_GROUP.length - 1;

export interface GenOptions {
  /** Starting mid price in ticks. */
  readonly mid?: number;
  /** Probability that a command is malformed on purpose. */
  readonly malformed?: number;
}

/**
 * Long random streams: 8 users in STP groups 0/3/5, every order type, TIF and stp act, icebergs, amends of
 * price/amount/both, cancels of live and unknown ids, cancel-all by user and side, and occasional garbage.
 * Prices cluster around a slowly wandering mid so that most orders meet the other side.
 */
export class BookCommandGen {
  readonly #r: Prng;
  #mid: number;
  readonly #malformed: number;
  #nextId = 1;
  /** Recently issued order ids (ring): live or not. */
  readonly #recent: number[] = [];
  #recentAt = 0;
  /** Ids believed to rest, fed back through observe(); with their index in #live. */
  readonly #live: number[] = [];
  readonly #liveAt = new Map<number, number>();

  constructor(seed: number, options: GenOptions = {}) {
    this.#r = new Prng(seed);
    this.#mid = options.mid ?? 500;
    this.#malformed = options.malformed ?? 0.02;
  }

  /**
   * Feeds back what a command wrote, so amends and cancels can target resting orders: Accepted adds the id,
   * Finished removes it. Optional; without it ids are drawn from the recently issued ones.
   */
  observe(out: BookEvents): void {
    for (let i = 0; i < out.count; i++) {
      const id = out.orderId[i]!;
      if (out.kind[i] === EventKind.Accepted) this.#addLive(id);
      else if (out.kind[i] === EventKind.Finished) this.#removeLive(id);
    }
  }

  #addLive(id: number): void {
    if (this.#liveAt.has(id)) return;
    this.#liveAt.set(id, this.#live.length);
    this.#live.push(id);
  }

  #removeLive(id: number): void {
    const at = this.#liveAt.get(id);
    if (at === undefined) return;
    const last = this.#live.pop()!;
    if (last !== id) {
      this.#live[at] = last;
      this.#liveAt.set(last, at);
    }
    this.#liveAt.delete(id);
  }

  next(): BookCommand {
    const r = this.#r;
    if (r.chance(0.03)) this.#mid = Math.min(900, Math.max(100, this.#mid + r.between(-3, 3)));
    if (r.chance(this.#malformed)) return this.garbage();
    const x = r.nextFloat();
    if (x < 0.68) return this.#limit();
    if (x < 0.76) return this.#market();
    if (x < 0.9) return this.#amend();
    if (x < 0.95) return { op: 'cancel', orderId: this.#pickId() };
    if (r.chance(0.95)) return { op: 'cancel', orderId: this.#pickId() };
    return { op: 'cancelAll', userId: r.chance(0.2) ? 0 : r.between(1, GEN_USERS), side: r.between(0, 2) };
  }

  /** A command with one or more fields drawn from GARBAGE (and sometimes an out-of-range enum). */
  garbage(): BookCommand {
    const r = this.#r;
    const g = (): number => GARBAGE[r.nextInt(GARBAGE.length)]!;
    const pick = (valid: number): number => (r.chance(0.35) ? g() : valid);
    const kind = r.nextInt(4);
    if (kind === 0) {
      return { op: 'amend', orderId: pick(this.#pickId()), price: pick(this.#price(Side.Buy)), amount: pick(r.between(1, 40)) };
    }
    if (kind === 1) return { op: 'cancel', orderId: g() };
    if (kind === 2) return { op: 'cancelAll', userId: pick(r.between(0, GEN_USERS)), side: pick(r.between(0, 2)) };
    const base = this.#limitFields();
    return {
      op: 'place',
      p: {
        orderId: pick(base.orderId), userId: pick(base.userId), stpId: pick(base.stpId), side: pick(base.side),
        type: pick(base.type), tif: pick(base.tif), price: pick(base.price), amount: pick(base.amount),
        iceberg: pick(base.iceberg), stpAct: pick(base.stpAct),
      },
    };
  }

  #limit(): BookCommand {
    return { op: 'place', p: this.#limitFields() };
  }

  #limitFields(): PlaceFields {
    const r = this.#r;
    const userId = r.between(1, GEN_USERS);
    const side = r.chance(0.5) ? Side.Buy : Side.Sell;
    const t = r.nextFloat();
    const tif = t < 0.6 ? TimeInForce.Gtc : t < 0.75 ? TimeInForce.Ioc : t < 0.87 ? TimeInForce.Poc : TimeInForce.Fok;
    const amount = this.#lots();
    const iceberg = r.chance(0.12) ? r.between(1, amount) : 0;
    const { stpId, stpAct } = this.#stp(userId);
    return { orderId: this.#newId(), userId, stpId, side, type: OrderType.Limit, tif, price: this.#price(side), amount, iceberg, stpAct };
  }

  #market(): BookCommand {
    const r = this.#r;
    const userId = r.between(1, GEN_USERS);
    const side = r.chance(0.5) ? Side.Buy : Side.Sell;
    const tif = r.chance(0.7) ? TimeInForce.Ioc : TimeInForce.Fok;
    const lots = this.#lots();
    // A buy's amount is a quote budget: usually a few lots' worth, sometimes less than one lot.
    const amount = side === Side.Sell ? lots
      : r.chance(0.1) ? r.between(1, this.#mid) : Math.max(1, Math.round(lots * this.#mid * (0.5 + r.nextFloat())));
    const { stpId, stpAct } = this.#stp(userId);
    const price = r.chance(0.5) ? 0 : this.#price(side);
    return { op: 'place', p: { orderId: this.#newId(), userId, stpId, side, type: OrderType.Market, tif, price, amount, iceberg: 0, stpAct } };
  }

  #amend(): BookCommand {
    const r = this.#r;
    const x = r.nextFloat();
    const side = r.chance(0.5) ? Side.Buy : Side.Sell;
    const price = x < 0.4 ? 0 : this.#price(side);
    const amount = x >= 0.4 && x < 0.7 ? 0 : r.chance(0.05) ? 0 : this.#lots();
    return { op: 'amend', orderId: this.#pickId(), price, amount };
  }

  #stp(userId: number): { stpId: number; stpAct: number } {
    const r = this.#r;
    const stpId = r.chance(0.05) ? r.between(0, 5) : USER_GROUP[userId]!;
    const stpAct = stpId !== 0 ? r.between(0, 3) : r.chance(0.01) ? r.between(1, 3) : StpAct.None;
    return { stpId, stpAct };
  }

  /** Buys cluster just below the mid, sells just above, with tails that cross. */
  #price(side: number): number {
    const r = this.#r;
    const offset = Math.round(r.nextGaussian() * 6);
    return Math.max(1, side === Side.Buy ? this.#mid - 3 + offset : this.#mid + 3 + offset);
  }

  #lots(): number {
    const r = this.#r;
    const x = r.nextFloat();
    return x < 0.7 ? r.between(1, 10) : x < 0.95 ? r.between(11, 60) : r.between(61, 300);
  }

  #newId(): number {
    // Now and then re-use a recent id: a duplicate while it rests, a fresh order once it has left.
    if (this.#recent.length > 0 && this.#r.chance(0.01)) return this.#pickId();
    const id = this.#nextId++;
    if (this.#recent.length < 400) this.#recent.push(id);
    else this.#recent[this.#recentAt++ % 400] = id;
    return id;
  }

  /** Mostly an id believed to rest; else a recently issued one (live or not), or one never issued. */
  #pickId(): number {
    const r = this.#r;
    if (this.#live.length > 0 && r.chance(0.85)) return this.#live[r.nextInt(this.#live.length)]!;
    if (this.#recent.length === 0 || r.chance(0.3)) return this.#nextId + r.between(0, 1000);
    return this.#recent[r.nextInt(this.#recent.length)]!;
  }
}
