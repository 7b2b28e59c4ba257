/**
 * Withdrawals (seed 4.1; permission group `withdrawal`): POST /withdrawals and DELETE /withdrawals/{id}.
 *
 * POST checks, in order (the first failing one answers; nothing changes): currency, amount, chain present
 * (MISSING_REQUIRED_PARAM) · withdraw_order_id ≤ 32 of [0-9A-Za-z_.-] (INVALID_PARAM_VALUE) · asset_class SPOT
 * or PILOT · currency (INVALID_CURRENCY) · chain of that currency (INVALID_PARAM_VALUE) · chain's withdrawals on
 * (API_WITHDRAW_DISABLED) · address, and memo on tag chains (MISSING_REQUIRED_PARAM) · amount within the
 * currency's and the chain's decimals (INVALID_PARAM_VALUE / INVALID_PRECISION) · minimum (AMOUNT_TOO_LITTLE) ·
 * per-withdrawal maximum (AMOUNT_TOO_MUCH) · withdraw_order_id unused (DUPLICATE_REQUEST) · 1 accepted
 * withdrawal per 3 s of the clock, none while the user's last one is still in the engine (TOO_FAST; read from
 * the journaled records, so a restart keeps it) · daily limit (WITHDRAWAL_OVER_LIMIT) · the amount above its fee
 * (AMOUNT_TOO_LITTLE) · available balance less amounts of deposits still locked for withdrawal ≥ amount
 * (BALANCE_NOT_ENOUGH). As on Gate, `amount` includes the fee: the account is debited `amount`, the chain
 * receives amount − fee. To an address the platform issued to another user the withdrawal is free and
 * credited at once.
 *
 * The POST answer has the fields of Gate's live answer: {id, txid, withdraw_order_id, timestamp, amount, currency,
 * address, memo (null when none), status, chain, fee_amount (8 decimals at least)}, plus `fee`, `type` and
 * `withdraw_id` of the record.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { WithdrawalRecord } from '../../sim/chains/records.js';
import { withdrawalFee } from '../../sim/chains/records.js';
import type { ApiDeps } from '../deps.js';
import { bodyObject } from '../http/api-request.js';
import type { Router } from '../router.js';
import { fmtUnits, parseUnitsOf, renderWithdrawal, withinDecimals } from './wallet-shapes.js';

const WITHDRAWAL = { kind: 'private', group: 'withdrawal' } as const;
const ORDER_ID = /^[0-9A-Za-z_.-]{1,32}$/;
/** Seed 8.1: POST /withdrawals, 1 per 3 s per user (in the simulator's clock). */
export const WITHDRAW_INTERVAL_US = 3_000_000;

/** A withdrawal id from a path or query (`w123` or `123`), or 0. */
export function parseWithdrawalId(text: string): number {
  const m = /^w?([0-9]{1,15})$/.exec(text);
  return m === null ? 0 : Number(m[1]);
}

/** `text` (a decimal string) with at least `n` decimals, as Gate writes fee_amount ("4.15000000"). */
function padDecimals(text: string, n: number): string {
  const dot = text.indexOf('.');
  const have = dot < 0 ? 0 : text.length - dot - 1;
  return have >= n ? text : `${dot < 0 ? `${text}.` : text}${'0'.repeat(n - have)}`;
}

/** The answer of POST /withdrawals (see the module header). */
function withdrawAnswer(ex: Exchange, w: WithdrawalRecord): Record<string, unknown> {
  const r = renderWithdrawal(ex, w);
  return { id: r.id, txid: r.txid, withdraw_order_id: r.withdraw_order_id, timestamp: r.timestamp, amount: r.amount,
    currency: r.currency, address: r.address, memo: r.memo === '' ? null : r.memo, status: r.status, chain: r.chain,
    fee_amount: padDecimals(r.fee!, 8), fee: r.fee, type: r.type, withdraw_id: r.withdraw_id };
}

