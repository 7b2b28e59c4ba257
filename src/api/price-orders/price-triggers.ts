/**
 * The trigger service of price-triggered orders, spot and futures: it watches every command the engine
 * completes (gateway.observe), keeps each market's last trade price and each contract's mark and index price
 * (from FuturesSetPrices: `price` mark, `amount` index, whoever submits it — the price clock or the control
 * plane), and when a price reaches open triggers it places their orders through the gateway as the owner,
 * exactly like a client's POST /spot/orders or POST /futures/{settle}/orders (a futures trigger's order is a
 * FuturesOrder: gate/futures-price-order-request.ts).
 *
 * Durable (engine/records.ts): every trigger is one record (price-order-record.ts) and every change is a
 * command carrying the trigger's new record; the store projects the row the table holds once that command
 * completes, the same way start-up projects every row. So a restart (kill -9 included) brings back every
 * trigger the journal holds, open ones still fire and expire, and ids continue.
 * - Create: a PutRecords of the open record; the reply waits for it.
 * - Fire: one journal group of a PutRecords marking the trigger `failed` and the PlaceOrder carrying the
 *   `finish` record (applied iff the book accepts the order; its row keeps the order's id). After the group
 *   the trigger is finished whatever the engine answers and whenever a crash comes, so it never fires twice
 *   and is never lost. A refused placement then puts the refusal's label as `reason` (a crash between the two
 *   leaves `failed` with an empty reason).
 * - Cancel (one or all) and expiry: one PutRecords of the finished records.
 * While its change is in flight a trigger is pending (price-order-store.ts): nothing else changes it.
 *
 * Fired put orders are submitted from the observer itself; the gateway queues a command submitted inside
 * another's completion and runs it right after, so with the inline runner the put order is complete before
 * the triggering request's caller can send anything else. Triggers fired by one price are placed in creation
 * order; `ftime` of a fired trigger is the time of the trade that fired it. `settled()` resolves once no
 * change is in flight (reads wait for it, so a trigger is never seen half-changed). Expiry follows the
 * gateway's clock (simulated or wall): checked on every read, every observed trade, every move of the
 * simulated clock (routes) and by a one-second timer; `ftime` of an expired trigger is its expiry time.
 *
 * Costs: one JSON record per change (a few hundred bytes); records of finished triggers stay in the table
 * (the store keeps the newest 100,000 readable, as before).
 */
