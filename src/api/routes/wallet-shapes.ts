/**
 * Gate shapes of the chain simulation's records (seed 2.2 to 2.7) and the helpers the wallet and withdrawal
 * routes share: units ⇄ decimal strings, and the record queries' time range (seed 4.2: at most 30 days, from
 * defaulting to 7 days before `to`, `to` to now; times in seconds of the simulator's clock).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import type { ChainSpec } from '../../sim/chains/chain-spec.js';
import type { DepositRecord, PushRecord, WithdrawalRecord } from '../../sim/chains/records.js';
import { type ApiRequest, queryParam } from '../http/api-request.js';
import { timeParamUs } from './common.js';

const DAY_US = 86_400_000_000;

/** BigInt units of `currency` as a decimal string. */
export function fmtUnits(ex: Exchange, currency: string, units: bigint): string {
  return ex.ledger.format(currency, ex.ledger.isWide(currency) ? units : Number(units));
}

/** A positive decimal string as BigInt units of `currency`, or a negative code (InvalidParam, InvalidPrecision …). */
export function parseUnitsOf(ex: Exchange, currency: string, text: unknown): bigint | number {
  if (typeof text !== 'string' || !/^[0-9]+(\.[0-9]+)?$/.test(text)) return ResultCode.InvalidParam;
  const u = ex.ledger.parse(currency, text);
  if (typeof u === 'number' && u < 0) return u;
  const big = BigInt(u);
  return big > 0n ? big : ResultCode.InvalidParam;
}

/** True when `units` has no more decimals than the chain allows. */
export const withinDecimals = (spec: ChainSpec, units: bigint): boolean => units % 10n ** BigInt(spec.scale - spec.decimals) === 0n;

const seconds = (us: number): string => String(Math.floor(us / 1_000_000));

/** The [from, to] µs range of a record query, or a negative code. */
export function recordRange(req: ApiRequest, nowUs: number): { from: number; to: number } | number {
  const to = timeParamUs(req, 'to', nowUs);
  if (to < 0) return to;
  const from = timeParamUs(req, 'from', to - 7 * DAY_US);
  if (from < 0) return from;
  if (from > to || to - from > 30 * DAY_US) return ResultCode.InvalidParam;
  return { from, to };
}

/** `limit` and `offset` of a record query (limit 1..max, default 100), or a negative code. */
export function limitOffset(req: ApiRequest, max: number): { limit: number; offset: number } | number {
  const l = queryParam(req, 'limit');
  const o = queryParam(req, 'offset');
  const limit = l === undefined || l === '' ? Math.min(100, max) : /^[0-9]{1,6}$/.test(l) ? Number(l) : -1;
  const offset = o === undefined || o === '' ? 0 : /^[0-9]{1,9}$/.test(o) ? Number(o) : -1;
  if (limit < 1 || limit > max || offset < 0) return ResultCode.InvalidParam;
  return { limit, offset };
}

export function renderDeposit(ex: Exchange, d: DepositRecord): Record<string, string> {
  return {
    id: `d${d.id}`, txid: d.txid, timestamp: seconds(d.createdUs), amount: fmtUnits(ex, d.currency, d.units),
    currency: d.currency, address: d.address, memo: d.memo, status: d.status, chain: d.chain,
  };
}

export function renderWithdrawal(ex: Exchange, w: WithdrawalRecord): Record<string, string> {
  return {
    id: `w${w.id}`, txid: w.txid, block_number: w.blockNumber, withdraw_order_id: w.withdrawOrderId, withdraw_id: `w${w.id}`,
    asset_class: w.assetClass, timestamp: seconds(w.createdUs), amount: fmtUnits(ex, w.currency, w.units),
    fee: fmtUnits(ex, w.currency, w.fee), currency: w.currency, address: w.address, memo: w.memo,
    type: w.internal ? 'internal' : 'withdraw', fail_reason: w.failReason,
    timestamp2: w.finishedUs === 0 ? '' : seconds(w.finishedUs), status: w.status, chain: w.chain,
  };
}

export function renderPush(ex: Exchange, p: PushRecord, type: 'withdraw' | 'deposit'): Record<string, unknown> {
  return {
    id: p.id, push_uid: p.pushUid, receive_uid: p.receiveUid, currency: p.currency, amount: fmtUnits(ex, p.currency, p.units),
    create_time: Math.floor(p.createdUs / 1_000_000), status: p.status, message: p.message, transaction_type: type,
  };
}
