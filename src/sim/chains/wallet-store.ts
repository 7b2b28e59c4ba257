/**
 * The chain simulation's journaled state: every deposit, withdrawal, push, saved address, chain switch,
 * push-receiver setting and issued deposit address is one record in the exchange's record table
 * (engine/records.ts), under `wallet/`:
 *
 *   wallet/deposit/<id>                 {id, uid, currency, chain, units, address, memo, txid, created_us, status, credited}
 *   wallet/withdrawal/<id>              {id, uid, currency, chain, units, fee, address, memo, withdraw_order_id, asset_class,
 *                                        created_us, changed_us, status, txid, block_number, fail_reason, finished_us, internal}
 *   wallet/push/<id>                    {id, push_uid, receive_uid, currency, units, created_us, status, message, hold_id}
 *   wallet/saved/<n>                    {n, uid, currency, chain, address, name, tag, verified}
 *   wallet/chain/<currency>/<chain>     {deposit_enabled, withdraw_enabled, deposit_hold, withdraw_hold}
 *   wallet/push_receiver/<uid>          {manual}
 *   wallet/address/<currency>/<chain>/<uid>  {address, memo}
 *
 * Amounts (`units`, `fee`) are decimal strings of integer units of the currency (exact, any width); times are
 * µs of the engine clock. Each record is the entity's whole state.
 *
 * Contract: `apply` is the only way this state changes, both in a command's `done` (Ok) and at start-up from
 * the table (`restore`), so the live state and the restored one are the same projection of the records.
 * Id counters never go back: the next id is above every id applied or handed out (`allocate*`), so a
 * restart continues after the last journaled id (a handed-out id whose command never landed may be reused:
 * no one saw it).
 *
 * Costs: apply is O(1) amortized (records arrive in id order; an earlier id is inserted in place);
 * restore is one pass over the table's rows.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { recordRows } from '../../engine/records.js';
import { AddressBook } from './addresses.js';
import type { ChainSpec } from './chain-spec.js';
import type { DepositRecord, DepositStatus, PushRecord, PushStatus, SavedAddress, WithdrawalRecord, WithdrawalStatus } from './records.js';

export const WALLET_PREFIX = 'wallet/';
export const depositKey = (id: number): string => `wallet/deposit/${id}`;
export const withdrawalKey = (id: number): string => `wallet/withdrawal/${id}`;
export const pushKey = (id: number): string => `wallet/push/${id}`;
export const savedKey = (n: number): string => `wallet/saved/${n}`;
export const chainKey = (currency: string, chain: string): string => `wallet/chain/${currency}/${chain}`;
export const pushReceiverKey = (uid: number): string => `wallet/push_receiver/${uid}`;
export const addressKey = (currency: string, chain: string, uid: number): string => `wallet/address/${currency}/${chain}/${uid}`;

/** A chain's switches as the control plane sets them. */
export interface ChainSwitches {
  readonly deposit_enabled: boolean;
  readonly withdraw_enabled: boolean;
  readonly deposit_hold: '' | 'MANUAL' | 'REVIEW';
  readonly withdraw_hold: '' | 'MANUAL' | 'REVIEW';
}

export const switchesOf = (s: ChainSpec): ChainSwitches =>
  ({ deposit_enabled: s.depositEnabled, withdraw_enabled: s.withdrawEnabled, deposit_hold: s.depositHold, withdraw_hold: s.withdrawHold });

type Json = Record<string, unknown>;

export const depositJson = (d: DepositRecord): Json => ({ id: d.id, uid: d.uid, currency: d.currency, chain: d.chain,
  units: d.units.toString(), address: d.address, memo: d.memo, txid: d.txid, created_us: d.createdUs, status: d.status, credited: d.credited });

const depositOf = (j: Json): DepositRecord => ({ id: j.id as number, uid: j.uid as number, currency: j.currency as string,
  chain: j.chain as string, units: BigInt(j.units as string), address: j.address as string, memo: j.memo as string,
  txid: j.txid as string, createdUs: j.created_us as number, status: j.status as DepositStatus, credited: j.credited as boolean });

export const withdrawalJson = (w: WithdrawalRecord): Json => ({ id: w.id, uid: w.uid, currency: w.currency, chain: w.chain,
  units: w.units.toString(), fee: w.fee.toString(), address: w.address, memo: w.memo, withdraw_order_id: w.withdrawOrderId,
  asset_class: w.assetClass, created_us: w.createdUs, changed_us: w.changedUs, status: w.status, txid: w.txid,
  block_number: w.blockNumber, fail_reason: w.failReason, finished_us: w.finishedUs, internal: w.internal });

const withdrawalOf = (j: Json): WithdrawalRecord => ({ id: j.id as number, uid: j.uid as number, currency: j.currency as string,
  chain: j.chain as string, units: BigInt(j.units as string), fee: BigInt(j.fee as string), address: j.address as string,
  memo: j.memo as string, withdrawOrderId: j.withdraw_order_id as string, assetClass: j.asset_class as string,
  createdUs: j.created_us as number, changedUs: j.changed_us as number, status: j.status as WithdrawalStatus,
  txid: j.txid as string, blockNumber: j.block_number as string, failReason: j.fail_reason as string,
  finishedUs: j.finished_us as number, internal: j.internal as boolean });

export const pushJson = (p: PushRecord): Json => ({ id: p.id, push_uid: p.pushUid, receive_uid: p.receiveUid, currency: p.currency,
  units: p.units.toString(), created_us: p.createdUs, status: p.status, message: p.message, hold_id: p.holdId });

