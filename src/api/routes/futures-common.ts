/**
 * What the private futures routes share: the `{settle}` path segment, the size form the request asks for, a
 * user's futures orders by id or `t-` text, and the order actions (place, amend, cancel, cancel several) that
 * submit one engine command each through the gateway and render the FuturesOrder once it is applied — so every
 * write is journaled before its reply (the reply passes the gateway's output gate).
 *
 * Each action calls `done` exactly once: (Ok, order) or (rejection, undefined).
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import { parseFuturesAmend, parseFuturesOrder, settleCurrency } from '../../gate/futures-request.js';
import { renderFuturesOrder, type SizeForm } from '../../gate/futures-shapes.js';
import type { ApiDeps } from '../deps.js';
import type { ApiRequest } from '../http/api-request.js';
import { parseOrderId } from '../../gate/spot-order-request.js';
import { gateError } from '../../gate/error-catalogue.js';
import { orderFlagsOf } from '../../core/exchange/order-store.js';
import { FuturesFlag } from '../../core/futures/futures-orders.js';
import { echoed } from '../http/api-request.js';
import { isRetired } from './order-view.js';
import { scopeOf } from './futures-public-params.js';
import { DELIVERY_SCOPE } from '../../core/futures/contract.js';
import { DELIVERY_ACCT } from '../../core/ledger/futures-funds.js';

export const FUTURES = { kind: 'private', group: 'futures' } as const;

/** Prefix of every futures route. */
export const F = '/api/v4/futures/{settle}';

/** The form sizes are written in: strings when the request carries X-Gate-Size-Decimal (or X-Svc-…): 1. */
export const sizeForm = (req: ApiRequest): SizeForm => (req.headers.sizeDecimal === '1' ? 'string' : 'int');

/**
 * The route scope of the request: the settle segment (lower case as Gate's paths; `USDT` is accepted too), with
 * DELIVERY_SCOPE before it under /delivery (futures-public-params.ts scopeOf; compared with Contract.settle).
 */
export const settleOf = (req: ApiRequest): string => scopeOf(req);

/** The settle currency index of the request's path, or InvalidParam for an unknown settle. */
export const settleCur = (ex: Exchange, req: ApiRequest): number => settleCurrency(ex, settleOf(req));

/**
 * The margin account of the request (ledger/futures-funds.ts: the settle currency index under /futures, + DELIVERY_ACCT
 * under /delivery), also requiring that `uid` has that account (funded once): UserNotFound before, as Gate
 * answers an account that never received futures funds.
 */
export function accountCur(ex: Exchange, req: ApiRequest): number {
  const cur = settleCur(ex, req);
  if (cur < 0) return cur;
  const acct = settleOf(req).startsWith(DELIVERY_SCOPE) ? cur + DELIVERY_ACCT : cur;
  return ex.ledger.futures.hasAccount(req.uid, acct) ? acct : ResultCode.UserNotFound;
}

/** Markets of the contracts settled in `settle`. @allocates */
export function settleMarkets(ex: Exchange, settle: string): number[] {
  const S = ex.futures;
  return S.contracts.flatMap((c, i) => (c.settle === settle ? [S.marketOf[i]!] : []));
}

/**
 * The record of `uid`'s futures order in settle `settle` named by `idText`: a numeric id (open, or finished and
 * not retired) or a `t-` text (open orders first, then the finished window). Returns the record or OrderNotFound.
 */
export function findFuturesOrder(deps: ApiDeps, uid: number, settle: string, idText: string): number {
  const ex = deps.gateway.exchange;
  const O = ex.orders;
  const inSettle = (r: number): boolean => {
    const ci = ex.futures.contractOf(O.market[r]!);
    return ci >= 0 && ex.futures.contracts[ci]!.settle === settle;
  };
  if (idText.startsWith('t-')) {
    for (const r of O.openOf(uid)) if (O.text[r] === idText && inSettle(r)) return r;
    for (const r of O.finishedOf(uid)) if (O.text[r] === idText && inSettle(r) && !isRetired(deps, r)) return r;
    return ResultCode.OrderNotFound;
  }
  const id = parseOrderId(idText);
  if (id < 0) return ResultCode.OrderNotFound;
  const r = O.find(id);
  return r < 0 || O.uid[r] !== uid || !inSettle(r) || isRetired(deps, r) ? ResultCode.OrderNotFound : r;
}

export type FuturesOrderDone = (code: ResultCode, order: Record<string, unknown> | undefined) => void;
type Body = Readonly<Record<string, unknown>>;

/** Renders order `id` after a command, if it is still known. */
function rendered(ex: Exchange, id: number, form: SizeForm): Record<string, unknown> | undefined {
  const r = ex.orders.find(id);
  return r < 0 ? undefined : renderFuturesOrder(ex, r, form);
}

/** Places a futures order of `uid` from a FuturesOrder body. */
export function placeFuturesOrder(deps: ApiDeps, uid: number, settle: string, body: Body, form: SizeForm, done: FuturesOrderDone): void {
  const { gateway, cmd } = deps;
  const parsed = parseFuturesOrder(gateway.exchange, settle, uid, body, cmd);
  if (parsed !== ResultCode.Ok) return done(parsed, undefined);
  gateway.submit(cmd, (code, c) => {
    if (code !== ResultCode.Ok) return done(code, undefined);
    done(code, rendered(gateway.exchange, c.orderId, form));
  });
}

