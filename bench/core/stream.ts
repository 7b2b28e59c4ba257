/**
 * Pre-generated command streams shared by both engines.
 *
 * A stream is a struct of typed arrays, one slot per command, filled before any timing starts; replaying it
 * reads numbers only and allocates nothing on our side. The peer's string order ids and account ids are
 * created here too (`peerIds[orderId]`, `peerAccounts[userId]`), so string allocation is never timed.
 *
 * Prices are integer ticks and sizes integer lots held in JS numbers, so the peer's float arithmetic stays
 * exact and both engines see identical values.
 */
import { Side } from '../../src/core/matching/order-types.js';

/** What a command does. Adapters map each op onto their engine (see ours-adapter.ts / peer-adapter.ts). */
export const Op = {
  /** Place an order: id, user, side, type, tif, price, amount, stp. */
  Place: 1,
  /** Cancel order `id`. */
  Cancel: 2,
  /** Move order `id` to `price`; `amount` holds its remaining lots (for cancel-and-replace engines). */
  Move: 3,
  /** Reduce order `id`: `amount` is its new remaining lots, `total` its new total amount (for amend). */
  Reduce: 4,
} as const;
export type Op = (typeof Op)[keyof typeof Op];

/** The generator's name for a command, for the realized mix. */
export const Kind = { Gtc: 1, Ioc: 2, FokBudget: 3, Cancel: 4, Move: 5, Reduce: 6, Market: 7 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

export const KIND_NAMES: Readonly<Record<Kind, string>> = {
  [Kind.Gtc]: 'GTC', [Kind.Ioc]: 'IOC', [Kind.FokBudget]: 'FOKB', [Kind.Cancel]: 'cancel', [Kind.Move]: 'move',
  [Kind.Reduce]: 'reduce', [Kind.Market]: 'market',
};

/** Order type of a Place (shared encoding; the adapters translate). */
export const PlaceType = { Limit: 1, Market: 2 } as const;
/** Time in force of a Place (shared encoding). */
export const PlaceTif = { Gtc: 1, Ioc: 2, Fok: 4 } as const;

export class CommandStream {
  readonly capacity: number;
  /** Commands written. */
  length = 0;
  /** Commands [0, prefill) build the starting book and are replayed untimed before every pass. */
  prefill = 0;
  readonly op: Uint8Array;
  readonly kind: Uint8Array;
  readonly side: Uint8Array;
  readonly type: Uint8Array;
  readonly tif: Uint8Array;
  /** 1 when the order carries its owner's STP group (ours: stpId = userId, CancelOld; peer: EXPIRE_MAKER). */
  readonly stp: Uint8Array;
  readonly orderId: Float64Array;
  readonly userId: Int32Array;
  readonly price: Float64Array;
  readonly amount: Float64Array;
  readonly total: Float64Array;
  /** Peer order ids by numeric id; grown as ids are assigned. */
  readonly peerIds: string[] = [''];
  /** Peer account ids by user id. */
  readonly peerAccounts: string[] = [''];

  constructor(capacity: number) {
    this.capacity = capacity;
    this.op = new Uint8Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.side = new Uint8Array(capacity);
    this.type = new Uint8Array(capacity);
    this.tif = new Uint8Array(capacity);
    this.stp = new Uint8Array(capacity);
    this.orderId = new Float64Array(capacity);
    this.userId = new Int32Array(capacity);
    this.price = new Float64Array(capacity);
    this.amount = new Float64Array(capacity);
    this.total = new Float64Array(capacity);
  }

  /** Makes sure string ids exist for order ids up to `maxId` and accounts up to `maxUser`. @allocates */
  ensureIds(maxId: number, maxUser: number): void {
    for (let i = this.peerIds.length; i <= maxId; i++) this.peerIds.push(String(i));
    for (let u = this.peerAccounts.length; u <= maxUser; u++) this.peerAccounts.push(`acct-${u}`);
  }

  place(kind: Kind, orderId: number, userId: number, side: number, type: number, tif: number, price: number,
    amount: number, stp: boolean): void {
    const i = this.#next(Op.Place, kind, orderId);
    this.userId[i] = userId; this.side[i] = side; this.type[i] = type; this.tif[i] = tif;
    this.price[i] = price; this.amount[i] = amount; this.stp[i] = stp ? 1 : 0;
  }

  cancel(kind: Kind, orderId: number): void {
    this.#next(Op.Cancel, kind, orderId);
  }

  /** A move; `userId`, `side`, `left` and `stp` describe the order for engines that cancel and re-place it. */
  move(orderId: number, userId: number, side: number, price: number, left: number, stp: boolean): void {
    const i = this.#next(Op.Move, Kind.Move, orderId);
    this.userId[i] = userId; this.side[i] = side; this.price[i] = price; this.amount[i] = left; this.stp[i] = stp ? 1 : 0;
  }

  /** A reduce to `left` remaining lots (`total` = new total amount); `price` is the order's current price. */
  reduce(orderId: number, userId: number, side: number, price: number, left: number, total: number, stp: boolean): void {
    const i = this.#next(Op.Reduce, Kind.Reduce, orderId);
    this.userId[i] = userId; this.side[i] = side; this.price[i] = price; this.amount[i] = left; this.total[i] = total;
    this.stp[i] = stp ? 1 : 0;
  }

  #next(op: Op, kind: Kind, orderId: number): number {
    const i = this.length;
    if (i === this.capacity) throw new RangeError(`command stream full (${this.capacity})`);
    this.op[i] = op; this.kind[i] = kind; this.orderId[i] = orderId;
    this.length = i + 1;
    return i;
  }
}

/** Counts of each kind among commands [from, to). */
export function kindCounts(s: CommandStream, from: number, to: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = from; i < to; i++) {
    const name = KIND_NAMES[s.kind[i] as Kind];
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

export const BUY = Side.Buy;
export const SELL = Side.Sell;
