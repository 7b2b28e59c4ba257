/**
 * The chain simulation's driver: deposit, withdrawal and push records, advanced in the injected clock's time
 * (`tick()`; the composition root calls it on a timer and after POST /sim/clock), with every balance change
 * submitted to the engine as a command (Credit, Transfer, WithdrawHold / WithdrawSettle / WithdrawRelease).
 *
 * Contracts:
 * - Journaled: every change is a command carrying the new records (wallet-store.ts lists them): a deposit's
 *   creation and credit ride on its Credit, a withdrawal's creation on its WithdrawHold (an internal one's,
 *   with the receiver's deposit, on its Transfer), its end on WithdrawSettle / WithdrawRelease; status steps
 *   that move no money, switches, saved addresses and issued addresses are PutRecords. The store changes
 *   only when such a command succeeded, so a restart rebuilds exactly what was acknowledged and the walks go
 *   on from the journaled records (their timers are times in the records, on the engine clock).
 * - Changes to one record run one at a time (WalletCommands.serial); a walk's due steps go in one change.
 * - Funds: a withdrawal holds its amount at acceptance, the fee included (Gate's record amount includes the fee:
 *   the chain receives amount − fee); DONE settles (the fee to the platform fee account, amount − fee off the
 *   platform); FAIL, REJECT and CANCEL release the hold. An internal withdrawal (to an address
 *   this book issued to a user) is one Transfer with no fee, DONE at once, with a DONE deposit for the receiver.
 * Costs: tick is O(open records); queries scan a user's records.
 */
import type { Clock } from '../../core/clock.js';
import { CommandType } from '../../core/command.js';
import { TransferPurpose } from '../../core/ledger/account-book.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';
import type { RecordPutsMap } from '../../engine/records.js';
import type { AddressBook } from './addresses.js';
import { txidFor } from './addresses.js';
import type { ChainSpec } from './chain-spec.js';
import {
  countsAgainstLimit, dayStartUs, type DepositRecord, type DepositStatus, type PushRecord, type SavedAddress, settled,
  walkDeposit, walkWithdrawal, WITHDRAWAL_CANCELLABLE, WITHDRAWAL_FINAL, type WithdrawalRecord, type WithdrawalStatus,
} from './records.js';
import { answerThenRelease, transient, WalletCommands } from './wallet-commands.js';
import { PushDesk } from './wallet-pushes.js';
import {
  addressKey, chainKey, type ChainSwitches, depositJson, depositKey, pushReceiverKey, savedJson, savedKey, switchesOf,
  WalletStore, withdrawalJson, withdrawalKey,
} from './wallet-store.js';

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

const noop = (): void => undefined;

export class WalletSim {
  readonly lowCap: readonly string[];
  readonly store: WalletStore;
  readonly #clock: Clock;
  readonly #chains: Map<string, ChainSpec[]>;
  readonly #do: WalletCommands;
  readonly #pushes: PushDesk;
  /** Records with an advance queued and not yet started → the callbacks waiting for it. */
  readonly #advancing = new Map<string, (() => void)[]>();
  /** Users with a withdrawal in the engine (the next one waits for its answer: TOO_FAST). */
  readonly #withdrawing = new Set<number>();

  /** The simulation over `chains`, its records rebuilt from `gateway`'s exchange (a restart resumes them). */
  constructor(gateway: ExchangeGateway, clock: Clock, chains: Map<string, ChainSpec[]>, lowCap: readonly string[] = []) {
    this.#clock = clock;
    this.#chains = chains;
    this.lowCap = lowCap;
    this.store = new WalletStore(chains, gateway.exchange);
    this.#do = new WalletCommands(gateway, this.store);
    this.#pushes = new PushDesk(this.#do, clock);
  }

  get nowUs(): number {
    return this.#clock.nowUs();
  }

  get deposits(): readonly DepositRecord[] {
    return this.store.deposits;
  }

  get withdrawals(): readonly WithdrawalRecord[] {
    return this.store.withdrawals;
  }

