/**
 * The isolated-margin routes the seed (section 4.7) keeps current, over the ledger's Margin accounts (one per
 * user and pair, funded by POST /wallet/transfers). Permission group `margin`, 200 / 10 s each:
 *   GET  /margin/accounts          ?currency_pair → [margin account] (section 2.10's shape)
 *   GET  /margin/account_book      ?currency, currency_pair, type, from, to (s), page, limit (≤ 1000)
 *   GET  /margin/funding_accounts  ?currency → [] (no margin lending funds exist here)
 *   POST /margin/auto_repay        ?status on|off → {status};  GET /margin/auto_repay → {status} (default on)
 *   GET  /margin/transferable      ?currency (required), currency_pair → {currency, currency_pair, amount}
 *                                  (the available balance, held to the leverage while the account owes)
 * Borrowing is served by the /margin/uni/* replacements (margin-uni.ts); margin orders are not, so
 * `auto_repay` is a stored preference only (journaled: a restart keeps it). The retired paths of section 4.7
 * (/margin/loans, /margin/borrowable, /margin/currency_pairs/{pair}, …) are not registered: they answer
 * NOT_FOUND, as any unknown path does (GET /margin/currency_pairs, Gate's deprecated list of margin pairs,
 * stays: margin-uni.ts).
 */
import { bookTypesNamed } from '../../core/ledger/account-book.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { marginAccountOf } from '../../core/margin/margin-account.js';
import { marginTransferable } from '../../core/margin/margin-risk.js';
import { ResultCode } from '../../core/result-code.js';
import { formatScaled } from '../../core/unified/valuation.js';
import { putRecords, recordRows } from '../../engine/records.js';
import type { ApiDeps } from '../deps.js';
import { queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { marginAccounts } from '../sub-accounts/balance-shapes.js';
import { intParam, optionalPair, timeParamUs } from './common.js';

const MARGIN = { kind: 'private', group: 'margin' } as const;

/** Journaled (engine/records.ts): `margin_auto_repay/<uid>` = `{status: "on" | "off"}`, put by each POST. */
const AUTO_REPAY_PREFIX = 'margin_auto_repay/';
interface AutoRepayRecord { readonly status: 'on' | 'off' }

export function registerMarginRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  /** Users' auto_repay preference (absent: on), the projection of their records (see AUTO_REPAY_PREFIX). */
  const autoRepay = new Map<number, boolean>();
  const project = (uid: number, r: AutoRepayRecord): void => { autoRepay.set(uid, r.status === 'on'); };
  for (const r of recordRows(ex(), AUTO_REPAY_PREFIX)) project(Number(r.key.slice(AUTO_REPAY_PREFIX.length)), r.value as AutoRepayRecord);

  router.add({ method: 'GET', pattern: '/api/v4/margin/accounts', access: MARGIN, limit: 'spot',
    handler: (req, reply) => {
      const m = optionalPair(ex(), req);
      if (m < -1) return reply.error(m);
      const all = marginAccounts(ex(), req.uid);
      reply.json(200, m === -1 ? all : all.filter((a) => a.currency_pair === ex().markets[m]!.id));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/margin/account_book', access: MARGIN, limit: 'spot',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency');
      if (currency !== undefined && currency !== '' && ex().currencyIndex(currency) < 0) return reply.error(ResultCode.CurrencyNotFound);
      const m = optionalPair(ex(), req);
      if (m < -1) return reply.error(m);
      const typeText = queryParam(req, 'type');
      const typeName = typeText === undefined || typeText === '' ? undefined : typeText;
      if (typeName !== undefined && bookTypesNamed(typeName).length === 0) return reply.error(ResultCode.InvalidParam, 'unknown type');
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const page = intParam(req, 'page', 1, 1, 100_000);
      const from = timeParamUs(req, 'from', 0);
      const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
      for (const v of [limit, page, from, to]) if (v < 0) return reply.error(v);
      const entries = ex().ledger.accountBook(req.uid, {
        kind: AccountKind.Margin, ...(m >= 0 ? { sub: m } : {}), currency: currency === '' ? undefined : currency, typeName, from, to,
        limit: limit * page,
      }).slice((page - 1) * limit);
      reply.json(200, entries.map((e) => ({
        id: String(e.id), time: String(Math.floor(e.time / 1_000_000)), time_ms: Math.floor(e.time / 1000), currency: e.currency,
        currency_pair: ex().markets[e.sub]?.id ?? '', change: e.change, balance: e.balance, type: e.type,
      })));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/margin/funding_accounts', access: MARGIN, limit: 'spot',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency');
      if (currency !== undefined && currency !== '' && ex().currencyIndex(currency) < 0) return reply.error(ResultCode.CurrencyNotFound);
      reply.json(200, []);
    } });

  const status = (uid: number): { status: string } => ({ status: autoRepay.get(uid) ?? true ? 'on' : 'off' });
  router.add({ method: 'POST', pattern: '/api/v4/margin/auto_repay', access: MARGIN, limit: 'spot',
    handler: (req, reply) => {
      const s = queryParam(req, 'status');
      if (s === undefined || s === '') return reply.error(ResultCode.MissingParam, 'status is required');
      if (s !== 'on' && s !== 'off') return reply.error(ResultCode.InvalidParam, 'status must be on or off');
      const key = `${AUTO_REPAY_PREFIX}${req.uid}`;
      putRecords(deps.gateway, { [key]: { status: s } }, (code) => {
        const row = ex().records.get(key);
        if (row !== undefined) project(req.uid, JSON.parse(row.value) as AutoRepayRecord);
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, status(req.uid));
      });
    } });
  router.add({ method: 'GET', pattern: '/api/v4/margin/auto_repay', access: MARGIN, limit: 'spot',
    handler: (req, reply) => reply.json(200, status(req.uid)) });

  router.add({ method: 'GET', pattern: '/api/v4/margin/transferable', access: MARGIN, limit: 'spot',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency');
      if (currency === undefined || currency === '') return reply.error(ResultCode.MissingParam, 'currency is required');
      if (ex().currencyIndex(currency) < 0) return reply.error(ResultCode.CurrencyNotFound);
      const m = optionalPair(ex(), req);
      if (m < -1) return reply.error(m);
      if (m >= 0 && currency !== ex().markets[m]!.spec.base && currency !== ex().markets[m]!.spec.quote) {
        return reply.error(ResultCode.InvalidParam, 'currency must be the pair\'s base or quote');
      }
      let amount = '0';
      if (m >= 0) {
        const v = marginAccountOf(ex(), req.uid, m);
        const h = v.base.code === currency ? v.base : v.quote;
        amount = formatScaled(marginTransferable(h, v.figures, ex().unified.params), h.scale, h.scale);
      }
      reply.json(200, { currency, currency_pair: m < 0 ? '' : ex().markets[m]!.id, amount });
    } });
}