import { Command } from '../../core/command.js';
import { EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { putRecords, putRecordsCommand, recordRows, type RecordPutsMap, withRecords } from '../../engine/records.js';
import { gateError } from '../../gate/error-catalogue.js';
import { CommandType } from '../../core/command.js';
import { futuresPlaceCommand } from '../../gate/futures-price-order-request.js';
import { parseCreateOrder } from '../../gate/spot-order-request.js';
import { finishedRecord, PRICE_ORDER_PREFIX, priceOrderFromRecord, priceOrderKey, priceOrderRecord } from './price-order-record.js';
import {
  expiryUs, type FuturesPriceOrder, type PriceOrder, PriceOrderStore, type PriceType, PRICE_TYPES, type SpotPriceOrder,
} from './price-order-store.js';

/** The create-order body a spot trigger's put order stands for. @allocates */
export function putBody(ex: ExchangeGateway['exchange'], o: Pick<SpotPriceOrder, 'market' | 'put'>): Record<string, unknown> {
  const p = o.put;
  return {
    currency_pair: ex.markets[o.market]!.id, type: p.type, side: p.side, amount: p.amount,
    ...(p.type === 'limit' ? { price: p.price } : {}), time_in_force: p.time_in_force, account: 'spot',
    ...(p.text !== '' ? { text: p.text } : {}),
  };
}

type Fresh<T> = Omit<T, 'id' | 'finishUs' | 'status' | 'firedOrderId' | 'reason'>;
/** What a new trigger is made of: everything but its id and final state. */
export type NewPriceOrder = (Omit<Fresh<SpotPriceOrder>, 'product' | 'priceType'> & { product?: 'spot'; priceType?: 0 })
  | Fresh<FuturesPriceOrder>;

const noop = (): void => undefined;

export class PriceTriggers {
  readonly store = new PriceOrderStore({ firstId: 1_000_001 });
  /** Per market × price type (PRICE_TYPES): last trade, mark, index price in ticks; NaN while unknown. */
  readonly #prices: number[];
  readonly #gateway: ExchangeGateway;
  readonly #cmd = new Command();
  /** Changes (create, fire, cancel, expiry) not yet completed, and who waits for them. */
  #inFlight = 0;
  #waiters: (() => void)[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(gateway: ExchangeGateway) {
    this.#gateway = gateway;
    const ex = gateway.exchange;
    const T = ex.trades;
    this.#prices = new Array<number>(ex.markets.length * PRICE_TYPES).fill(Number.NaN);
    ex.markets.forEach((_, m) => {
      const [id] = T.newest((slot) => T.market[slot] === m, 1);
      if (id !== undefined) this.#prices[m * PRICE_TYPES] = T.price[T.slotOf(id)]!;
    });
    const F = ex.futures;
    F.marketOf.forEach((m, ci) => {
      if (F.mark[ci]! > 0) this.#prices[m * PRICE_TYPES + 1] = F.mark[ci]!;
      if (F.index[ci]! > 0) this.#prices[m * PRICE_TYPES + 2] = F.index[ci]!;
    });
    for (const r of recordRows(ex, PRICE_ORDER_PREFIX)) {
      if (r.value !== null) this.store.project(priceOrderFromRecord(ex, r.value, r.orderId), r.seq, true);
    }
    gateway.observe((code, cmd, events) => {
      if (code !== ResultCode.Ok) return;
      if (cmd.type === CommandType.FuturesSetPrices) {
        // The command carries the new prices (0: unchanged), so nothing here reads the engine's state.
        this.expire();
        if (cmd.price > 0) this.#setPrice(cmd.market, 1, cmd.price, cmd.time);
        if (cmd.amount > 0) this.#setPrice(cmd.market, 2, cmd.amount, cmd.time);
        return;
      }
      let price = Number.NaN;
      for (let i = 0; i < events.count; i++) if (events.kind[i] === EventKind.Fill) price = events.price[i]!;
      if (Number.isNaN(price)) return;
      this.expire();
      this.#setPrice(cmd.market, 0, price, cmd.time);
    });
    this.#timer = setInterval(() => this.expire(), 1000);
    this.#timer.unref();
    // A crash after a trade was journaled but before the triggers it reached fired: they fire now. (Creation
    // refuses a trigger the last price already reaches, so no other open trigger is due here.)
    this.expire();
    ex.markets.forEach((_, m) => this.#fireDue(m));
  }

  /** Last trade price of `market` in ticks, NaN when it never traded. */
  lastTicks(market: number): number {
    return this.priceTicks(market, 0);
  }

  /** The price of `priceType` (0 last, 1 mark, 2 index) of `market` in ticks, NaN while unknown. */
  priceTicks(market: number, priceType: PriceType): number {
    return this.#prices[market * PRICE_TYPES + priceType] ?? Number.NaN;
  }

  /** A new price of (market, type): fires the triggers it reaches (trade or command time `timeUs`). */
  #setPrice(market: number, priceType: PriceType, ticks: number, timeUs: number): void {
    this.#prices[market * PRICE_TYPES + priceType] = ticks;
    const due = this.store.due(market, ticks, priceType);
    if (due.length > 0) this.#fire(due, timeUs);
  }

  /** Creates an open trigger of `fields`; `done` gets Ok and it once its record is applied, or the refusal. */
  create(fields: NewPriceOrder, done: (code: ResultCode, o: PriceOrder | undefined) => void): void {
    const ex = this.#gateway.exchange;
    const o = { product: 'spot', priceType: 0, ...fields, id: this.store.issueId(), finishUs: 0, status: 'open', firedOrderId: 0, reason: '' } as PriceOrder;
    const end = this.#begin();
    putRecords(this.#gateway, { [priceOrderKey(o.id)]: priceOrderRecord(ex, o) }, (code) => {
      this.#reload(o.id);
      end();
      done(code, code === ResultCode.Ok ? this.store.get(o.id) : undefined);
    });
  }

  /**
   * Cancels the open triggers of `list` that no change is in flight for, in one command; `done` gets Ok and
   * them as cancelled, or the gateway's refusal.
   */
  cancel(list: readonly PriceOrder[], done: (code: ResultCode, cancelled: PriceOrder[]) => void): void {
    const ex = this.#gateway.exchange;
    const live = list.filter((o) => o.status === 'open' && !this.store.isPending(o.id));
    if (live.length === 0) return done(ResultCode.Ok, []);
    const now = this.#gateway.clock.nowUs();
    for (const o of live) this.store.take(o);
    const end = this.#begin();
    putRecords(this.#gateway, Object.fromEntries(live.map((o) => [priceOrderKey(o.id), finishedRecord(ex, o, 'cancelled', now)])), (code) => {
      for (const o of live) this.#reload(o.id);
      end();
      done(code, code === ResultCode.Ok ? live.map((o) => this.store.get(o.id) ?? { ...o, status: 'cancelled', finishUs: now }) : []);
    });
  }

  /** Expires, in one command, the open triggers past their expiration at the gateway clock's time. */
  expire(): void {
    const ex = this.#gateway.exchange;
    const due = this.store.expiredBy(this.#gateway.clock.nowUs());
    if (due.length === 0) return;
    for (const o of due) this.store.take(o);
    const end = this.#begin();
    putRecords(this.#gateway, Object.fromEntries(due.map((o) => [priceOrderKey(o.id), finishedRecord(ex, o, 'expired', expiryUs(o))])), () => {
      for (const o of due) this.#reload(o.id);
      end();
    });
  }

  /** Resolves when no change is in flight (at once when none is). */
  settled(): Promise<void> {
    return this.#inFlight === 0 ? Promise.resolve() : new Promise((resolve) => { this.#waiters.push(resolve); });
  }

  /** Expires what is due, then resolves once nothing is in flight: what reads wait for. */
  ready(): Promise<void> {
    this.expire();
    return this.settled();
  }

  close(): void {
    clearInterval(this.#timer);
  }

  /** Counts a change in flight; the function returned ends it (once). */
  #begin(): () => void {
    this.#inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#inFlight === 0) for (const w of this.#waiters.splice(0)) w();
    };
  }

  /** Projects trigger `id` from the row the table holds now (see the module header); a new open one may fire. */
  #reload(id: number): void {
    const ex = this.#gateway.exchange;
    const row = ex.records.get(priceOrderKey(id));
    if (row === undefined || row.value === 'null') return; // never created (its command was refused)
    const o = priceOrderFromRecord(ex, JSON.parse(row.value) as unknown, row.orderId);
    this.store.project(o, row.seq);
    if (o.status === 'open') this.#fireDue(o.market);
  }

  /** Fires the open triggers of `market` its prices (last, mark, index) reach. */
  #fireDue(market: number): void {
    for (const pt of [0, 1, 2] as const) {
      const due = this.store.due(market, this.priceTicks(market, pt), pt);
      if (due.length > 0) this.#fire(due, this.#gateway.clock.nowUs());
    }
  }

  /** Places the put orders of `fired` (taken out of the index) as described in the module header. */
  #fire(fired: readonly PriceOrder[], timeUs: number): void {
    const gw = this.#gateway;
    const ex = gw.exchange;
    for (const o of fired) {
      const key = priceOrderKey(o.id);
      const end = this.#begin();
      const settle = (): void => { this.#reload(o.id); end(); };
      const failed = (reason: string): RecordPutsMap => ({ [key]: finishedRecord(ex, o, 'failed', timeUs, reason) });
      const parsed = o.product === 'spot' ? parseCreateOrder(ex, o.uid, putBody(ex, o), this.#cmd)
        : futuresPlaceCommand(ex, o.uid, o.market, o.initial, this.#cmd);
      if (parsed !== ResultCode.Ok) {
        putRecords(gw, failed(gateError(parsed).label), settle);
        continue;
      }
      const place = withRecords(new Command().copyFrom(this.#cmd), { [key]: finishedRecord(ex, o, 'finish', timeUs) });
      gw.submitGroup([
        [putRecordsCommand(failed('')), noop],
        [place, (code) => {
          if (code === ResultCode.Ok) return settle();
          putRecords(gw, failed(gateError(code).label), settle);
        }],
      ]);
    }
  }
}
