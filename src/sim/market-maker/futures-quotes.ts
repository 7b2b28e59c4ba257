/**
 * The market maker's quotes on one perpetual contract: a ladder (ladder.ts, on the contract's order tick) of
 * futures orders from the maker user, sizes in contracts, around a reference price, and — through the taker,
 * when there is one — occasional IOC orders against it so trades print and positions move.
 *
 * Reference: the contract's mark price when the exchange has one, else its index, else a seeded random walk from
 * the configured price (or the maker's spot reference of the contract's index pair: `index_source`, else the
 * pair of the same name); nothing is quoted while none is known. Quotes farther from the mark than
 * order_price_deviate allows are left out (the engine would refuse them), as are levels below one tick.
 *
 * Each re-quote: orders at a ladder price are kept, the others cancelled, missing levels placed (bids best
 * first, then asks), so its own orders never cross. Inventory: past `max_position` contracts either way the
 * maker quotes only the side that reduces, and the taker only trades the side that reduces its own position.
 * Orders are ordinary futures PlaceOrder / CancelOrder commands (single position mode assumed; in dual mode the
 * engine routes them by side). It reads only what a client could: its orders, positions and available balance.
 * Costs: O(levels²) per re-quote; small arrays per re-quote.
 */
import { type Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { type Contract, indexSourceOf, settleOfScope } from '../../core/futures/contract.js';
import { ConfigError } from '../../core/invariant.js';
import { curOf, kindOfAcct } from '../../core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../../core/matching/order-types.js';
import type { Prng } from '../../core/prng.js';
import type { MarketMakerContractConfig } from './config.js';
import { ladder } from './ladder.js';

/** A default quote is worth about this many USD. */
const SIZE_USD = 1000;

export class FuturesQuoter {
  readonly ci: number;
  readonly market: number;
  readonly #ex: Exchange;
  readonly #k: Contract;
  readonly #cur: number;
  readonly #levels: number;
  readonly #spreadBps: number;
  readonly #stepBps: number;
  readonly #volatility: number;
  #size: number;
  #maxPosition: number;
  /** The walked reference (ticks, float) while there is no mark or index; NaN while unknown. */
  #walk: number;

  /**
   * `spotPrice(pair)` is the maker's spot reference of a pair as a decimal number (NaN when it does not quote
   * it). Throws ConfigError naming the field of an unknown contract.
   */
  constructor(ex: Exchange, c: MarketMakerContractConfig, at: string, spotPrice: (pair: string) => number) {
    const F = ex.futures;
    const found = F.contracts.map((k, i) => [k, i] as const).filter(([k]) => k.name === c.contract && (c.settle === undefined || settleOfScope(k.settle) === c.settle));
    if (found.length !== 1) throw new ConfigError(`${at}.contract: ${found.length === 0 ? 'unknown contract' : 'give settle: two settle currencies list'} ${c.contract}`);
    const [k, ci] = found[0]!;
    this.#ex = ex;
    this.#k = k;
    this.ci = ci;
    this.market = F.marketOf[ci]!;
    // The margin account (futures-funds.ts): Futures for a perpetual, Delivery for a delivery contract.
    this.#cur = F.acct[ci]!;
    this.#levels = c.levels ?? 5;
    this.#spreadBps = c.spread_bps ?? 10;
    this.#stepBps = c.step_bps ?? 5;
    this.#volatility = c.volatility ?? 0.0002;
    this.#size = c.size ?? 0;
    this.#maxPosition = c.max_position ?? 0;
    const scale = 10 ** k.priceScale;
    const start = c.price !== undefined ? Number(c.price) : spotPrice(indexSourceOf(k));
    this.#walk = Number.isFinite(start) && start > 0 ? start * scale : Number.NaN;
  }

  /** The reference in ticks (float): mark, else index, else the walk; NaN while none is known. */
  reference(): number {
    const F = this.#ex.futures;
    if (F.mark[this.ci]! > 0) return F.mark[this.ci]!;
    if (F.index[this.ci]! > 0) return F.index[this.ci]!;
    return this.#walk;
  }

  /** Contracts per quote (the configured size, else about SIZE_USD at `ref`), within the contract's bounds. */
  #sizeAt(ref: number): number {
    if (this.#size > 0) return this.#size;
    const k = this.#k;
    const price = ref / 10 ** k.priceScale;
    const quanto = Number(k.qUnits) / 10 ** k.qScale;
    const n = k.inverse ? SIZE_USD : Math.ceil(SIZE_USD / (quanto * price));
    this.#size = Math.min(Math.max(n, k.sizeMin, 1), k.sizeMax);
    if (this.#maxPosition === 0) this.#maxPosition = this.#size * this.#levels * 20;
    return this.#size;
  }

  /** Signed position of `uid` in this contract (both legs summed in dual mode). */
  #position(uid: number): number {
    const P = this.#ex.futures.positions;
    let n = 0;
    for (const r of P.rowsOf(uid, this.market)) n += P.size[r]!;
    return n;
  }

  /** The ladder around `ref` on the order tick, inside the price band around the mark. @allocates */
  #ladder(ref: number): { bids: number[]; asks: number[] } {
    const k = this.#k;
    const raw = ladder(ref / k.tick, this.#levels, this.#spreadBps, this.#stepBps);
    const mark = this.#ex.futures.mark[this.ci]!;
    const band = mark > 0 ? mark * (Number(k.priceDeviate) / 1e8) : Number.POSITIVE_INFINITY;
    const ok = (p: number): boolean => p > 0 && Math.abs(p - mark) <= band;
    return { bids: raw.bids.map((t) => t * k.tick).filter(ok), asks: raw.asks.map((t) => t * k.tick).filter(ok) };
  }

  /**
   * One re-quote after `dt` seconds (and maybe a take first, when `take`): commands go through `submit` with
   * `cmd` (reused). Returns the commands submitted.
   */
  tick(dt: number, makerUid: number, takerUid: number, take: boolean, prng: Prng, cmd: Command, submit: (c: Command) => number): number {
    if (!Number.isNaN(this.#walk) && dt > 0) {
      const v = this.#volatility;
      this.#walk = Math.max(this.#walk * Math.exp(-(v * v) / 2 * dt + v * Math.sqrt(dt) * prng.nextGaussian()), 2 * this.#k.tick * (this.#levels + 1));
    }
    const ref = this.reference();
    if (Number.isNaN(ref) || !this.#ex.ledger.futures.hasAccount(makerUid, this.#cur)) return 0;
    const size = this.#sizeAt(ref);
    const { bids, asks } = this.#ladder(ref);
    let sent = 0;
    if (take && takerUid > 0 && this.#ex.ledger.futures.hasAccount(takerUid, this.#cur)) sent += this.#take(takerUid, bids, asks, size, prng, cmd, submit);
    const O = this.#ex.orders;
    const want = { [Side.Buy]: new Set(bids), [Side.Sell]: new Set(asks) } as Record<number, Set<number>>;
    for (const r of O.openOf(makerUid, this.market)) {
      const set = want[O.side[r]!]!;
      if (set.has(O.price[r]!)) {
        set.delete(O.price[r]!);
        continue;
      }
      cmd.clear();
      cmd.type = CommandType.CancelOrder;
      cmd.uid = makerUid; cmd.market = this.market; cmd.orderId = O.id[r]!;
      submit(cmd);
      sent++;
    }
    const pos = this.#position(makerUid);
    for (const side of [Side.Buy, Side.Sell]) {
      if (side === Side.Buy ? pos >= this.#maxPosition : pos <= -this.#maxPosition) continue;
      for (const price of [...want[side]!].sort((a, b) => (side === Side.Buy ? b - a : a - b))) {
        if (this.#ex.ledger.futures.available(makerUid, this.#cur) <= 0n) return sent;
        sent += this.#place(makerUid, side, price, size, TimeInForce.Gtc, cmd, submit);
      }
    }
    return sent;
  }

  /** The taker trades one or two levels deep, IOC; past max_position it only reduces. */
  #take(uid: number, bids: number[], asks: number[], size: number, prng: Prng, cmd: Command, submit: (c: Command) => number): number {
    const pos = this.#position(uid);
    const buy = pos >= this.#maxPosition ? false : pos <= -this.#maxPosition ? true : prng.chance(0.5);
    const depth = prng.between(0, 1);
    const price = (buy ? asks : bids)[depth];
    if (price === undefined) return 0;
    return this.#place(uid, buy ? Side.Buy : Side.Sell, price, size * (depth + 1), TimeInForce.Ioc, cmd, submit);
  }

  #place(uid: number, side: number, price: number, size: number, tif: number, cmd: Command, submit: (c: Command) => number): number {
    const n = Math.min(size, this.#k.sizeMax);
    cmd.clear();
    cmd.type = CommandType.PlaceOrder;
    cmd.uid = uid; cmd.market = this.market; cmd.kind = kindOfAcct(this.#cur); cmd.sub = curOf(this.#cur);
    cmd.side = side; cmd.orderType = OrderType.Limit; cmd.tif = tif; cmd.price = price; cmd.amount = n;
    submit(cmd);
    return 1;
  }
}
