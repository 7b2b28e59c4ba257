/**
 * Gate shapes of the unified account (seed section 2.11) from the core's figures, and the helpers the
 * unified routes share: due interest accrual, currency lists, the caller's or a sub-account's uid.
 *
 * USD figures are printed with at most USD_DECIMALS decimals (cut toward zero); balances with their
 * currency's decimals. Figures the mode makes meaningless are "0", as the seed says.
 */
import { CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import { figuresOf, holdingsOf } from '../../core/unified/unified-account.js';
import { USD_SCALE } from '../../core/unified/unified-params.js';
import { hourOf, UnifiedSetting } from '../../core/unified/unified-state.js';
import {
  type AccountFigures, borrowingMode, type CurrencyFigures, formatScaled, type Holding, marginRate, MODE_NAMES, UnifiedMode,
} from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, queryParam } from '../http/api-request.js';
import { directoryOf } from '../sub-accounts/directory.js';
import { optionsOrderLossText } from '../../gate/options-shapes.js';

export const UNIFIED = { kind: 'private', group: 'unified' } as const;
export const USD_DECIMALS = 8;

export const usd = (v: bigint): string => formatScaled(v, USD_SCALE, USD_DECIMALS);
const units = (v: bigint, h: Holding): string => formatScaled(v, h.scale, h.scale);

/**
 * Runs `then` once interest that is due has been accrued: when a whole hour has passed since the last accrual
 * and someone owes, an UnifiedAccrue is submitted first and `then` runs when it completes (at once with the
 * inline runner; after in-flight commands with the threaded one, funds commands being barriers).
 */
export function afterAccrual(deps: ApiDeps, then: () => void): void {
  const ex = deps.gateway.exchange;
  const U = ex.unified;
  if (U.lastHour === 0 || hourOf(deps.gateway.clock.nowUs()) <= U.lastHour || ex.ledger.openLoans().length === 0) return then();
  const c = deps.cmd.clear();
  c.type = CommandType.UnifiedAccrue;
  deps.gateway.submit(c, () => then());
}

/**
 * Currency indexes of a comma-separated query parameter: MissingParam when absent and `required`, every
 * currency when absent otherwise, InvalidParam beyond `max`, CurrencyNotFound for an unknown code.
 */
export function currencyList(ex: Exchange, req: ApiRequest, name: string, required: boolean, max: number): number[] | ResultCode {
  const v = queryParam(req, name);
  if (v === undefined || v === '') return required ? ResultCode.MissingParam : ex.currencies.map((_c, i) => i);
  const codes = v.split(',').map((s) => s.trim().toUpperCase()).filter((s) => s !== '');
  if (codes.length === 0) return ResultCode.MissingParam;
  if (codes.length > max) return ResultCode.InvalidParam;
  const out: number[] = [];
  for (const code of codes) {
    const i = ex.currencyIndex(code);
    if (i < 0) return ResultCode.CurrencyNotFound;
    out.push(i);
  }
  return out;
}

/** The uid the query's `sub_uid` names (a sub-account of the caller), the caller itself when absent, or a code. */
export function targetUid(deps: ApiDeps, req: ApiRequest): number {
  const sub = queryParam(req, 'sub_uid');
  if (sub === undefined || sub === '') return req.uid;
  return directoryOf(deps).resolve(req.uid, sub);
}

/** Gate's `settings` object of a mode's bits. */
export function settingsView(bits: number): Record<string, boolean> {
  return {
    usdt_futures: (bits & UnifiedSetting.UsdtFutures) !== 0, spot_hedge: (bits & UnifiedSetting.SpotHedge) !== 0,
    use_funding: (bits & UnifiedSetting.UseFunding) !== 0, options: (bits & UnifiedSetting.Options) !== 0,
  };
}

function balanceView(mode: number, h: Holding, f: CurrencyFigures): Record<string, unknown> {
  const single = mode === UnifiedMode.SingleCurrency && h.code === 'USDT';
  return {
    available: units(h.available, h), freeze: units(h.freeze, h), borrowed: units(h.borrowed, h), negative_liab: '0',
    futures_pos_liab: '0', equity: units(f.equity, h), total_freeze: units(h.freeze, h), total_liab: units(f.totalLiab, h),
    spot_in_use: mode === UnifiedMode.Portfolio ? units(h.freeze, h) : '0', funding: '0', funding_version: '0',
    cross_balance: units(h.available, h), iso_balance: '0', im: '0', mm: '0', imr: '0', mmr: '0',
    margin_balance: single ? units(f.equity, h) : '0', available_margin: single ? units(h.available, h) : '0',
    enabled_collateral: h.price !== undefined, balance_version: 0,
  };
}

/** The unified account of `uid` (section 2.11), balances limited to `only` (currency indexes) when given. */
export function accountView(ex: Exchange, uid: number, nowUs: number, only?: readonly number[]): Record<string, unknown> {
  const holdings = holdingsOf(ex, uid);
  const fig: AccountFigures = figuresOf(ex, holdings);
  const mode = ex.unified.modeOf(uid);
  const settings = ex.unified.settingsOf(uid);
  const margin = borrowingMode(mode);
  const balances: Record<string, unknown> = {};
  holdings.forEach((h, i) => {
    const listed = only === undefined ? h.available + h.freeze + h.borrowed + h.interest > 0n : only.includes(i);
    if (listed) balances[h.code] = balanceView(mode, h, fig.currencies.get(h.code)!);
  });
  const m = (v: string): string => (margin ? v : '0');
  return {
    user_id: uid, refresh_time: Math.floor(nowUs / 1000), locked: margin && fig.locked, balances,
    total: usd(fig.totalUsd), borrowed: m(usd(fig.borrowedUsd)),
    total_initial_margin: m(usd(fig.initialMargin)), total_margin_balance: m(usd(fig.marginBalance)),
    total_maintenance_margin: m(usd(fig.maintenanceMargin)),
    total_initial_margin_rate: m(marginRate(fig.marginBalance, fig.initialMargin)),
    total_maintenance_margin_rate: m(marginRate(fig.marginBalance, fig.maintenanceMargin)),
    total_available_margin: m(usd(fig.availableMargin)),
    unified_account_total: usd(fig.totalUsd), unified_account_total_liab: usd(fig.liabUsd),
    unified_account_total_equity: usd(fig.totalUsd - fig.liabUsd), leverage: '0', spot_order_loss: '0',
    // Portfolio mode counts what open options orders would lose against the mark (gate/options-shapes.ts).
    options_order_loss: mode === UnifiedMode.Portfolio ? optionsOrderLossText(ex, uid, nowUs) : '0',
    spot_hedge: (settings & UnifiedSetting.SpotHedge) !== 0, use_funding: (settings & UnifiedSetting.UseFunding) !== 0,
    is_all_collateral: true, mode: MODE_NAMES[mode],
  };
}
