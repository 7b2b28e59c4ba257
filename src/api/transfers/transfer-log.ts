/**
 * Records of completed transfers (own accounts, main ↔ sub, sub → sub), for GET /wallet/order_status and
 * GET /wallet/sub_account_transfers, and the `client_order_id` index that makes a repeated request harmless.
 *
 * The funds themselves moved through an engine Transfer command; `txId` is that command's sequence number,
 * so it is unique and increasing. A rejected transfer leaves no record (its client_order_id stays free).
 * Retention: the newest `capacity` records; older ones are dropped with their client_order_id.
 * Costs: O(1) add and lookup by id; listing scans the retained main ↔ sub records newest first.
 */
import type { ApiDeps } from '../deps.js';

export type TransferKind = 'account' | 'sub' | 'sub-to-sub';

export interface TransferRecord {
  readonly txId: number;
  readonly kind: TransferKind;
  /** The signer. */
  readonly initiator: number;
  /** The main account of every party. */
  readonly mainUid: number;
  /** µs since the epoch (engine time of the command). */
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

const DEFAULT_CAPACITY = 100_000;

export class TransferLog {
  readonly #capacity: number;
  readonly #byTx = new Map<number, TransferRecord>();
  readonly #byClient = new Map<string, TransferRecord>();
  readonly #pending = new Set<string>();

  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  add(r: TransferRecord): void {
    this.#byTx.set(r.txId, r);
    if (r.clientOrderId !== '') this.#byClient.set(clientKey(r.initiator, r.clientOrderId), r);
    if (this.#byTx.size > this.#capacity) {
      const oldest = this.#byTx.values().next().value!;
      this.#byTx.delete(oldest.txId);
      if (oldest.clientOrderId !== '') this.#byClient.delete(clientKey(oldest.initiator, oldest.clientOrderId));
    }
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

/** The transfer log of the server `deps` belongs to (created on first use). */
export function transferLogOf(deps: ApiDeps): TransferLog {
  let l = logs.get(deps);
  if (l === undefined) logs.set(deps, l = new TransferLog());
  return l;
}
