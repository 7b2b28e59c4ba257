/**
 * Record queries (seed 4.2; permission group `wallet`): GET /wallet/deposits and GET /wallet/withdrawals, newest
 * first, in the simulator's clock. Ranges at most 30 days, `from` defaulting to 7 days before `to` (default
 * now); deposits take limit ≤ 500, withdrawals ≤ 1000 (default 100), offset from 0. A `withdraw_id` selects
 * that one record and disables the time filters.
 */
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { limitOffset, recordRange, renderDeposit, renderWithdrawal } from './wallet-shapes.js';
import { parseWithdrawalId } from './withdrawals.js';

const WALLET = { kind: 'private', group: 'wallet' } as const;

export function registerWalletRecordRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const wallet = deps.wallet;

  /** The query's optional currency: '' for all, the code, or undefined when unknown. */
  const currencyOf = (v: string | undefined): string | undefined =>
    v === undefined || v === '' ? '' : wallet.chainsOf(v) === undefined ? undefined : v;

  router.add({ method: 'GET', pattern: '/api/v4/wallet/deposits', access: WALLET, limit: 'wallet',
    handler: (req, reply) => {
      const currency = currencyOf(queryParam(req, 'currency'));
      if (currency === undefined) return reply.error(ResultCode.CurrencyNotFound);
      const range = recordRange(req, wallet.nowUs);
      if (typeof range === 'number') return reply.error(range, 'from ≤ to, at most 30 days apart (seconds)');
      const page = limitOffset(req, 500);
      if (typeof page === 'number') return reply.error(page, 'limit is 1..500, offset from 0');
      const rows = wallet.deposits.filter((d) => d.uid === req.uid && (currency === '' || d.currency === currency)
        && d.createdUs >= range.from && d.createdUs <= range.to).reverse();
      reply.json(200, rows.slice(page.offset, page.offset + page.limit).map((d) => renderDeposit(ex(), d)));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/withdrawals', access: WALLET, limit: 'wallet',
    handler: (req, reply) => {
      const currency = currencyOf(queryParam(req, 'currency'));
      if (currency === undefined) return reply.error(ResultCode.CurrencyNotFound);
      const page = limitOffset(req, 1000);
      if (typeof page === 'number') return reply.error(page, 'limit is 1..1000, offset from 0');
      const assetClass = queryParam(req, 'asset_class') ?? '';
      if (assetClass !== '' && assetClass !== 'SPOT' && assetClass !== 'PILOT') return reply.error(ResultCode.InvalidParam, 'asset_class is SPOT or PILOT');
      const orderId = queryParam(req, 'withdraw_order_id') ?? '';
      const idText = queryParam(req, 'withdraw_id') ?? '';
      let rows;
      if (idText !== '') {
        const w = wallet.withdrawal(parseWithdrawalId(idText));
        rows = w === undefined || w.uid !== req.uid ? [] : [w];
      } else {
        const range = recordRange(req, wallet.nowUs);
        if (typeof range === 'number') return reply.error(range, 'from ≤ to, at most 30 days apart (seconds)');
        rows = wallet.withdrawals.filter((w) => w.uid === req.uid && w.createdUs >= range.from && w.createdUs <= range.to).reverse();
      }
      rows = rows.filter((w) => (currency === '' || w.currency === currency) && (assetClass === '' || w.assetClass === assetClass)
        && (orderId === '' || w.withdrawOrderId === orderId));
      reply.json(200, rows.slice(page.offset, page.offset + page.limit).map((w) => renderWithdrawal(ex(), w)));
    } });
}