export function registerWithdrawalRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const wallet = deps.wallet;

  router.add({ method: 'POST', pattern: '/api/v4/withdrawals', access: WITHDRAWAL, limit: 'wallet',
    handler: (req, reply) => {
      const b = bodyObject(req) ?? {};
      const { currency, amount, chain } = b;
      if (currency === undefined || amount === undefined || chain === undefined) return reply.error(ResultCode.MissingParam, 'currency, amount and chain are required');
      const orderId = b.withdraw_order_id ?? '';
      if (typeof orderId !== 'string' || (orderId !== '' && !ORDER_ID.test(orderId))) {
        return reply.error(ResultCode.InvalidParam, 'withdraw_order_id: up to 32 of 0-9, A-Z, a-z, _, - and .');
      }
      const assetClass = b.asset_class ?? '';
      if (assetClass !== '' && assetClass !== 'SPOT' && assetClass !== 'PILOT') return reply.error(ResultCode.InvalidParam, 'asset_class is SPOT or PILOT');
      if (typeof currency !== 'string' || wallet.chainsOf(currency) === undefined) return reply.error(ResultCode.CurrencyNotFound);
      const spec = typeof chain === 'string' ? wallet.chain(currency, chain) : undefined;
      if (spec === undefined) return reply.error(ResultCode.InvalidParam, `unknown chain for ${currency}`);
      if (!spec.withdrawEnabled) return reply.error(ResultCode.WithdrawDisabled);
      const address = b.address;
      if (typeof address !== 'string' || address === '') return reply.error(ResultCode.MissingParam, 'address is required');
      const memo = b.memo ?? '';
      if (typeof memo !== 'string') return reply.error(ResultCode.InvalidParam, 'memo must be a string');
      if (spec.isTag && memo === '') return reply.error(ResultCode.MissingParam, `memo is required on ${spec.chain}`);
      const units = parseUnitsOf(ex(), currency, amount);
      if (typeof units === 'number') return reply.error(units);
      if (!withinDecimals(spec, units)) return reply.error(ResultCode.InvalidPrecision, `at most ${spec.decimals} decimals on ${spec.chain}`);
      if (units < spec.min) return reply.error(ResultCode.AmountTooLittle, `minimum ${fmtUnits(ex(), currency, spec.min)}`);
      if (spec.eachMax > 0n && units > spec.eachMax) return reply.error(ResultCode.AmountTooMuch, `maximum ${fmtUnits(ex(), currency, spec.eachMax)}`);
      if (orderId !== '' && wallet.withdrawals.some((w) => w.uid === req.uid && w.withdrawOrderId === orderId)) {
        return reply.error(ResultCode.DuplicateRequest, 'withdraw_order_id already used');
      }
      const now = wallet.nowUs;
      const last = wallet.lastWithdrawalUs(req.uid);
      if (last !== undefined && now - last < WITHDRAW_INTERVAL_US) return reply.error(ResultCode.WithdrawTooFast);
      if (spec.dayLimit > 0n && wallet.usedToday(req.uid, spec) + units > spec.dayLimit) return reply.error(ResultCode.WithdrawOverLimit);
      const receiver = wallet.addresses.ownerOf(spec, address, memo);
      if (receiver === req.uid) return reply.error(ResultCode.InvalidParam, 'the address is your own deposit address');
      const fee = receiver !== 0 ? 0n : withdrawalFee(spec, units);
      if (fee >= units) return reply.error(ResultCode.AmountTooLittle, `the amount must exceed the fee of ${fmtUnits(ex(), currency, fee)}`);
      const bal = ex().ledger.balance(req.uid, AccountKind.Spot, 0, currency);
      const available = bal === undefined ? 0n : BigInt(bal.available);
      if (available - wallet.lockedByDeposits(req.uid, currency) < units) return reply.error(ResultCode.BalanceNotEnough);
      wallet.withdraw(req.uid, { currency, spec, units, fee, address, memo, withdrawOrderId: orderId, assetClass }, (code, w) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, withdrawAnswer(ex(), w!));
      });
    } });

  router.add({ method: 'DELETE', pattern: '/api/v4/withdrawals/{withdrawal_id}', access: WITHDRAWAL, limit: 'wallet',
    handler: (req, reply) => {
      const id = parseWithdrawalId(req.params[0]!);
      if (id === 0) return reply.error(ResultCode.InvalidWithdrawId);
      wallet.cancel(req.uid, id, (code, w?: WithdrawalRecord) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        const r = renderWithdrawal(ex(), w!);
        reply.json(202, { id: r.id, txid: r.txid, timestamp: r.timestamp, amount: r.amount, currency: r.currency,
          address: r.address, memo: r.memo, block_number: r.block_number, status: r.status, chain: r.chain });
      });
    } });
}
