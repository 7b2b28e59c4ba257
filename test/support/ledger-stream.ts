// Seeded random operation streams for the ledger, and a driver that applies one operation to the Ledger and
// to the ReferenceLedger. Mostly valid operations (fills at or better than the limit, amounts within balance),
// with a share of rejections of every kind.
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { BookType } from '../../src/core/ledger/account-book.js';
import type { Amount } from '../../src/core/ledger/amount.js';
import type { Ledger } from '../../src/core/ledger/ledger.js';
import { OrderType, Side } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { CURRENCIES, MARKETS } from './ledger-fixtures.js';
import type { ReferenceLedger } from './ledger-reference.js';

export type LedgerOp =
  | { readonly op: 'credit' | 'debit'; readonly uid: number; readonly kind: number; readonly sub: number; readonly cur: string; readonly units: Amount }
  | { readonly op: 'transfer'; readonly from: Acct; readonly to: Acct; readonly cur: string; readonly units: Amount }
  | { readonly op: 'hold'; readonly id: number; readonly uid: number; readonly market: number; readonly side: number; readonly type: number; readonly price: number; readonly amount: number }
  | { readonly op: 'fill'; readonly market: number; readonly taker: number; readonly maker: number; readonly takerSide: number; readonly price: number; readonly lots: number; readonly tppm: number; readonly mppm: number }
  | { readonly op: 'resize'; readonly id: number; readonly units: Amount; readonly price: number; readonly lots: number; readonly budget: number }
  | { readonly op: 'release'; readonly id: number }
  | { readonly op: 'addUser'; readonly uid: number; readonly main: number };

export interface Acct { readonly uid: number; readonly kind: number; readonly sub: number }

/** Accounts the stream touches (and the differential test compares), besides the fee account. */
export const STREAM_UIDS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13];
export const STREAM_KINDS: readonly (readonly [number, number])[] = [
  [AccountKind.Spot, 0], [AccountKind.Margin, 1], [AccountKind.Futures, 2],
];

interface OpenOrder { readonly market: number; readonly side: number; readonly type: number; price: number; lots: number; budget: number }

const RATES: readonly number[] = [0, 0, 1000, 2000, 1500, 7, 999_999, 1_000_000, 123_457];

export class LedgerStream {
  readonly #r: Prng;
  readonly #orders = new Map<number, OpenOrder>();
  #nextId = 1;

  constructor(seed: number, private readonly ledger: Ledger) {
    this.#r = new Prng(seed);
  }

  #pick<T>(xs: readonly T[]): T {
    return xs[this.#r.nextInt(xs.length)]!;
  }

