/**
 * soak:server's request mix, seeded: Gate spot requests of four users on the demo's three pairs, built
 * without waiting for any answer. Orders carry a `t-` text; amends and cancels name earlier orders by that
 * text (an order that already finished answers ORDER_NOT_FOUND, which the soak counts by label).
 *
 * Mix per request (weights of 100): limit orders 55 (gtc 55 %, ioc 15 %, poc 15 %, fok 15 %; a fifth of gtc
 * orders are icebergs), market orders 10 (ioc or fok, buy amounts in quote), amends 15 (price or amount of one
 * of the user's last few gtc or poc orders), cancels 20 (the user's oldest gtc or poc order not yet
 * cancelled). A user with more than LAG such orders not yet cancelled gets the cancel of its oldest next, so
 * each user rests at most about LAG orders and the books stay bounded whatever the fill rate.
 *
 * Limit prices fall within 0.4 % of each pair's reference (the demo market maker's), mostly on the passive
 * side; about a fifth cross the reference. Amounts are a few times each pair's minimum. Cost: a few string operations and one
 * small JSON text per request; no signing here (load-child.ts signs at send time).
 */
import { Prng } from '../src/core/prng.js';

export interface SoakRequest {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query: string;
  readonly body: string;
  /** Index into SOAK_USERS. */
  readonly user: number;
  /** What it is: place_gtc, place_ioc, place_poc, place_fok, place_iceberg, market_ioc, market_fok, amend, cancel. */
  readonly kind: string;
}

interface Pair {
  readonly id: string;
  readonly mid: number;
  readonly precision: number;
  readonly amountPrecision: number;
  /** Base amount range of limit orders and market sells. */
  readonly minBase: number;
  readonly maxBase: number;
  /** Quote amount range of market buys. */
  readonly minQuote: number;
  readonly maxQuote: number;
  readonly quotePrecision: number;
}

/** The demo's pairs (src/sim/demo.ts) with amounts a few times their minimums. */
export const SOAK_PAIRS: readonly Pair[] = [
  { id: 'BTC_USDT', mid: 60_000, precision: 1, amountPrecision: 6, minBase: 0.0001, maxBase: 0.002, minQuote: 10, maxQuote: 100, quotePrecision: 1 },
  { id: 'ETH_USDT', mid: 3_000, precision: 2, amountPrecision: 4, minBase: 0.002, maxBase: 0.04, minQuote: 10, maxQuote: 100, quotePrecision: 2 },
  { id: 'ETH_BTC', mid: 0.05, precision: 5, amountPrecision: 4, minBase: 0.01, maxBase: 0.4, minQuote: 0.0006, maxQuote: 0.005, quotePrecision: 5 },
];

/** gtc orders a user may have not yet cancelled before its next request is a cancel. */
const LAG = 64;
/** Amends pick among a user's last AMEND_WINDOW gtc orders. */
const AMEND_WINDOW = 8;

interface Resting {
  readonly text: string;
  readonly pair: number;
  readonly buy: boolean;
}

export class SoakWorkload {
  readonly #r: Prng;
  readonly #users: number;
  /** Per user: gtc orders not yet cancelled, oldest first (a queue: `head` is the oldest). */
  readonly #resting: Resting[][];
  readonly #head: number[];
  #n = 0;
  readonly #prefix: string;

  constructor(seed: number, users: number) {
    this.#r = new Prng(seed);
    this.#users = users;
    this.#resting = Array.from({ length: users }, () => []);
    this.#head = new Array<number>(users).fill(0);
    this.#prefix = `t-s${seed.toString(36)}x`;
  }

  next(): SoakRequest {
    const r = this.#r;
    const user = this.#n++ % this.#users;
    const q = this.#resting[user]!;
    const open = q.length - this.#head[user]!;
    if (open > LAG) return this.#cancel(user);
    const k = r.nextInt(100);
    if (k < 55) return this.#limit(user);
    if (k < 65) return this.#market(user);
    if (k < 80 && open > 0) return this.#amend(user);
    if (open > 0) return this.#cancel(user);
    return this.#limit(user);
  }

