/**
 * The event stream a book writes per command, into a reused struct-of-arrays buffer.
 *
 * Columns by kind (unused columns hold 0):
 *
 *   kind      orderId     userId       makerOrderId  makerUserId  price          lots                     code
 *   Accepted  order       owner        -             -            limit price    amount (market buy:      side
 *                                                                 (0 market)     quote budget, notional)
 *   Fill      taker       taker owner  maker         maker owner  maker's price  base lots traded         maker side
 *   Finished  order       owner        -             -            -              left unfilled (market    FinishAs
 *                                                                                buy: unspent budget)
 *   Amended   order       owner        -             -            new price      new left                 side
 *
 * Allocation: none per event. The buffer grows by doubling when a single command emits more events than it
 * holds (a sweep of a deep book, a cancel-all), then stays at that size.
 * Thread affinity: one owner; consumers read it after the command returns and before the next `clear()`.
 */

import { grownTo } from '../typed-arrays.js';

export const EventKind = { Accepted: 1, Fill: 2, Finished: 3, Amended: 4 } as const;
export type EventKind = (typeof EventKind)[keyof typeof EventKind];

/** A decoded event, for tests and tools. */
export interface BookEvent {
  kind: EventKind;
  orderId: number;
  userId: number;
  makerOrderId: number;
  makerUserId: number;
  price: number;
  lots: number;
  code: number;
}

export class BookEvents {
  count = 0;
  /** Fill events among them. */
  fills = 0;
  kind: Uint8Array;
  code: Uint8Array;
  orderId: Float64Array;
  userId: Float64Array;
  makerOrderId: Float64Array;
  makerUserId: Float64Array;
  price: Float64Array;
  lots: Float64Array;

  constructor(capacity = 256) {
    this.kind = new Uint8Array(capacity);
    this.code = new Uint8Array(capacity);
    this.orderId = new Float64Array(capacity);
    this.userId = new Float64Array(capacity);
    this.makerOrderId = new Float64Array(capacity);
    this.makerUserId = new Float64Array(capacity);
    this.price = new Float64Array(capacity);
    this.lots = new Float64Array(capacity);
  }

  clear(): void {
    this.count = 0;
    this.fills = 0;
  }

  accepted(orderId: number, userId: number, side: number, price: number, amount: number): void {
    this.#push(EventKind.Accepted, orderId, userId, 0, 0, price, amount, side);
  }

  fill(takerId: number, takerUser: number, makerId: number, makerUser: number, makerSide: number, price: number, lots: number): void {
    this.fills++;
    this.#push(EventKind.Fill, takerId, takerUser, makerId, makerUser, price, lots, makerSide);
  }

  finished(orderId: number, userId: number, finishAs: number, left: number): void {
    this.#push(EventKind.Finished, orderId, userId, 0, 0, 0, left, finishAs);
  }

  amended(orderId: number, userId: number, side: number, price: number, left: number): void {
    this.#push(EventKind.Amended, orderId, userId, 0, 0, price, left, side);
  }

  /** Decodes event `i`. @allocates (tests and tools) */
  at(i: number): BookEvent {
    return {
      kind: this.kind[i] as EventKind, orderId: this.orderId[i]!, userId: this.userId[i]!,
      makerOrderId: this.makerOrderId[i]!, makerUserId: this.makerUserId[i]!, price: this.price[i]!,
      lots: this.lots[i]!, code: this.code[i]!,
    };
  }

  /** Decodes every event. @allocates (tests and tools) */
  toArray(): BookEvent[] {
    const out: BookEvent[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.at(i));
    return out;
  }

  #push(kind: number, orderId: number, userId: number, makerOrderId: number, makerUserId: number,
    price: number, lots: number, code: number): void {
    const i = this.count;
    if (i === this.kind.length) this.#grow();
    this.kind[i] = kind;
    this.code[i] = code;
    this.orderId[i] = orderId;
    this.userId[i] = userId;
    this.makerOrderId[i] = makerOrderId;
    this.makerUserId[i] = makerUserId;
    this.price[i] = price;
    this.lots[i] = lots;
    this.count = i + 1;
  }

  /** Doubles every column. @allocates (rare: only when one command outgrows the buffer) */
  #grow(): void {
    const n = this.kind.length * 2;
    this.kind = grownTo(this.kind, n);
    this.code = grownTo(this.code, n);
    this.orderId = grownTo(this.orderId, n);
    this.userId = grownTo(this.userId, n);
    this.makerOrderId = grownTo(this.makerOrderId, n);
    this.makerUserId = grownTo(this.makerUserId, n);
    this.price = grownTo(this.price, n);
    this.lots = grownTo(this.lots, n);
  }
}
