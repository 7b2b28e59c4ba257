/**
 * Private pushes of one applied command, per user: spot.orders (one array per user and command: `put` for
 * an order accepted by the command, `update` for one filled or amended, `finish` for one that ended, with
 * `finish_as`; an order accepted and finished by the same command gets both entries), spot.usertrades (the
 * user's side of each trade) and spot.balances (each changed currency: total, available, freeze and the
 * changes since the last push), and spot.priceorders (a trigger's REST object with `event` `put` when created
 * and `finish` when it fired, failed, expired or was cancelled; told by the trigger store, not the engine).
 *
 * Orders render from the read model after the command, so a push never shows state that is not applied.
 * Balance changes: the last pushed (available, locked) per (user, currency) is remembered for subscribed
 * users; `prime(uid)` seeds it when a user subscribes. Costs: a command costs three Map lookups and no
 * allocation while none of the three channels has a subscriber; otherwise nothing is rendered for a user
 * without subscribers (one topic lookup per user and channel).
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { type Amount, subAmount } from '../../core/ledger/amount.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { renderOrder, renderTrade, rolesOf } from '../../gate/shapes.js';
import { renderPriceOrder } from '../price-orders/price-order-view.js';
import type { SpotPriceOrder } from '../price-orders/price-order-store.js';
import { topicOf } from './channels.js';
import { updateFrame } from './envelope.js';
import type { Publisher } from './publisher.js';

const ORDER_FLAG = { put: 1, update: 2, finish: 4 } as const;

function changeType(cmd: Command, fills: number): string {
  switch (cmd.type) {
    case CommandType.PlaceOrder: return fills > 0 ? 'order-match' : 'order-create';
    case CommandType.AmendOrder: return fills > 0 ? 'order-match' : 'order-update';
    case CommandType.CancelOrder:
    case CommandType.CancelAll: return 'order-cancel';
    case CommandType.Credit: return 'deposit';
    case CommandType.Debit: return 'withdraw';
    default: return 'transfer';
  }
}

export class PrivatePushes {
  readonly #ex: Exchange;
  readonly #out: Publisher;
  /** `uid|currency` → last pushed [available, locked]. */
  readonly #balances = new Map<string, [Amount, Amount]>();

  constructor(ex: Exchange, out: Publisher) {
    this.#ex = ex;
    this.#out = out;
  }

  /** Remembers `uid`'s current spot balances (a new spot.balances subscriber's starting point). */
  prime(uid: number): void {
    for (const cur of this.#ex.currencies) this.#remember(uid, cur);
  }

  /** Book command pushes (orders, user trades, balances of both currencies of the market). */
  onBookCommand(cmd: Command, events: BookEvents, fills: number, lastTrade: number, timeUs: number): void {
    const out = this.#out;
    if (!out.active('spot.orders') && !out.active('spot.usertrades') && !out.active('spot.balances')) return;
    const users = new Map<number, Map<number, number>>();
    const touch = (uid: number, orderId: number, flag: number): void => {
      let orders = users.get(uid);
      if (orders === undefined) users.set(uid, (orders = new Map<number, number>()));
      orders.set(orderId, (orders.get(orderId) ?? 0) | flag);
    };
    for (let i = 0; i < events.count; i++) {
      const kind = events.kind[i];
      const id = events.orderId[i]!;
      const uid = events.userId[i]!;
      if (kind === EventKind.Accepted) touch(uid, id, ORDER_FLAG.put);
      else if (kind === EventKind.Finished) touch(uid, id, ORDER_FLAG.finish);
      else if (kind === EventKind.Amended) touch(uid, id, ORDER_FLAG.update);
      else if (kind === EventKind.Fill) {
        touch(uid, id, ORDER_FLAG.update);
        touch(events.makerUserId[i]!, events.makerOrderId[i]!, ORDER_FLAG.update);
      }
    }
    if (!users.has(cmd.uid)) users.set(cmd.uid, new Map());
    const market = this.#ex.markets[cmd.market]!;
    for (const [uid, orders] of users) {
      this.#orders(uid, market.id, orders, timeUs);
      if (fills > 0) this.#trades(uid, market.id, fills, lastTrade, timeUs);
      this.#pushBalances(uid, [market.spec.base, market.spec.quote], changeType(cmd, fills), timeUs);
    }
  }

  /** A price trigger created (`put`) or ended (`finish`): pushed to its owner's spot.priceorders topics. */
  onPriceOrder(o: SpotPriceOrder, event: 'put' | 'finish', timeUs: number): void {
    if (!this.#out.active('spot.priceorders')) return;
    const pair = this.#ex.markets[o.market]!.id;
    const frame = updateFrame('spot.priceorders', [{ ...renderPriceOrder(this.#ex, o), event }], timeUs);
    for (const topic of [topicOf('spot.priceorders', `${o.uid}.${pair}`), topicOf('spot.priceorders', `${o.uid}.!all`)]) {
      if (this.#out.subscribers(topic) > 0) this.#out.publish(topic, frame);
    }
  }

  /** Credit, debit and transfer pushes (spot accounts only). */
  onFundsCommand(cmd: Command, timeUs: number): void {
    if (!this.#out.active('spot.balances')) return;
    const cur = this.#ex.currencies[cmd.currency];
    if (cur === undefined) return;
    const type = changeType(cmd, 0);
    if (cmd.kind === AccountKind.Spot) this.#pushBalances(cmd.uid, [cur], type, timeUs);
    if (cmd.type === CommandType.Transfer && cmd.toKind === AccountKind.Spot && cmd.toUid !== cmd.uid) {
      this.#pushBalances(cmd.toUid, [cur], type, timeUs);
    }
  }

  #orders(uid: number, pair: string, orders: Map<number, number>, timeUs: number): void {
    if (orders.size === 0) return;
    const byPair = topicOf('spot.orders', `${uid}.${pair}`);
    const all = topicOf('spot.orders', `${uid}.!all`);
    const nPair = this.#out.subscribers(byPair);
    const nAll = this.#out.subscribers(all);
    if (nPair === 0 && nAll === 0) return;
    const O = this.#ex.orders;
    const list: Record<string, unknown>[] = [];
    for (const [id, flags] of orders) {
      const r = O.find(id);
      if (r < 0) continue;
      const o = renderOrder(this.#ex, r);
      const entry = { ...o, create_time_ms: String(o.create_time_ms), update_time_ms: String(o.update_time_ms), user: uid };
      if ((flags & ORDER_FLAG.put) !== 0) list.push({ ...entry, event: 'put' });
      if ((flags & ORDER_FLAG.finish) !== 0) list.push({ ...entry, event: 'finish' });
      else if ((flags & ORDER_FLAG.put) === 0) list.push({ ...entry, event: 'update' });
    }
    if (list.length === 0) return;
    const frame = updateFrame('spot.orders', list, timeUs);
    if (nPair > 0) this.#out.publish(byPair, frame);
    if (nAll > 0) this.#out.publish(all, frame);
  }

  #trades(uid: number, pair: string, fills: number, lastTrade: number, timeUs: number): void {
    const byPair = topicOf('spot.usertrades', `${uid}.${pair}`);
    const all = topicOf('spot.usertrades', `${uid}.!all`);
    const nPair = this.#out.subscribers(byPair);
    const nAll = this.#out.subscribers(all);
    if (nPair === 0 && nAll === 0) return;
    const T = this.#ex.trades;
    const list: Record<string, unknown>[] = [];
    for (let id = lastTrade - fills + 1; id <= lastTrade; id++) {
      const s = T.slotOf(id);
      if (s < 0 || (T.takerUid[s] !== uid && T.makerUid[s] !== uid)) continue;
      // A self-trade is two of the user's trades: its taker row and its maker row.
      for (const role of rolesOf(this.#ex, s, uid)) {
        const t = renderTrade(this.#ex, id, role)!;
        list.push({ ...t, id: Number(t.id), create_time: Number(t.create_time), user_id: uid });
      }
    }
    if (list.length === 0) return;
    const frame = updateFrame('spot.usertrades', list, timeUs);
    if (nPair > 0) this.#out.publish(byPair, frame);
    if (nAll > 0) this.#out.publish(all, frame);
  }

  #pushBalances(uid: number, currencies: readonly string[], changeType: string, timeUs: number): void {
    const topic = topicOf('spot.balances', String(uid));
    if (this.#out.subscribers(topic) === 0) return;
    const L = this.#ex.ledger;
    const list: Record<string, string>[] = [];
    for (const cur of currencies) {
      const before = this.#balances.get(`${uid}|${cur}`);
      const [avail, locked] = this.#remember(uid, cur);
      const prevTotal = before === undefined ? 0 : before[0];
      const prevLocked = before === undefined ? 0 : before[1];
      const total = typeof avail === 'number' ? avail + (locked as number) : avail + (locked as bigint);
      const prevSum = typeof prevTotal === 'number' ? prevTotal + (prevLocked as number) : prevTotal + (prevLocked as bigint);
      const change = before === undefined ? total : subAmount(total, prevSum);
      const freezeChange = before === undefined ? locked : subAmount(locked, prevLocked);
      if ((change === 0 || change === 0n) && (freezeChange === 0 || freezeChange === 0n)) continue;
      list.push({
        timestamp: String(Math.floor(timeUs / 1e6)), timestamp_ms: String(Math.floor(timeUs / 1e3)), user: String(uid),
        currency: cur, change: L.format(cur, change), total: L.format(cur, total), available: L.format(cur, avail),
        freeze: L.format(cur, locked), freeze_change: L.format(cur, freezeChange), change_type: changeType,
      });
    }
    if (list.length > 0) this.#out.publish(topic, updateFrame('spot.balances', list, timeUs));
  }

  /** Reads and remembers `uid`'s spot balance of `cur`; returns [available, locked]. */
  #remember(uid: number, cur: string): [Amount, Amount] {
    const v = this.#ex.ledger.balance(uid, AccountKind.Spot, 0, cur);
    const pair: [Amount, Amount] = v === undefined ? [0, 0] : [v.available, v.locked];
    this.#balances.set(`${uid}|${cur}`, pair);
    return pair;
  }
}
