/**
 * Mirrors a replayed public book into a live exchange, for serving a replay over HTTP: every displayed level
 * becomes resting orders of the liquidity account (uid 1), so clients' orders meet it through the real book
 * with no hook in the request path. Clients' orders rest among those orders, which gives the queue model:
 *
 * - a level that grows gets a new liquidity order for the difference, at the back (behind clients' orders);
 * - a level that shrinks loses liquidity orders from the back first (clients keep their place: the
 *   conservative assumption, as in the replay's `conservative` queue model);
 * - a public trade is an IOC of the taker account (uid 2) at the trade's price and size: it meets the queue
 *   in price-time order, so a client's order fills once the liquidity in front of it is gone, and always when
 *   the trade goes through its price;
 * - size a client took from a level stays consumed until the data shows the level shrink (liquidity
 *   consumption); a level moving through a client's order (a liquidity order placed across it) fills the
 *   client at the client's price.
 *
 * Commands go through the gateway like any other, so they are sequenced, journaled and in the state hash.
 * On a perpetual the mirror's market is the contract's book and its orders are futures orders of the settle
 * currency's futures account (`target`); both accounts then hold the market's side of every fill as positions.
 */
import { Command, CommandType } from '../core/command.js';
import { EventKind } from '../core/matching/book-events.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import type { ExchangeGateway } from '../engine/gateway.js';

export const MIRROR_LIQUIDITY_UID = 1;
export const MIRROR_TAKER_UID = 2;

interface LiqOrder { id: number; left: number }

/** Which book the mirror fills, and the account its orders use (AccountKind and sub; spot: 0, 0). */
export interface MirrorTarget { readonly market: number; readonly kind: number; readonly sub: number }

export class BookMirror {
  readonly #gw: ExchangeGateway;
  readonly #cmd = new Command();
  /** Per side (1, 2): price → liquidity orders at the level, front first. */
  readonly #levels = [new Map<number, LiqOrder[]>(), new Map<number, LiqOrder[]>(), new Map<number, LiqOrder[]>()];
  readonly #shown = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
  readonly #consumed = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
  readonly #where = new Map<number, { side: number; price: number }>();
  readonly stats = { levels: 0, trades: 0, clientFills: 0, commands: 0 };
  readonly #target: MirrorTarget;

  constructor(gateway: ExchangeGateway, target: MirrorTarget = { market: 0, kind: 0, sub: 0 }) {
    this.#gw = gateway;
    this.#target = target;
    gateway.observe((_code, c, ev) => {
      const client = (uid: number): boolean => uid !== MIRROR_LIQUIDITY_UID && uid !== MIRROR_TAKER_UID;
      for (let i = 0; i < ev.count; i++) {
        if (ev.kind[i] === EventKind.Fill) {
          const lots = ev.lots[i]!;
          const where = this.#where.get(ev.makerOrderId[i]!);
          if (where !== undefined) {
            this.#reduce(ev.makerOrderId[i]!, lots);
            if (client(ev.userId[i]!)) this.#consume(where.side, where.price, lots);
          } else if (ev.userId[i] === MIRROR_LIQUIDITY_UID && c.type === CommandType.PlaceOrder) {
            this.#consume(c.side, c.price, lots);
          }
          if (client(ev.userId[i]!) || client(ev.makerUserId[i]!)) this.stats.clientFills++;
        } else if (ev.kind[i] === EventKind.Finished) {
          this.#drop(ev.orderId[i]!);
        }
      }
    });
  }

