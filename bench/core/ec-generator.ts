/**
 * A port of exchange-core's single-symbol test command generator (TestOrdersGenerator /
 * TestOrdersGeneratorSession), producing a CommandStream.
 *
 * Same rules as the original, with our seeded Prng in place of java.util.Random (so the stream is the same in
 * distribution, not bit for bit):
 * - start price 10^(3.3 + 1.5·U + 1.5·U); deviation min(5% of price, 10,000); band price ± 5·deviation;
 * - side: rand(4) + priceDirection ≥ 2 → bid (priceDirection starts at 0 and flips to ±1 when a trade
 *   touches the band edge);
 * - book statistics (orders per side) refreshed every 512 commands; lack = target/2 − orders on the side;
 *   fast fill (until the book is first full, or lack > min(512, 3/4·target/2)): always GTC; growing
 *   (lack > 0): rand(10) → 0–1 GTC, 2 cancel, 3 reduce, else move; steady: rand(40) → 0–1 instant order
 *   (IOC, or FOK-budget with probability 1/32), 2 cancel, 3 reduce, else move;
 * - GTC: size 1 + rand(6)·rand(6)·rand(6); price last trade ± (sum of 4 rand(dev))/4·2 − dev with
 *   dev = 1 + U²·deviation, the sign forcing asks ≥ last trade and bids ≤ last trade;
 * - IOC: same size rule, at the band edge (max for bids, min for asks); FOK-budget: size 1 + rand(8)³, at the
 *   band edge. Its budget, size × band edge, covers any fill inside the band, so it is issued as a FOK limit
 *   at the band edge for `size` lots (the same order in both books, and the same outcome as the budget check);
 * - cancel / reduce / move pick a random order among the first ≤ 512 live GTC orders in placement order;
 *   reduce by 1 + rand(left) (a reduce of everything is issued as a cancel); move by 1% of the distance to
 *   the last trade price, rounded away from zero (±1 tick at random when already there);
 * - last trade price = the last fill's price clamped to the band.
 * Commands before the book first reaches its target form the pre-fill; the next `commands` are the benchmark.
 *
 * The generator drives a reference book (NaiveOrderBook) with each command as it is produced, under the same
 * move semantics the stream will be replayed with, to learn fills, remaining sizes and the final state.
 * STP (S7): every order carries its owner's group except FOK orders (see main.ts for why).
 */
import type { Market } from '../../src/core/market.js';
import { EventKind } from '../../src/core/matching/book-events.js';
import type { OrderBook } from '../../src/core/matching/order-book.js';
import { OrderView } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { createReferenceBook, type MoveSemantics, OursRunner, l2Ours, type L2 } from './ours-adapter.js';
import { BUY, CommandStream, Kind, PlaceTif, PlaceType, SELL } from './stream.js';

export interface EcConfig {
  readonly seed: number;
  /** Benchmark commands after the pre-fill. */
  readonly commands: number;
  /** Target resting orders, both sides together. */
  readonly targetOrders: number;
  readonly users: number;
  readonly semantics: MoveSemantics;
  /** Orders carry their owner's STP group (FOK orders excepted). */
  readonly stp: boolean;
}

export interface EcResult {
  readonly stream: CommandStream;
  readonly startPrice: number;
  readonly minPrice: number;
  readonly maxPrice: number;
  /** Benchmark commands that produced at least one fill. */
  readonly tradedCommands: number;
  /** Fills over the benchmark commands. */
  readonly fills: number;
  /** The reference book's final state. */
  readonly referenceHash: string;
  readonly referenceL2: L2;
  readonly referenceSize: number;
}

const STAT_EVERY = 512;
const PICK_WINDOW = 512;
const CENTRAL_MOVE_ALPHA = 0.01;

/** Live GTC orders in placement order; picks the k-th among the first live ones without allocating. */
class LiveOrders {
  readonly #ids: Float64Array;
  readonly #alive: Uint8Array;
  #head = 0;
  #tail = 0;
  size = 0;

