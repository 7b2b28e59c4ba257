/**
 * Transfers between a user's own accounts (permission group `wallet`):
 *   POST /wallet/transfers      {currency, from, to, amount, currency_pair?, settle?, client_order_id?} → {tx_id}
 *                               rate: wallet-funds (80 / 10 s)
 *   GET  /wallet/order_status   ?tx_id | ?client_order_id → {tx_id, status: "SUCCESS"}
 *
 * Accounts: spot, margin (isolated, per `currency_pair`; the currency must be its base or quote),
 * cross_margin, futures and delivery (per `settle`, either case; the currency must be the settle currency),
 * options. One engine Transfer command moves the funds: both accounts' books get an entry, or nothing
 * changes (BALANCE_NOT_ENOUGH, …).
 */
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { parsePair } from '../../gate/spot-order-request.js';
import { transferLogOf } from '../transfers/transfer-log.js';
import { type Leg, parseClientOrderId, parseCurrency, parseTransferAmount, runTransfer } from '../transfers/transfer-request.js';
import { directoryOf } from '../sub-accounts/directory.js';

const WALLET = { kind: 'private', group: 'wallet' } as const;

const ACCOUNTS: Readonly<Record<string, number>> = {
  spot: AccountKind.Spot, margin: AccountKind.Margin, cross_margin: AccountKind.CrossMargin,
  futures: AccountKind.Futures, delivery: AccountKind.Delivery, options: AccountKind.Options,
};

type Body = Readonly<Record<string, unknown>>;

export function registerWalletTransferRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  /** The account `name` designates for `uid`, given the body's currency_pair / settle; or a negative code. */
  const leg = (uid: number, name: unknown, body: Body, currency: number): Leg | ResultCode => {
    if (name === undefined || name === null || name === '') return ResultCode.MissingParam;
    const kind = typeof name === 'string' ? ACCOUNTS[name] : undefined;
    if (kind === undefined) return ResultCode.InvalidParam;
    if (kind === AccountKind.Margin) {
      const m = parsePair(ex(), body.currency_pair);
      if (m < 0) return m as ResultCode;
      const spec = ex().markets[m]!.spec;
      const code = ex().currencies[currency];
      return code === spec.base || code === spec.quote ? { uid, kind, sub: m } : ResultCode.InvalidParam;
    }
    if (kind === AccountKind.Futures || kind === AccountKind.Delivery) {
      const settle = body.settle;
      if (settle === undefined || settle === null || settle === '') return ResultCode.MissingParam;
      if (typeof settle !== 'string' || settle.toUpperCase() !== ex().currencies[currency]) return ResultCode.InvalidParam;
      return { uid, kind, sub: currency };
    }
    return { uid, kind, sub: 0 };
  };

  router.add({ method: 'POST', pattern: '/api/v4/wallet/transfers', access: WALLET, limit: 'wallet-funds',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Transfer body required');
      const currency = parseCurrency(ex(), body.currency);
      if (currency < 0) return reply.error(currency, currency === ResultCode.MissingParam ? 'currency is required' : undefined);
      const from = leg(req.uid, body.from, body, currency);
      if (typeof from === 'number') return reply.error(from, `from: ${from === ResultCode.MissingParam ? 'required (with currency_pair or settle where the account needs one)' : 'not an account this currency can use'}`);
      const to = leg(req.uid, body.to, body, currency);
      if (typeof to === 'number') return reply.error(to, `to: ${to === ResultCode.MissingParam ? 'required (with currency_pair or settle where the account needs one)' : 'not an account this currency can use'}`);
      if (from.kind === to.kind && from.sub === to.sub) return reply.error(ResultCode.InvalidParam, 'from and to must differ');
      const amount = parseTransferAmount(ex(), currency, body.amount);
      if (typeof amount === 'number') return reply.error(amount, 'amount must be above 0 with at most 8 decimals');
      const clientOrderId = parseClientOrderId(body.client_order_id);
      if (typeof clientOrderId === 'number') return reply.error(clientOrderId);
      runTransfer(deps, {
        initiator: req.uid, mainUid: directoryOf(deps).mainOf(req.uid), from, to, currency, amount, clientOrderId,
        fingerprint: `t|${from.kind}|${from.sub}|${to.kind}|${to.sub}|${currency}|${amount.text}`,
        record: { kind: 'account', subUid: 0, subType: '', direction: '' },
      }, (code, txId) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { tx_id: txId });
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/order_status', access: WALLET, limit: 'wallet',
    handler: (req, reply) => {
      const tx = queryParam(req, 'tx_id') ?? '';
      const client = queryParam(req, 'client_order_id') ?? '';
      if (tx === '' && client === '') return reply.error(ResultCode.MissingParam, 'tx_id or client_order_id is required');
      if (tx !== '' && !/^[0-9]{1,15}$/.test(tx)) return reply.error(ResultCode.InvalidParam, 'tx_id must be an integer');
      const log = transferLogOf(deps);
      const r = tx !== '' ? log.byTxId(req.uid, Number(tx)) : log.byClientId(req.uid, client);
      if (r === undefined || (client !== '' && r.clientOrderId !== client)) return reply.error(ResultCode.NotFound, 'Transfer not found');
      reply.json(200, { tx_id: String(r.txId), status: 'SUCCESS' });
    } });
}
