/**
 * Order lookups and reply shapes the order routes share: an order by numeric id or by its `t-` text (open
 * orders only, as Gate), Gate's retention of finished orders with no fills, `action_mode` shaping, and Gate's
 * x-gate-exptime check.
 */
import { ResultCode } from '../../core/result-code.js';
import { type GateOrder, orderJson } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import type { ApiRequest } from '../http/api-request.js';
import { wallMicros } from '../http/wall-time.js';
import { parseOrderId } from '../../gate/spot-order-request.js';

export type ActionMode = 'ACK' | 'RESULT' | 'FULL';

/** `action_mode` (default FULL), or undefined for an unknown value. */
export function actionMode(v: unknown): ActionMode | undefined {
  if (v === undefined || v === null || v === '') return 'FULL';
  return v === 'ACK' || v === 'RESULT' || v === 'FULL' ? v : undefined;
}

const ACK_FIELDS = ['id', 'text', 'amend_text', 'create_time', 'update_time', 'create_time_ms', 'update_time_ms', 'currency_pair', 'status'] as const;
const FEE_FIELDS = ['fee', 'fee_currency', 'point_fee', 'gt_fee', 'gt_maker_fee', 'gt_taker_fee', 'gt_discount', 'rebated_fee', 'rebated_fee_currency'] as const;

/** The JSON reply of `o` in `mode` (FULL through the dedicated writer). */
export function orderReply(o: GateOrder, mode: ActionMode): string {
  return mode === 'FULL' ? orderJson(o) : JSON.stringify(shapeOrder(o, mode));
}

/** The order as `mode` shows it: ACK the identity, times, pair and status; RESULT all but fees; FULL all. */
export function shapeOrder(o: GateOrder, mode: ActionMode): Partial<GateOrder> {
  if (mode === 'FULL') return o;
  if (mode === 'ACK') {
    const out: Record<string, unknown> = {};
    for (const k of ACK_FIELDS) out[k] = o[k];
    return out;
  }
  const out: Partial<GateOrder> = { ...o };
  for (const k of FEE_FIELDS) delete out[k];
  return out;
}

/**
 * Gate's retention of finished orders that traded nothing (cancelled, or an ioc / poc / fok / stp end with no
 * fill): `deps.orderRetentionUs` after they finished, on the engine's clock, they answer ORDER_NOT_FOUND and
 * leave the finished lists, as on Gate (about a minute). A read-model rule: the record stays in the exchange,
 * the state hash does not change, and the same clock gives the same answers. O(1).
 */
export function isRetired(deps: ApiDeps, r: number): boolean {
  const O = deps.gateway.exchange.orders;
  return O.finishAs[r] !== 0 && O.filledLots[r] === 0 && deps.gateway.clock.nowUs() - O.updateTime[r]! >= deps.orderRetentionUs;
}

/**
 * The record of `uid`'s order named by `idText` in `market`: a numeric id (open, or finished and not retired)
 * or a `t-` text (open orders only). Returns the record or OrderNotFound.
 */
export function findOwnOrder(deps: ApiDeps, uid: number, market: number, idText: string): number {
  const O = deps.gateway.exchange.orders;
  if (idText.startsWith('t-')) {
    const r = O.openWithText(uid, market, idText);
    return r < 0 ? ResultCode.OrderNotFound : r;
  }
  const id = parseOrderId(idText);
  if (id < 0) return ResultCode.OrderNotFound;
  const r = O.find(id);
  return r < 0 || O.uid[r] !== uid || O.market[r] !== market || isRetired(deps, r) ? ResultCode.OrderNotFound : r;
}

/** RequestExpired when the request carries an x-gate-exptime (ms) already past; Ok otherwise. */
export function checkExptime(req: ApiRequest): ResultCode {
  const v = req.headers.exptime;
  if (v === '') return ResultCode.Ok;
  if (!/^[0-9]{1,15}$/.test(v)) return ResultCode.InvalidParam;
  return wallMicros() / 1000 > Number(v) ? ResultCode.RequestExpired : ResultCode.Ok;
}
