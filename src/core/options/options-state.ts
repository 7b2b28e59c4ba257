/**
 * The options state beside the ledger: underlyings and contracts, index and mark prices, positions, and the
 * bounded histories the routes and pushes read (settlements, position closes, liquidations, insurance balance).
 *
 * Money lives in the ledger (ledger/options-funds.ts): premiums are paid in full at each fill, so a position
 * keeps no basis the ledger must balance; `cost` (the premium paid, positive, or received, negative, for what is
 * still open) and realised PnL are bookkeeping for the routes. A short position's margin is its ledger hold
 * (positionKey). Positions are rows that are never removed (a closed one keeps size 0), like the futures store.
 *
 * Costs: rows are plain arrays (one object per position, allocated on first trade); histories are bounded
 * (HISTORY_CAP rows, oldest dropped); hashing, export and import are O(state) and allocate.
 */
import { invariant } from '../invariant.js';
import type { StateHasher } from '../state-hash.js';
import { HISTORY_CAP } from '../futures/futures-state.js';
import type { OptionContract, OptionUnderlying } from './options-contract.js';
import type { MmpState } from './options-mmp.js';

/** Hold keys of short positions: −(POSITION_KEY_BASE + row), far below the futures position keys (−(row + 1)). */
export const POSITION_KEY_BASE = 2 ** 40;
export const positionKey = (row: number): number => -(POSITION_KEY_BASE + row);

const NO_ROWS: readonly number[] = [];

export interface OptionPosition {
  readonly uid: number;
  readonly ci: number;
  size: number;
  /** Premium of the open part: paid (> 0, long) or received (< 0, short), settle units. */
  cost: bigint;
  /** Realised PnL: closing trades' premium differences and expiry payoffs, less fees. */
  pnl: bigint;
  /** `pnl` when the position last opened from empty (its close row reports pnl − openPnl). */
  openPnl: bigint;
  /** Contracts of open buy and sell orders, and open orders. */
  openBuy: number;
  openSell: number;
  pending: number;
  updateTime: number;
}

/** How a position became empty: a trade, the liquidator's takeover, or the expiry settlement. */
export type OptionsCloseText = 'close' | 'liquidated' | 'settled';

/**
 * A position that became empty (Gate's OptionsPositionClose): time (µs), its size before the close (signed),
 * the realised PnL since it was opened (settle units, a decimal integer string) and how it closed.
 */
export interface OptionsCloseRow {
  readonly t: number; readonly uid: number; readonly ci: number; readonly size: number; readonly pnl: string;
  readonly text: OptionsCloseText;
}

/**
 * A position the liquidator took over (core/options/options-liquidation.ts): time (µs), owner, contract, the
 * size taken (signed as the owner's position), the price (mark ticks), the finished liquidation order's id, and
 * the account's equity, maintenance and initial margin when it was liquidated (settle units, decimal integer
 * strings; `initial` is absent in rows of older snapshots).
 */
export interface OptionsLiquidationRow {
  readonly t: number; readonly uid: number; readonly ci: number; readonly size: number; readonly price: number;
  readonly orderId: number; readonly equity: string; readonly maintenance: string; readonly initial?: string;
}

/** The options insurance fund after a change: time (µs), settle currency index, balance (settle units). */
export interface OptionsInsuranceRow { readonly t: number; readonly cur: number; readonly balance: string }

/** A contract's settlement (public): time in seconds, settlement price in ticks. */
export interface SettlementRow { readonly t: number; readonly ci: number; readonly price: number }
/** A user's settlement: its size, the payoff (signed, settle units) and the realised PnL of the position. */
export interface UserSettlementRow {
  readonly t: number; readonly uid: number; readonly ci: number; readonly size: number; readonly profit: string;
  readonly pnl: string; readonly price: number;
}

