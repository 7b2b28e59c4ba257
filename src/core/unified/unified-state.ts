/**
 * The unified account's state beside the ledger: each user's mode and settings, the hour interest was last
 * accrued, and the loan and interest records the query routes list. Loans themselves are ledger columns
 * (ledger/loan-funds.ts). Folded over commands like everything else; `hashInto` covers modes, the accrual
 * hour and the record counter (records are history, like the account book); `exportData` / `importData` carry
 * all of it through snapshots.
 *
 * Records are kept up to `capacity` each (the oldest dropped). Cost: O(1) amortised per record. Isolated-margin
 * loans (core/margin/) share the accrual hour and the records, which name their pair (`market` ≥ 0; −1 for the
 * unified account; CROSS_MARKET for the cross-margin account).
 */
import type { StateHasher } from '../state-hash.js';
import type { UnifiedParams } from './unified-params.js';

/** Settings bits of PUT /unified/unified_mode. */
export const UnifiedSetting = { UsdtFutures: 1, SpotHedge: 2, UseFunding: 4, Options: 8 } as const;

/** True when a unified account in `mode` (valuation.ts UnifiedMode) with `settings` margins its USDT futures. */
export const carriesUsdtFutures = (mode: number, settings: number): boolean =>
  (mode === 1 && (settings & UnifiedSetting.UsdtFutures) !== 0) || mode === 2;

/** Borrow and repay kinds, as `side` of the loan commands and in records. */
export const LoanKind = { Manual: 1, Auto: 2 } as const;
/** The `market` of the cross-margin account's loan and interest records. */
export const CROSS_MARKET = -2;

export interface LoanRecord {
  readonly id: number;
  readonly uid: number;
  readonly borrow: boolean;
  readonly kind: number;
  readonly cur: number;
  readonly amount: bigint;
  readonly time: number;
  /** The isolated-margin pair (market index), or −1 for the unified account. */
  readonly market: number;
}

export interface InterestRecord {
  readonly uid: number;
  readonly cur: number;
  /** Hourly rate, parts per 10^12. */
  readonly rate: bigint;
  readonly interest: bigint;
  /** True when the balance covered it at once. */
  readonly paid: boolean;
  readonly time: number;
  /** The isolated-margin pair (market index), or −1 for the unified account. */
  readonly market: number;
}

/** The state as plain JSON-able data (snapshots); amounts and rates as decimal integer strings. */
export interface UnifiedStateData {
  readonly modes: readonly (readonly [number, number])[];
  readonly lastHour: number;
  readonly lastRecordId: number;
  /** [id, uid, borrow (1/0), kind, currency, amount, time, market (absent: −1)] */
  readonly loans: readonly (readonly [number, number, number, number, number, string, number, number?])[];
  /** [uid, currency, rate, interest, paid (1/0), time, market (absent: −1)] */
  readonly interest: readonly (readonly [number, number, string, string, number, number, number?])[];
}

const HOUR_US = 3_600_000_000;
/** Whole hours since the epoch at µs `time`. */
export const hourOf = (time: number): number => Math.floor(time / HOUR_US);

export class UnifiedState {
  readonly params: UnifiedParams;
  readonly capacity: number;
  /** uid → mode (low 4 bits) | settings << 4; absent = classic, no settings. */
  readonly #modes = new Map<number, number>();
  /** Hour of the last accrual; 0 before the first loan. */
  lastHour = 0;
  lastRecordId = 0;
  readonly loans: LoanRecord[] = [];
  readonly interest: InterestRecord[] = [];

  constructor(params: UnifiedParams, capacity = 100_000) {
    this.params = params;
    this.capacity = capacity;
  }

  modeOf(uid: number): number {
    return (this.#modes.get(uid) ?? 0) & 15;
  }

  settingsOf(uid: number): number {
    return (this.#modes.get(uid) ?? 0) >> 4;
  }

  /**
   * True when `uid`'s unified account margins its USDT futures (seed 4.6): multi_currency with `usdt_futures`
   * on, or portfolio. Its futures margin then lives in its Spot USDT balance (FuturesFunds.marginOnSpot).
   */
  carriesUsdtFutures(uid: number): boolean {
    return carriesUsdtFutures(this.modeOf(uid), this.settingsOf(uid));
  }

  setMode(uid: number, mode: number, settings: number): void {
    const v = mode | (settings << 4);
    if (v === 0) this.#modes.delete(uid);
    else this.#modes.set(uid, v);
  }

  addLoanRecord(uid: number, borrow: boolean, kind: number, cur: number, amount: bigint, time: number, market = -1): void {
    this.loans.push({ id: ++this.lastRecordId, uid, borrow, kind, cur, amount, time, market });
    if (this.loans.length > this.capacity * 2) this.loans.splice(0, this.loans.length - this.capacity);
  }

  addInterestRecord(r: InterestRecord): void {
    this.interest.push(r);
    if (this.interest.length > this.capacity * 2) this.interest.splice(0, this.interest.length - this.capacity);
  }

  /** Copies the state (snapshots). @allocates */
  exportData(): UnifiedStateData {
    return {
      modes: [...this.#modes], lastHour: this.lastHour, lastRecordId: this.lastRecordId,
      loans: this.loans.map((r) => [r.id, r.uid, r.borrow ? 1 : 0, r.kind, r.cur, r.amount.toString(), r.time, r.market] as const),
      interest: this.interest.map((r) => [r.uid, r.cur, r.rate.toString(), r.interest.toString(), r.paid ? 1 : 0, r.time, r.market] as const),
    };
  }

  /** Restores exported data into this state, which must be fresh (no command applied). @allocates */
  importData(d: UnifiedStateData): void {
    for (const [uid, v] of d.modes) this.#modes.set(uid, v);
    this.lastHour = d.lastHour;
    this.lastRecordId = d.lastRecordId;
    for (const [id, uid, borrow, kind, cur, amount, time, market] of d.loans) {
      this.loans.push({ id, uid, borrow: borrow === 1, kind, cur, amount: BigInt(amount), time, market: market ?? -1 });
    }
    for (const [uid, cur, rate, interest, paid, time, market] of d.interest) {
      this.interest.push({ uid, cur, rate: BigInt(rate), interest: BigInt(interest), paid: paid === 1, time, market: market ?? -1 });
    }
  }

  hashInto(h: StateHasher): void {
    const modes = [...this.#modes].sort((a, b) => a[0] - b[0]);
    h.add(modes.length);
    for (const [uid, v] of modes) h.add(uid).add(v);
    h.add(this.lastHour).add(this.lastRecordId);
  }
}
