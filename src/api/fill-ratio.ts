/**
 * Gate's futures fill-ratio tiers (seed 8.2): for users at VIP level 14 and above, the perpetual placement
 * limit (class `futures-place`, 100 r/s under 8.1) follows the fill ratio of the previous seven days,
 * evaluated once per day at 00:00 UTC of the ENGINE clock (the simulated clock moves days with POST /sim/clock):
 *
 *   ratio = Σ USDT trading amount × symbol multiplier × role weight  /  Σ placement, cancel and amend requests
 *
 * - trading amount: |size| × quanto multiplier × price for a linear contract (quote units, USDT), |size| × 1 USD
 *   for an inverse one; symbol multiplier 1 for BTC and ETH contracts, 0.4 for every other; maker 100 %, taker 90 %.
 * - requests: those of the classes `futures-place` and `futures-cancel` the limiter admitted (a batch is one).
 * - a sub-account takes the higher of its own ratio and its main account's overall ratio (the main account
 *   and all its sub-accounts together); the main account counts as a sub-account (the same rule).
 * - a sub-account has its main account's VIP level.
 *
 * Cost: counters per user and UTC day in a ring of 8 days (bounded memory), kept only for users the scheme
 * applies to. A request adds one to today's counter; fills are read from the exchange's trade log
 * incrementally (each trade once) when any user's counted request or a status query comes. The evaluation (a sum over
 * 7 days) runs once per user and day, at its first request of the day. Nothing is journaled: after a restart
 * the request counters start empty (fills are read again from the trade log that the restart brings back).
 */
import type { Clock } from '../core/clock.js';
import type { Exchange } from '../core/exchange/exchange.js';

/** The tier table of seed 8.2: the lower bound of each tier's ratio and its placement limit (r/s per UID). */
export const FILL_RATIO_TIERS: readonly { readonly from: number; readonly limit: number }[] = [
  { from: 0, limit: 100 }, { from: 1, limit: 150 }, { from: 3, limit: 200 }, { from: 5, limit: 250 },
  { from: 10, limit: 300 }, { from: 20, limit: 350 }, { from: 50, limit: 400 },
];
/** The lowest VIP level the scheme applies to. */
export const FILL_RATIO_MIN_VIP = 14;
/** The placement limit where the scheme does not apply (seed 8.1). */
export const BASE_PLACE_LIMIT = 100;
const DAY_US = 86_400_000_000;
const DAYS = 8;
const WINDOW_DAYS = 7;

/** The tier (1–7) of a ratio. */
export function tierOf(ratio: number): number {
  let t = 1;
  for (let i = 0; i < FILL_RATIO_TIERS.length; i++) if (ratio >= FILL_RATIO_TIERS[i]!.from) t = i + 1;
  return t;
}

/** A user's counters: one slot per UTC day (day number % 8), and the evaluation of the current day. */
class UserDays {
  readonly day = new Float64Array(DAYS).fill(-1);
  readonly requests = new Float64Array(DAYS);
  readonly amount = new Float64Array(DAYS);
  evaluatedDay = -1;
  tier = 1;
  ratio = 0;
  mainRatio = 0;

  /** The slot of `day`, emptied when it held an older day; -1 for a day older than the slot's (out of the ring). */
  slot(day: number): number {
    const s = day % DAYS;
    if (this.day[s]! > day) return -1;
    if (this.day[s] !== day) {
      this.day[s] = day;
      this.requests[s] = 0;
      this.amount[s] = 0;
    }
    return s;
  }

  /** Amount and requests over the seven days before `today`. */
  window(today: number): { amount: number; requests: number } {
    let amount = 0;
    let requests = 0;
    for (let d = today - WINDOW_DAYS; d < today; d++) {
      const s = d % DAYS;
      if (s >= 0 && this.day[s] === d) { amount += this.amount[s]!; requests += this.requests[s]!; }
    }
    return { amount, requests };
  }
}

/** What GET /account/rate_limit and the placement limit use. */
export interface FillRatioStatus {
  readonly tier: number;
  readonly ratio: number;
  readonly mainRatio: number;
  readonly limit: number;
  /** µs of the engine clock: 00:00 UTC of the day the evaluation is for. */
  readonly updatedUs: number;
}

export interface FillRatioOptions {
  readonly exchange: Exchange;
  readonly clock: Clock;
  /** VIP level per main-account uid (absent: 0). */
  readonly vipLevels: ReadonlyMap<number, number>;
  /** The main account of `uid` (itself for a main account). */
  readonly mainOf: (uid: number) => number;
  /** The sub-accounts of a main account. */
  readonly subsOf: (mainUid: number) => readonly number[];
}

export class FillRatio {
  readonly #o: FillRatioOptions;
  readonly #users = new Map<number, UserDays>();
  /** Whether any configured user is at the scheme's VIP level (else every call is one comparison). */
  readonly enabled: boolean;
  /** The last trade id read from the trade log. */
  #scanned: number;

