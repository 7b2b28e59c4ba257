/**
 * Spot batch routes (permission group `spot`), each answering one result per item in request order;
 * a failed item does not stop the others:
 *   POST /spot/batch_orders         ≤ 4 pairs, ≤ 10 orders per pair, one account, `text` on every order
 *   POST /spot/cancel_batch_orders  ≤ 20 items {currency_pair, id}
 *   POST /spot/amend_batch_orders   ≤ 5 items {order_id, currency_pair, amount?, price?, amend_text?}
 * Whole-request rule breaks (count, pairs, mixed accounts, not an array) reject the request. A rejected item
 * echoes its `text`, `order_id`, `id`, `amend_text` and `currency_pair` cut to ECHO_LIMIT characters.
 */
import { ResultCode } from '../../core/result-code.js';
import type { GateOrder } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import { echoed } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import { gateError } from '../../gate/error-catalogue.js';
import type { Router } from '../router.js';
import { checkAccount, parsePair } from '../../gate/spot-order-request.js';
import { amendOrder, cancelOrder, placeOrder } from './order-actions.js';
import { checkExptime, findOwnOrder } from './order-view.js';

const SPOT = { kind: 'private', group: 'spot' } as const;
type Item = Readonly<Record<string, unknown>>;

const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A client string an item's answer echoes (bounded: see ECHO_LIMIT). */
const str = (v: unknown): string => (typeof v === 'string' ? echoed(v) : '');

/** Runs `each` over the items and replies with the array of results once all have answered. */
function collect<T>(items: readonly Item[], reply: Reply, each: (item: Item, i: number, done: (r: T) => void) => void): void {
  const out = new Array<T>(items.length);
  let pending = items.length;
  if (pending === 0) return reply.json(200, out);
  items.forEach((item, i) => each(item, i, (r) => {
    out[i] = r;
    if (--pending === 0) reply.json(200, out);
  }));
}

function batchOrder(order: GateOrder | undefined, code: ResultCode, item: Item): Record<string, unknown> {
  if (code === ResultCode.Ok) return { order_id: order!.id, ...order, succeeded: true, label: '', message: '' };
  const e = gateError(code);
  return {
    order_id: str(item.order_id ?? item.id), text: str(item.text), amend_text: str(item.amend_text) || '-',
    currency_pair: str(item.currency_pair), succeeded: false, label: e.label, message: e.message,
  };
}

export function registerSpotBatchRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  router.add({ method: 'POST', pattern: '/api/v4/spot/batch_orders', access: SPOT, limit: 'spot-place', arrayBody: true,
    handler: (req, reply) => {
      const items = req.json as unknown[];
      if (!items.every(isItem)) return reply.error(ResultCode.InvalidBody, 'Every item must be an order object');
      const perPair = new Map<string, number>();
      const accounts = new Set<string>();
      for (const it of items) {
        const pair = typeof it.currency_pair === 'string' ? it.currency_pair : '';
        perPair.set(pair, (perPair.get(pair) ?? 0) + 1);
        accounts.add(typeof it.account === 'string' && it.account !== '' ? it.account : 'spot');
      }
      if (perPair.size > 4) return reply.error(ResultCode.TooManyPairs);
      if ([...perPair.values()].some((n) => n > 10)) return reply.error(ResultCode.TooManyOrders);
      if (accounts.size > 1) return reply.error(ResultCode.MixedAccountType);
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      collect(items, reply, (item, _i, done) => {
        if (item.text === undefined || item.text === null || item.text === '') return done(batchOrder(undefined, ResultCode.MissingParam, item));
        placeOrder(deps, req.uid, item, (code, order) => done(batchOrder(order, code, item)));
      });
    } });

  router.add({ method: 'POST', pattern: '/api/v4/spot/cancel_batch_orders', access: SPOT, limit: 'spot-cancel', arrayBody: true,
    handler: (req, reply) => {
      const items = req.json as unknown[];
      if (!items.every(isItem)) return reply.error(ResultCode.InvalidBody, 'Every item must be an object');
      if (items.length > 20) return reply.error(ResultCode.TooManyOrders, 'At most 20 orders per batch');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      collect(items, reply, (item, _i, done) => {
        const answer = (code: ResultCode, order: GateOrder | undefined): void => {
          const e = code === ResultCode.Ok ? undefined : gateError(code);
          done({
            currency_pair: str(item.currency_pair), id: str(item.id), text: order?.text ?? '',
            succeeded: e === undefined, label: e?.label ?? '', message: e?.message ?? '', account: 'spot',
          });
        };
        const acct = checkAccount(item.account);
        if (acct !== ResultCode.Ok) return answer(acct, undefined);
        const m = parsePair(ex(), item.currency_pair);
        if (m < 0) return answer(m as ResultCode, undefined);
        if (typeof item.id !== 'string' || item.id === '') return answer(ResultCode.MissingParam, undefined);
        const r = findOwnOrder(deps, req.uid, m, item.id);
        if (r < 0) return answer(r as ResultCode, undefined);
        cancelOrder(deps, req.uid, r, answer);
      });
    } });

  router.add({ method: 'POST', pattern: '/api/v4/spot/amend_batch_orders', access: SPOT, limit: 'spot-place', arrayBody: true,
    handler: (req, reply) => {
      const items = req.json as unknown[];
      if (!items.every(isItem)) return reply.error(ResultCode.InvalidBody, 'Every item must be an object');
      if (items.length > 5) return reply.error(ResultCode.TooManyOrders, 'At most 5 orders per batch');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      collect(items, reply, (item, _i, done) => {
        const m = parsePair(ex(), item.currency_pair);
        if (m < 0) return done(batchOrder(undefined, m as ResultCode, item));
        if (typeof item.order_id !== 'string' || item.order_id === '') return done(batchOrder(undefined, ResultCode.MissingParam, item));
        const r = findOwnOrder(deps, req.uid, m, item.order_id);
        if (r < 0) return done(batchOrder(undefined, r as ResultCode, item));
        amendOrder(deps, req.uid, r, item, (code, order) => done(batchOrder(order, code, item)));
      });
    } });
}
