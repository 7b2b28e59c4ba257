/**
 * Private (signed) channels of the options WebSocket endpoint: pushes after each applied command, to the topics
 * `<channel>|<settle>.<uid>.<contract | !all>` (options-channels.ts), shapes in options-push-shapes.ts.
 *
 *   options.orders            the user's orders a command touched (placed, filled on either side, finished)
 *   options.usertrades        the user's side of each fill (a self-trade: both rows)
 *   options.positions         the user's position after a fill, and after a settlement or a close emptied it
 *   options.balances          one entry per options-account book entry of the user (dnw, prem, fee, set)
 *   options.user_settlements  per position settled at expiry (the OptionsSettle's settlement rows)
 *   options.position_closes   per position that became empty, from the close histories below
 *   options.liquidates        per liquidation record, from the liquidation histories below
 *
 * Settlements, closes and liquidations follow bounded histories of the options state with a cursor each
 * (history-cursor.ts; O(new rows) per command): a close is any position that became empty (text `close`,
 * `liquidated` or `settled`), a liquidation one position the liquidator took over.
 * Costs per command: a few topic lookups when nobody is subscribed; a push is rendered only for a subscribed topic.
 */
import type { Command } from '../../core/command.js';
import { isBookCommand } from '../../core/exchange/exchange.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import type { BookEvents } from '../../core/matching/book-events.js';
import type { OptionsCloseRow, OptionsLiquidationRow, UserSettlementRow } from '../../core/options/options-state.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { AccountBookFollower } from './account-book-follower.js';
import { topicOf } from './channels.js';
import { updateFrame } from './envelope.js';
import { HistoryCursor } from './history-cursor.js';
import {
  balancePush, liquidationPush, orderPush, positionClosePush, positionPush, userSettlementPush, userTradePush,
} from './options-push-shapes.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';
import { touchedOrders } from './touched-orders.js';

export class OptionsPrivatePushes extends PushObserver {
  readonly #ex: Exchange;
  readonly #out: Publisher;
  readonly #balances: AccountBookFollower;
  readonly #settlements: HistoryCursor<UserSettlementRow>;
  readonly #closes: HistoryCursor<OptionsCloseRow>;
  readonly #liquidations: HistoryCursor<OptionsLiquidationRow>;

  constructor(gateway: ExchangeGateway, out: Publisher) {
    super('options private websocket push');
    const ex = this.#ex = gateway.exchange;
    this.#out = out;
    this.#balances = new AccountBookFollower(ex, out, (topic, uid, entries, t) => this.#publish([topic], 'options.balances', entries.map((e) => balancePush(this.#ex, uid, e)), t));
    this.#settlements = new HistoryCursor(ex.options.userSettlements);
    this.#closes = new HistoryCursor(ex.options.closes);
    this.#liquidations = new HistoryCursor(ex.options.liquidations);
  }

  /** After an options.balances subscription of `uid` on the endpoint of `settle`: entries from the book's current end. */
  subscribed(channel: string, settle: string, uid: number): void {
    if (channel !== 'options.balances') return;
    const code = settle.toUpperCase();
    if (this.#ex.currencyIndex(code) >= 0) this.#balances.follow(topicOf(channel, `${settle}.${uid}`), uid, AccountKind.Options, 0, code);
  }

  override onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.stopped) return;
    const t = cmd.time;
    this.#balances.step(t);
    this.#histories(t);
    if (code !== ResultCode.Ok || !isBookCommand(cmd.type)) return;
    const ci = this.#ex.options.contractOf(cmd.market);
    if (ci < 0 || events.count === 0) return;
    const { users, fills } = touchedOrders(events);
    for (const [uid, orders] of users) {
      const topics = this.#topics('options.orders', ci, uid);
      if (topics.length > 0) {
        this.#publish(topics, 'options.orders', [...orders].flatMap((id) => {
          const r = this.#ex.orders.find(id);
          return r < 0 ? [] : [orderPush(this.#ex, r, t)];
        }), t);
      }
      if (fills === 0) continue;
      this.#trades(ci, uid, fills, t);
      this.#position(uid, ci, t);
    }
  }

  /** The subscribed topics of (channel, contract `ci`, uid): the contract's and `!all`. */
  #topics(channel: string, ci: number, uid: number): string[] {
    const S = this.#ex.options;
    const k = S.contracts[ci]!;
    const settle = S.underlyings[k.u]!.quote.toLowerCase();
    return [`${settle}.${uid}.${k.name}`, `${settle}.${uid}.!all`].map((key) => topicOf(channel, key)).filter((topic) => this.#out.subscribers(topic) > 0);
  }

  #publish(topics: readonly string[], channel: string, list: readonly unknown[], timeUs: number): void {
    if (list.length === 0 || topics.length === 0) return;
    const frame = updateFrame(channel, list, timeUs);
    for (const topic of topics) this.#out.publish(topic, frame);
  }

  #trades(ci: number, uid: number, fills: number, timeUs: number): void {
    const topics = this.#topics('options.usertrades', ci, uid);
    if (topics.length === 0) return;
    const T = this.#ex.trades;
    const list: Record<string, unknown>[] = [];
    for (let id = T.count - fills + 1; id <= T.count; id++) {
      const s = T.slotOf(id);
      if (s < 0) continue;
      if (T.takerUid[s] === uid) list.push(userTradePush(this.#ex, id, 'taker'));
      if (T.makerUid[s] === uid) list.push(userTradePush(this.#ex, id, 'maker'));
    }
    this.#publish(topics, 'options.usertrades', list, timeUs);
  }

  #position(uid: number, ci: number, timeUs: number): void {
    const topics = this.#topics('options.positions', ci, uid);
    const row = this.#ex.options.find(uid, ci);
    if (topics.length > 0 && row >= 0) this.#publish(topics, 'options.positions', [positionPush(this.#ex, row, timeUs)], timeUs);
  }

  /** The rows this command appended to the settlement, close and liquidation histories. */
  #histories(timeUs: number): void {
    const ex = this.#ex;
    const nowS = Math.floor(timeUs / 1e6);
    for (const r of this.#settlements.fresh(ex.options.userSettlements, nowS)) {
      this.#publish(this.#topics('options.user_settlements', r.ci, r.uid), 'options.user_settlements', [userSettlementPush(ex, r)], timeUs);
      this.#position(r.uid, r.ci, timeUs);
    }
    // Close and liquidation rows are stamped in µs.
    for (const r of this.#closes.fresh(ex.options.closes, timeUs)) {
      this.#publish(this.#topics('options.position_closes', r.ci, r.uid), 'options.position_closes', [positionClosePush(ex, r)], timeUs);
    }
    for (const r of this.#liquidations.fresh(ex.options.liquidations, timeUs)) {
      this.#publish(this.#topics('options.liquidates', r.ci, r.uid), 'options.liquidates', [liquidationPush(ex, r)], timeUs);
    }
  }
}
