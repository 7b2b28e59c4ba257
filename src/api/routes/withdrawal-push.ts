/**
 * UID pushes (seed 4.1 and 4.2): POST /withdrawals/push (permission `withdrawal`) moves spot funds to another
 * main account at once (status RECEIVED); a sub-account on either side, yourself, an unknown receiver
 * (USER_NOT_FOUND) or a second push within 10 s of the clock (TOO_FAST) is refused. GET /wallet/push
 * (permission `wallet`) lists pushes: transaction_type withdraw (sent, default) or deposit (received), id,
 * from/to (seconds, at most 30 days, from defaulting to 7 days back), limit (default 100, ≤ 1000), offset.
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { limitOffset, parseUnitsOf, recordRange, renderPush } from './wallet-shapes.js';

/** Seed 8.1: POST /withdrawals/push, 1 per 10 s per user (in the simulator's clock). */
export const PUSH_INTERVAL_US = 10_000_000;

export function registerWithdrawalPushRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const wallet = deps.wallet;

  router.add({ method: 'POST', pattern: '/api/v4/withdrawals/push', access: { kind: 'private', group: 'withdrawal' }, limit: 'wallet',
    handler: (req, reply) => {
      const b = bodyObject(req) ?? {};
      const { receive_uid: rawUid, currency, amount } = b;
      if (rawUid === undefined || currency === undefined || amount === undefined) return reply.error(ResultCode.MissingParam, 'receive_uid, currency and amount are required');
      const to = typeof rawUid === 'number' ? rawUid : typeof rawUid === 'string' && /^[0-9]{1,10}$/.test(rawUid) ? Number(rawUid) : -1;
      if (!Number.isSafeInteger(to) || to <= 0) return reply.error(ResultCode.InvalidParam, 'receive_uid must be a user id');
      if (typeof currency !== 'string' || ex().currencyIndex(currency) < 0) return reply.error(ResultCode.CurrencyNotFound);
      const units = parseUnitsOf(ex(), currency, amount);
      if (typeof units === 'number') return reply.error(units);
      if (to === req.uid) return reply.error(ResultCode.InvalidParam, 'cannot push to yourself');
      const main = ex().ledger.mainOf(to);
      if (main < 0) return reply.error(ResultCode.UserNotFound);
      if (main !== 0 || ex().ledger.mainOf(req.uid) !== 0) return reply.error(ResultCode.InvalidParam, 'pushes are between main accounts only');
      const now = wallet.nowUs;
      const last = wallet.lastPushUs(req.uid);
      if (last !== undefined && now - last < PUSH_INTERVAL_US) return reply.error(ResultCode.WithdrawTooFast);
      wallet.push(req.uid, to, currency, units, (code, p) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { id: String(p!.id) });
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/push', access: { kind: 'private', group: 'wallet' }, limit: 'wallet',
    handler: (req, reply) => {
      const type = queryParam(req, 'transaction_type') ?? 'withdraw';
      if (type !== 'withdraw' && type !== 'deposit') return reply.error(ResultCode.InvalidParam, 'transaction_type is withdraw or deposit');
      const page = limitOffset(req, 1000);
      if (typeof page === 'number') return reply.error(page, 'limit is 1..1000, offset from 0');
      const idText = queryParam(req, 'id') ?? '';
      if (idText !== '' && !/^[0-9]{1,15}$/.test(idText)) return reply.error(ResultCode.InvalidParam, 'id must be an integer');
      const range = idText !== '' ? { from: 0, to: Number.MAX_SAFE_INTEGER } : recordRange(req, wallet.nowUs);
      if (typeof range === 'number') return reply.error(range, 'from ≤ to, at most 30 days apart (seconds)');
      const mine = (uidPush: number, uidRecv: number): boolean => (type === 'withdraw' ? uidPush : uidRecv) === req.uid;
      const rows = wallet.pushes.filter((p) => mine(p.pushUid, p.receiveUid) && (idText === '' || p.id === Number(idText))
        && p.createdUs >= range.from && p.createdUs <= range.to).reverse();
      reply.json(200, rows.slice(page.offset, page.offset + page.limit).map((p) => renderPush(ex(), p, type)));
    } });
}
