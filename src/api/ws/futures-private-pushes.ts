/**
 * Private (signed) channels of the perpetual-futures WebSocket endpoint `/v4/ws/fx/{settle}`: resolution and
 * pushes. The payload starts with the subscriber's uid, as Gate's (ccxt.pro sends its `uid` option there); it
 * must be the signing key's user.
 *
 *   channel              payload                      topic key                   pushed
 *   futures.orders       [uid, contract | "!all", …]   settle.uid.contract|!all    FuturesOrder (+ create_time_ms, finish_time_ms)
 *                                                                                 of each order a command accepted, filled,
 *                                                                                 amended, cancelled or finished
 *   futures.usertrades   [uid, contract | "!all", …]   settle.uid.contract|!all    `{id, create_time, create_time_ms, contract,
 *                                                                                 order_id, size, price, role, text, fee, point_fee}`
 *                                                                                 per fill of the user (a self-trade: both rows)
 *   futures.positions    [uid, contract | "!all", …]   settle.uid.contract|!all    Position (+ time, time_ms) of each of the
 *                                                                                 user's rows of the contract after fills, margin,
 *                                                                                 leverage or risk-limit changes, funding,
 *                                                                                 liquidation and deleveraging
 *   futures.balances     [uid]                        settle.uid                  one `{balance, change, text, time, time_ms, type,
 *                                                                                 user, currency}` per account-book entry of the
 *                                                                                 user's futures account of the settle currency
 *                                                                                 (on a delivery endpoint: the delivery account)
 *                                                                                 (fees, pnl, funding, transfers)
 *   futures.liquidates   [uid, contract | "!all", …]   settle.uid.contract|!all    FuturesLiquidate (GET …/liquidates) + time_ms, user
 *   futures.auto_deleverages  (same)                                              the ADL record (GET …/auto_deleverages) + time_ms
 *   futures.position_closes   (same)                                              PositionClose (GET …/position_close) + time_ms, user
 *   futures.autoorders, futures.reduce_risk_limits  (same)                       futures-account-pushes.ts
 *
 * The last three push the rows a command appended to the futures state's histories (a cursor per history
 * remembers the newest row seen; O(new rows) per command).
 * Topics carry the settle because `!all` is otherwise the same on every endpoint. Orders, trades and positions
 * render from the state after the command; balance entries are the account book's (types dnw, pnl, fee, fund as
 * GET /futures/{settle}/account_book). Costs per command: a few topic lookups when nobody is subscribed; balances
 * read the account-book entries written since the last command, per subscribed (user, settle).
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { DELIVERY_SCOPE, settleOfScope } from '../../core/futures/contract.js';
import type { BookEvents } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import type { AdlRow, CloseRow, LiquidationRow } from '../../core/futures/futures-state.js';
import { renderAdl, renderLiquidation, renderPosition, renderPositionClose } from '../../gate/futures-position-shapes.js';
import { renderFuturesBookEntry, renderFuturesOrder, renderFuturesTrade } from '../../gate/futures-shapes.js';
import { topicOf, userItems } from './channels.js';
import { updateFrame, WsErrorCode } from './envelope.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';
import { HistoryCursor } from './history-cursor.js';
import { AccountBookFollower } from './account-book-follower.js';
import { touchedOrders } from './touched-orders.js';
import type { WsResolution } from './ws-host.js';

export const FUTURES_PRIVATE_CHANNELS = [
  'futures.orders', 'futures.usertrades', 'futures.positions', 'futures.balances', 'futures.liquidates', 'futures.auto_deleverages',
  'futures.position_closes', 'futures.autoorders', 'futures.reduce_risk_limits',
] as const;
export type FuturesPrivateChannel = (typeof FUTURES_PRIVATE_CHANNELS)[number];
export const isFuturesPrivateChannel = (c: string): c is FuturesPrivateChannel => (FUTURES_PRIVATE_CHANNELS as readonly string[]).includes(c);

/** The topics of a private futures subscription of user `uid` on the endpoint of `settle`. */
export function resolveFuturesPrivate<T>(ex: Exchange, settle: string, channel: FuturesPrivateChannel, payload: unknown,
  uid: number): WsResolution<T> {
  const bad = (message: string): WsResolution<T> => ({ ok: false, code: WsErrorCode.InvalidArgument, message });
  const u = userItems(payload, uid);
  if (!u.ok) return bad(u.message);
  const items = u.items;
  if (channel === 'futures.balances') {
    if (items.length > 0) return bad('payload must be [user id]');
    return { ok: true, value: { topics: [topicOf(channel, `${settle}.${uid}`)], targets: [] } };
  }
  if (items.length === 0) return bad('payload must name contracts or "!all" after the user id');
  for (const name of items) {
    if (name !== '!all' && ex.futures.contractIndex(settle, name) < 0) return bad(`unknown contract: ${name.slice(0, 40)} (settle ${settle})`);
  }
  return { ok: true, value: { topics: items.map((name) => topicOf(channel, `${settle}.${uid}.${name}`)), targets: [] } };
}

