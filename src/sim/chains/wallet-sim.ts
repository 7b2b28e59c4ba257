/**
 * The chain simulation's driver: deposit, withdrawal and push records, advanced in the injected clock's time
 * (`tick()`; the composition root calls it on a timer and after POST /sim/clock), with every balance change
 * submitted to the engine as a command (Credit, Transfer, WithdrawHold / WithdrawSettle / WithdrawRelease).
 *
 * Contracts:
 * - A record's status changes only after the engine accepted the command that goes with it; a record with a
 *   command in flight (`busy`) is skipped by tick and refused by the control plane (no double submit).
 * - Funds: a withdrawal holds its amount at acceptance, the fee included (Gate's record amount includes the fee:
 *   the chain receives amount − fee); DONE settles (the fee to the platform fee account, amount − fee off the
 *   platform); FAIL, REJECT and CANCEL release the hold. An internal withdrawal (to an address
 *   this book issued to a user) is one Transfer with no fee, DONE at once, with a DONE deposit for the receiver.
 * - The records are the simulator's (not journaled); the ledger, the journal and the state hash see commands.
 * Costs: tick is O(open records); queries scan a user's records.
 */
import type { Clock } from '../../core/clock.js';
import { Command, CommandType } from '../../core/command.js';
import { TransferPurpose } from '../../core/ledger/account-book.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import { AddressBook, txidFor } from './addresses.js';
import type { ChainSpec } from './chain-spec.js';
import {
  countsAgainstLimit, dayStartUs, depositStep, type DepositRecord, type DepositStatus, type PushRecord, WITHDRAWAL_CANCELLABLE,
  WITHDRAWAL_FINAL, withdrawalStep, type WithdrawalRecord, type WithdrawalStatus,
} from './records.js';

export type Done<T> = (code: ResultCode, value?: T) => void;

export interface WithdrawRequest {
  readonly currency: string;
  readonly spec: ChainSpec;
  readonly units: bigint;
  readonly fee: bigint;
  readonly address: string;
  readonly memo: string;
  readonly withdrawOrderId: string;
  readonly assetClass: string;
}

/** Most steps one record takes in one tick (a walk has at most four). */
const MAX_STEPS = 8;

export class WalletSim {
  readonly addresses = new AddressBook();
  readonly deposits: DepositRecord[] = [];
  readonly withdrawals: WithdrawalRecord[] = [];
  readonly pushes: PushRecord[] = [];
  /** Receivers whose incoming pushes wait PENDING for the control plane (POST /sim/push_receivers). */
  readonly manualPushReceivers = new Set<number>();
  readonly saved: { uid: number; currency: string; chain: string; address: string; name: string; tag: string; verified: string }[] = [];
  readonly lowCap: readonly string[];
  readonly #gateway: ExchangeGateway;
  readonly #clock: Clock;
  readonly #chains: Map<string, ChainSpec[]>;
  readonly #cmd = new Command();
  readonly #withdrawalsById = new Map<number, WithdrawalRecord>();
  /** Last withdrawal id issued (a rejected request leaves a gap; ids are never reused). */
  #lastWithdrawalId = 0;

  constructor(gateway: ExchangeGateway, clock: Clock, chains: Map<string, ChainSpec[]>, lowCap: readonly string[] = []) {
    this.#gateway = gateway;
    this.#clock = clock;
    this.#chains = chains;
    this.lowCap = lowCap;
  }

  get nowUs(): number {
    return this.#clock.nowUs();
  }

  /** Chains of a currency (undefined for an unknown currency). */
  chainsOf(currency: string): readonly ChainSpec[] | undefined {
    return this.#chains.get(currency);
  }

  chain(currency: string, chain: string): ChainSpec | undefined {
    return this.#chains.get(currency)?.find((c) => c.chain === chain);
  }

