/**
 * Transfers between a main account and its sub-accounts (permission group `wallet`):
 *   POST /wallet/sub_account_transfers        {sub_account, sub_account_type?, currency, amount, direction: to|from,
 *                                              client_order_id?} → {tx_id}               rate: wallet-funds
 *   GET  /wallet/sub_account_transfers        ?sub_uid=1,2&from&to&limit&offset → records, newest first
 *   POST /wallet/sub_account_to_sub_account   {currency, sub_account_from, sub_account_from_type, sub_account_to,
 *                                              sub_account_to_type, amount} → {tx_id}    rate: wallet-funds
 *
 * The main side is always the main account's spot account; the sub side is the account `sub_account_type`
 * names (spot by default; futures and delivery settle in the transferred currency). Only the main key may
 * move funds between main and sub; sub → sub may be signed by the main key or the source sub-account's key.
 * A sub-account not owned by the signer's main account is SUB_ACCOUNT_NOT_FOUND, a frozen one
 * SUB_ACCOUNT_LOCKED. Lists cover at most 30 days (default: the last 7), limit ≤ 1000 (default 100).
 */
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { directoryOf } from '../sub-accounts/directory.js';
import { transferLogOf } from '../transfers/transfer-log.js';
import {
  parseClientOrderId, parseCurrency, parseTransferAmount, runTransfer, subTypeLeg, subTypeName,
} from '../transfers/transfer-request.js';
import { intParam, timeParamUs } from './common.js';

const WALLET = { kind: 'private', group: 'wallet' } as const;
const DAY_US = 86_400_000_000;
const MAX_RANGE_US = 30 * DAY_US;
const DEFAULT_RANGE_US = 7 * DAY_US;

const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

export function registerSubAccountTransferRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const dir = directoryOf(deps);
  const locked = (uid: number): boolean => deps.keys.account(uid)?.locked === true;

  router.add({ method: 'POST', pattern: '/api/v4/wallet/sub_account_transfers', access: WALLET, limit: 'wallet-funds',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Transfer body required');
      if (absent(body.sub_account)) return reply.error(ResultCode.MissingParam, 'sub_account is required');
      const sub = dir.resolve(req.uid, body.sub_account);
      if (sub < 0) return reply.error(sub);
      if (locked(sub)) return reply.error(ResultCode.SubAccountLocked);
      const currency = parseCurrency(ex(), body.currency);
      if (currency < 0) return reply.error(currency, currency === ResultCode.MissingParam ? 'currency is required' : undefined);
      const direction = body.direction;
      if (absent(direction)) return reply.error(ResultCode.MissingParam, 'direction is required');
      if (direction !== 'to' && direction !== 'from') return reply.error(ResultCode.InvalidParam, 'direction must be to or from');
      const subLeg = subTypeLeg(sub, body.sub_account_type, currency);
      if (typeof subLeg === 'number') return reply.error(subLeg, 'sub_account_type must be spot, futures, delivery, options or cross_margin');
      const amount = parseTransferAmount(ex(), currency, body.amount);
      if (typeof amount === 'number') return reply.error(amount, 'amount must be above 0 with at most 8 decimals');
      const clientOrderId = parseClientOrderId(body.client_order_id);
      if (typeof clientOrderId === 'number') return reply.error(clientOrderId);
      const main = { uid: req.uid, kind: AccountKind.Spot, sub: 0 };
      const subType = subTypeName(body.sub_account_type);
      runTransfer(deps, {
        initiator: req.uid, mainUid: req.uid, currency, amount, clientOrderId,
        from: direction === 'to' ? main : subLeg, to: direction === 'to' ? subLeg : main,
        fingerprint: `s|${sub}|${subType}|${direction}|${currency}|${amount.text}`,
        record: { kind: 'sub', subUid: sub, subType, direction },
      }, (code, txId) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { tx_id: txId });
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/sub_account_transfers', access: WALLET, limit: 'wallet',
    handler: (req, reply) => {
      const list = queryParam(req, 'sub_uid');
      let main = req.uid;
      let subs: number[] | ResultCode;
      if (dir.isSub(req.uid)) {
        main = dir.mainOf(req.uid);
        subs = list === undefined || list === '' || list === String(req.uid) ? [req.uid] : ResultCode.SubAccountNotFound;
      } else {
        subs = dir.resolveList(req.uid, list);
      }
      if (!Array.isArray(subs)) return reply.error(subs);
      const now = deps.gateway.clock.nowUs();
      const to = timeParamUs(req, 'to', now);
      if (to < 0) return reply.error(to, 'to must be Unix seconds');
      const from = timeParamUs(req, 'from', Math.max(0, to - DEFAULT_RANGE_US));
      if (from < 0) return reply.error(from, 'from must be Unix seconds');
      if (from > to || to - from > MAX_RANGE_US) return reply.error(ResultCode.InvalidParam, 'the range from..to must be at most 30 days');
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const offset = intParam(req, 'offset', 0, 0, 1_000_000);
      if (limit < 0 || offset < 0) return reply.error(ResultCode.InvalidParam, 'limit is 1..1000, offset from 0');
      const records = transferLogOf(deps).subTransfers(main, subs, from, to).slice(offset, offset + limit);
      reply.json(200, records.map((r) => ({
        timest: String(Math.floor(r.timeUs / 1e6)), uid: String(r.mainUid), sub_account: String(r.subUid),
        sub_account_type: r.subType, currency: r.currency, amount: r.amount, direction: r.direction, source: 'api',
        client_order_id: r.clientOrderId, status: 'success',
      })));
    } });

  router.add({ method: 'POST', pattern: '/api/v4/wallet/sub_account_to_sub_account', access: WALLET, limit: 'wallet-funds',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Transfer body required');
      for (const f of ['currency', 'sub_account_from', 'sub_account_from_type', 'sub_account_to', 'sub_account_to_type', 'amount']) {
        if (absent(body[f])) return reply.error(ResultCode.MissingParam, `${f} is required`);
      }
      const main = dir.mainOf(req.uid);
      const fromUid = dir.resolve(main, body.sub_account_from);
      if (fromUid < 0) return reply.error(fromUid);
      if (dir.isSub(req.uid) && fromUid !== req.uid) return reply.error(ResultCode.Forbidden, 'a sub-account key may only move its own funds');
      const toUid = dir.resolve(main, body.sub_account_to);
      if (toUid < 0) return reply.error(toUid);
      if (locked(fromUid) || locked(toUid)) return reply.error(ResultCode.SubAccountLocked);
      const currency = parseCurrency(ex(), body.currency);
      if (currency < 0) return reply.error(currency);
      const from = subTypeLeg(fromUid, body.sub_account_from_type, currency);
      if (typeof from === 'number') return reply.error(from, 'sub_account_from_type must be spot, futures, delivery, options or cross_margin');
      const to = subTypeLeg(toUid, body.sub_account_to_type, currency);
      if (typeof to === 'number') return reply.error(to, 'sub_account_to_type must be spot, futures, delivery, options or cross_margin');
      if (from.uid === to.uid && from.kind === to.kind) return reply.error(ResultCode.InvalidParam, 'source and destination must differ');
      const amount = parseTransferAmount(ex(), currency, body.amount);
      if (typeof amount === 'number') return reply.error(amount, 'amount must be above 0 with at most 8 decimals');
      runTransfer(deps, {
        initiator: req.uid, mainUid: main, from, to, currency, amount, clientOrderId: '', fingerprint: '',
        record: { kind: 'sub-to-sub', subUid: fromUid, subType: subTypeName(body.sub_account_from_type), direction: '' },
      }, (code, txId) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { tx_id: txId });
      });
    } });
}