  constructor(options: FillRatioOptions) {
    this.#o = options;
    this.enabled = [...options.vipLevels.values()].some((v) => v >= FILL_RATIO_MIN_VIP);
    // Fills already in the trade log (a restart brings it back) are read on first use.
    this.#scanned = 0;
  }

  /** Whether the scheme applies to `uid` (its main account's VIP level is 14 or more). */
  applies(uid: number): boolean {
    return this.enabled && (this.#o.vipLevels.get(this.#o.mainOf(uid)) ?? 0) >= FILL_RATIO_MIN_VIP;
  }

  /** The VIP level of `uid` (its main account's). */
  vipLevel(uid: number): number {
    return this.#o.vipLevels.get(this.#o.mainOf(uid)) ?? 0;
  }

  /** Counts one placement, cancel or amend request of `uid` on today's counter. */
  countRequest(uid: number): void {
    if (!this.enabled) return;
    // Any user's request reads the new fills (amortized: each trade once), so few leave the trade ring unread.
    this.#scan();
    if (!this.applies(uid)) return;
    const u = this.#user(uid);
    const s = u.slot(this.#today());
    if (s >= 0) u.requests[s]! += 1;
  }

  /** The placement limit (r/s, before the limiter's scale) of `uid` today. */
  placeLimit(uid: number): number {
    if (!this.applies(uid)) return BASE_PLACE_LIMIT;
    return FILL_RATIO_TIERS[this.#evaluate(uid).tier - 1]!.limit;
  }

  /** Today's tier, ratios and limit of `uid`; undefined where the scheme does not apply. */
  status(uid: number): FillRatioStatus | undefined {
    if (!this.applies(uid)) return undefined;
    this.#scan();
    const u = this.#evaluate(uid);
    return { tier: u.tier, ratio: u.ratio, mainRatio: u.mainRatio, limit: FILL_RATIO_TIERS[u.tier - 1]!.limit, updatedUs: u.evaluatedDay * DAY_US };
  }

  #today(): number {
    return Math.floor(this.#o.clock.nowUs() / DAY_US);
  }

  #user(uid: number): UserDays {
    let u = this.#users.get(uid);
    if (u === undefined) { u = new UserDays(); this.#users.set(uid, u); }
    return u;
  }

  /** The user's evaluation for today, computed at its first use of the day. */
  #evaluate(uid: number): UserDays {
    const u = this.#user(uid);
    const today = this.#today();
    if (u.evaluatedDay === today) return u;
    this.#scan();
    const own = u.window(today);
    const main = this.#o.mainOf(uid);
    let amount = 0;
    let requests = 0;
    for (const member of [main, ...this.#o.subsOf(main)]) {
      const m = this.#users.get(member);
      if (m === undefined) continue;
      const w = m.window(today);
      amount += w.amount;
      requests += w.requests;
    }
    u.ratio = own.requests === 0 ? 0 : own.amount / own.requests;
    u.mainRatio = requests === 0 ? 0 : amount / requests;
    u.tier = tierOf(Math.max(u.ratio, u.mainRatio));
    u.evaluatedDay = today;
    return u;
  }

  #addAmount(uid: number, day: number, amount: number): void {
    const u = this.#user(uid);
    const s = u.slot(day);
    if (s >= 0) u.amount[s]! += amount;
  }

  /** Adds the fills appended to the trade log since the last scan to their users' days (futures only). */
  #scan(): void {
    const ex = this.#o.exchange;
    const T = ex.trades;
    if (this.#scanned >= T.count) return;
    const from = Math.max(this.#scanned + 1, T.count - T.capacity + 1);
    const S = ex.futures;
    for (let id = from; id <= T.count; id++) {
      const s = T.slotOf(id);
      const ci = S.contractOf(T.market[s]!);
      if (ci < 0) continue;
      const maker = T.makerUid[s]!;
      const taker = T.takerUid[s]!;
      const mApplies = this.applies(maker);
      const tApplies = this.applies(taker);
      if (!mApplies && !tApplies) continue;
      const c = S.contracts[ci]!;
      const lots = Math.abs(T.lots[s]!);
      // One rounding: an integer product divided by a power of ten.
      const amount = c.inverse ? lots : (lots * Number(c.qUnits) * T.price[s]!) / 10 ** (c.qScale + c.priceScale);
      const weighted = amount * (c.base === 'BTC' || c.base === 'ETH' ? 1 : 0.4);
      const day = Math.floor(T.time[s]! / DAY_US);
      if (mApplies) this.#addAmount(maker, day, weighted);
      if (tApplies) this.#addAmount(taker, day, weighted * 0.9);
    }
    this.#scanned = T.count;
  }
}