  get pushes(): readonly PushRecord[] {
    return this.store.pushes;
  }

  get saved(): readonly SavedAddress[] {
    return this.store.saved;
  }

  get addresses(): AddressBook {
    return this.store.addresses;
  }

  /** Receivers whose incoming pushes wait PENDING for the control plane. */
  get manualPushReceivers(): ReadonlySet<number> {
    return this.store.manualPushReceivers;
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
    return this.store.withdrawal(id);
  }

  /** Amount of `currency` credited to `uid` by deposits still locked for withdrawal (DEP_CREDITED). */
  lockedByDeposits(uid: number, currency: string): bigint {
    let sum = 0n;
    for (const d of this.store.deposits) if (d.uid === uid && d.currency === currency && d.status === 'DEP_CREDITED') sum += d.units;
    return sum;
  }

  /** What `uid` withdrew on `spec` today (clock's UTC day), funds-returning outcomes excluded. */
  usedToday(uid: number, spec: ChainSpec): bigint {
    const day = dayStartUs(this.nowUs);
    let sum = 0n;
    for (const w of this.store.withdrawals) {
      if (w.uid === uid && w.currency === spec.currency && w.chain === spec.chain && w.createdUs >= day && countsAgainstLimit(w)) sum += w.units;
    }
    return sum;
  }

