/**
 * Records of completed transfers (own accounts, main ↔ sub, sub → sub), for GET /wallet/order_status and
 * GET /wallet/sub_account_transfers, and the `client_order_id` index that makes a repeated request harmless.
 *
 * Journaled (engine/records.ts): each transfer's record rides on its own Transfer command, so the record and
 * its client_order_id land with the funds or not at all, and a restart rebuilds the log from the record
 * table. Record: `transfer/<slot>` → {n, kind, initiator, main_uid, time_us, currency, amount, client_order_id,
 * fingerprint, sub_uid, sub_type, direction}; `n` numbers transfers (1, 2, …, handed out at submit) and the
 * slot is n mod capacity, so the table keeps at most `capacity` transfer rows: the newest, each one replacing
 * the one `capacity` before it (dropped with its client_order_id). `txId` is the sequence number of the
 * command that put the row (unique and increasing); `time_us` is the engine clock when it was submitted.
 * A rejected transfer puts nothing (its client_order_id stays free).
 *
 * Contract: the indexes change only in `apply`, from the Transfer's `done` (Ok) and at construction from the
 * table, so the live log and a restarted one are the same.
 * Costs: O(1) add and lookup by id; listing scans the retained main ↔ sub records newest first.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { recordRows } from '../../engine/records.js';
import type { ApiDeps } from '../deps.js';

export type TransferKind = 'account' | 'sub' | 'sub-to-sub';

export interface TransferRecord {
  readonly txId: number;
  readonly kind: TransferKind;
  /** The signer. */
  readonly initiator: number;
  /** The main account of every party. */
  readonly mainUid: number;
  /** µs since the epoch (engine clock when the transfer was submitted). */
  readonly timeUs: number;
  readonly currency: string;
  /** Decimal string as moved. */
  readonly amount: string;
  /** '' when none was given. */
  readonly clientOrderId: string;
  /** The request's parameters, compared when a client_order_id is reused. */
  readonly fingerprint: string;
  /** main ↔ sub: the sub-account, its account type and the direction seen from the main account. */
  readonly subUid: number;
  readonly subType: string;
  readonly direction: 'to' | 'from' | '';
}

/** A transfer's record as journaled (see the module header). */
export interface TransferJson {
  readonly n: number;
  readonly kind: TransferKind;
  readonly initiator: number;
  readonly main_uid: number;
  readonly time_us: number;
  readonly currency: string;
  readonly amount: string;
  readonly client_order_id: string;
  readonly fingerprint: string;
  readonly sub_uid: number;
  readonly sub_type: string;
  readonly direction: 'to' | 'from' | '';
}

export const TRANSFER_PREFIX = 'transfer/';
const DEFAULT_CAPACITY = 100_000;

export class TransferLog {
  readonly #capacity: number;
  readonly #byTx = new Map<number, TransferRecord>();
  readonly #byClient = new Map<string, TransferRecord>();
  /** slot → the transfer number and tx id kept there. */
  readonly #slots = new Map<number, { n: number; txId: number }>();
  readonly #pending = new Set<string>();
  /** Highest transfer number applied or handed out. */
  #lastN = 0;

  /** The log, rebuilt from `exchange`'s transfer records. */
  constructor(exchange: Exchange, capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
    const rows = recordRows(exchange, TRANSFER_PREFIX).filter((r) => r.value !== null);
    rows.sort((a, b) => (a.value as TransferJson).n - (b.value as TransferJson).n);
    for (const r of rows) this.apply(r.value as TransferJson, r.seq);
  }

  /** The next transfer number and the record key it takes. */
  allocate(): { n: number; key: string } {
    const n = ++this.#lastN;
    return { n, key: `${TRANSFER_PREFIX}${n % this.#capacity}` };
  }

  /** Takes in transfer record `j`, put by the command of sequence number `txId`, dropping the one its slot held. */
  apply(j: TransferJson, txId: number): void {
    this.#lastN = Math.max(this.#lastN, j.n);
    const slot = j.n % this.#capacity;
    const old = this.#slots.get(slot);
    if (old !== undefined && old.n < j.n) {
      const gone = this.#byTx.get(old.txId);
      this.#byTx.delete(old.txId);
      if (gone !== undefined && gone.clientOrderId !== '') this.#byClient.delete(clientKey(gone.initiator, gone.clientOrderId));
    }
    this.#slots.set(slot, { n: j.n, txId });
    const r: TransferRecord = {
      txId, kind: j.kind, initiator: j.initiator, mainUid: j.main_uid, timeUs: j.time_us, currency: j.currency,
      amount: j.amount, clientOrderId: j.client_order_id, fingerprint: j.fingerprint, subUid: j.sub_uid,
      subType: j.sub_type, direction: j.direction,
    };
    this.#byTx.set(txId, r);
    if (r.clientOrderId !== '') this.#byClient.set(clientKey(r.initiator, r.clientOrderId), r);
  }

  /** A record `uid` may read (it signed it, or it is the main account of the parties). */
  byTxId(uid: number, txId: number): TransferRecord | undefined {
    const r = this.#byTx.get(txId);
    return r !== undefined && (r.initiator === uid || r.mainUid === uid) ? r : undefined;
  }

  /** The transfer `uid` made with this client_order_id. */
  byClientId(uid: number, clientOrderId: string): TransferRecord | undefined {
    return this.#byClient.get(clientKey(uid, clientOrderId));
  }

  /** Marks a client_order_id in flight; false when it already is (a concurrent repeat). */
  begin(uid: number, clientOrderId: string): boolean {
    if (clientOrderId === '') return true;
    const k = clientKey(uid, clientOrderId);
    if (this.#pending.has(k)) return false;
    this.#pending.add(k);
    return true;
  }

  end(uid: number, clientOrderId: string): void {
    this.#pending.delete(clientKey(uid, clientOrderId));
  }

  /** main ↔ sub records of `mainUid` matching the filter, newest first. @allocates */
  subTransfers(mainUid: number, subs: readonly number[] | undefined, fromUs: number, toUs: number): TransferRecord[] {
    const out: TransferRecord[] = [];
    for (const r of this.#byTx.values()) {
      if (r.kind !== 'sub' || r.mainUid !== mainUid || r.timeUs < fromUs || r.timeUs > toUs) continue;
      if (subs !== undefined && !subs.includes(r.subUid)) continue;
      out.push(r);
    }
    return out.reverse();
  }
}

const clientKey = (uid: number, id: string): string => `${uid}|${id}`;

const logs = new WeakMap<ApiDeps, TransferLog>();

/** The transfer log of the server `deps` belongs to (built from the journaled records on first use). */
export function transferLogOf(deps: ApiDeps): TransferLog {
  let l = logs.get(deps);
  if (l === undefined) logs.set(deps, l = new TransferLog(deps.gateway.exchange));
  return l;
}
