/**
 * Deposit, withdrawal and push records and the pure transitions of the chain simulation (no I/O, no clock:
 * every function takes the time). Records are immutable values: a change is a new record, which the driver
 * (wallet-sim.ts) submits on the engine command that goes with it and the store (wallet-store.ts) takes in
 * once that command succeeded.
 *
 * Deposits: TRACK → (min_confirms confirmations: credited) DEP_CREDITED → (unlock_confirms) DONE. When both
 * thresholds are met in one step the deposit goes straight to DONE. A chain with deposits switched off gives
 * BLOCKED (never credited). The control plane holds a TRACK deposit in MANUAL or REVIEW, resumes it, or ends
 * it INVALID.
 *
 * Withdrawals: REQUEST → PEND → PROCES (each `withdraw_step_ms`) → EXTPEND (txid, block_number) → DONE after
 * min_confirms blocks (settled: amount − fee out, the fee to the platform; timestamp2). Cancellable by the owner in
 * REQUEST, PEND, MANUAL and REVIEW. The control plane holds one in MANUAL or REVIEW, resumes it, or ends it
 * FAIL, REJECT or CANCEL (hold released, fail_reason set) or DONE (settled).
 */
import { txidFor } from './addresses.js';
import type { ChainSpec } from './chain-spec.js';

export type DepositStatus = 'TRACK' | 'DEP_CREDITED' | 'DONE' | 'BLOCKED' | 'MANUAL' | 'REVIEW' | 'INVALID';
export type WithdrawalStatus = 'REQUEST' | 'PEND' | 'PROCES' | 'EXTPEND' | 'DONE' | 'MANUAL' | 'REVIEW' | 'FAIL' | 'REJECT' | 'CANCEL';

export interface DepositRecord {
  readonly id: number;
  readonly uid: number;
  readonly currency: string;
  readonly chain: string;
  readonly units: bigint;
  readonly address: string;
  readonly memo: string;
  readonly txid: string;
  readonly createdUs: number;
  readonly status: DepositStatus;
  /** True once the Credit command was applied. */
  readonly credited: boolean;
}

export interface WithdrawalRecord {
  readonly id: number;
  readonly uid: number;
  readonly currency: string;
  readonly chain: string;
  /** The amount asked for, its fee included (what leaves the account; the chain receives units − fee). */
  readonly units: bigint;
  readonly fee: bigint;
  readonly address: string;
  readonly memo: string;
  readonly withdrawOrderId: string;
  readonly assetClass: string;
  readonly createdUs: number;
  /** Time of the last status change (the walk's timer). */
  readonly changedUs: number;
  readonly status: WithdrawalStatus;
  readonly txid: string;
  readonly blockNumber: string;
  readonly failReason: string;
  readonly finishedUs: number;
  /** To an address of a platform user: credited internally, free. */
  readonly internal: boolean;
}

export interface PushRecord {
  readonly id: number;
  readonly pushUid: number;
  readonly receiveUid: number;
  readonly currency: string;
  readonly units: bigint;
  readonly createdUs: number;
  readonly status: PushStatus;
  readonly message: string;
  /**
   * The withdrawal-hold id (from the withdrawals' numbering) keeping the amount while the push is PENDING;
   * kept once the push ended (the number stays used), 0 for a push received at once.
   */
  readonly holdId: number;
}

/** Gate's push statuses; the simulator's records take CREATING … RECEIVING never (each change is one step). */
export type PushStatus = 'CREATING' | 'PENDING' | 'CANCELLING' | 'CANCELLED' | 'REFUSING' | 'REFUSED' | 'RECEIVING' | 'RECEIVED';

/** An address saved in a user's address book (POST /sim/saved_address). */
export interface SavedAddress {
  readonly uid: number;
  readonly currency: string;
  readonly chain: string;
  readonly address: string;
  readonly name: string;
  readonly tag: string;
  readonly verified: string;
}

export const WITHDRAWAL_CANCELLABLE: ReadonlySet<WithdrawalStatus> = new Set(['REQUEST', 'PEND', 'MANUAL', 'REVIEW']);
export const WITHDRAWAL_FINAL: ReadonlySet<WithdrawalStatus> = new Set(['DONE', 'FAIL', 'REJECT', 'CANCEL']);
/** Withdrawals whose amount counts against the daily limit (all but the ones that returned their funds). */
export const countsAgainstLimit = (w: WithdrawalRecord): boolean => w.status !== 'FAIL' && w.status !== 'REJECT' && w.status !== 'CANCEL';

/** Confirmations a transaction made at `sinceUs` has at `nowUs` (unbounded on a chain with no block time). */
export function confirmations(spec: ChainSpec, sinceUs: number, nowUs: number): number {
  if (spec.blockTimeMs === 0) return Number.MAX_SAFE_INTEGER;
  return Math.max(0, Math.floor((nowUs - sinceUs) / (spec.blockTimeMs * 1000)));
}