/** Amends record `r` (a futures order of `uid`) from a FuturesOrderAmendment body. */
export function amendFuturesOrder(deps: ApiDeps, uid: number, r: number, body: Body, form: SizeForm, done: FuturesOrderDone): void {
  const { gateway, cmd } = deps;
  const id = gateway.exchange.orders.id[r]!;
  const parsed = parseFuturesAmend(gateway.exchange, uid, r, body, cmd);
  if (parsed !== ResultCode.Ok) return done(parsed, undefined);
  gateway.submit(cmd, (code) => done(code, code === ResultCode.Ok ? rendered(gateway.exchange, id, form) : undefined));
}

/** Cancels record `r` (a futures order of `uid`). */
export function cancelFuturesOrder(deps: ApiDeps, uid: number, r: number, form: SizeForm, done: FuturesOrderDone): void {
  const { gateway, cmd } = deps;
  const O = gateway.exchange.orders;
  const id = O.id[r]!;
  cmd.clear();
  cmd.type = CommandType.CancelOrder;
  cmd.uid = uid; cmd.market = O.market[r]!; cmd.orderId = id;
  gateway.submit(cmd, (code) => done(code, code === ResultCode.Ok ? rendered(gateway.exchange, id, form) : undefined));
}

/**
 * Cancels the open futures orders `records` of `uid` as one journal group (all or none after a crash);
 * `done` gets the orders that finished, in the engine's order. An order already finished meanwhile is skipped.
 */
export function cancelFuturesOrders(deps: ApiDeps, uid: number, records: readonly number[], form: SizeForm,
  done: (orders: Record<string, unknown>[]) => void): void {
  const { gateway } = deps;
  const O = gateway.exchange.orders;
  const out: Record<string, unknown>[] = [];
  if (records.length === 0) return done(out);
  let pending = records.length;
  gateway.submitGroup(records.map((r) => {
    const c = new Command();
    c.type = CommandType.CancelOrder;
    c.uid = uid; c.market = O.market[r]!; c.orderId = O.id[r]!;
    return [c, (_code, _c, ev) => {
      const ex = gateway.exchange;
      for (let i = 0; i < ev.count; i++) {
        if (ev.kind[i] !== EventKind.Finished) continue;
        const o = rendered(ex, ev.orderId[i]!, form);
        if (o !== undefined) out.push(o);
      }
      if (--pending === 0) done(out);
    }] as const;
  }));
}

/** Runs `each` over the items in order and calls `done` with the array of results once all have answered. */
function collect<I, T>(items: readonly I[], done: (out: T[]) => void, each: (item: I, answer: (r: T) => void) => void): void {
  const out = new Array<T>(items.length);
  let pending = items.length;
  if (pending === 0) return done(out);
  items.forEach((item, i) => each(item, (r) => {
    out[i] = r;
    if (--pending === 0) done(out);
  }));
}

/**
 * Places each FuturesOrder body (checked objects, at most 10) as one command, in order; `done` gets the
 * BatchFuturesOrder answers in request order: the order with `succeeded`, `label`, `detail`, or the failure.
 */
export function placeFuturesBatch(deps: ApiDeps, uid: number, settle: string, items: readonly Body[], form: SizeForm,
  done: (out: Record<string, unknown>[]) => void): void {
  collect<Body, Record<string, unknown>>(items, done, (item, answer) => {
    placeFuturesOrder(deps, uid, settle, item, form, (code, order) => {
      if (code === ResultCode.Ok && order !== undefined) return answer({ succeeded: true, label: '', detail: '', ...order });
      const e = gateError(code === ResultCode.Ok ? ResultCode.OrderNotFound : code);
      answer({ succeeded: false, label: e.label, detail: e.message, text: typeof item.text === 'string' ? echoed(item.text) : '',
        contract: typeof item.contract === 'string' ? echoed(item.contract) : '' });
    });
  });
}

/** Cancels `uid`'s futures orders named by `ids` (ids or `t-` texts) one command each; answers [{id, user_id, succeeded, message}]. */
export function cancelFuturesIds(deps: ApiDeps, uid: number, settle: string, ids: readonly string[],
  done: (out: Record<string, unknown>[]) => void): void {
  collect<string, Record<string, unknown>>(ids, done, (id, answer) => {
    const reply = (code: ResultCode): void => answer({
      id: echoed(id), user_id: uid, succeeded: code === ResultCode.Ok, message: code === ResultCode.Ok ? '' : gateError(code).label,
    });
    const r = findFuturesOrder(deps, uid, settle, id);
    if (r < 0) return reply(r as ResultCode);
    cancelFuturesOrder(deps, uid, r, 'int', (code) => reply(code));
  });
}

/** `uid`'s open orders in market `m` on `side` (0: both), without reduce-only ones when `excludeReduceOnly`: what cancel-all cancels. */
export function openFuturesOrdersToCancel(ex: Exchange, uid: number, m: number, side: number, excludeReduceOnly: boolean): number[] {
  const O = ex.orders;
  return O.openOf(uid, m).filter((r) => (side === 0 || O.side[r] === side)
    && !(excludeReduceOnly && (orderFlagsOf(O.account[r]!) & FuturesFlag.ReduceOnly) !== 0));
}

/** `uid`'s futures orders of `settle` (of market `m` when ≥ 0), open or finished (not retired), newest first. */
export function futuresOrdersOf(deps: ApiDeps, uid: number, settle: string, m: number, open: boolean): number[] {
  const ex = deps.gateway.exchange;
  const O = ex.orders;
  const markets = new Set(m >= 0 ? [m] : settleMarkets(ex, settle));
  if (open) return O.openOf(uid).filter((r) => markets.has(O.market[r]!)).reverse();
  return O.finishedOf(uid).filter((r) => markets.has(O.market[r]!) && !isRetired(deps, r));
}
