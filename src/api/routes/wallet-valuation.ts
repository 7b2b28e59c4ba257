/**
 * GET /wallet/total_balance's valuation: every balance of a user (all account kinds, available + locked)
 * converted into one currency at last trade prices: directly (C_T or T_C), else through USDT. A currency with
 * no such price counts 0. `USD` is valued as USDT. big.js at the edge; results are 8-decimal strings (down).
 * Cost: one scan of the retained trades per market (a read route limited to 80 per 10 s).
 */
import Big from 'big.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { ACCOUNT_KIND_NAMES, type AccountKind, SubIndex, subIndexOf } from '../../core/ledger/account-kinds.js';
import { formatUnits } from '../../core/units.js';

/** Last trade price of every market that traded (id → price). @allocates */
function lastPrices(ex: Exchange): Map<string, Big> {
  const T = ex.trades;
  const out = new Map<string, Big>();
  ex.markets.slice(0, ex.spotMarkets).forEach((m, i) => {
    const ids = T.newest((slot) => T.market[slot] === i, 1);
    if (ids.length === 1) out.set(m.id, new Big(formatUnits(T.price[T.slotOf(ids[0]!)]!, m.priceScale)));
  });
  return out;
}

/** Price of one unit of `from` in `to`, or undefined. */
function rate(prices: Map<string, Big>, from: string, to: string): Big | undefined {
  if (from === to) return new Big(1);
  const direct = prices.get(`${from}_${to}`);
  if (direct !== undefined) return direct;
  const inverse = prices.get(`${to}_${from}`);
  if (inverse !== undefined && !inverse.eq(0)) return new Big(1).div(inverse);
  if (from === 'USDT' || to === 'USDT') return undefined;
  const a = rate(prices, from, 'USDT');
  const b = rate(prices, to, 'USDT');
  return a === undefined || b === undefined || b.eq(0) ? undefined : a.div(b);
}

const fmt = (v: Big): string => v.round(8, Big.roundDown).toFixed(8).replace(/\.?0+$/, '') || '0';

/** Gate's TotalBalance for `uid` valued in `currency` (USD is valued as USDT). @allocates */
export function totalBalance(ex: Exchange, uid: number, currency: string): Record<string, unknown> {
  const target = currency === 'USD' ? 'USDT' : currency;
  const prices = lastPrices(ex);
  const details: Record<string, unknown> = {};
  let total = new Big(0);
  for (const [k, name] of Object.entries(ACCOUNT_KIND_NAMES)) {
    const kind = Number(k) as AccountKind;
    const what = subIndexOf(kind);
    const subs = what === SubIndex.Market ? ex.markets.length : what === SubIndex.Currency ? ex.currencies.length : 1;
    let sum = new Big(0);
    for (let sub = 0; sub < subs; sub++) {
      for (const b of ex.ledger.balances(uid, kind, sub)) {
        const r = rate(prices, b.currency, target);
        if (r !== undefined) sum = sum.plus(new Big(b.available).plus(b.locked).times(r));
      }
    }
    total = total.plus(sum);
    details[name] = { currency, amount: fmt(sum), unrealised_pnl: '0', borrowed: '0' };
  }
  return { total: { currency, amount: fmt(total), unrealised_pnl: '0', borrowed: '0' }, details };
}
