/**
 * The trigger service of price-triggered spot orders: it watches every command the engine completes
 * (gateway.observe), keeps each market's last trade price, and when a price reaches open triggers it places
 * their put orders through the gateway as the owner, exactly like a client's POST /spot/orders.
 *
 * Fired put orders are submitted from the observer itself; the gateway queues a command submitted inside
 * another's completion and runs it right after, so with the inline runner the put order is complete before
 * the triggering request's caller can send anything else. Triggers fired by one price are placed in creation
 * order. `settled()` resolves once no fired order is still in the engine (reads wait for it, so a trigger
 * is never seen half-fired). Expiry follows the gateway's clock (simulated or wall): checked on every read
 * and every observed trade, and by a one-second timer.
 *
 * Triggers live in the front, not in the command log: a restart forgets open triggers (the orders they
 * placed are ordinary journaled orders).
 */
import { Command } from '../../core/command.js';
import { EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { gateError } from '../error-catalogue.js';
import { parseCreateOrder } from '../spot-order-request.js';
import { type PriceOrder, PriceOrderStore } from './price-order-store.js';

/** The create-order body a trigger's put order stands for. @allocates */
export function putBody(ex: ExchangeGateway['exchange'], o: PriceOrder): Record<string, unknown> {
  const p = o.put;
  return {
    currency_pair: ex.markets[o.market]!.id, type: p.type, side: p.side, amount: p.amount,
    ...(p.type === 'limit' ? { price: p.price } : {}), time_in_force: p.time_in_force, account: 'spot',
    ...(p.text !== '' ? { text: p.text } : {}),
  };
}

export class PriceTriggers {
  readonly store = new PriceOrderStore({ firstId: 1_000_001 });
  /** Last trade price per market, ticks; NaN before the first trade. */
  readonly #last: number[];
  readonly #gateway: ExchangeGateway;
  readonly #cmd = new Command();
  /** Fired put orders not yet completed, and who waits for them. */
  #inFlight = 0;
  #waiters: (() => void)[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(gateway: ExchangeGateway) {
    this.#gateway = gateway;
    const ex = gateway.exchange;
    const T = ex.trades;
    this.#last = ex.markets.map((_, m) => {
      const [id] = T.newest((slot) => T.market[slot] === m, 1);
      return id === undefined ? Number.NaN : T.price[T.slotOf(id)]!;
    });
    gateway.observe((code, cmd, events) => {
      if (code !== ResultCode.Ok) return;
      let price = Number.NaN;
      for (let i = 0; i < events.count; i++) if (events.kind[i] === EventKind.Fill) price = events.price[i]!;
      if (Number.isNaN(price)) return;
      this.#last[cmd.market] = price;
      this.expire();
      const due = this.store.due(cmd.market, price);
      if (due.length > 0) this.#fire(due);
    });
    this.#timer = setInterval(() => this.expire(), 1000);
    this.#timer.unref();
  }

  /** Last trade price of `market` in ticks, NaN when it never traded. */
  lastTicks(market: number): number {
    return this.#last[market] ?? Number.NaN;
  }

  /** Expires open triggers past their expiration at the gateway clock's time. */
  expire(): void {
    this.store.expire(this.#gateway.clock.nowUs());
  }

  /** Resolves when every fired put order has completed (at once when none is in flight). */
  settled(): Promise<void> {
    return this.#inFlight === 0 ? Promise.resolve() : new Promise((resolve) => { this.#waiters.push(resolve); });
  }

  close(): void {
    clearInterval(this.#timer);
  }

  #fire(fired: readonly PriceOrder[]): void {
    const gw = this.#gateway;
    for (const o of fired) {
      if (o.status !== 'open') continue;
      const parsed = parseCreateOrder(gw.exchange, o.uid, putBody(gw.exchange, o), this.#cmd);
      if (parsed !== ResultCode.Ok) {
        this.store.finish(o, 'failed', gw.clock.nowUs(), gateError(parsed).label);
        continue;
      }
      this.#inFlight++;
      gw.submit(this.#cmd, (code, c) => {
        if (code === ResultCode.Ok) this.store.finish(o, 'finish', c.time, '', c.orderId);
        else this.store.finish(o, 'failed', c.time || gw.clock.nowUs(), gateError(code).label);
        if (--this.#inFlight === 0) for (const w of this.#waiters.splice(0)) w();
      });
    }
  }
}
