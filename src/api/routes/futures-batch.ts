/**
 * Perpetual-futures batch routes and the countdown cancel (permission group `futures`):
 *   POST /futures/{settle}/batch_orders          ≤ 10 FuturesOrder bodies → BatchFuturesOrder[] (the order plus
 *                                                `succeeded`, `label`, `detail`), in request order; a failed item
 *                                                does not stop the others                      rate: futures-place
 *   POST /futures/{settle}/batch_cancel_orders   ≤ 20 order ids (strings) → [{id, user_id, succeeded, message}]
 *   POST /futures/{settle}/countdown_cancel_all  {timeout, contract?} → {triggerTime} (ms of the engine clock):
 *                                                cancels the user's open orders of the contract (or of every
 *                                                contract of the settle) when not renewed in time; 0 disarms
 * Each item is one engine command, journaled before the answer; the countdown timers are journaled records
 * (orders/countdown-cancels.ts with the `futures-countdown/` prefix).
 */
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import { parseContract } from '../../gate/futures-request.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import { CountdownCancels } from '../orders/countdown-cancels.js';
import type { Router } from '../router.js';
import {
  accountCur, cancelFuturesIds, F, FUTURES, placeFuturesBatch, settleMarkets, settleOf, sizeForm,
} from './futures-common.js';
import { checkExptime } from './order-view.js';

type Item = Readonly<Record<string, unknown>>;
const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Records prefix of the futures countdown timers; a timer's pair is `settle` (every contract) or `settle:contract`. */
export const FUTURES_COUNTDOWN_PREFIX = 'futures-countdown/';

export function registerFuturesBatchRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  router.add({ method: 'POST', pattern: `${F}/batch_orders`, access: FUTURES, limit: 'futures-place', arrayBody: true,
    handler: (req, reply) => {
      const items = req.json as unknown[];
      if (!items.every(isItem)) return reply.error(ResultCode.InvalidBody, 'Every item must be an order object');
      if (items.length > 10) return reply.error(ResultCode.TooManyOrders, 'At most 10 orders per batch');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const form = sizeForm(req);
      placeFuturesBatch(deps, req.uid, settleOf(req), items, form, (out) => reply.json(200, out));
    } });

  router.add({ method: 'POST', pattern: `${F}/batch_cancel_orders`, access: FUTURES, limit: 'futures-cancel', arrayBody: true,
    handler: (req, reply) => {
      const items = req.json as unknown[];
      if (!items.every((v) => typeof v === 'string')) return reply.error(ResultCode.InvalidBody, 'Every item must be an order id string');
      if (items.length > 20) return reply.error(ResultCode.TooManyOrders, 'At most 20 orders per batch');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      cancelFuturesIds(deps, req.uid, settleOf(req), items, (out) => reply.json(200, out));
    } });

  const countdowns = new CountdownCancels(deps, {
    prefix: FUTURES_COUNTDOWN_PREFIX,
    kind: AccountKind.Futures,
    marketsOf: (exchange, pair) => {
      const [settle, contract] = pair.split(':') as [string, string | undefined];
      if (contract === undefined) return settleMarkets(exchange, settle);
      const ci = exchange.futures.contractIndex(settle, contract);
      return ci < 0 ? [] : [exchange.futures.marketOf[ci]!];
    },
  });
  deps.onClose.push(() => countdowns.close());
  deps.onClockMove.push(() => countdowns.check());

  router.add({ method: 'POST', pattern: `${F}/countdown_cancel_all`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const body = bodyObject(req);
      const timeout = body?.timeout;
      if (timeout === undefined || timeout === null) return reply.error(ResultCode.MissingParam, 'timeout is required');
      if (typeof timeout !== 'number' || !Number.isInteger(timeout) || (timeout !== 0 && timeout < 5) || timeout > 86_400) {
        return reply.error(ResultCode.InvalidParam, 'timeout must be 0 or an integer number of seconds in 5..86400');
      }
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const settle = settleOf(req);
      let pair = settle;
      const contract = body?.contract;
      if (contract !== undefined && contract !== null && contract !== '') {
        const ci = parseContract(ex(), settle, contract);
        if (ci < 0) return reply.error(ci);
        pair = `${settle}:${ex().futures.contracts[ci]!.name}`;
      }
      countdowns.set(req.uid, pair, timeout, (code, triggerTime) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { triggerTime });
      });
    } });
}