export interface OptionsStateData {
  readonly index: readonly number[];
  readonly settled: readonly number[];
  readonly positions: readonly (readonly (number | string)[])[];
  readonly settlements: readonly SettlementRow[];
  readonly userSettlements: readonly UserSettlementRow[];
  /** Absent in snapshots taken before marks and liquidation were kept. */
  readonly mark?: readonly number[];
  /** Per expiry slot [index sum of its settlement window, samples, last index before expiry]. */
  readonly windows?: readonly (readonly [string, number, number])[];
  /** Per contract, the journaled delta (10^-4). */
  readonly delta?: readonly number[];
  /** MMP: [uid, underlying, window, frozen period, qty limit, delta limit, trigger ms, frozen until ms, ...fills]. */
  readonly mmp?: readonly (readonly number[])[];
  readonly mmpTriggers?: number;
  readonly closes?: readonly OptionsCloseRow[];
  readonly liquidations?: readonly OptionsLiquidationRow[];
  readonly insurance?: readonly OptionsInsuranceRow[];
}

export class OptionsState {
  readonly underlyings: readonly OptionUnderlying[];
  readonly contracts: readonly OptionContract[];
  /** Market index of each contract. */
  readonly marketOf: readonly number[];
  /** Ledger index of each underlying's settle (quote) currency. */
  readonly settleCur: readonly number[];
  readonly #contractOf: Int32Array;
  /** Index price of each underlying, in its ticks (0: none yet). */
  readonly index: Float64Array;
  /** Settlement price of each contract in ticks; 0 while it is not settled. */
  readonly settled: Float64Array;
  /**
   * Mark price of each contract in ticks (OptionsSetMark, issued by the engine's edge from the option model);
   * 0 before the first. Position values, unrealised PnL, the liquidation check and takeovers use it.
   */
  readonly mark: Float64Array;
  /** Delta of each contract at its mark (OptionsSetMark's `amount`, 10^-4): what MMP counts. */
  readonly delta: Float64Array;
  /** MMP settings and state per (user, underlying) (options-mmp.ts), and how many freezes were triggered. */
  readonly #mmp = new Map<number, MmpState>();
  mmpTriggers = 0;
  /**
   * Expiry slots: every (underlying, expiration), in underlying then expiration order, with the settlement window
   * of each (core/futures/settle-window.ts): the index sum and sample count of [E − W, E), and the last index set
   * before E (the fallback when the window has no sample).
   */
  readonly expiries: readonly { readonly u: number; readonly expiration: number }[];
  readonly settleSum: bigint[];
  readonly settleSamples: Int32Array;
  readonly lastIndex: Float64Array;
  readonly rows: OptionPosition[] = [];
  readonly #rowOf = new Map<number, number>();
  /** Rows of each user, in creation order. */
  readonly #rowsOfUser = new Map<number, number[]>();
  settlements: SettlementRow[] = [];
  userSettlements: UserSettlementRow[] = [];
  closes: OptionsCloseRow[] = [];
  liquidations: OptionsLiquidationRow[] = [];
  insurance: OptionsInsuranceRow[] = [];

