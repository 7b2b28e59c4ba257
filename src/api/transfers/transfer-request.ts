/**
 * What every transfer route shares: amount and client_order_id checks, account names → ledger accounts,
 * and `runTransfer`, which submits one engine Transfer command carrying the transfer's record (transfer-log.ts).
 *
 * Amounts: a decimal string above 0 with at most 8 decimals (trailing zeros aside) and no more than the
 * currency's scale (INVALID_PRECISION), else INVALID_PARAM_VALUE.
 * client_order_id: 1 to 64 of letters, digits, '-' and '_' (INVALID_CLIENT_ORDER_ID). A repeat by the same
 * signer with the same parameters answers the first transfer's tx_id and moves nothing; with other
 * parameters it is DUPLICATE_REQUEST.
 */
import { CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import type { Amount } from '../../core/ledger/amount.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { withRecords } from '../../engine/records.js';
import { type TransferJson, type TransferRecord, transferLogOf } from './transfer-log.js';

/** One side of a transfer: a ledger account. */
export interface Leg {
  readonly uid: number;
  readonly kind: number;
  readonly sub: number;
}

export interface ParsedAmount {
  readonly units: Amount;
  /** The amount as the ledger formats it (no trailing zeros). */
  readonly text: string;
}

const AMOUNT = /^([0-9]{1,30})(?:\.([0-9]{1,30}))?$/;
const CLIENT_ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_TRANSFER_DECIMALS = 8;

/** The required `currency` field: its index, or MissingParam / CurrencyNotFound. */
export function parseCurrency(ex: Exchange, v: unknown): number {
  if (v === undefined || v === null || v === '') return ResultCode.MissingParam;
  if (typeof v !== 'string') return ResultCode.CurrencyNotFound;
  const i = ex.currencyIndex(v);
  return i < 0 ? ResultCode.CurrencyNotFound : i;
}

/** The required `amount` field in units of `currency`, or a negative code. */
export function parseTransferAmount(ex: Exchange, currency: number, v: unknown): ParsedAmount | ResultCode {
  if (v === undefined || v === null || v === '') return ResultCode.MissingParam;
  if (typeof v !== 'string') return ResultCode.InvalidParam;
  const m = AMOUNT.exec(v);
  if (m === null) return ResultCode.InvalidParam;
  if ((m[2] ?? '').replace(/0+$/, '').length > MAX_TRANSFER_DECIMALS) return ResultCode.InvalidPrecision;
  const code = ex.currencies[currency]!;
  const units = ex.ledger.parse(code, v);
  if (typeof units === 'number' && units < 0) return units as ResultCode;
  if (units === 0 || units === 0n) return ResultCode.InvalidParam;
  return { units, text: ex.ledger.format(code, units) };
}

/** The optional `client_order_id`: '' when absent, or InvalidClientOrderId. */
export function parseClientOrderId(v: unknown): string | ResultCode {
  if (v === undefined || v === null || v === '') return '';
  return typeof v === 'string' && CLIENT_ORDER_ID.test(v) ? v : ResultCode.InvalidClientOrderId;
}

/** Sub-account account types (sub_account_type, sub_account_from_type, …) and the kinds they name. */
const SUB_TYPES: Readonly<Record<string, number>> = {
  spot: AccountKind.Spot, futures: AccountKind.Futures, delivery: AccountKind.Delivery,
  options: AccountKind.Options, cross_margin: AccountKind.CrossMargin,
};

/** The account of `uid` a sub-account type names ('spot' when absent; futures and delivery settle in `currency`). */
export function subTypeLeg(uid: number, type: unknown, currency: number): Leg | ResultCode {
  const name = type === undefined || type === null || type === '' ? 'spot' : type;
  const kind = typeof name === 'string' ? SUB_TYPES[name] : undefined;
  if (kind === undefined) return ResultCode.InvalidParam;
  const sub = kind === AccountKind.Futures || kind === AccountKind.Delivery ? currency : 0;
  return { uid, kind, sub };
}

/** The canonical name of a sub-account type value ('spot' when absent). */
export const subTypeName = (type: unknown): string => (typeof type === 'string' && type !== '' ? type : 'spot');

export interface TransferPlan {
  readonly initiator: number;
  readonly mainUid: number;
  readonly from: Leg;
  readonly to: Leg;
  readonly currency: number;
  readonly amount: ParsedAmount;
  readonly clientOrderId: string;
  /** The request's parameters (a repeat must match them). */
  readonly fingerprint: string;
  /** Fills the record fields specific to the route. */
  readonly record: Pick<TransferRecord, 'kind' | 'subUid' | 'subType' | 'direction'>;
}

/** Submits the transfer (or answers a repeat); `done` gets Ok and the tx_id, or the rejection. */
export function runTransfer(deps: ApiDeps, plan: TransferPlan, done: (code: ResultCode, txId: number) => void): void {
  const log = transferLogOf(deps);
  const { initiator, clientOrderId } = plan;
  if (clientOrderId !== '') {
    const earlier = log.byClientId(initiator, clientOrderId);
    if (earlier !== undefined) {
      return earlier.fingerprint === plan.fingerprint ? done(ResultCode.Ok, earlier.txId) : done(ResultCode.DuplicateRequest, 0);
    }
    if (!log.begin(initiator, clientOrderId)) return done(ResultCode.DuplicateRequest, 0);
  }
  const cmd = deps.cmd.clear();
  cmd.type = CommandType.Transfer;
  cmd.uid = plan.from.uid; cmd.kind = plan.from.kind; cmd.sub = plan.from.sub;
  cmd.toUid = plan.to.uid; cmd.toKind = plan.to.kind; cmd.toSub = plan.to.sub;
  cmd.currency = plan.currency;
  if (typeof plan.amount.units === 'bigint') cmd.text = plan.amount.units.toString();
  else cmd.amount = plan.amount.units;
  // The record (and its client_order_id) rides on the Transfer: journaled with the funds, or not at all.
  const { n, key } = log.allocate();
  const record: TransferJson = {
    n, kind: plan.record.kind, initiator, main_uid: plan.mainUid, time_us: deps.gateway.clock.nowUs(),
    currency: deps.gateway.exchange.currencies[plan.currency]!, amount: plan.amount.text, client_order_id: clientOrderId,
    fingerprint: plan.fingerprint, sub_uid: plan.record.subUid, sub_type: plan.record.subType, direction: plan.record.direction,
  };
  withRecords(cmd, { [key]: record });
  deps.gateway.submit(cmd, (code, stamped) => {
    if (clientOrderId !== '') log.end(initiator, clientOrderId);
    if (code !== ResultCode.Ok) return done(code, 0);
    log.apply(record, stamped.seq);
    done(ResultCode.Ok, stamped.seq);
  });
}
