/**
 * Balances of a main account's sub-accounts (permission group `wallet`, rate: wallet-funds, 80 / 10 s each):
 *   GET /wallet/sub_account_balances                ?sub_uid&page&limit (default 20, at most 100) → [{uid, available}]
 *   GET /wallet/sub_account_margin_balances         ?sub_uid → [{uid, available: [margin account]}]
 *   GET /wallet/sub_account_futures_balances        ?sub_uid&settle → [{uid, available: {settle: futures account}}]
 *   GET /wallet/sub_account_cross_margin_balances   ?sub_uid → [{uid, available: cross-margin account}]
 *
 * `sub_uid` is a comma-separated list of the caller's sub-accounts (every one when absent; any other id is
 * SUB_ACCOUNT_NOT_FOUND). Spot `available` maps each currency the sub-account holds to its available amount.
 * Futures: `settle` (either case) selects one settle currency, shown with zeros when unused; without it, every
 * settle currency the sub-account has used, keyed in lower case. The cross-margin route first accrues interest
 * that is due (unified-view.ts afterAccrual), so its loans show their charges. Shapes: balance-shapes.ts.
 */
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Router } from '../router.js';
import { crossMarginAccount, futuresAccount, futuresSettles, marginAccounts } from '../sub-accounts/balance-shapes.js';
import { directoryOf } from '../sub-accounts/directory.js';
import { afterAccrual } from '../unified/unified-view.js';
import { intParam } from './common.js';

const WALLET = { kind: 'private', group: 'wallet' } as const;

export function registerSubAccountBalanceRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const dir = directoryOf(deps);

  /** Adds a route answering one item per selected sub-account (`item` may answer a negative code instead). */
  const balances = (path: string, item: (uid: number, req: ApiRequest) => unknown, paged = false, accrue = false): void => {
    router.add({ method: 'GET', pattern: `/api/v4/wallet/${path}`, access: WALLET, limit: 'wallet-funds',
      handler: (req: ApiRequest, reply: Reply) => {
        const subs = dir.resolveList(req.uid, queryParam(req, 'sub_uid'));
        if (!Array.isArray(subs)) return reply.error(subs);
        let selected = subs;
        if (paged) {
          const limit = intParam(req, 'limit', 20, 1, 100);
          const page = intParam(req, 'page', 1, 1, 1_000_000);
          if (limit < 0 || page < 0) return reply.error(ResultCode.InvalidParam, 'limit is 1..100 and page from 1');
          selected = subs.slice((page - 1) * limit, page * limit);
        }
        const answer = (): void => {
          const out: unknown[] = [];
          for (const uid of selected) {
            const v = item(uid, req);
            if (typeof v === 'number') return reply.error(v);
            out.push({ uid: String(uid), available: v });
          }
          reply.json(200, out);
        };
        if (accrue) afterAccrual(deps, answer);
        else answer();
      } });
  };

  balances('sub_account_balances', (uid) => Object.fromEntries(
    ex().ledger.balances(uid, AccountKind.Spot, 0).map((b) => [b.currency, b.available])), true);

  balances('sub_account_margin_balances', (uid) => marginAccounts(ex(), uid));

  balances('sub_account_futures_balances', (uid, req) => {
    const settle = queryParam(req, 'settle');
    let settles: number[];
    if (settle === undefined || settle === '') {
      settles = futuresSettles(ex(), uid);
    } else {
      const i = ex().currencyIndex(settle.toUpperCase());
      if (i < 0) return ResultCode.InvalidParam;
      settles = [i];
    }
    return Object.fromEntries(settles.map((i) => [ex().currencies[i]!.toLowerCase(), futuresAccount(ex(), uid, i)]));
  });

  balances('sub_account_cross_margin_balances', (uid) => crossMarginAccount(ex(), uid), false, true);
}