/** Commands after which the positions of the users they touch are pushed. */
const POSITION_COMMANDS: ReadonlySet<number> = new Set<number>([
  CommandType.PlaceOrder, CommandType.AmendOrder, CommandType.CancelOrder, CommandType.CancelAll, CommandType.FuturesSetLeverage,
  CommandType.FuturesUpdateMargin, CommandType.FuturesSetRiskLimit, CommandType.FuturesFunding, CommandType.FuturesLiquidate,
  CommandType.FuturesDeleverage,
]);
const ms = (us: number): number => Math.floor(us / 1000);

export class FuturesPrivatePushes extends PushObserver {
  readonly #ex: Exchange;
  readonly #out: Publisher;
  /** Subscribed `settle.uid` balance topics and the account each follows. */
  readonly #balances: AccountBookFollower;
  readonly #liquidations: HistoryCursor<LiquidationRow>;
  readonly #adl: HistoryCursor<AdlRow>;
  readonly #closes: HistoryCursor<CloseRow>;

  constructor(gateway: ExchangeGateway, out: Publisher) {
    super('futures private websocket push');
    this.#ex = gateway.exchange;
    this.#out = out;
    this.#balances = new AccountBookFollower(this.#ex, out, (topic, uid, entries, t) => this.#publish([topic], 'futures.balances', entries.map((e) => {
      const r = renderFuturesBookEntry(this.#ex, e);
      return { balance: Number(e.balance), change: Number(e.change), text: r.text, time: Math.floor(e.time / 1e6), time_ms: ms(e.time),
        type: r.type, user: String(uid), currency: e.currency };
    }), t));
    const S = this.#ex.futures;
    this.#liquidations = new HistoryCursor(S.liquidations);
    this.#adl = new HistoryCursor(S.adl);
    this.#closes = new HistoryCursor(S.closes);
  }

  /** After a futures.balances subscription: pushes start from the account book's current end. */
  subscribed(channel: string, settle: string, uid: number): void {
    if (channel !== 'futures.balances') return;
    // A delivery endpoint's scope (`delivery:usdt`) names the delivery account of its settle currency.
    const cur = this.#ex.currencies.indexOf(settleOfScope(settle).toUpperCase());
    const kind = settle.startsWith(DELIVERY_SCOPE) ? AccountKind.Delivery : AccountKind.Futures;
    if (cur >= 0) this.#balances.follow(topicOf(channel, `${settle}.${uid}`), uid, kind, cur, this.#ex.currencies[cur]!);
  }

  override onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.stopped) return;
    const t = cmd.time;
    this.#balances.step(t);
    this.#histories(t);
    // A rejected command changed nothing (as spot's push feed): no order, trade or position pushes.
    if (code !== ResultCode.Ok) return;
    const ci = this.#ex.futures.contractOf(cmd.market);
    if (ci < 0 || cmd.type === CommandType.FuturesSetPrices) return;
    const { users, fills } = touchedOrders(events);
    const touch = (uid: number): void => { if (!users.has(uid)) users.set(uid, new Set()); };
    if (!POSITION_COMMANDS.has(cmd.type) && users.size === 0) return;
    if (cmd.uid > 0) touch(cmd.uid);
    const market = cmd.market;
    if (cmd.type === CommandType.FuturesFunding) for (const r of this.#ex.futures.positions.openRows(market)) touch(this.#ex.futures.positions.uid[r]!);
    const c = this.#ex.futures.contracts[ci]!;
    for (const [uid, orders] of users) {
      this.#orders(c.settle, c.name, uid, orders, t);
      if (fills > 0) this.#trades(c.settle, c.name, uid, fills, t);
      if (POSITION_COMMANDS.has(cmd.type)) this.#positions(c.settle, c.name, uid, market, t);
    }
  }

  /** Subscriber counts of the contract topic and the `!all` topic of (channel, settle, uid). */
  #topics(channel: string, settle: string, name: string, uid: number): string[] {
    const out: string[] = [];
    for (const key of [`${settle}.${uid}.${name}`, `${settle}.${uid}.!all`]) {
      const topic = topicOf(channel, key);
      if (this.#out.subscribers(topic) > 0) out.push(topic);
    }
    return out;
  }

  #publish(topics: readonly string[], channel: string, list: readonly unknown[], timeUs: number): void {
    if (list.length === 0 || topics.length === 0) return;
    const frame = updateFrame(channel, list, timeUs);
    for (const topic of topics) this.#out.publish(topic, frame);
  }

  #orders(settle: string, name: string, uid: number, orders: ReadonlySet<number>, timeUs: number): void {
    if (orders.size === 0) return;
    const topics = this.#topics('futures.orders', settle, name, uid);
    if (topics.length === 0) return;
    const list: Record<string, unknown>[] = [];
    for (const id of orders) {
      const r = this.#ex.orders.find(id);
      if (r < 0) continue;
      const o = renderFuturesOrder(this.#ex, r, 'int');
      // Gate's push: whole-second times beside millisecond ones.
      const created = Math.round((o.create_time as number) * 1000);
      const finished = o.finish_time === undefined ? {} : { finish_time: Math.floor(o.finish_time as number), finish_time_ms: Math.round((o.finish_time as number) * 1000) };
      list.push({ ...o, create_time: Math.floor(created / 1000), create_time_ms: created, update_time: Math.floor(o.update_time as number), ...finished, user: String(uid) });
    }
    this.#publish(topics, 'futures.orders', list, timeUs);
  }

  #trades(settle: string, name: string, uid: number, fills: number, timeUs: number): void {
    const topics = this.#topics('futures.usertrades', settle, name, uid);
    if (topics.length === 0) return;
    const T = this.#ex.trades;
    const last = T.count;
    const list: Record<string, unknown>[] = [];
    for (let id = last - fills + 1; id <= last; id++) {
      const s = T.slotOf(id);
      if (s < 0) continue;
      const roles: ('taker' | 'maker')[] = [];
      if (T.takerUid[s] === uid) roles.push('taker');
      if (T.makerUid[s] === uid) roles.push('maker');
      for (const role of roles) {
        const tr = renderFuturesTrade(this.#ex, id, role, 'int');
        const created = Math.round((tr.create_time as number) * 1000);
        list.push({ ...tr, id: String(id), create_time: Math.floor(created / 1000), create_time_ms: created });
      }
    }
    this.#publish(topics, 'futures.usertrades', list, timeUs);
  }

  #positions(settle: string, name: string, uid: number, market: number, timeUs: number): void {
    const topics = this.#topics('futures.positions', settle, name, uid);
    if (topics.length === 0) return;
    const list = this.#ex.futures.positions.rowsOf(uid, market)
      .map((r) => ({ ...renderPosition(this.#ex, r, 'int'), user: String(uid), time: Math.floor(timeUs / 1e6), time_ms: ms(timeUs) }));
    this.#publish(topics, 'futures.positions', list, timeUs);
  }

  /**
   * futures.liquidates, futures.auto_deleverages and futures.position_closes: the rows this command appended.
   * Nothing is allocated when no history grew (every command passes here).
   */
  #histories(timeUs: number): void {
    const S = this.#ex.futures;
    const liq = this.#liquidations.fresh(S.liquidations, timeUs);
    for (let i = 0; i < liq.length; i++) {
      const r = liq[i]!;
      this.#historyRow('futures.liquidates', r.uid, r.market, renderLiquidation(this.#ex, r, 'int'), r.t, timeUs);
    }
    const adl = this.#adl.fresh(S.adl, timeUs);
    for (let i = 0; i < adl.length; i++) {
      const r = adl[i]!;
      this.#historyRow('futures.auto_deleverages', r.uid, r.market, renderAdl(this.#ex, r, 'int'), r.t, timeUs);
    }
    const closes = this.#closes.fresh(S.closes, timeUs);
    for (let i = 0; i < closes.length; i++) {
      const r = closes[i]!;
      this.#historyRow('futures.position_closes', r.uid, r.market, renderPositionClose(this.#ex, r, 'int'), r.t, timeUs);
    }
  }

  #historyRow(channel: string, uid: number, market: number, row: Record<string, unknown>, t: number, timeUs: number): void {
    const S = this.#ex.futures;
    const c = S.contracts[S.contractOf(market)];
    if (c === undefined) return;
    const topics = this.#topics(channel, c.settle, c.name, uid);
    this.#publish(topics, channel, [{ ...row, time_ms: ms(t), user: String(uid) }], timeUs);
  }
}
