/**
 * Futures positions: one row per (user, contract, slot), where the slot is 0 in single mode and 1 (long) or
 * 2 (short) in dual mode. A row exists from the first time the user touches the contract (a leverage change,
 * an order) and is never removed: an empty position (size 0) still carries its leverage and risk limit, as on
 * Gate.
 *
 * Columns: signed `size` in contracts; `basis` (BigInt settle units), the cash the position's opening fills
 * moved (buy: −value on a linear contract; see contract.ts cashFlow), reduced pro rata as the position shrinks;
 * leverage (0 = cross, with `crossLimit`); the risk limit; realised figures of the current position (`pnlPnl`,
 * `pnlFee`, `pnlFund`; Gate's realised_pnl is their sum) and of its history. The position's margin is the
 * ledger hold keyed positionHoldKey(row), not a column here.
 *
 * Identities (checked by FuturesState.assertInvariants): size 0 ⇒ basis 0; a long's basis is ≤ 0 on a linear
 * contract and ≥ 0 on an inverse one (the reverse for a short); entry price = |basis| / (|size| × quanto)
 * (linear) or |size| / |basis| (inverse).
 *
 * Costs: find is one index probe; a user's rows are listed per user (rowsOf and pendingOrders cost the user's
 * rows, not every row); a new row may grow the columns and its user's list (@allocates, amortised); BigInt
 * columns allocate on every write.
 */
import { KeyIndex } from '../matching/key-index.js';
import { grownTo } from '../typed-arrays.js';

/** Position slots: single mode, or one leg of a dual-mode (hedge) pair. */
export const PositionSlot = { Single: 0, DualLong: 1, DualShort: 2 } as const;
export type PositionSlot = (typeof PositionSlot)[keyof typeof PositionSlot];
export const POSITION_MODE_NAMES = ['single', 'dual_long', 'dual_short'] as const;

const TWO_18 = 262144;

/** The index key of (uid, market, slot): uid < 2^31, market < 2^16, slot < 4. */
export const positionKey = (uid: number, market: number, slot: number): number => uid * TWO_18 + market * 4 + slot;

/** The ledger hold key of a position's margin: negative, so it never meets an order id. */
export const positionHoldKey = (row: number): number => -(row + 1);

export class PositionStore {
  #key = new Float64Array(64);
  uid = new Float64Array(64);
  market = new Int32Array(64);
  slot = new Uint8Array(64);
  size = new Float64Array(64);
  leverage = new Int32Array(64);
  crossLimit = new Int32Array(64);
  openTime = new Float64Array(64);
  updateTime = new Float64Array(64);
  /** A counter bumped on every change (Gate's `update_id`). */
  updateId = new Float64Array(64);
  /** Open orders of this position (Gate's `pending_orders`), and the contracts they have left, per side. */
  pending = new Int32Array(64);
  openBuy = new Float64Array(64);
  openSell = new Float64Array(64);
  /** Largest |size| and Σ contracts opened since the position last was empty (position_close history). */
  maxSize = new Float64Array(64);
  accumSize = new Float64Array(64);
  basis: bigint[] = [];
  riskLimit: bigint[] = [];
  pnlPnl: bigint[] = [];
  pnlFee: bigint[] = [];
  pnlFund: bigint[] = [];
  /** Realised PnL of every closed position of this row, and of the last one. */
  historyPnl: bigint[] = [];
  lastClosePnl: bigint[] = [];
  #count = 0;
  readonly #index = new KeyIndex(this.#key, 64);
  /** Each user's rows in creation order (the order rowsOf promises); a user without rows has no entry. */
  readonly #byUser = new Map<number, number[]>();

  get count(): number {
    return this.#count;
  }

  /** The row of (uid, market, slot), or -1. */
  find(uid: number, market: number, slot: number): number {
    return this.#index.get(positionKey(uid, market, slot));
  }

