/**
 * UID pushes between main accounts, as journaled records (`wallet/push/<id>`, wallet-store.ts).
 *
 * To a receiver who accepts pushes automatically (the default): one Transfer carrying the RECEIVED record.
 * To one set to accept manually (the store's `manualPushReceivers`, control plane): a WithdrawHold of the
 * amount (its hold id from the withdrawals' numbering) carrying the PENDING record; the push waits until the
 * control plane ends it: RECEIVED is the hold's WithdrawRelease and the Transfer, one journal group (after a
 * crash both or neither); REFUSED and CANCELLED are the WithdrawRelease alone, carrying the final record.
 * Costs: O(1) per push; `lastPushUs` scans the pushes newest first.
 */
import type { Clock } from '../../core/clock.js';
import { Command, CommandType } from '../../core/command.js';
import { TransferPurpose } from '../../core/ledger/account-book.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { PushRecord, PushStatus } from './records.js';
import { answerThenRelease, type WalletCommands } from './wallet-commands.js';
import { pushJson, pushKey } from './wallet-store.js';

type Done<T> = (code: ResultCode, value?: T) => void;

const ENDS: Readonly<Record<string, { status: PushStatus; message: string }>> = {
  RECEIVED: { status: 'RECEIVED', message: '' },
  REFUSED: { status: 'REFUSED', message: 'refused by the receiver' },
  CANCELLED: { status: 'CANCELLED', message: 'cancelled' },
};

export class PushDesk {
  readonly #do: WalletCommands;
  readonly #clock: Clock;
  /** Senders with a push in the engine (the next one waits for its answer: TOO_FAST). */
  readonly #pushing = new Set<number>();

  constructor(commands: WalletCommands, clock: Clock) {
    this.#do = commands;
    this.#clock = clock;
  }

  /** When `uid` last pushed (µs), or undefined; now while one of its pushes is in the engine. */
  lastPushUs(uid: number): number | undefined {
    if (this.#pushing.has(uid)) return this.#clock.nowUs();
    const ps = this.#do.store.pushes;
    for (let i = ps.length - 1; i >= 0; i--) if (ps[i]!.pushUid === uid) return ps[i]!.createdUs;
    return undefined;
  }

  /** Pushes `units` of `currency` from `uid` to `receiveUid` (both main accounts, checked by the caller). */
  push(uid: number, receiveUid: number, currency: string, units: bigint, done: Done<PushRecord>): void {
    const store = this.#do.store;
    const manual = store.manualPushReceivers.has(receiveUid);
    const id = store.allocatePush();
    const holdId = manual ? store.allocateWithdrawal() : 0;
    const p: PushRecord = { id, pushUid: uid, receiveUid, currency, units, createdUs: this.#clock.nowUs(),
      status: manual ? 'PENDING' : 'RECEIVED', message: manual ? 'waiting for the receiver to accept' : '', holdId };
    const c = this.#do.fill(manual ? CommandType.WithdrawHold : CommandType.Transfer, uid, currency, units);
    if (manual) {
      c.orderId = holdId;
    } else {
      c.kind = AccountKind.Spot; c.toUid = receiveUid; c.toKind = AccountKind.Spot; c.side = TransferPurpose.Push;
    }
    this.#pushing.add(uid);
    this.#do.submit(c, { [pushKey(id)]: pushJson(p) }, (code) => {
      this.#pushing.delete(uid);
      done(code, store.push(id));
    });
  }

  /**
   * Control plane: ends a PENDING push RECEIVED, REFUSED or CANCELLED (see the module header). InvalidParam
   * for an unknown push, one not PENDING, or another status. Should the Transfer of a RECEIVED fail (it
   * cannot while the group holds: nothing comes between the release and it), the release's record stands:
   * CANCELLED, the amount back with the sender.
   */
  setStatus(id: number, status: string, done: Done<PushRecord>): void {
    this.#do.serial(pushKey(id), (release) => {
      const store = this.#do.store;
      const p = store.push(id);
      const answer = (code: ResultCode): void => { answerThenRelease(() => done(code, store.push(id)), release); };
      const end = ENDS[status];
      if (p === undefined || p.status !== 'PENDING' || end === undefined) return answer(ResultCode.InvalidParam);
      const free = this.#do.fill(CommandType.WithdrawRelease, p.pushUid, p.currency, 0n, new Command());
      free.orderId = p.holdId;
      if (end.status !== 'RECEIVED') return this.#do.submit(free, { [pushKey(id)]: pushJson({ ...p, ...end }) }, answer);
      const t = this.#do.fill(CommandType.Transfer, p.pushUid, p.currency, p.units, new Command());
      t.kind = AccountKind.Spot; t.toUid = p.receiveUid; t.toKind = AccountKind.Spot; t.side = TransferPurpose.Push;
      let freed: ResultCode = ResultCode.Ok;
      this.#do.submitGroup([
        [free, { [pushKey(id)]: pushJson({ ...p, status: 'CANCELLED', message: 'the sender no longer has the amount' }) }, (code) => { freed = code; }],
        [t, { [pushKey(id)]: pushJson({ ...p, ...end }) }, () => answer(freed)],
      ]);
    });
  }
}