/** A deposit's next step at `nowUs`: whether it credits, and its new status; undefined when it waits. */
export function depositStep(d: DepositRecord, spec: ChainSpec, nowUs: number): { credit: boolean; next: DepositStatus } | undefined {
  const conf = confirmations(spec, d.createdUs, nowUs);
  if (d.status === 'TRACK' && conf >= spec.minConfirms) return { credit: true, next: conf >= spec.unlockConfirms ? 'DONE' : 'DEP_CREDITED' };
  if (d.status === 'DEP_CREDITED' && conf >= spec.unlockConfirms) return { credit: false, next: 'DONE' };
  return undefined;
}

const WALK: Partial<Record<WithdrawalStatus, WithdrawalStatus>> = { REQUEST: 'PEND', PEND: 'PROCES', PROCES: 'EXTPEND' };

/**
 * A withdrawal's next step at `nowUs`: its new status, when the step fell due (the next timer's start), and
 * whether it settles; undefined when it waits (held, final, or not yet due).
 */
export function withdrawalStep(w: WithdrawalRecord, spec: ChainSpec, nowUs: number):
  { next: WithdrawalStatus; atUs: number; settle: boolean } | undefined {
  const walked = WALK[w.status];
  if (walked !== undefined) {
    const due = w.changedUs + spec.stepMs * 1000;
    return due <= nowUs ? { next: walked, atUs: due, settle: false } : undefined;
  }
  if (w.status === 'EXTPEND') {
    const due = w.changedUs + spec.minConfirms * spec.blockTimeMs * 1000;
    return due <= nowUs ? { next: 'DONE', atUs: due, settle: true } : undefined;
  }
  return undefined;
}

/** Most steps one walk takes at once (a withdrawal has at most four). */
const MAX_STEPS = 8;

/**
 * Every step `d` has due at `nowUs`, as one change: the record it ends in and whether a step credits it
 * (a Credit command must carry it); undefined when nothing is due.
 */
export function walkDeposit(d: DepositRecord, spec: ChainSpec, nowUs: number): { next: DepositRecord; credit: boolean } | undefined {
  let next = d;
  let credit = false;
  for (let i = 0; i < MAX_STEPS; i++) {
    const step = depositStep(next, spec, nowUs);
    if (step === undefined) break;
    credit ||= step.credit;
    next = { ...next, status: step.next, credited: next.credited || step.credit };
  }
  return next === d ? undefined : { next, credit };
}

/**
 * Every step `w` has due at `nowUs`, as one change: the record it ends in (EXTPEND with its txid and block,
 * DONE with its finish time) and whether it settles (a WithdrawSettle must carry it); undefined when nothing
 * is due.
 */
export function walkWithdrawal(w: WithdrawalRecord, spec: ChainSpec, nowUs: number): { next: WithdrawalRecord; settle: boolean } | undefined {
  let next = w;
  for (let i = 0; i < MAX_STEPS; i++) {
    const step = withdrawalStep(next, spec, nowUs);
    if (step === undefined) break;
    if (step.settle) return { next: settled(next, step.atUs), settle: true };
    next = { ...next, status: step.next, changedUs: step.atUs };
    if (step.next === 'EXTPEND') {
      next = { ...next, txid: txidFor(w.chain, `w${w.id}`),
        blockNumber: String(spec.blockTimeMs === 0 ? w.id : Math.floor(step.atUs / (spec.blockTimeMs * 1000))) };
    }
  }
  return next === w ? undefined : { next, settle: false };
}

/** `w` settled DONE at `atUs` (a txid and block 0 when it never reached the chain). */
export function settled(w: WithdrawalRecord, atUs: number): WithdrawalRecord {
  const sent = w.txid !== '';
  return { ...w, status: 'DONE', changedUs: atUs, finishedUs: atUs,
    txid: sent ? w.txid : txidFor(w.chain, `w${w.id}`), blockNumber: sent ? w.blockNumber : '0' };
}

/** The withdrawal fee of `units` on `spec`: fixed + percent of the amount, rounded up to the chain's decimals. */
export function withdrawalFee(spec: ChainSpec, units: bigint): bigint {
  const step = 10n ** BigInt(spec.scale - spec.decimals);
  const pct = (units * spec.percentE8 + 10n ** 8n - 1n) / 10n ** 8n;
  const rounded = ((pct + step - 1n) / step) * step;
  return spec.fix + rounded;
}

/** Start of the UTC day (of the clock) containing `us`. */
export const dayStartUs = (us: number): number => us - (us % 86_400_000_000);