  /** The row of (uid, market, slot), created with the given leverage and risk limit when absent. */
  ensure(uid: number, market: number, slot: number, leverage: number, riskLimit: bigint, time: number): number {
    const found = this.find(uid, market, slot);
    if (found >= 0) return found;
    const r = this.#count++;
    if (r === this.#key.length) this.#grow(r * 2);
    this.#key[r] = positionKey(uid, market, slot);
    this.uid[r] = uid;
    this.market[r] = market;
    this.slot[r] = slot;
    this.size[r] = 0;
    this.leverage[r] = leverage;
    this.crossLimit[r] = 0;
    this.openTime[r] = 0;
    this.updateTime[r] = time;
    this.updateId[r] = 0;
    this.pending[r] = 0;
    this.openBuy[r] = 0;
    this.openSell[r] = 0;
    this.maxSize[r] = 0;
    this.accumSize[r] = 0;
    this.basis.push(0n);
    this.riskLimit.push(riskLimit);
    this.pnlPnl.push(0n);
    this.pnlFee.push(0n);
    this.pnlFund.push(0n);
    this.historyPnl.push(0n);
    this.lastClosePnl.push(0n);
    this.#index.insert(this.#key[r], r);
    const mine = this.#byUser.get(uid);
    if (mine === undefined) this.#byUser.set(uid, [r]);
    else mine.push(r);
    return r;
  }

  /**
   * Forgets the rows from `n` on: rows a rejected command created (R1 creates a position row before its checks)
   * and left untouched, so that the rejection changes nothing. Only the newest rows can go.
   */
  truncate(n: number): void {
    while (this.#count > n) {
      const r = --this.#count;
      this.#index.remove(this.#key[r]!);
      // The newest row overall is its user's newest too.
      const mine = this.#byUser.get(this.uid[r]!)!;
      mine.pop();
      if (mine.length === 0) this.#byUser.delete(this.uid[r]!);
      this.basis.pop(); this.riskLimit.pop(); this.pnlPnl.pop(); this.pnlFee.pop(); this.pnlFund.pop();
      this.historyPnl.pop(); this.lastClosePnl.pop();
    }
  }

  /** Marks a change of row `r` at `time`. */
  touch(r: number, time: number): void {
    this.updateTime[r] = time;
    this.updateId[r] = this.updateId[r]! + 1;
  }

  /** Rows of `uid` (optionally one market), in creation order; a copy, so callers may add rows meanwhile. @allocates */
  rowsOf(uid: number, market = -1): number[] {
    const mine = this.#byUser.get(uid);
    if (mine === undefined) return [];
    return market < 0 ? mine.slice() : mine.filter((r) => this.market[r] === market);
  }

  /** Open orders of `uid` on `market` over its rows there (Gate's per-contract order limit). */
  pendingOrders(uid: number, market: number): number {
    const mine = this.#byUser.get(uid);
    if (mine === undefined) return 0;
    let n = 0;
    for (let i = 0; i < mine.length; i++) {
      const r = mine[i]!;
      if (this.market[r] === market) n += this.pending[r]!;
    }
    return n;
  }

  /** Rows with a non-zero size in `market` (every market when -1), in creation order. @allocates */
  openRows(market = -1): number[] {
    const out: number[] = [];
    for (let r = 0; r < this.#count; r++) if (this.size[r] !== 0 && (market < 0 || this.market[r] === market)) out.push(r);
    return out;
  }

  /** @allocates */
  #grow(n: number): void {
    this.#key = grownTo(this.#key, n);
    this.uid = grownTo(this.uid, n);
    this.market = grownTo(this.market, n);
    this.slot = grownTo(this.slot, n);
    this.size = grownTo(this.size, n);
    this.leverage = grownTo(this.leverage, n);
    this.crossLimit = grownTo(this.crossLimit, n);
    this.openTime = grownTo(this.openTime, n);
    this.updateTime = grownTo(this.updateTime, n);
    this.updateId = grownTo(this.updateId, n);
    this.pending = grownTo(this.pending, n);
    this.openBuy = grownTo(this.openBuy, n);
    this.openSell = grownTo(this.openSell, n);
    this.maxSize = grownTo(this.maxSize, n);
    this.accumSize = grownTo(this.accumSize, n);
    this.#index.rebind(this.#key);
  }
}