  #consume(side: number, price: number, lots: number): void {
    const m = this.#consumed[side]!;
    m.set(price, (m.get(price) ?? 0) + lots);
  }

  /** The level's size as the data last showed it (lots). */
  shown(side: number, price: number): number {
    return this.#shown[side]!.get(price) ?? 0;
  }

  /** A depth row: the level's displayed size is now `size` lots. */
  level(side: number, price: number, size: number): void {
    this.stats.levels++;
    const shown = this.#shown[side]!;
    const old = shown.get(price) ?? 0;
    if (size === 0) shown.delete(price); else shown.set(price, size);
    const cons = this.#consumed[side]!;
    const c0 = cons.get(price) ?? 0;
    const c1 = size === 0 ? 0 : Math.max(0, c0 - Math.max(0, old - size));
    if (c1 === 0) cons.delete(price); else cons.set(price, c1);
    const target = Math.max(0, size - c1);
    const list = this.#levels[side]!.get(price) ?? [];
    let current = 0;
    for (const o of list) current += o.left;
    if (target > current) {
      this.#place(side, price, target - current, TimeInForce.Gtc, MIRROR_LIQUIDITY_UID);
    } else {
      let cut = current - target;
      for (let k = list.length - 1; k >= 0 && cut > 0; k--) {
        const o = list[k]!;
        const c = this.#cmd.clear();
        c.uid = MIRROR_LIQUIDITY_UID; c.market = this.#target.market; c.orderId = o.id;
        if (o.left <= cut) {
          cut -= o.left;
          c.type = CommandType.CancelOrder;
        } else {
          c.type = CommandType.AmendOrder;
          c.amount = this.#filledOf(o.id) + o.left - cut;
          o.left -= cut;
          cut = 0;
        }
        this.#submit(c);
      }
    }
  }

  /** A public trade: the taker account's IOC meets the queue at `price`. Unknown sides are skipped. */
  trade(aggSide: number, price: number, amount: number): void {
    if (aggSide !== Side.Buy && aggSide !== Side.Sell) return;
    this.stats.trades++;
    this.#place(aggSide, price, amount, TimeInForce.Ioc, MIRROR_TAKER_UID);
  }

  /** A snapshot starts: every liquidity order is withdrawn. */
  reset(): void {
    const c = this.#cmd.clear();
    c.type = CommandType.CancelAll; c.uid = MIRROR_LIQUIDITY_UID; c.market = this.#target.market;
    this.#submit(c);
    for (const m of [...this.#levels, ...this.#shown, ...this.#consumed]) m.clear();
    this.#where.clear();
  }

  #place(side: number, price: number, lots: number, tif: number, uid: number): void {
    const c = this.#cmd.clear();
    c.type = CommandType.PlaceOrder; c.uid = uid; c.market = this.#target.market; c.side = side; c.orderType = OrderType.Limit;
    c.tif = tif; c.price = price; c.amount = lots; c.kind = this.#target.kind; c.sub = this.#target.sub;
    this.#gw.submit(c, (code, done) => {
      this.stats.commands++;
      if (code !== 0 || uid !== MIRROR_LIQUIDITY_UID) return;
      const ex = this.#gw.exchange;
      const r = ex.orders.find(done.orderId);
      if (r < 0 || ex.orders.finishAs[r] !== 0) return;
      const list = this.#levels[side]!.get(price) ?? [];
      list.push({ id: done.orderId, left: ex.orders.left[r]! });
      this.#levels[side]!.set(price, list);
      this.#where.set(done.orderId, { side, price });
    });
  }

  #submit(c: Command): void {
    this.#gw.submit(c, () => { this.stats.commands++; });
  }

  #filledOf(id: number): number {
    const ex = this.#gw.exchange;
    return ex.orders.filledLots[ex.orders.find(id)]!;
  }

  #reduce(id: number, lots: number): void {
    const w = this.#where.get(id);
    const o = w === undefined ? undefined : this.#levels[w.side]!.get(w.price)?.find((x) => x.id === id);
    if (o !== undefined) o.left -= lots;
  }

  #drop(id: number): void {
    const w = this.#where.get(id);
    if (w === undefined) return;
    this.#where.delete(id);
    const list = this.#levels[w.side]!.get(w.price);
    if (list === undefined) return;
    const k = list.findIndex((x) => x.id === id);
    if (k >= 0) list.splice(k, 1);
    if (list.length === 0) this.#levels[w.side]!.delete(w.price);
  }
}