  /** @allocates */
  constructor(underlyings: readonly OptionUnderlying[], contracts: readonly OptionContract[], firstMarket: number, markets: number,
    settleCur: readonly number[]) {
    this.underlyings = underlyings;
    this.contracts = contracts;
    this.marketOf = contracts.map((_, i) => firstMarket + i);
    this.settleCur = settleCur;
    this.#contractOf = new Int32Array(markets).fill(-1);
    this.marketOf.forEach((m, i) => { this.#contractOf[m] = i; });
    this.index = new Float64Array(underlyings.length);
    this.settled = new Float64Array(contracts.length);
    this.mark = new Float64Array(contracts.length);
    this.delta = new Float64Array(contracts.length);
    this.expiries = underlyings.flatMap((u, i) => u.expirations.map((expiration) => ({ u: i, expiration })));
    this.settleSum = this.expiries.map(() => 0n);
    this.settleSamples = new Int32Array(this.expiries.length);
    this.lastIndex = new Float64Array(this.expiries.length);
  }

  /** MMP state of (uid, underlying `ui`), if it has settings. */
  mmpOf(uid: number, ui: number): MmpState | undefined {
    return this.#mmp.get(uid * this.underlyings.length + ui);
  }

  setMmp(uid: number, ui: number, m: MmpState): void {
    this.#mmp.set(uid * this.underlyings.length + ui, m);
  }

  /** Every (uid, underlying, state) with MMP settings, in the order they were first set. */
  mmpEntries(): IterableIterator<[number, MmpState]> {
    return this.#mmp.entries();
  }

  /** The user and underlying of an MMP key (mmpEntries). */
  mmpKey(key: number): [number, number] {
    return [Math.floor(key / this.underlyings.length), key % this.underlyings.length];
  }

  /** The expiry slot of (underlying `u`, `expiration`), or -1. */
  expirySlot(u: number, expiration: number): number {
    return this.expiries.findIndex((e) => e.u === u && e.expiration === expiration);
  }

  /** The contract of market `m`, or -1. */
  contractOf(m: number): number {
    return (m | 0) === m && m >= 0 && m < this.#contractOf.length ? this.#contractOf[m]! : -1;
  }

  /** The contract named `name`, or -1. */
  contractIndex(name: string): number {
    return this.contracts.findIndex((c) => c.name === name);
  }

  /** The underlying named `name`, or -1. */
  underlyingIndex(name: string): number {
    return this.underlyings.findIndex((u) => u.name === name);
  }

  /** The row of (uid, contract), or -1. */
  find(uid: number, ci: number): number {
    return this.#rowOf.get(uid * this.contracts.length + ci) ?? -1;
  }

  /** The row of (uid, contract), created empty when absent. @allocates on creation */
  ensure(uid: number, ci: number, time: number): number {
    const key = uid * this.contracts.length + ci;
    let r = this.#rowOf.get(key);
    if (r === undefined) {
      r = this.rows.length;
      this.rows.push({ uid, ci, size: 0, cost: 0n, pnl: 0n, openPnl: 0n, openBuy: 0, openSell: 0, pending: 0, updateTime: time });
      this.#rowOf.set(key, r);
      const mine = this.#rowsOfUser.get(uid);
      if (mine === undefined) this.#rowsOfUser.set(uid, [r]);
      else mine.push(r);
    }
    return r;
  }

  /** The rows of `uid` in creation order (a shared list: do not change it). */
  rowsOf(uid: number): readonly number[] {
    return this.#rowsOfUser.get(uid) ?? NO_ROWS;
  }

  /** Drops rows created after `count` rows existed (a rejected command leaves none). */
  truncate(count: number): void {
    while (this.rows.length > count) {
      const p = this.rows.pop()!;
      this.#rowOf.delete(p.uid * this.contracts.length + p.ci);
      const mine = this.#rowsOfUser.get(p.uid)!;
      mine.pop();
      if (mine.length === 0) this.#rowsOfUser.delete(p.uid);
    }
  }

  /**
   * Row `row`'s size becomes `size` at `time`: opening from empty sets its PnL baseline, emptying it records a
   * close row (`text` says how) with the PnL realised since it opened. Every size change goes through here.
   */
  resize(row: number, size: number, time: number, text: OptionsCloseText): void {
    const p = this.rows[row]!;
    if (p.size === 0 && size !== 0) p.openPnl = p.pnl;
    if (p.size !== 0 && size === 0) {
      OptionsState.push(this.closes, { t: time, uid: p.uid, ci: p.ci, size: p.size, pnl: (p.pnl - p.openPnl).toString(), text });
    }
    p.size = size;
    p.updateTime = time;
  }

  static push<T>(list: T[], row: T): void {
    list.push(row);
    if (list.length > HISTORY_CAP) list.shift();
  }

  /** @allocates */
  hashInto(h: StateHasher): void {
    h.add(this.contracts.length).add(this.rows.length);
    for (const v of this.index) h.add(v);
    for (const v of this.settled) h.add(v);
    for (const v of this.mark) h.add(v);
    for (const v of this.delta) h.add(v);
    h.add(this.mmpTriggers).add(this.#mmp.size);
    for (const [k, m] of this.#mmp) {
      h.add(k).add(m.window).add(m.frozenPeriod).add(m.qtyLimit).add(m.deltaLimit).add(m.triggerMs).add(m.frozenUntilMs).add(m.fills.length);
      for (const v of m.fills) h.add(v);
    }
    for (let i = 0; i < this.expiries.length; i++) h.add(this.settleSamples[i]!).add(this.lastIndex[i]!).addString(this.settleSum[i]!.toString());
    for (const p of this.rows) {
      h.add(p.uid).add(p.ci).add(p.size).add(p.openBuy).add(p.openSell).add(p.pending).add(p.updateTime)
        .addString(`${p.cost}:${p.pnl}:${p.openPnl}`);
    }
    h.add(this.settlements.length).add(this.userSettlements.length).add(this.closes.length).add(this.liquidations.length);
    const fund = this.insurance[this.insurance.length - 1];
    if (fund !== undefined) h.addString(fund.balance);
  }

  /** @allocates */
  exportData(): OptionsStateData {
    return {
      index: [...this.index], settled: [...this.settled],
      positions: this.rows.map((p) => [p.uid, p.ci, p.size, p.cost.toString(), p.pnl.toString(), p.openBuy, p.openSell, p.pending, p.updateTime,
        p.openPnl.toString()]),
      settlements: [...this.settlements], userSettlements: [...this.userSettlements],
      mark: [...this.mark], windows: this.expiries.map((_, i) => [this.settleSum[i]!.toString(), this.settleSamples[i]!, this.lastIndex[i]!] as const),
      delta: [...this.delta], mmpTriggers: this.mmpTriggers,
      mmp: [...this.#mmp].map(([k, m]) => [...this.mmpKey(k), m.window, m.frozenPeriod, m.qtyLimit, m.deltaLimit, m.triggerMs, m.frozenUntilMs,
        ...m.fills]),
      closes: [...this.closes], liquidations: [...this.liquidations], insurance: [...this.insurance],
    };
  }

  /** Restores exported rows into this fresh state (same definition). @allocates */
  importData(d: OptionsStateData): void {
    invariant(this.rows.length === 0, 'options: import needs a fresh state');
    invariant(d.index.length === this.index.length && d.settled.length === this.settled.length, 'options: state of another definition');
    d.index.forEach((v, i) => { this.index[i] = v; });
    d.settled.forEach((v, i) => { this.settled[i] = v; });
    for (const row of d.positions) {
      const r = this.ensure(row[0] as number, row[1] as number, row[8] as number);
      const p = this.rows[r]!;
      p.size = row[2] as number; p.cost = BigInt(row[3] as string); p.pnl = BigInt(row[4] as string);
      p.openBuy = row[5] as number; p.openSell = row[6] as number; p.pending = row[7] as number;
      p.openPnl = row[9] === undefined ? 0n : BigInt(row[9]);
    }
    this.settlements = [...d.settlements];
    this.userSettlements = [...d.userSettlements];
    d.mark?.forEach((v, i) => { this.mark[i] = v; });
    d.delta?.forEach((v, i) => { this.delta[i] = v; });
    this.mmpTriggers = d.mmpTriggers ?? 0;
    for (const [uid, ui, window, frozenPeriod, qtyLimit, deltaLimit, triggerMs, frozenUntilMs, ...fills] of d.mmp ?? []) {
      this.setMmp(uid!, ui!, { window: window!, frozenPeriod: frozenPeriod!, qtyLimit: qtyLimit!, deltaLimit: deltaLimit!, triggerMs: triggerMs!,
        frozenUntilMs: frozenUntilMs!, fills });
    }
    d.windows?.forEach(([sum, n, last], i) => {
      this.settleSum[i] = BigInt(sum);
      this.settleSamples[i] = n;
      this.lastIndex[i] = last;
    });
    this.closes = [...(d.closes ?? [])];
    this.liquidations = [...(d.liquidations ?? [])];
    this.insurance = [...(d.insurance ?? [])];
  }
}
