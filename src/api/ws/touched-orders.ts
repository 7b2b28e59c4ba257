/**
 * The users and orders one command's book events touched (accepted, amended, filled on either side, finished),
 * and its fills: what the private order, trade and position pushes of the derivatives endpoints render.
 * @allocates a map per command with events
 */
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';

export interface Touched {
  /** uid → ids of its orders the events name. */
  readonly users: Map<number, Set<number>>;
  readonly fills: number;
}

export function touchedOrders(events: BookEvents): Touched {
  const users = new Map<number, Set<number>>();
  const touch = (uid: number, orderId: number): void => {
    let orders = users.get(uid);
    if (orders === undefined) users.set(uid, (orders = new Set<number>()));
    if (orderId > 0) orders.add(orderId);
  };
  let fills = 0;
  for (let i = 0; i < events.count; i++) {
    const kind = events.kind[i];
    touch(events.userId[i]!, events.orderId[i]!);
    if (kind === EventKind.Fill) {
      fills++;
      touch(events.makerUserId[i]!, events.makerOrderId[i]!);
    }
  }
  return { users, fills };
}