  currencies(): string[] {
    return [...this.#chains.keys()];
  }

  withdrawal(id: number): WithdrawalRecord | undefined {
    return this.#withdrawalsById.get(id);
  }

  /** A deposit arriving on `spec` for `uid` (control plane). Answers the record once its first step applied. */
  deposit(uid: number, spec: ChainSpec, units: bigint, done: Done<DepositRecord>): void {
    const { address, memo } = this.addresses.addressOf(uid, spec);
    const id = this.deposits.length + 1;
    const status: DepositStatus = !spec.depositEnabled ? 'BLOCKED' : spec.depositHold !== '' ? spec.depositHold : 'TRACK';
    const d: DepositRecord = { id, uid, currency: spec.currency, chain: spec.chain, units, address, memo,
      txid: txidFor(spec.chain, `d${id}`), createdUs: this.nowUs, status, credited: false, busy: false };
    this.deposits.push(d);
    this.#advanceDeposit(d, () => done(ResultCode.Ok, d));
  }

  /** Amount of `currency` credited to `uid` by deposits still locked for withdrawal (DEP_CREDITED). */
  lockedByDeposits(uid: number, currency: string): bigint {
    let sum = 0n;
    for (const d of this.deposits) if (d.uid === uid && d.currency === currency && d.status === 'DEP_CREDITED') sum += d.units;
    return sum;
  }

  /** What `uid` withdrew on `spec` today (clock's UTC day), funds-returning outcomes excluded. */
  usedToday(uid: number, spec: ChainSpec): bigint {
    const day = dayStartUs(this.nowUs);
    let sum = 0n;
    for (const w of this.withdrawals) {
      if (w.uid === uid && w.currency === spec.currency && w.chain === spec.chain && w.createdUs >= day && countsAgainstLimit(w)) sum += w.units;
    }
    return sum;
  }

  /** Accepts a validated withdrawal: holds its amount, fee included (or transfers internally), and answers the record. */
  withdraw(uid: number, r: WithdrawRequest, done: Done<WithdrawalRecord>): void {
    const receiver = this.addresses.ownerOf(r.spec, r.address, r.memo);
    const internal = receiver !== 0;
    const now = this.nowUs;
    const id = ++this.#lastWithdrawalId;
    const w: WithdrawalRecord = { id, uid, currency: r.currency, chain: r.spec.chain, units: r.units, fee: internal ? 0n : r.fee,
      address: r.address, memo: r.memo, withdrawOrderId: r.withdrawOrderId, assetClass: r.assetClass, createdUs: now,
      changedUs: now, status: 'REQUEST', txid: '', blockNumber: '', failReason: '', finishedUs: 0, internal, busy: false };
    const c = this.#fill(internal ? CommandType.Transfer : CommandType.WithdrawHold, uid, r.currency, r.units);
    if (internal) {
      c.kind = AccountKind.Spot; c.toUid = receiver; c.toKind = AccountKind.Spot; c.side = TransferPurpose.InternalWithdrawal;
    } else {
      c.orderId = id;
    }
    this.#gateway.submit(c, (code) => {
      if (code !== ResultCode.Ok) return done(code);
      this.withdrawals.push(w);
      this.#withdrawalsById.set(id, w);
      if (internal) {
        w.status = 'DONE'; w.finishedUs = now; w.txid = txidFor(w.chain, `w${id}`); w.blockNumber = '0';
        const dep: DepositRecord = { id: this.deposits.length + 1, uid: receiver, currency: r.currency, chain: r.spec.chain, units: r.units,
          address: r.address, memo: r.memo, txid: w.txid, createdUs: now, status: 'DONE', credited: true, busy: false };
        this.deposits.push(dep);
      } else if (r.spec.withdrawHold !== '') {
        w.status = r.spec.withdrawHold;
      }
      done(ResultCode.Ok, w);
    });
  }

  /** The owner's cancel: only from a cancellable status (the hold is released, status CANCEL). */
  cancel(uid: number, id: number, done: Done<WithdrawalRecord>): void {
    const w = this.#withdrawalsById.get(id);
    if (w === undefined || w.uid !== uid) return done(ResultCode.InvalidWithdrawId);
    if (w.busy || !WITHDRAWAL_CANCELLABLE.has(w.status)) return done(ResultCode.InvalidWithdrawCancelStatus);
    this.#finishWithdrawal(w, 'CANCEL', 'cancelled by the user', done);
  }

  /**
   * Control plane: MANUAL / REVIEW hold a walking withdrawal, RESUME continues a held one, FAIL / REJECT /
   * CANCEL end any unfinished one (hold released), DONE settles it at once.
   */
  setWithdrawalStatus(id: number, status: string, reason: string, done: Done<WithdrawalRecord>): void {
    const w = this.#withdrawalsById.get(id);
    if (w === undefined) return done(ResultCode.InvalidWithdrawId);
    if (w.busy || WITHDRAWAL_FINAL.has(w.status)) return done(ResultCode.InvalidWithdrawCancelStatus);
    const now = this.nowUs;
    if (status === 'MANUAL' || status === 'REVIEW') {
      if (w.status === 'EXTPEND') return done(ResultCode.InvalidWithdrawCancelStatus);
      w.status = status; w.changedUs = now;
      return done(ResultCode.Ok, w);
    }
    if (status === 'RESUME') {
      if (w.status !== 'MANUAL' && w.status !== 'REVIEW') return done(ResultCode.InvalidWithdrawCancelStatus);
      w.status = 'REQUEST'; w.changedUs = now;
      return this.#advanceWithdrawal(w, () => done(ResultCode.Ok, w));
    }
    if (status === 'FAIL' || status === 'REJECT' || status === 'CANCEL') {
      return this.#finishWithdrawal(w, status, reason === '' ? `${status.toLowerCase()} by the platform` : reason, done);
    }
    if (status === 'DONE') return this.#settle(w, now, () => done(ResultCode.Ok, w));
    done(ResultCode.InvalidParam);
  }

  /** Control plane: MANUAL / REVIEW hold a tracking deposit, RESUME continues it, INVALID ends it uncredited. */
  setDepositStatus(id: number, status: string, done: Done<DepositRecord>): void {
    const d = this.deposits[id - 1];
    if (d === undefined) return done(ResultCode.InvalidParam);
    const held = d.status === 'MANUAL' || d.status === 'REVIEW';
    if (d.busy || (d.status !== 'TRACK' && !held)) return done(ResultCode.InvalidParam);
    if (status === 'MANUAL' || status === 'REVIEW') d.status = status;
    else if (status === 'INVALID') d.status = 'INVALID';
    else if (status === 'RESUME' && held) {
      d.status = 'TRACK';
      return this.#advanceDeposit(d, () => done(ResultCode.Ok, d));
    } else return done(ResultCode.InvalidParam);
    done(ResultCode.Ok, d);
  }

  /**
   * A UID push between main accounts. To a receiver who accepts pushes automatically (the default): one
   * Transfer, RECEIVED at once. To one set to accept manually (`manualPushReceivers`, control plane): the
   * amount is held from the sender (a withdrawal hold with its own id) and the push stays PENDING until the
   * control plane receives, refuses or cancels it (`setPushStatus`).
   */
  push(uid: number, receiveUid: number, currency: string, units: bigint, done: Done<PushRecord>): void {
    const manual = this.manualPushReceivers.has(receiveUid);
    const holdId = manual ? ++this.#lastWithdrawalId : 0;
    const c = this.#fill(manual ? CommandType.WithdrawHold : CommandType.Transfer, uid, currency, units);
    if (manual) {
      c.orderId = holdId;
    } else {
      c.kind = AccountKind.Spot; c.toUid = receiveUid; c.toKind = AccountKind.Spot; c.side = TransferPurpose.Push;
    }
    this.#gateway.submit(c, (code) => {
      if (code !== ResultCode.Ok) return done(code);
      const p: PushRecord = { id: this.pushes.length + 1, pushUid: uid, receiveUid, currency, units, createdUs: this.nowUs,
        status: manual ? 'PENDING' : 'RECEIVED', message: manual ? 'waiting for the receiver to accept' : '', holdId, busy: false };
      this.pushes.push(p);
      done(ResultCode.Ok, p);
    });
  }

  /**
   * Control plane: ends a PENDING push. RECEIVED releases the hold and transfers the amount to the receiver
   * (RECEIVING while in the engine); REFUSED and CANCELLED return it to the sender (REFUSING, CANCELLING).
   * InvalidParam for an unknown push, one not PENDING, or another status.
   */
  setPushStatus(id: number, status: string, done: Done<PushRecord>): void {
    const p = this.pushes[id - 1];
    if (p === undefined || p.busy || p.status !== 'PENDING') return done(ResultCode.InvalidParam);
    const via = ({ RECEIVED: 'RECEIVING', REFUSED: 'REFUSING', CANCELLED: 'CANCELLING' } as const)[status as 'RECEIVED'];
    if (via === undefined) return done(ResultCode.InvalidParam);
    p.status = via; p.busy = true;
    const release = this.#fill(CommandType.WithdrawRelease, p.pushUid, p.currency, 0n);
    release.orderId = p.holdId;
    this.#gateway.submit(release, (code) => {
      if (code !== ResultCode.Ok) {
        p.status = 'PENDING'; p.busy = false;
        return done(code);
      }
      p.holdId = 0;
      if (status !== 'RECEIVED') {
        p.status = status as PushRecord['status']; p.message = status === 'REFUSED' ? 'refused by the receiver' : 'cancelled'; p.busy = false;
        return done(ResultCode.Ok, p);
      }
      const t = this.#fill(CommandType.Transfer, p.pushUid, p.currency, p.units);
      t.kind = AccountKind.Spot; t.toUid = p.receiveUid; t.toKind = AccountKind.Spot; t.side = TransferPurpose.Push;
      this.#gateway.submit(t, (tc) => {
        p.busy = false;
        // The released amount went back to the sender's available balance; if it was spent in between, the
        // push cannot complete and ends CANCELLED with the reason.
        if (tc === ResultCode.Ok) {
          p.status = 'RECEIVED'; p.message = '';
        } else {
          p.status = 'CANCELLED'; p.message = 'the sender no longer has the amount';
        }
        done(ResultCode.Ok, p);
      });
    });
  }

  /** Advances every unfinished record to the clock's now. */
  tick(): void {
    for (const d of this.deposits) if (d.status === 'TRACK' || d.status === 'DEP_CREDITED') this.#advanceDeposit(d, noop);
    for (const w of this.withdrawals) if (!WITHDRAWAL_FINAL.has(w.status)) this.#advanceWithdrawal(w, noop);
  }

  #advanceDeposit(d: DepositRecord, then: () => void, steps = 0): void {
    const spec = this.chain(d.currency, d.chain);
    const step = spec === undefined || d.busy || steps >= MAX_STEPS ? undefined : depositStep(d, spec, this.nowUs);
    if (step === undefined) return then();
    if (!step.credit) {
      d.status = step.next;
      return this.#advanceDeposit(d, then, steps + 1);
    }
    d.busy = true;
    const c = this.#fill(CommandType.Credit, d.uid, d.currency, d.units);
    c.kind = AccountKind.Spot;
    this.#gateway.submit(c, (code) => {
      d.busy = false;
      if (code !== ResultCode.Ok) { d.status = 'INVALID'; return then(); }
      d.credited = true;
      d.status = step.next;
      this.#advanceDeposit(d, then, steps + 1);
    });
  }

  #advanceWithdrawal(w: WithdrawalRecord, then: () => void, steps = 0): void {
    const spec = this.chain(w.currency, w.chain);
    const step = spec === undefined || w.busy || steps >= MAX_STEPS ? undefined : withdrawalStep(w, spec, this.nowUs);
    if (step === undefined) return then();
    if (step.settle) return this.#settle(w, step.atUs, then);
    w.status = step.next;
    w.changedUs = step.atUs;
    if (step.next === 'EXTPEND') {
      w.txid = txidFor(w.chain, `w${w.id}`);
      w.blockNumber = String(spec!.blockTimeMs === 0 ? w.id : Math.floor(step.atUs / (spec!.blockTimeMs * 1000)));
    }
    this.#advanceWithdrawal(w, then, steps + 1);
  }

  #settle(w: WithdrawalRecord, atUs: number, then: () => void): void {
    w.busy = true;
    const c = this.#fill(CommandType.WithdrawSettle, w.uid, w.currency, w.fee);
    c.orderId = w.id;
    this.#gateway.submit(c, (code) => {
      w.busy = false;
      if (code !== ResultCode.Ok) return then();
      if (w.txid === '') { w.txid = txidFor(w.chain, `w${w.id}`); w.blockNumber = '0'; }
      w.status = 'DONE'; w.changedUs = atUs; w.finishedUs = atUs;
      then();
    });
  }

  #finishWithdrawal(w: WithdrawalRecord, status: WithdrawalStatus, reason: string, done: Done<WithdrawalRecord>): void {
    w.busy = true;
    const c = this.#fill(CommandType.WithdrawRelease, w.uid, w.currency, 0n);
    c.orderId = w.id;
    this.#gateway.submit(c, (code) => {
      w.busy = false;
      if (code !== ResultCode.Ok) return done(code);
      const now = this.nowUs;
      w.status = status; w.failReason = reason; w.changedUs = now; w.finishedUs = now;
      done(ResultCode.Ok, w);
    });
  }

  /** Fills the shared command with a funds command's type, owner, currency and units (text when wide). */
  #fill(type: number, uid: number, currency: string, units: bigint): Command {
    const ex = this.#gateway.exchange;
    const c = this.#cmd.clear();
    c.type = type; c.uid = uid; c.currency = ex.currencyIndex(currency);
    if (ex.ledger.isWide(currency)) c.text = units === 0n ? '' : units.toString();
    else c.amount = Number(units);
    return c;
  }
}

const noop = (): void => undefined;