  /** When `uid`'s last accepted withdrawal was made (µs), or undefined; also while one is in the engine (now). */
  lastWithdrawalUs(uid: number): number | undefined {
    if (this.#withdrawing.has(uid)) return this.nowUs;
    const ws = this.store.withdrawals;
    for (let i = ws.length - 1; i >= 0; i--) if (ws[i]!.uid === uid) return ws[i]!.createdUs;
    return undefined;
  }

  /** When `uid`'s last push was made (µs), or undefined; also while one is in the engine (now). */
  lastPushUs(uid: number): number | undefined {
    return this.#pushes.lastPushUs(uid);
  }

  /**
   * The deposit addresses of `uid` on `specs`, issuing (journaling) those never issued before; `done` gets
   * Ok once they are recorded, or the engine's refusal.
   */
  depositAddresses(uid: number, specs: readonly ChainSpec[], done: (code: ResultCode) => void): void {
    const puts: Record<string, unknown> = {};
    for (const s of specs) {
      if (!this.addresses.issued(uid, s)) puts[addressKey(s.currency, s.chain, uid)] = this.addresses.addressOf(uid, s);
    }
    if (Object.keys(puts).length === 0) return done(ResultCode.Ok);
    this.#do.submit(this.#do.records(), puts, done);
  }

  /** A deposit arriving on `spec` for `uid` (control plane). Answers the record once its first step applied. */
  deposit(uid: number, spec: ChainSpec, units: bigint, done: Done<DepositRecord>): void {
    const { address, memo } = this.addresses.addressOf(uid, spec);
    const id = this.store.allocateDeposit();
    const status: DepositStatus = !spec.depositEnabled ? 'BLOCKED' : spec.depositHold !== '' ? spec.depositHold : 'TRACK';
    const d: DepositRecord = { id, uid, currency: spec.currency, chain: spec.chain, units, address, memo,
      txid: txidFor(spec.chain, `d${id}`), createdUs: this.nowUs, status, credited: false };
    const issue = this.addresses.issued(uid, spec) ? {} : { [addressKey(spec.currency, spec.chain, uid)]: { address, memo } };
    this.#do.serial(depositKey(id), (release) => this.#stepDeposit(d, true, issue, (code) => {
      answerThenRelease(() => done(code, this.store.deposit(id)), release);
    }));
  }

  /**
   * One change of deposit `d` (`created`: its first, which puts it even when no step is due): every step due
   * now, on a Credit when one credits. A refused Credit (the currency's supply is full) ends it INVALID,
   * uncredited; a transient refusal leaves it for the next tick (a new one is not created).
   */
  #stepDeposit(d: DepositRecord, created: boolean, extra: RecordPutsMap, then: (code: ResultCode) => void): void {
    const spec = this.chain(d.currency, d.chain);
    const walk = spec === undefined ? undefined : walkDeposit(d, spec, this.nowUs);
    if (walk === undefined && !created) return then(ResultCode.Ok);
    const puts = { ...extra, [depositKey(d.id)]: depositJson(walk?.next ?? d) };
    if (walk?.credit !== true) return this.#do.submit(this.#do.records(), puts, then);
    const c = this.#do.fill(CommandType.Credit, d.uid, d.currency, d.units);
    c.kind = AccountKind.Spot;
    this.#do.submit(c, puts, (code) => {
      if (code === ResultCode.Ok || transient(code)) return then(code);
      this.#do.submit(this.#do.records(), { ...extra, [depositKey(d.id)]: depositJson({ ...d, status: 'INVALID' }) }, then);
    });
  }

  /** Accepts a validated withdrawal: holds its amount, fee included (or transfers internally), and answers the record. */
  withdraw(uid: number, r: WithdrawRequest, done: Done<WithdrawalRecord>): void {
    const receiver = this.addresses.ownerOf(r.spec, r.address, r.memo);
    const internal = receiver !== 0;
    const now = this.nowUs;
    const id = this.store.allocateWithdrawal();
    const chain = r.spec.chain;
    let w: WithdrawalRecord = { id, uid, currency: r.currency, chain, units: r.units, fee: internal ? 0n : r.fee,
      address: r.address, memo: r.memo, withdrawOrderId: r.withdrawOrderId, assetClass: r.assetClass, createdUs: now,
      changedUs: now, status: r.spec.withdrawHold !== '' ? r.spec.withdrawHold : 'REQUEST', txid: '', blockNumber: '',
      failReason: '', finishedUs: 0, internal };
    const puts: Record<string, unknown> = {};
    const c = this.#do.fill(internal ? CommandType.Transfer : CommandType.WithdrawHold, uid, r.currency, r.units);
    if (internal) {
      c.kind = AccountKind.Spot; c.toUid = receiver; c.toKind = AccountKind.Spot; c.side = TransferPurpose.InternalWithdrawal;
      w = { ...w, status: 'DONE', finishedUs: now, txid: txidFor(chain, `w${id}`), blockNumber: '0' };
      const dep: DepositRecord = { id: this.store.allocateDeposit(), uid: receiver, currency: r.currency, chain, units: r.units,
        address: r.address, memo: r.memo, txid: w.txid, createdUs: now, status: 'DONE', credited: true };
      puts[withdrawalKey(id)] = withdrawalJson(w);
      puts[depositKey(dep.id)] = depositJson(dep);
    } else {
      c.orderId = id;
      puts[withdrawalKey(id)] = withdrawalJson(w);
    }
    this.#withdrawing.add(uid);
    this.#do.submit(c, puts, (code) => {
      this.#withdrawing.delete(uid);
      done(code, this.store.withdrawal(id));
    });
  }

  /** The owner's cancel: only from a cancellable status (the hold is released, status CANCEL). */
  cancel(uid: number, id: number, done: Done<WithdrawalRecord>): void {
    this.#do.serial(withdrawalKey(id), (release) => {
      const w = this.store.withdrawal(id);
      const answer = (code: ResultCode): void => { answerThenRelease(() => done(code, this.store.withdrawal(id)), release); };
      if (w === undefined || w.uid !== uid) return answer(ResultCode.InvalidWithdrawId);
      if (!WITHDRAWAL_CANCELLABLE.has(w.status)) return answer(ResultCode.InvalidWithdrawCancelStatus);
      this.#finishWithdrawal(w, 'CANCEL', 'cancelled by the user', answer);
    });
  }

  /**
   * Control plane: MANUAL / REVIEW hold a walking withdrawal, RESUME continues a held one, FAIL / REJECT /
   * CANCEL end any unfinished one (hold released), DONE settles it at once.
   */
  setWithdrawalStatus(id: number, status: string, reason: string, done: Done<WithdrawalRecord>): void {
    this.#do.serial(withdrawalKey(id), (release) => {
      const w = this.store.withdrawal(id);
      const answer = (code: ResultCode): void => { answerThenRelease(() => done(code, this.store.withdrawal(id)), release); };
      if (w === undefined) return answer(ResultCode.InvalidWithdrawId);
      if (WITHDRAWAL_FINAL.has(w.status)) return answer(ResultCode.InvalidWithdrawCancelStatus);
      const now = this.nowUs;
      if (status === 'MANUAL' || status === 'REVIEW') {
        if (w.status === 'EXTPEND') return answer(ResultCode.InvalidWithdrawCancelStatus);
        return this.#stepWithdrawal({ ...w, status, changedUs: now }, true, answer);
      }
      if (status === 'RESUME') {
        if (w.status !== 'MANUAL' && w.status !== 'REVIEW') return answer(ResultCode.InvalidWithdrawCancelStatus);
        return this.#stepWithdrawal({ ...w, status: 'REQUEST', changedUs: now }, true, answer);
      }
      if (status === 'FAIL' || status === 'REJECT' || status === 'CANCEL') {
        return this.#finishWithdrawal(w, status, reason === '' ? `${status.toLowerCase()} by the platform` : reason, answer);
      }
      if (status === 'DONE') return this.#settle(settled(w, now), answer);
      answer(ResultCode.InvalidParam);
    });
  }

  /** Control plane: MANUAL / REVIEW hold a tracking deposit, RESUME continues it, INVALID ends it uncredited. */
  setDepositStatus(id: number, status: string, done: Done<DepositRecord>): void {
    this.#do.serial(depositKey(id), (release) => {
      const d = this.store.deposit(id);
      const answer = (code: ResultCode): void => { answerThenRelease(() => done(code, this.store.deposit(id)), release); };
      if (d === undefined) return answer(ResultCode.InvalidParam);
      const held = d.status === 'MANUAL' || d.status === 'REVIEW';
      if (d.status !== 'TRACK' && !held) return answer(ResultCode.InvalidParam);
      if (status === 'MANUAL' || status === 'REVIEW' || status === 'INVALID') {
        return this.#do.submit(this.#do.records(), { [depositKey(id)]: depositJson({ ...d, status }) }, answer);
      }
      if (status === 'RESUME' && held) return this.#stepDeposit({ ...d, status: 'TRACK' }, true, {}, answer);
      answer(ResultCode.InvalidParam);
    });
  }

  /** A UID push (see PushDesk). */
  push(uid: number, receiveUid: number, currency: string, units: bigint, done: Done<PushRecord>): void {
    this.#pushes.push(uid, receiveUid, currency, units, done);
  }

  /** Control plane: ends a PENDING push (see PushDesk). */
  setPushStatus(id: number, status: string, done: Done<PushRecord>): void {
    this.#pushes.setStatus(id, status, done);
  }

  /** Control plane: sets whether `uid` accepts pushes manually. */
  setManualPushReceiver(uid: number, manual: boolean, done: (code: ResultCode) => void): void {
    this.#do.serial(pushReceiverKey(uid), (release) => {
      const answer = (code: ResultCode): void => { answerThenRelease(() => done(code), release); };
      if (this.store.manualPushReceivers.has(uid) === manual) return answer(ResultCode.Ok);
      this.#do.submit(this.#do.records(), { [pushReceiverKey(uid)]: { manual } }, answer);
    });
  }

  /** Control plane: changes `spec`'s switches (fields left out keep their value); answers the switches. */
  setChainSwitches(spec: ChainSpec, change: Partial<ChainSwitches>, done: Done<ChainSwitches>): void {
    const key = chainKey(spec.currency, spec.chain);
    this.#do.serial(key, (release) => {
      const answer = (code: ResultCode): void => { answerThenRelease(() => done(code, switchesOf(spec)), release); };
      const now = switchesOf(spec);
      const next: ChainSwitches = { ...now, ...change };
      if (JSON.stringify(next) === JSON.stringify(now)) return answer(ResultCode.Ok);
      this.#do.submit(this.#do.records(), { [key]: next }, answer);
    });
  }

  /** Control plane: adds a row to a user's saved addresses. */
  addSavedAddress(row: SavedAddress, done: (code: ResultCode) => void): void {
    const n = this.store.allocateSaved();
    this.#do.submit(this.#do.records(), { [savedKey(n)]: savedJson(n, row) }, done);
  }

  /** Advances every unfinished record to the clock's now; `then` runs once all those changes are answered. */
  tick(then: () => void = noop): void {
    let pending = 1;
    const one = (): void => { if (--pending === 0) then(); };
    for (const d of this.store.deposits) {
      if (d.status !== 'TRACK' && d.status !== 'DEP_CREDITED') continue;
      pending++;
      this.#advance(depositKey(d.id), (release) => {
        const now = this.store.deposit(d.id)!;
        this.#stepDeposit(now, false, {}, release);
      }, one);
    }
    for (const w of this.store.withdrawals) {
      if (WITHDRAWAL_FINAL.has(w.status)) continue;
      pending++;
      this.#advance(withdrawalKey(w.id), (release) => this.#stepWithdrawal(this.store.withdrawal(w.id)!, false, release), one);
    }
    one();
  }

  /**
   * Queues one advance of the record `key` (`run` reads the record when its turn comes); a tick finding
   * one queued and not started waits for it instead of queueing another.
   */
  #advance(key: string, run: (release: () => void) => void, then: () => void): void {
    const waiting = this.#advancing.get(key);
    if (waiting !== undefined) {
      waiting.push(then);
      return;
    }
    const waiters = [then];
    this.#advancing.set(key, waiters);
    this.#do.serial(key, (release) => {
      this.#advancing.delete(key);
      run(() => answerThenRelease(() => { for (const w of waiters) w(); }, release));
    });
  }

  /**
   * One change of withdrawal `w`: its steps due now (a settle on WithdrawSettle, the others PutRecords).
   * `changed`: `w` is already a new state to record (a control-plane switch) even when nothing is due.
   */
  #stepWithdrawal(w: WithdrawalRecord, changed: boolean, then: (code: ResultCode) => void): void {
    const spec = this.chain(w.currency, w.chain);
    const walk = spec === undefined || WITHDRAWAL_FINAL.has(w.status) ? undefined : walkWithdrawal(w, spec, this.nowUs);
    if (walk?.settle === true) return this.#settle(walk.next, then);
    if (walk === undefined && !changed) return then(ResultCode.Ok);
    this.#do.submit(this.#do.records(), { [withdrawalKey(w.id)]: withdrawalJson(walk?.next ?? w) }, then);
  }

  /** Settles withdrawal `done` (its DONE record): the fee to the platform, the rest off it. */
  #settle(done: WithdrawalRecord, then: (code: ResultCode) => void): void {
    const c = this.#do.fill(CommandType.WithdrawSettle, done.uid, done.currency, done.fee);
    c.orderId = done.id;
    this.#do.submit(c, { [withdrawalKey(done.id)]: withdrawalJson(done) }, then);
  }

  #finishWithdrawal(w: WithdrawalRecord, status: WithdrawalStatus, reason: string, then: (code: ResultCode) => void): void {
    const c = this.#do.fill(CommandType.WithdrawRelease, w.uid, w.currency, 0n);
    c.orderId = w.id;
    const now = this.nowUs;
    const next: WithdrawalRecord = { ...w, status, failReason: reason, changedUs: now, finishedUs: now };
    this.#do.submit(c, { [withdrawalKey(w.id)]: withdrawalJson(next) }, then);
  }
}
