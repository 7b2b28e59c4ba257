/**
 * The peer's side of the benchmark: nodejs-order-book 10.1.1 (journaling off, the default), fed the same
 * pre-generated stream as our book.
 *
 * Mapping: Place → `limit({side, id, size, price, timeInForce})` or `market({side, size})`; an STP-flagged
 * order adds `accountId` (pre-created string per user) and `stpMode: EXPIRE_MAKER`. Cancel → `cancel(id)`.
 * Move / Reduce → `modify(id, {price})` / `modify(id, {size})` (cancel and re-insert as GTC, without account or
 * STP mode), or, in 'replace' semantics, `cancel(id)` then `limit(...)` with the order's account and STP mode.
 * The option objects are created per call, as the peer's API takes them; ids and account strings are not.
 *
 * Fill count (trades) from a response: the peer reports fully filled makers in `done` (plus the taker itself
 * when it filled completely) and the last partially filled maker in `partial`. So for a limit order, fills =
 * done − 1 + (partial ? 1 : 0) when nothing is left, else done; for a market order, done + (partial ? 1 : 0).
 */
import {
  type IProcessOrder, type LimitOrderOptions, OrderBook, SelfTradePreventionMode, Side as PeerSide,
} from 'nodejs-order-book';
import { type CommandStream, BUY, Op, PlaceTif, PlaceType } from './stream.js';
import type { L2 } from './ours-adapter.js';

type PeerTif = NonNullable<LimitOrderOptions['timeInForce']>;
/** The peer's TimeInForce enum is not exported as a value; its members are these strings. */
const TIF_GTC = 'GTC' as PeerTif;
const TIF_IOC = 'IOC' as PeerTif;
const TIF_FOK = 'FOK' as PeerTif;

export type PeerMoveSemantics = 'modify' | 'replace';

export function createPeerBook(): OrderBook {
  return new OrderBook({ enableJournaling: false });
}

export class PeerRunner {
  readonly #s: CommandStream;
  readonly #modify: boolean;
  /** Peer errors seen (FOK not fillable is an expected one). */
  errors = 0;

  constructor(stream: CommandStream, semantics: PeerMoveSemantics) {
    this.#s = stream;
    this.#modify = semantics === 'modify';
  }

  step(book: OrderBook, i: number): number {
    const s = this.#s;
    const id = s.peerIds[s.orderId[i]!]!;
    switch (s.op[i]) {
      case Op.Place: {
        const side = s.side[i] === BUY ? PeerSide.BUY : PeerSide.SELL;
        if (s.type[i] === PlaceType.Market) {
          const r = s.stp[i] === 1
            ? book.market({ side, size: s.amount[i]!, accountId: s.peerAccounts[s.userId[i]!]!, stpMode: SelfTradePreventionMode.EXPIRE_MAKER })
            : book.market({ side, size: s.amount[i]! });
          if (r.err !== null) this.errors++;
          return r.done.length + (r.partial !== null ? 1 : 0);
        }
        const t = s.tif[i];
        const tif = t === PlaceTif.Ioc ? TIF_IOC : t === PlaceTif.Fok ? TIF_FOK : TIF_GTC;
        return this.#limitFills(this.#limit(book, i, id, side, s.amount[i]!, tif));
      }
      case Op.Cancel:
        book.cancel(id);
        return 0;
      case Op.Move:
        if (this.#modify) return this.#limitFills(book.modify(id, { price: s.price[i]! }));
        book.cancel(id);
        return this.#limitFills(this.#limit(book, i, id, s.side[i] === BUY ? PeerSide.BUY : PeerSide.SELL, s.amount[i]!, TIF_GTC));
      case Op.Reduce:
        if (this.#modify) return this.#limitFills(book.modify(id, { size: s.amount[i]! }));
        book.cancel(id);
        return this.#limitFills(this.#limit(book, i, id, s.side[i] === BUY ? PeerSide.BUY : PeerSide.SELL, s.amount[i]!, TIF_GTC));
      default:
        return 0;
    }
  }

  run(book: OrderBook, from: number, to: number): number {
    let fills = 0;
    for (let i = from; i < to; i++) fills += this.step(book, i);
    return fills;
  }

  runTimed(book: OrderBook, from: number, to: number, record: (ns: number) => void): number {
    let fills = 0;
    for (let i = from; i < to; i++) {
      const t0 = process.hrtime.bigint();
      fills += this.step(book, i);
      record(Number(process.hrtime.bigint() - t0));
    }
    return fills;
  }

  #limit(book: OrderBook, i: number, id: string, side: PeerSide, size: number, timeInForce: PeerTif): IProcessOrder {
    const s = this.#s;
    const price = s.price[i]!;
    if (s.stp[i] === 1) {
      return book.limit({ side, id, size, price, timeInForce, accountId: s.peerAccounts[s.userId[i]!]!, stpMode: SelfTradePreventionMode.EXPIRE_MAKER });
    }
    return book.limit({ side, id, size, price, timeInForce });
  }

  #limitFills(r: IProcessOrder): number {
    if (r.err !== null) {
      this.errors++;
      return 0;
    }
    const done = r.done.length;
    return r.quantityLeft === 0 ? done - 1 + (r.partial !== null ? 1 : 0) : done;
  }
}

/** The peer's L2 book, in the same text form as `l2Ours`. @allocates */
export function l2Peer(book: OrderBook): L2 {
  const [asks, bids] = book.depth();
  const side = (levels: Array<[number, number]>): string =>
    levels.slice().sort((a, b) => a[0] - b[0]).map(([p, q]) => `${p}:${q}`).join(',');
  return { bids: side(bids), asks: side(asks) };
}