const pushOf = (j: Json): PushRecord => ({ id: j.id as number, pushUid: j.push_uid as number, receiveUid: j.receive_uid as number,
  currency: j.currency as string, units: BigInt(j.units as string), createdUs: j.created_us as number,
  status: j.status as PushStatus, message: j.message as string, holdId: j.hold_id as number });

export const savedJson = (n: number, s: SavedAddress): Json => ({ n, ...s });

/** Records kept in id order, with an index by id. */
class ById<T extends { readonly id: number }> {
  readonly list: T[] = [];
  readonly #at = new Map<number, T>();

  get(id: number): T | undefined {
    return this.#at.get(id);
  }

  /** Puts `r` (replacing the record of its id). O(1) when ids arrive in order. */
  put(r: T): void {
    const l = this.list;
    if (this.#at.has(r.id)) {
      l[this.#index(r.id)] = r;
    } else if (l.length === 0 || l[l.length - 1]!.id < r.id) {
      l.push(r);
    } else {
      l.splice(this.#index(r.id), 0, r);
    }
    this.#at.set(r.id, r);
  }

  /** Position of `id` in the list, or where it would go (binary search). */
  #index(id: number): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.list[mid]!.id < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export class WalletStore {
  readonly addresses = new AddressBook();
  readonly #deposits = new ById<DepositRecord>();
  readonly #withdrawals = new ById<WithdrawalRecord>();
  readonly #pushes = new ById<PushRecord>();
  readonly #saved = new ById<SavedAddress & { id: number }>();
  readonly manualPushReceivers = new Set<number>();
  readonly #chains: Map<string, ChainSpec[]>;
  /** Highest ids applied or handed out: deposits, withdrawals (and push holds), pushes, saved addresses. */
  #lastDeposit = 0;
  #lastWithdrawal = 0;
  #lastPush = 0;
  #lastSaved = 0;

  /** The store over `chains` (whose switches it sets), rebuilt from `exchange`'s records. */
  constructor(chains: Map<string, ChainSpec[]>, exchange: Exchange) {
    this.#chains = chains;
    for (const row of recordRows(exchange, WALLET_PREFIX)) this.apply(row.key, row.value);
  }

  /** Deposits in id order. */
  get deposits(): readonly DepositRecord[] {
    return this.#deposits.list;
  }

  /** Withdrawals in id order. */
  get withdrawals(): readonly WithdrawalRecord[] {
    return this.#withdrawals.list;
  }

  /** Pushes in id order. */
  get pushes(): readonly PushRecord[] {
    return this.#pushes.list;
  }

  /** Saved addresses in the order they were added. */
  get saved(): readonly SavedAddress[] {
    return this.#saved.list;
  }

  deposit(id: number): DepositRecord | undefined {
    return this.#deposits.get(id);
  }

  withdrawal(id: number): WithdrawalRecord | undefined {
    return this.#withdrawals.get(id);
  }

  push(id: number): PushRecord | undefined {
    return this.#pushes.get(id);
  }

  allocateDeposit(): number {
    return ++this.#lastDeposit;
  }

  /** A withdrawal id, or the hold id of a push waiting for its receiver (one numbering: ledger holds). */
  allocateWithdrawal(): number {
    return ++this.#lastWithdrawal;
  }

  allocatePush(): number {
    return ++this.#lastPush;
  }

  allocateSaved(): number {
    return ++this.#lastSaved;
  }

  /** Applies every record of `puts` (the object a command carried) in its key order. */
  applyAll(puts: Readonly<Record<string, unknown>>): void {
    for (const [key, value] of Object.entries(puts)) this.apply(key, value);
  }

  /** Applies one record (parsed JSON) under `key`; keys of other kinds, or of unknown chains, are ignored. */
  apply(key: string, value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    const j = value as Json;
    const parts = key.split('/');
    switch (parts[1]) {
      case 'deposit': {
        const d = depositOf(j);
        this.#deposits.put(d);
        this.#lastDeposit = Math.max(this.#lastDeposit, d.id);
        return;
      }
      case 'withdrawal': {
        const w = withdrawalOf(j);
        this.#withdrawals.put(w);
        this.#lastWithdrawal = Math.max(this.#lastWithdrawal, w.id);
        return;
      }
      case 'push': {
        const p = pushOf(j);
        this.#pushes.put(p);
        this.#lastPush = Math.max(this.#lastPush, p.id);
        this.#lastWithdrawal = Math.max(this.#lastWithdrawal, p.holdId);
        return;
      }
      case 'saved': {
        const { n, ...row } = j as unknown as SavedAddress & { n: number };
        this.#saved.put({ ...row, id: n });
        this.#lastSaved = Math.max(this.#lastSaved, n);
        return;
      }
      case 'chain': {
        const spec = this.#chains.get(parts[2]!)?.find((c) => c.chain === parts[3]);
        if (spec === undefined) return;
        const s = j as unknown as ChainSwitches;
        spec.depositEnabled = s.deposit_enabled; spec.withdrawEnabled = s.withdraw_enabled;
        spec.depositHold = s.deposit_hold; spec.withdrawHold = s.withdraw_hold;
        return;
      }
      case 'push_receiver': {
        const uid = Number(parts[2]);
        if (j.manual === true) this.manualPushReceivers.add(uid);
        else this.manualPushReceivers.delete(uid);
        return;
      }
      case 'address':
        this.addresses.remember(parts[2]!, parts[3]!, Number(parts[4]), j.address as string, j.memo as string);
        return;
      default:
    }
  }
}