  #limit(user: number): SoakRequest {
    const r = this.#r;
    const pi = r.nextInt(SOAK_PAIRS.length);
    const p = SOAK_PAIRS[pi]!;
    const t = r.nextInt(100);
    const tif = t < 55 ? 'gtc' : t < 70 ? 'ioc' : t < 85 ? 'poc' : 'fok';
    const amount = p.minBase + r.nextFloat() * (p.maxBase - p.minBase);
    const iceberg = tif === 'gtc' && r.chance(0.2);
    const text = `${this.#prefix}${(this.#n).toString(36)}`;
    const buy = r.chance(0.5);
    const body: Record<string, string> = {
      text, currency_pair: p.id, type: 'limit', account: 'spot', side: buy ? 'buy' : 'sell',
      amount: amount.toFixed(p.amountPrecision), price: this.#price(p, buy), time_in_force: tif,
    };
    if (iceberg) body.iceberg = (amount / 4).toFixed(p.amountPrecision);
    // gtc and poc orders may rest: each is cancelled later (or found already finished).
    if (tif === 'gtc' || tif === 'poc') this.#resting[user]!.push({ text, pair: pi, buy });
    return { method: 'POST', path: '/api/v4/spot/orders', query: '', body: JSON.stringify(body), user,
      kind: iceberg ? 'place_iceberg' : `place_${tif}` };
  }

  #market(user: number): SoakRequest {
    const r = this.#r;
    const p = SOAK_PAIRS[r.nextInt(SOAK_PAIRS.length)]!;
    const buy = r.chance(0.5);
    const tif = r.chance(0.7) ? 'ioc' : 'fok';
    const amount = buy ? (p.minQuote + r.nextFloat() * (p.maxQuote - p.minQuote)).toFixed(p.quotePrecision)
      : (p.minBase + r.nextFloat() * (p.maxBase - p.minBase)).toFixed(p.amountPrecision);
    const body = JSON.stringify({ text: `${this.#prefix}${this.#n.toString(36)}`, currency_pair: p.id, type: 'market',
      account: 'spot', side: buy ? 'buy' : 'sell', amount, time_in_force: tif });
    return { method: 'POST', path: '/api/v4/spot/orders', query: '', body, user, kind: `market_${tif}` };
  }

  #amend(user: number): SoakRequest {
    const r = this.#r;
    const q = this.#resting[user]!;
    const o = q[q.length - 1 - r.nextInt(Math.min(AMEND_WINDOW, q.length - this.#head[user]!))]!;
    const p = SOAK_PAIRS[o.pair]!;
    const patch: Record<string, string> = { currency_pair: p.id };
    if (r.chance(0.5)) patch.price = this.#price(p, o.buy);
    else patch.amount = (p.minBase + r.nextFloat() * (p.maxBase - p.minBase)).toFixed(p.amountPrecision);
    return { method: 'PATCH', path: `/api/v4/spot/orders/${o.text}`, query: '', body: JSON.stringify(patch), user, kind: 'amend' };
  }

  #cancel(user: number): SoakRequest {
    const q = this.#resting[user]!;
    const o = q[this.#head[user]!]!;
    // Drop cancelled entries in blocks, so the queue's array stays bounded without shifting per request.
    if (++this.#head[user]! >= 1024) {
      q.splice(0, this.#head[user]);
      this.#head[user] = 0;
    }
    return { method: 'DELETE', path: `/api/v4/spot/orders/${o.text}`, query: `currency_pair=${SOAK_PAIRS[o.pair]!.id}`, body: '', user, kind: 'cancel' };
  }

  /** A limit price: mostly on the passive side of the reference, within 0.4 % of it; a fifth of them cross it. */
  #price(p: Pair, buy: boolean): string {
    const away = (this.#r.nextFloat() - 0.2) * 0.004;
    return (p.mid * (buy ? 1 - away : 1 + away)).toFixed(p.precision);
  }
}
