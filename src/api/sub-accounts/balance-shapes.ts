/**
 * Gate's sub-account balance shapes (seed 2.10) from ledger balances (isolated and cross margin with their loans
 * and risk, core/margin/); futures accounts with their positions' figures at the marks (core/futures/account-figures.ts).
 * @allocates (read routes)
 */
import { renderFuturesAccount } from '../../gate/futures-position-shapes.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { crossAccountOf } from '../../core/margin/cross-margin.js';
import { marginAccountOf } from '../../core/margin/margin-account.js';
import { type MarginFigures, riskE8 } from '../../core/margin/margin-risk.js';
import { PPM, USD_SCALE } from '../../core/unified/unified-params.js';
import { formatScaled, marginRate, usdOf } from '../../core/unified/valuation.js';

/**
 * Gate's figures of a margin or cross-margin account that owes nothing: `risk` (and an isolated account's
 * `mmr`) "9999.99", a cross-margin account's margin rates "9999.9900", as Gate's answers show them; a debt-free
 * account is as far from liquidation as these fields go.
 */
export const NO_DEBT_RISK = '9999.99';
export const NO_DEBT_MARGIN_RATE = '9999.9900';

/** `risk` of figures `f`: A / L at up to 8 decimals, or NO_DEBT_RISK without liabilities. */
const riskText = (f: MarginFigures): string => (f.liabUsd === 0n ? NO_DEBT_RISK : formatScaled(riskE8(f), 8, 8));

/** One currency side of an isolated-margin account. */
function marginCurrency(ex: Exchange, uid: number, market: number, currency: string): Record<string, string> {
  const b = ex.ledger.balanceText(uid, AccountKind.Margin, market, currency)!;
  return { currency, available: b.available, locked: b.locked, borrowed: b.borrowed, interest: b.interest };
}

/**
 * The isolated-margin accounts of `uid` (markets where it has a margin balance record): `leverage` the
 * configured one, `locked` below the liquidation risk, `risk` and `mmr` both assets / liabilities
 * (core/margin/margin-risk.ts; "0" without liabilities).
 */
export function marginAccounts(ex: Exchange, uid: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const leverage = formatScaled(ex.unified.params.marginLeveragePpm, 6, 6);
  ex.markets.slice(0, ex.spotMarkets).forEach((m, i) => {
    if (ex.ledger.balances(uid, AccountKind.Margin, i).length === 0) return;
    const f = marginAccountOf(ex, uid, i).figures;
    const risk = riskText(f);
    out.push({
      currency_pair: m.id, account_type: 'mmr', leverage, locked: f.locked, risk, mmr: risk,
      base: marginCurrency(ex, uid, i, m.spec.base), quote: marginCurrency(ex, uid, i, m.spec.quote),
    });
  });
  return out;
}

/** Settle currencies (indexes) where `uid` has a futures balance record. */
export const futuresSettles = (ex: Exchange, uid: number): number[] =>
  ex.currencies.map((_c, i) => i).filter((i) => ex.ledger.balances(uid, AccountKind.Futures, i).length > 0);

/** Gate's FuturesAccount of `uid` settled in currency index `settle`, with its live figures (gate/futures-position-shapes.ts). */
export const futuresAccount = (ex: Exchange, uid: number, settle: number): Record<string, unknown> => renderFuturesAccount(ex, uid, settle);

/** USD (USD_SCALE) as a decimal string of at most 8 decimals, cut toward zero. */
const usd = (v: bigint): string => formatScaled(v, USD_SCALE, 8);

/**
 * Gate's cross-margin account of `uid` (user_id 0 when it has none), figures of core/margin/cross-margin.ts in
 * USD at the index prices: `total` the assets A, `borrowed` and `interest` the liabilities' two parts (L their
 * sum), `net` and `total_margin_balance` the equity E = A − L, `risk` A / L (NO_DEBT_RISK without liabilities), `locked`
 * below the cross liquidation risk, `leverage` the margin leverage λ. The margin totals: initial margin
 * L / (λ − 1) (the equity that carries L at the leverage), maintenance margin L × (risk threshold − 1) (the
 * equity at the lock), their rates E / margin (NO_DEBT_MARGIN_RATE without liabilities), available margin E − initial margin.
 */
export function crossMarginAccount(ex: Exchange, uid: number): Record<string, unknown> {
  const rows = ex.ledger.balances(uid, AccountKind.CrossMargin, 0);
  const balances: Record<string, unknown> = {};
  for (const b of rows) balances[b.currency] = { available: b.available, freeze: b.locked, borrowed: b.borrowed, interest: b.interest };
  const params = ex.unified.params;
  const { holdings, figures: f } = crossAccountOf(ex, uid);
  let borrowed = 0n;
  for (const h of holdings) borrowed += usdOf(h.borrowed, h.scale, h.price);
  const im = (f.liabUsd * PPM) / (params.marginLeveragePpm - PPM);
  const mm = (f.liabUsd * (params.crossLiquidationPpm - PPM)) / PPM;
  const net = usd(f.equityUsd);
  const rate = (balance: bigint, margin: bigint): string => (f.liabUsd === 0n ? NO_DEBT_MARGIN_RATE : marginRate(balance, margin));
  return {
    user_id: rows.length > 0 ? uid : 0, locked: f.locked, balances, total: usd(f.assetUsd), borrowed: usd(borrowed),
    borrowed_net: usd(borrowed), net, leverage: formatScaled(params.marginLeveragePpm, 6, 6),
    interest: usd(f.liabUsd - borrowed), risk: riskText(f), total_initial_margin: usd(im),
    total_margin_balance: net, total_maintenance_margin: usd(mm), total_initial_margin_rate: rate(f.equityUsd, im),
    total_maintenance_margin_rate: rate(f.equityUsd, mm), total_available_margin: usd(f.equityUsd - im),
  };
}
