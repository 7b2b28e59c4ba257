/**
 * Wallet routes about chains and balances (seed 4.2): GET /wallet/currency_chains (public), /wallet/deposit_address,
 * /wallet/withdraw_status, /wallet/getLowCapExchangeList, /wallet/saved_address and /wallet/total_balance
 * (permission group `wallet`). Shapes: seed 2.4 to 2.7; limits and conventions: docs/wallet.md.
 */
import { ResultCode } from '../../core/result-code.js';
import type { ChainSpec } from '../../sim/chains/chain-spec.js';
import { transient } from '../../sim/chains/wallet-commands.js';
import type { ApiDeps } from '../deps.js';
import { queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { intParam } from './common.js';
import { fmtUnits } from './wallet-shapes.js';
import { totalBalance } from './wallet-valuation.js';

const WALLET = { kind: 'private', group: 'wallet' } as const;
const VALUATION_CURRENCIES = new Set(['BTC', 'USD', 'USDT']);

export function registerWalletChainRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;
  const wallet = deps.wallet;

  /** The chains of the query's required `currency`, or a negative code. */
  const chainsOf = (currency: string | undefined): readonly ChainSpec[] | number => {
    if (currency === undefined || currency === '') return ResultCode.MissingParam;
    return wallet.chainsOf(currency) ?? ResultCode.CurrencyNotFound;
  };

  router.add({ method: 'GET', pattern: '/api/v4/wallet/currency_chains', access: { kind: 'public' }, limit: 'public',
    handler: (req, reply) => {
      const chains = chainsOf(queryParam(req, 'currency'));
      if (typeof chains === 'number') return reply.error(chains);
      reply.json(200, chains.map((c) => ({
        chain: c.chain, name_cn: c.nameCn, name_en: c.nameEn, contract_address: c.contractAddress,
        is_disabled: c.depositEnabled || c.withdrawEnabled ? 0 : 1, is_deposit_disabled: c.depositEnabled ? 0 : 1,
        is_withdraw_disabled: c.withdrawEnabled ? 0 : 1, decimal: String(c.decimals), is_tag: c.isTag ? 1 : 0,
      })));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/deposit_address', access: WALLET, limit: 'wallet',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency') ?? '';
      const chains = chainsOf(currency);
      if (typeof chains === 'number') return reply.error(chains);
      // The first read of an address issues it: a record (so a withdrawal to it is internal, also after a
      // restart). Addresses are a pure function of user and chain, so a stopped or busy engine still answers
      // them (reads keep working); the next read records the issue.
      wallet.depositAddresses(req.uid, chains, (code) => {
        if (code !== ResultCode.Ok && !transient(code)) return reply.error(code);
        const items = chains.map((c) => {
          const a = wallet.addresses.addressOf(req.uid, c);
          return { chain: c.chain, address: a.address, payment_id: a.memo, payment_name: c.isTag ? 'Memo' : '',
            obtain_failed: c.depositEnabled ? 0 : 1, min_confirms: c.minConfirms };
        });
        const first = chains[0]!;
        reply.json(200, { currency, address: items[0]!.address, min_deposit_amount: fmtUnits(ex(), currency, first.minDeposit),
          multichain_addresses: items });
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/withdraw_status', access: WALLET, limit: 'wallet',
    handler: (req, reply) => {
      const only = queryParam(req, 'currency');
      if (only !== undefined && only !== '' && wallet.chainsOf(only) === undefined) return reply.error(ResultCode.CurrencyNotFound);
      const codes = only === undefined || only === '' ? wallet.currencies() : [only];
      reply.json(200, codes.map((currency) => {
        const chains = wallet.chainsOf(currency)!;
        const first = chains[0]!;
        let limit = 0n;
        let remain = 0n;
        let min: bigint | undefined;
        let max = 0n;
        for (const c of chains) {
          if (c.dayLimit > 0n) {
            limit += c.dayLimit;
            const left = c.dayLimit - wallet.usedToday(req.uid, c);
            remain += left > 0n ? left : 0n;
          }
          if (min === undefined || c.min < min) min = c.min;
          if (c.eachMax > max) max = c.eachMax;
        }
        const f = (u: bigint): string => fmtUnits(ex(), currency, u);
        return {
          currency, name: currency, name_cn: currency, deposit: first.depositFee, withdraw_percent: `${first.percentText}%`,
          withdraw_fix: f(first.fix), withdraw_day_limit: f(limit), withdraw_day_limit_remain: f(remain),
          withdraw_amount_mini: f(min ?? 0n), withdraw_eachtime_limit: f(max),
          withdraw_fix_on_chains: Object.fromEntries(chains.map((c) => [c.chain, f(c.fix)])),
          withdraw_percent_on_chains: Object.fromEntries(chains.map((c) => [c.chain, `${c.percentText}%`])),
        };
      }));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/getLowCapExchangeList', access: WALLET, limit: 'wallet',
    handler: (_req, reply) => reply.json(200, [...wallet.lowCap]) });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/saved_address', access: WALLET, limit: 'wallet',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency');
      if (currency === undefined || currency === '') return reply.error(ResultCode.MissingParam, 'currency is required');
      if (wallet.chainsOf(currency) === undefined) return reply.error(ResultCode.CurrencyNotFound);
      const chain = queryParam(req, 'chain');
      const limit = intParam(req, 'limit', 50, 1, 100);
      const page = intParam(req, 'page', 1, 1, 100_000);
      for (const v of [limit, page]) if (v < 0) return reply.error(v, 'limit is 1..100 and page from 1');
      const rows = wallet.saved.filter((s) => s.uid === req.uid && s.currency === currency && (chain === undefined || chain === '' || s.chain === chain));
      reply.json(200, rows.slice((page - 1) * limit, page * limit)
        .map((s) => ({ currency: s.currency, chain: s.chain, address: s.address, name: s.name, tag: s.tag, verified: s.verified })));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/wallet/total_balance', access: WALLET, limit: 'wallet-funds',
    handler: (req, reply) => {
      const currency = queryParam(req, 'currency') ?? 'USDT';
      if (!VALUATION_CURRENCIES.has(currency) && ex().currencyIndex(currency) < 0) return reply.error(ResultCode.CurrencyNotFound);
      reply.json(200, totalBalance(ex(), req.uid, currency));
    } });
}