  #chance(p: number): boolean {
    return this.#r.nextFloat() < p;
  }

  #acct(): Acct {
    const [kind, sub] = this.#chance(0.6) ? STREAM_KINDS[0]! : this.#pick(STREAM_KINDS);
    return { uid: this.#chance(0.03) ? 99 : this.#pick(STREAM_UIDS), kind, sub: this.#chance(0.01) ? 9 : sub };
  }

  #cur(): string {
    return this.#chance(0.02) ? 'NOPE' : this.#pick(CURRENCIES).code;
  }

  /** Random units of `cur`: narrow numbers, wide bigints (sometimes numbers), sometimes zero or huge. */
  #units(cur: string): Amount {
    const c = CURRENCIES.find((x) => x.code === cur);
    if (this.#chance(0.02)) return 0;
    if (c === undefined) return 100;
    const wide = this.ledger.isWide(cur);
    if (this.#chance(0.01)) return wide ? 10n ** 28n * BigInt(this.#r.between(1, 20)) : Math.floor(Number(c.maxSupply) * 10 ** c.scale * 0.4);
    const k = this.#r.between(0, wide ? 22 : Math.min(13, c.scale + 6));
    const units = BigInt(this.#r.between(1, 999)) * 10n ** BigInt(k);
    return wide && !this.#chance(0.2) ? units : Number(units);
  }

  /** A portion of what an account has available (or more, sometimes). */
  #portion(a: Acct, cur: string): Amount {
    const v = this.ledger.balance(a.uid, a.kind, a.sub, cur);
    if (v === undefined || this.#chance(0.1)) return this.#units(cur);
    const n = this.#r.between(1, 1000);
    if (typeof v.available === 'bigint') {
      const u = (v.available * BigInt(n)) / 1000n;
      return u > 0n ? u : 1n;
    }
    return Math.max(1, Math.floor((v.available * n) / 1000));
  }

  next(): LedgerOp {
    const x = this.#r.nextFloat();
    if (x < 0.14) {
      const a = this.#acct();
      return { op: 'credit', uid: a.uid, kind: a.kind, sub: a.sub, cur: this.#cur(), units: this.#units(this.#pick(CURRENCIES).code) };
    }
    if (x < 0.2) {
      const a = this.#acct();
      const cur = this.#cur();
      return { op: 'debit', uid: a.uid, kind: a.kind, sub: a.sub, cur, units: this.#portion(a, cur) };
    }
    if (x < 0.27) {
      const from = this.#acct();
      const to = this.#chance(0.5) ? { ...this.#acct(), uid: from.uid } : this.#acct();
      const cur = this.#cur();
      return { op: 'transfer', from, to, cur, units: this.#portion(from, cur) };
    }
    if (x < 0.5) return this.#hold();
    if (x < 0.8) return this.#fill() ?? this.#hold();
    if (x < 0.88) return this.#resize() ?? this.#hold();
    if (x < 0.99) return this.#release();
    const main = this.#chance(0.5) ? 0 : this.#pick([1, 2, 6, 99, 11]);
    return { op: 'addUser', uid: this.#pick([11, 12, 13, 1, 0]), main };
  }

  #hold(): LedgerOp {
    const market = this.#chance(0.01) ? 7 : this.#r.nextInt(MARKETS.length);
    const f = MARKETS[market] ?? MARKETS[0]!;
    const side = this.#chance(0.5) ? Side.Buy : Side.Sell;
    const type = this.#chance(0.2) ? OrderType.Market : OrderType.Limit;
    const price = type === OrderType.Market ? 0 : Math.max(1, Math.round(f.mid * (0.9 + 0.2 * this.#r.nextFloat())));
    let amount = this.#r.between(1, f.maxLots);
    if (type === OrderType.Market && side === Side.Buy) amount = this.#r.between(1, f.mid * f.maxLots);
    if (this.#chance(0.03)) amount *= 1_000_000;
    const id = this.#chance(0.02) && this.#orders.size > 0 ? this.#pick([...this.#orders.keys()]) : this.#nextId++;
    return { op: 'hold', id, uid: this.#chance(0.02) ? 99 : this.#pick(STREAM_UIDS), market, side, type, price, amount };
  }

  #fill(): LedgerOp | undefined {
    const ids = [...this.#orders.keys()];
    for (let attempt = 0; attempt < 8 && ids.length > 1; attempt++) {
      const a = this.#pick(ids);
      const b = this.#pick(ids);
      const oa = this.#orders.get(a)!;
      const ob = this.#orders.get(b)!;
      const sloppy = this.#chance(0.005);
      if (!sloppy && (a === b || oa.market !== ob.market || oa.side === ob.side)) continue;
      const [buy, sell] = oa.side === Side.Buy ? [oa, ob] : [ob, oa];
      const mid = MARKETS[buy.market]!.mid;
      const lo = sell.type === OrderType.Limit ? sell.price : Math.round(mid * 0.85);
      const hi = buy.type === OrderType.Limit ? buy.price : Math.round(mid * 1.15);
      if (!sloppy && lo > hi) continue;
      const price = Math.max(1, this.#r.between(Math.min(lo, hi), Math.max(lo, hi)));
      const buyLots = buy.type === OrderType.Limit ? buy.lots : Math.floor(buy.budget / price);
      let lots = Math.min(buyLots, sell.lots);
      if (!sloppy && lots < 1) continue;
      lots = this.#chance(0.05) ? lots + 1 : this.#r.between(1, Math.max(1, lots));
      const [taker, maker] = this.#chance(0.5) ? [a, b] : [b, a];
      return {
        op: 'fill', market: this.#chance(0.01) ? 5 : oa.market, taker, maker, takerSide: this.#orders.get(taker)!.side,
        price, lots, tppm: this.#pick(RATES), mppm: this.#chance(0.01) ? 1_000_001 : this.#pick(RATES),
      };
    }
    return undefined;
  }

  #resize(): LedgerOp | undefined {
    if (this.#orders.size === 0) return undefined;
    const id = this.#pick([...this.#orders.keys()]);
    const o = this.#orders.get(id)!;
    const f = MARKETS[o.market]!;
    if (o.type === OrderType.Market && o.side === Side.Buy) {
      const budget = Math.max(1, Math.floor(o.budget * this.#r.nextFloat() * 2));
      return { op: 'resize', id, units: this.ledger.holdUnits(o.market, o.side, o.type, 0, budget), price: 0, lots: 0, budget };
    }
    const price = o.type === OrderType.Limit ? Math.max(1, Math.round(f.mid * (0.9 + 0.2 * this.#r.nextFloat()))) : 0;
    const lots = Math.max(1, Math.round(o.lots * (0.5 + this.#r.nextFloat())));
    return { op: 'resize', id, units: this.ledger.holdUnits(o.market, o.side, o.type, price, lots), price, lots, budget: 0 };
  }

  #release(): LedgerOp {
    if (this.#orders.size === 0 || this.#chance(0.05)) return { op: 'release', id: this.#nextId + 1000 };
    return { op: 'release', id: this.#pick([...this.#orders.keys()]) };
  }

  /** Updates the stream's view of open orders after `op` returned `code`. */
  observe(op: LedgerOp, code: number): void {
    if (code !== ResultCode.Ok) return;
    if (op.op === 'hold') {
      const buyBudget = op.type === OrderType.Market && op.side === Side.Buy;
      this.#orders.set(op.id, { market: op.market, side: op.side, type: op.type, price: op.price, lots: buyBudget ? 0 : op.amount, budget: buyBudget ? op.amount : 0 });
    } else if (op.op === 'release') this.#orders.delete(op.id);
    else if (op.op === 'fill') {
      for (const id of [op.taker, op.maker]) {
        const o = this.#orders.get(id)!;
        if (o.type === OrderType.Market && o.side === Side.Buy) o.budget -= op.price * op.lots;
        else o.lots -= op.lots;
      }
    } else if (op.op === 'resize') {
      const o = this.#orders.get(op.id)!;
      o.price = op.price;
      o.lots = op.lots;
      o.budget = op.budget;
    }
  }
}

/** Applies `op` to the ledger; returns its code. */
export function applyToLedger(l: Ledger, t: number, op: LedgerOp): number {
  switch (op.op) {
    case 'credit': return l.credit(t, op.uid, op.kind, op.sub, op.cur, op.units, BookType.Deposit, 'in');
    case 'debit': return l.debit(t, op.uid, op.kind, op.sub, op.cur, op.units, BookType.Withdraw, 'out');
    case 'transfer': return l.transfer(t, op.from.uid, op.from.kind, op.from.sub, op.to.uid, op.to.kind, op.to.sub, op.cur, op.units, 'move');
    case 'hold': return l.holdOrder(t, op.id, op.uid, op.market, op.side, op.type, op.price, op.amount);
    case 'fill': return l.settleFill(t, op.market, op.taker, op.maker, op.takerSide, op.price, op.lots, op.tppm, op.mppm);
    case 'resize': return typeof op.units === 'number' && op.units < 0 ? op.units : l.resizeHold(t, op.id, op.units);
    case 'release': return l.releaseOrder(t, op.id);
    case 'addUser': return l.addUser(op.uid, op.main);
  }
}

/** Applies `op` to the reference; returns its code. */
export function applyToReference(r: ReferenceLedger, op: LedgerOp): number {
  switch (op.op) {
    case 'credit': return r.credit(op.uid, op.kind, op.sub, op.cur, op.units);
    case 'debit': return r.debit(op.uid, op.kind, op.sub, op.cur, op.units);
    case 'transfer': return r.transfer(op.from.uid, op.from.kind, op.from.sub, op.to.uid, op.to.kind, op.to.sub, op.cur, op.units);
    case 'hold': return r.holdOrder(op.id, op.uid, op.market, op.side, op.type, op.price, op.amount);
    case 'fill': return r.settleFill(op.market, op.taker, op.maker, op.takerSide, op.price, op.lots, op.tppm, op.mppm);
    case 'resize': return typeof op.units === 'number' && op.units < 0 ? op.units : r.resizeHold(op.id, op.units);
    case 'release': return r.releaseOrder(op.id);
    case 'addUser': return r.addUser(op.uid, op.main);
  }
}
