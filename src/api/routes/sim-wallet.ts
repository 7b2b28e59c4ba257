/**
 * The control plane of the chain simulation (token or loopback, like every /sim route; docs/wallet.md):
 *   POST /sim/deposits/{id}/status     {status: MANUAL | REVIEW | INVALID | RESUME}      a tracking deposit
 *   POST /sim/withdrawals/{id}/status  {status: MANUAL | REVIEW | RESUME | FAIL | REJECT | CANCEL | DONE, fail_reason?}
 *   POST /sim/chains/{currency}/{chain} {deposit_enabled?, withdraw_enabled?, deposit_hold?, withdraw_hold?}
 *   POST /sim/saved_address            {uid, currency, chain, address, name?, tag?, verified?}
 *   POST /sim/push_receivers           {uid, manual}                                     pushes to uid wait PENDING
 *   POST /sim/pushes/{id}/status       {status: RECEIVED | REFUSED | CANCELLED}          ends a PENDING push
 *   POST /sim/wallet/tick              advances every record to the clock's now (the timer does it too)
 * Answers the record (Gate's shape plus uid) or the switch's new state, once the change is journaled (every
 * change here is a command carrying its records: sim/chains/wallet-store.ts). Ids: `d…`/`w…` or the bare number.
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import type { Router } from '../router.js';
import type { ChainSwitches } from '../../sim/chains/wallet-store.js';
import { renderDeposit, renderWithdrawal } from './wallet-shapes.js';
import { parseWithdrawalId } from './withdrawals.js';

const SIM = { kind: 'sim' } as const;
const HOLDS = ['', 'MANUAL', 'REVIEW'];

export function registerSimWalletRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const wallet = deps.wallet;

  router.add({ method: 'POST', pattern: '/sim/deposits/{id}/status', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const m = /^d?([0-9]{1,15})$/.exec(req.params[0]!);
      const status = bodyObject(req)?.status;
      if (typeof status !== 'string') return reply.error(ResultCode.MissingParam, 'status is required');
      if (m === null) return reply.error(ResultCode.InvalidParam, 'unknown deposit');
      wallet.setDepositStatus(Number(m[1]), status, (code, d) => {
        if (code !== ResultCode.Ok) return reply.error(code, 'unknown deposit, a status it cannot take now, or a bad status');
        reply.json(200, { ...renderDeposit(ex(), d!), uid: d!.uid });
      });
    } });

  router.add({ method: 'POST', pattern: '/sim/withdrawals/{id}/status', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const body = bodyObject(req) ?? {};
      const { status, fail_reason: reason } = body;
      if (typeof status !== 'string') return reply.error(ResultCode.MissingParam, 'status is required');
      if (reason !== undefined && typeof reason !== 'string') return reply.error(ResultCode.InvalidParam, 'fail_reason must be a string');
      const id = parseWithdrawalId(req.params[0]!);
      if (id === 0) return reply.error(ResultCode.InvalidWithdrawId);
      wallet.setWithdrawalStatus(id, status, reason ?? '', (code, w) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { ...renderWithdrawal(ex(), w!), uid: w!.uid });
      });
    } });

  router.add({ method: 'POST', pattern: '/sim/chains/{currency}/{chain}', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const spec = wallet.chain(req.params[0]!, req.params[1]!);
      if (spec === undefined) return reply.error(ResultCode.InvalidParam, 'unknown currency or chain');
      const b = bodyObject(req) ?? {};
      for (const k of ['deposit_enabled', 'withdraw_enabled']) {
        if (b[k] !== undefined && typeof b[k] !== 'boolean') return reply.error(ResultCode.InvalidParam, `${k} must be true or false`);
      }
      for (const k of ['deposit_hold', 'withdraw_hold']) {
        if (b[k] !== undefined && !HOLDS.includes(b[k] as string)) return reply.error(ResultCode.InvalidParam, `${k} is "", "MANUAL" or "REVIEW"`);
      }
      const change: Partial<ChainSwitches> = {
        ...(typeof b.deposit_enabled === 'boolean' ? { deposit_enabled: b.deposit_enabled } : {}),
        ...(typeof b.withdraw_enabled === 'boolean' ? { withdraw_enabled: b.withdraw_enabled } : {}),
        ...(b.deposit_hold !== undefined ? { deposit_hold: b.deposit_hold as ChainSwitches['deposit_hold'] } : {}),
        ...(b.withdraw_hold !== undefined ? { withdraw_hold: b.withdraw_hold as ChainSwitches['withdraw_hold'] } : {}),
      };
      wallet.setChainSwitches(spec, change, (code, s) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { currency: spec.currency, chain: spec.chain, ...s });
      });
    } });

  router.add({ method: 'POST', pattern: '/sim/saved_address', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const b = bodyObject(req) ?? {};
      const { uid, currency, chain, address } = b;
      if (uid === undefined || currency === undefined || chain === undefined || address === undefined) {
        return reply.error(ResultCode.MissingParam, 'uid, currency, chain and address are required');
      }
      if (typeof uid !== 'number' || ex().ledger.mainOf(uid) < 0) return reply.error(ResultCode.UserNotFound);
      if (typeof currency !== 'string' || typeof chain !== 'string' || wallet.chain(currency, chain) === undefined) {
        return reply.error(ResultCode.InvalidParam, 'unknown currency or chain');
      }
      const text = (k: string): string | undefined => (b[k] === undefined ? '' : typeof b[k] === 'string' ? b[k] : undefined);
      const [addr, name, tag] = [text('address'), text('name'), text('tag')];
      const verified = b.verified === undefined ? '1' : b.verified === '0' || b.verified === '1' ? b.verified : undefined;
      if (addr === undefined || addr === '' || name === undefined || tag === undefined || verified === undefined) {
        return reply.error(ResultCode.InvalidParam, 'address, name and tag are strings; verified is "0" or "1"');
      }
      const row = { uid, currency, chain, address: addr, name, tag, verified };
      wallet.addSavedAddress(row, (code) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, row);
      });
    } });

  router.add({ method: 'POST', pattern: '/sim/push_receivers', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const { uid, manual } = bodyObject(req) ?? {};
      if (uid === undefined || manual === undefined) return reply.error(ResultCode.MissingParam, 'uid and manual are required');
      if (typeof uid !== 'number' || ex().ledger.mainOf(uid) < 0) return reply.error(ResultCode.UserNotFound);
      if (typeof manual !== 'boolean') return reply.error(ResultCode.InvalidParam, 'manual must be true or false');
      wallet.setManualPushReceiver(uid, manual, (code) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { uid, manual });
      });
    } });

  router.add({ method: 'POST', pattern: '/sim/pushes/{id}/status', access: SIM, limit: 'public',
    handler: (req, reply) => {
      const id = Number(req.params[0]);
      const { status } = bodyObject(req) ?? {};
      if (typeof status !== 'string') return reply.error(ResultCode.MissingParam, 'status (RECEIVED, REFUSED or CANCELLED) is required');
      if (!Number.isSafeInteger(id)) return reply.error(ResultCode.InvalidParam, 'unknown push');
      wallet.setPushStatus(id, status, (code, p) => {
        if (code !== ResultCode.Ok) return reply.error(code, 'the push must exist and be PENDING; status is RECEIVED, REFUSED or CANCELLED');
        reply.json(200, { id: p!.id, status: p!.status, message: p!.message });
      });
    } });

  router.add({ method: 'POST', pattern: '/sim/wallet/tick', access: SIM, limit: 'public',
    handler: (_req, reply) => {
      const now = wallet.nowUs;
      wallet.tick(() => reply.json(200, { now_ms: Math.floor(now / 1000) }));
    } });
}