  constructor(capacity: number, maxId: number) {
    this.#ids = new Float64Array(capacity);
    this.#alive = new Uint8Array(maxId + 1);
  }

  add(id: number): void {
    if (this.#tail === this.#ids.length) this.#compact();
    this.#ids[this.#tail++] = id;
    this.#alive[id] = 1;
    this.size++;
  }

  has(id: number): boolean {
    return this.#alive[id] === 1;
  }

  remove(id: number): void {
    if (this.#alive[id] !== 1) return;
    this.#alive[id] = 0;
    this.size--;
    // Keep dead entries under 1/8 of the live ones so `pick` walks little past its k; compaction is O(size),
    // so it costs about eight steps per removal.
    if (this.#tail - this.#head > this.size + (this.size >> 3) + 64) this.#compact();
  }

  /** The k-th live id (0-based) in placement order; k < size. */
  pick(k: number): number {
    const ids = this.#ids;
    const alive = this.#alive;
    while (alive[ids[this.#head]!] !== 1) this.#head++;
    let seen = -1;
    for (let j = this.#head; ; j++) {
      const id = ids[j]!;
      if (alive[id] === 1 && ++seen === k) return id;
    }
  }

  #compact(): void {
    const ids = this.#ids;
    let w = 0;
    for (let j = this.#head; j < this.#tail; j++) {
      const id = ids[j]!;
      if (this.#alive[id] === 1) ids[w++] = id;
    }
    this.#head = 0;
    this.#tail = w;
  }
}

/** Generates the pre-fill and `commands` benchmark commands. @allocates (generation only) */
export function generateEc(market: Market, cfg: EcConfig): EcResult {
  const r = new Prng(cfg.seed);
  const half = Math.floor(cfg.targetOrders / 2);
  const capacity = cfg.commands + cfg.targetOrders * 4 + 4096;
  const maxId = capacity + 1;
  const s = new CommandStream(capacity);
  const book: OrderBook = createReferenceBook(market);
  const runner = new OursRunner(s, cfg.semantics);
  const view = new OrderView();

  const startPrice = Math.floor(Math.pow(10, 3.3 + r.nextFloat() * 1.5 + r.nextFloat() * 1.5));
  const deviation = Math.min(Math.floor(startPrice * 0.05), 10_000);
  const minPrice = startPrice - deviation * 5;
  const maxPrice = startPrice + deviation * 5;
  const numUsers = Math.min(cfg.users, Math.max(2, Math.floor((cfg.commands + cfg.targetOrders) / 5)));

  let lastTradePrice = startPrice;
  let priceDirection = 0;
  let statAsk = 0;
  let statBid = 0;
  let countAsk = 0;
  let countBid = 0;
  let filled = false;
  let seq = 1;
  let generated = 0;
  let nextStat = Math.min(STAT_EVERY, cfg.targetOrders + 1);
  let tradedCommands = 0;
  let fills = 0;

  const live = new LiveOrders(capacity, maxId);
  const orderPrice = new Float64Array(maxId + 1);
  const orderUser = new Int32Array(maxId + 1);
  const orderSide = new Uint8Array(maxId + 1);
  const resting = new Uint8Array(maxId + 1);

  const apply = (i: number): void => {
    const f = runner.step(book, i);
    if (runner.code < ResultCode.Ok) throw new Error(`ec-generator: reference book rejected command ${i} (code ${runner.code})`);
    const ev = runner.ev;
    for (let k = 0; k < ev.count; k++) {
      const kind = ev.kind[k];
      if (kind === EventKind.Fill) {
        const price = ev.price[k]!;
        lastTradePrice = Math.min(maxPrice, Math.max(minPrice, price));
        if (price <= minPrice) priceDirection = 1;
        else if (price >= maxPrice) priceDirection = -1;
      } else if (kind === EventKind.Finished) {
        const id = ev.orderId[k]!;
        live.remove(id);
        if (resting[id] === 1) {
          resting[id] = 0;
          if (orderSide[id] === BUY) countBid--; else countAsk--;
        }
      }
    }
    if (filled) {
      if (f > 0) tradedCommands++;
      fills += f;
    }
  };

  while (!filled || s.length - s.prefill < cfg.commands) {
    const lackAsk = half - statAsk;
    const lackBid = half - statBid;
    const bid = r.nextInt(4) + priceDirection >= 2;
    const lack = bid ? lackBid : lackAsk;
    const fastFill = !filled || lack > Math.min(STAT_EVERY, Math.floor((half * 3) / 4));
    const grow = lack > 0;
    if (!filled && !grow) {
      filled = true;
      s.prefill = s.length;
    }
    const q = r.nextInt(grow ? (fastFill ? 2 : 10) : 40);
    const side = bid ? BUY : SELL;

    if (q < 2) {
      const uid = 1 + r.nextInt(numUsers);
      const id = seq++;
      if (grow) {
        const size = 1 + r.nextInt(6) * r.nextInt(6) * r.nextInt(6);
        const dev = 1 + Math.floor(Math.pow(r.nextFloat(), 2) * deviation);
        let p = 0;
        for (let k = 0; k < 4; k++) p += r.nextInt(dev);
        p = Math.floor(p / 4) * 2 - dev;
        if ((p > 0) !== !bid) p = -p;
        const price = lastTradePrice + p;
        orderPrice[id] = price;
        orderUser[id] = uid;
        orderSide[id] = side;
        s.place(Kind.Gtc, id, uid, side, PlaceType.Limit, PlaceTif.Gtc, price, size, cfg.stp);
        live.add(id);
        apply(s.length - 1);
        if (live.has(id) && book.order(id, view)) {
          resting[id] = 1;
          if (bid) countBid++; else countAsk++;
        }
      } else {
        const edge = bid ? maxPrice : minPrice;
        if (r.nextInt(32) === 0) {
          const size = 1 + r.nextInt(8) * r.nextInt(8) * r.nextInt(8);
          s.place(Kind.FokBudget, id, uid, side, PlaceType.Limit, PlaceTif.Fok, edge, size, false);
        } else {
          const size = 1 + r.nextInt(6) * r.nextInt(6) * r.nextInt(6);
          s.place(Kind.Ioc, id, uid, side, PlaceType.Limit, PlaceTif.Ioc, edge, size, cfg.stp);
        }
        apply(s.length - 1);
      }
    } else {
      if (live.size === 0) continue;
      const id = live.pick(r.nextInt(Math.min(live.size, PICK_WINDOW)));
      if (!book.order(id, view)) throw new Error(`ec-generator: live order ${id} is not resting`);
      if (q === 2) {
        s.cancel(Kind.Cancel, id);
        apply(s.length - 1);
      } else if (q === 3) {
        const reduceBy = 1 + r.nextInt(view.left);
        if (reduceBy >= view.left) s.cancel(Kind.Reduce, id);
        else s.reduce(id, orderUser[id]!, orderSide[id]!, view.price, view.left - reduceBy, view.amount - reduceBy, cfg.stp);
        apply(s.length - 1);
      } else {
        const prev = orderPrice[id]!;
        const move = (lastTradePrice - prev) * CENTRAL_MOVE_ALPHA;
        const rounded = prev > lastTradePrice ? Math.floor(move) : prev < lastTradePrice ? Math.ceil(move) : r.nextInt(2) * 2 - 1;
        const price = prev + rounded;
        orderPrice[id] = price;
        s.move(id, orderUser[id]!, orderSide[id]!, price, view.left, cfg.stp);
        apply(s.length - 1);
      }
    }

    generated++;
    if (generated >= nextStat) {
      nextStat += Math.min(STAT_EVERY, cfg.targetOrders + 1);
      statAsk = countAsk;
      statBid = countBid;
    }
  }

  s.ensureIds(seq, numUsers);
  book.assertInvariants();
  return {
    stream: s, startPrice, minPrice, maxPrice, tradedCommands, fills,
    referenceHash: book.stateHash(), referenceL2: l2Ours(book), referenceSize: book.size,
  };
}
