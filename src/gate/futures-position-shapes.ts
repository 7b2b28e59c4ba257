/**
 * Gate's Position and FuturesAccount (and the history rows: PositionClose, FuturesLiquidate, the ADL record)
 * rendered from the futures state at the current marks, through core/futures/account-figures.ts.
 *
 * Figures: `value` |size| × multiplier × mark (settle units), `margin` the position's margin hold, `entry_price`
 * |basis| / (|size| × multiplier) (4 more decimals than the price tick), `liq_price` where margin + uPnL meets
 * the maintenance margin (cross: with the account's available balance as margin), `realised_pnl` = pnl_pnl +
 * pnl_fee + pnl_fund. `adl_ranking`: the position's quintile in the auto-deleveraging queue of its side
 * (1 first, 5 last; 6 when empty or not in the queue).
 *
 * Costs: a position is O(1) plus the ADL queue of its contract (O(open positions log n)); an account is
 * O(positions of the user).
 */
import { curOf } from '../core/ledger/futures-funds.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { orderFlagsOf } from '../core/exchange/order-store.js';
import { crossFigures, positionFigures } from '../core/futures/account-figures.js';
import { adlQueue } from '../core/futures/futures-liquidation.js';
import { FuturesFlag } from '../core/futures/futures-orders.js';
import { formatSigned, ratioText } from '../core/futures/futures-math.js';
import type { AdlRow, CloseRow, LiquidationRow } from '../core/futures/futures-state.js';
import { POSITION_MODE_NAMES } from '../core/futures/position-store.js';
import { entryTicks, maxLeverageOf, mmrOf } from '../core/futures/risk.js';
import { moneyText, priceText, rateText, type SizeForm, sizeOut } from './futures-shapes.js';

const seconds = (us: number): number => Math.floor(us / 1e6);

/** The ADL rank 1..5 of position row `row` (6: none). */
function adlRanking(ex: Exchange, ci: number, row: number): number {
  const P = ex.futures.positions;
  const n = P.size[row]!;
  if (n === 0) return 6;
  const queue = adlQueue(ex, ci, n < 0);
  const i = queue.indexOf(row);
  return i < 0 ? 6 : 1 + Math.floor((5 * i) / queue.length);
}

/** The open close order (close / auto_size) of a position, as Gate's close_order, or null. */
function closeOrder(ex: Exchange, ci: number, row: number): Record<string, unknown> | null {
  const O = ex.orders;
  const P = ex.futures.positions;
  const c = ex.futures.contracts[ci]!;
  for (const r of O.openOf(P.uid[row]!, P.market[row])) {
    const flags = orderFlagsOf(O.account[r]!);
    if ((flags & (FuturesFlag.Close | FuturesFlag.AutoSize | FuturesFlag.Liquidation)) === 0) continue;
    return { id: O.id[r]!, price: priceText(c, O.price[r]!), is_liq: (flags & FuturesFlag.Liquidation) !== 0 };
  }
  return null;
}

/** Gate's Position of position row `row`. */
export function renderPosition(ex: Exchange, row: number, form: SizeForm): Record<string, unknown> {
  const S = ex.futures;
  const P = S.positions;
  const ci = S.contractOf(P.market[row]!);
  const c = S.contracts[ci]!;
  const f = positionFigures(ex, row);
  const n = P.size[row]!;
  const realised = P.pnlPnl[row]! + P.pnlFee[row]! + P.pnlFund[row]!;
  const leverage = String(P.leverage[row]!);
  return {
    user: P.uid[row]!,
    contract: c.name,
    size: sizeOut(n, form),
    leverage,
    risk_limit: moneyText(c, P.riskLimit[row]!),
    leverage_max: String(maxLeverageOf(c, P.riskLimit[row]!)),
    maintenance_rate: rateText(f.mmr),
    value: moneyText(c, f.value),
    margin: moneyText(c, f.margin),
    entry_price: formatSigned(entryTicks(c, n, P.basis[row]!, 4), c.priceScale + 4),
    liq_price: priceText(c, f.liqPrice),
    mark_price: priceText(c, f.mark),
    initial_margin: moneyText(c, f.initial),
    maintenance_margin: moneyText(c, f.maintenance),
    unrealised_pnl: moneyText(c, f.upnl),
    realised_pnl: moneyText(c, realised),
    pnl_pnl: moneyText(c, P.pnlPnl[row]!),
    pnl_fund: moneyText(c, P.pnlFund[row]!),
    pnl_fee: moneyText(c, P.pnlFee[row]!),
    history_pnl: moneyText(c, P.historyPnl[row]!),
    last_close_pnl: moneyText(c, P.lastClosePnl[row]!),
    realised_point: '0',
    history_point: '0',
    adl_ranking: adlRanking(ex, ci, row),
    pending_orders: P.pending[row]!,
    close_order: closeOrder(ex, ci, row),
    mode: POSITION_MODE_NAMES[P.slot[row]!] ?? 'single',
    cross_leverage_limit: String(P.crossLimit[row]!),
    update_time: seconds(P.updateTime[row]!),
    update_id: P.updateId[row]!,
    open_time: seconds(P.openTime[row]!),
    risk_limit_table: '',
    average_maintenance_rate: rateText(f.mmr),
    pid: 0,
    pos_margin_mode: P.leverage[row] === 0 ? 'cross' : 'isolated',
    lever: leverage,
  };
}

/** Gate's FuturesAccount (DeliveryAccount) of (uid, margin account `cur`: settle currency, + DELIVERY_ACCT for delivery). */
export function renderFuturesAccount(ex: Exchange, uid: number, cur: number): Record<string, unknown> {
  const code = ex.currencies[curOf(cur)]!;
  const m = (v: bigint): string => ex.ledger.format(code, v);
  const f = crossFigures(ex, uid, cur);
  const a = ex.futures.findAccount(uid, cur);
  const dual = a?.dual === true;
  const ratio = (num: bigint): string => (f.marginBalance > 0n ? ratioText(num, f.marginBalance, 8) : '0');
  return {
    total: m(f.total), unrealised_pnl: m(f.upnl), position_margin: m(f.positionMargin), order_margin: m(f.orderMargin),
    available: m(f.available), point: '0', currency: code, in_dual_mode: dual, enable_credit: false,
    position_initial_margin: m(f.allInitial), maintenance_margin: m(f.allMaintenance), bonus: '0', enable_evolved_classic: false,
    cross_order_margin: m(f.orderMargin), cross_initial_margin: m(f.crossInitial), cross_maintenance_margin: m(f.maintenance),
    cross_unrealised_pnl: m(f.crossUpnl), cross_available: m(f.available), cross_margin_balance: m(f.marginBalance),
    cross_mmr: ratio(f.maintenance), cross_imr: ratio(f.crossInitial), isolated_position_margin: m(f.isolatedMargin),
    enable_new_dual_mode: false, margin_mode: 0, enable_tiered_mm: false, enable_dual_plus: false,
    position_mode: dual ? 'dual' : 'single',
    history: {
      dnw: m(a?.dnw ?? 0n), pnl: m(a?.pnl ?? 0n), fee: m(a?.fee ?? 0n), refr: '0', fund: m(a?.fund ?? 0n), point_dnw: '0',
      point_fee: '0', point_refr: '0', bonus_dnw: '0', bonus_offset: '0', cross_settle: '0',
    },
  };
}

/** The name of the contract of market `market`. */
export const contractName = (ex: Exchange, market: number): string => ex.futures.contracts[ex.futures.contractOf(market)]!.name;

/** Gate's PositionClose of a close row (money already decimal strings; times µs in the row). */
export function renderPositionClose(ex: Exchange, row: CloseRow, form: SizeForm): Record<string, unknown> {
  const long = row.side === 'long';
  return {
    time: seconds(row.t), contract: contractName(ex, row.market), side: row.side, pnl: row.pnl, pnl_pnl: row.pnlPnl, pnl_fund: row.pnlFund,
    pnl_fee: row.pnlFee, text: row.text, max_size: sizeOut(row.maxSize, form), accum_size: sizeOut(row.accumSize, form),
    first_open_time: seconds(row.firstOpenTime), long_price: long ? row.entryPrice : row.closePrice, short_price: long ? row.closePrice : row.entryPrice,
  };
}

/** Gate's FuturesLiquidate of a liquidation row (times µs in the row). */
export function renderLiquidation(ex: Exchange, row: LiquidationRow, form: SizeForm): Record<string, unknown> {
  return {
    time: seconds(row.t), contract: contractName(ex, row.market), leverage: String(row.leverage), size: sizeOut(row.size, form),
    margin: row.margin, entry_price: row.entryPrice, liq_price: row.liqPrice, mark_price: row.markPrice, order_id: row.orderId,
    order_price: row.orderPrice, fill_price: row.orderPrice, left: sizeOut(0, form),
  };
}

/** Gate's auto-deleverage record (GET /futures/{settle}/auto_deleverages) of an ADL row. */
export function renderAdl(ex: Exchange, row: AdlRow, form: SizeForm): Record<string, unknown> {
  return {
    time: seconds(row.t), user: row.uid, order_id: row.orderId, contract: contractName(ex, row.market), leverage: String(row.leverage),
    cross_leverage_limit: String(row.crossLimit), entry_price: row.entryPrice, fill_price: row.fillPrice,
    trade_size: sizeOut(row.tradeSize, form), position_size: sizeOut(row.positionSize, form),
  };
}

/** Gate's Position of (uid, contract `ci`, slot) that was never touched: the contract's defaults, no size. */
export function renderEmptyPosition(ex: Exchange, uid: number, ci: number, slot: number, form: SizeForm): Record<string, unknown> {
  const c = ex.futures.contracts[ci]!;
  const mmr = mmrOf(c, c.riskBase);
  const zero = moneyText(c, 0n);
  const leverage = String(c.defaultLeverage);
  return {
    user: uid, contract: c.name, size: sizeOut(0, form), leverage, risk_limit: moneyText(c, c.riskBase),
    leverage_max: String(maxLeverageOf(c, c.riskBase)), maintenance_rate: rateText(mmr), value: zero, margin: zero,
    entry_price: '0', liq_price: '0', mark_price: priceText(c, ex.futures.mark[ci]!), initial_margin: zero, maintenance_margin: zero,
    unrealised_pnl: zero, realised_pnl: zero, pnl_pnl: zero, pnl_fund: zero, pnl_fee: zero, history_pnl: zero, last_close_pnl: zero,
    realised_point: '0', history_point: '0', adl_ranking: 6, pending_orders: 0, close_order: null,
    mode: POSITION_MODE_NAMES[slot] ?? 'single', cross_leverage_limit: '0', update_time: 0, update_id: 0, open_time: 0,
    risk_limit_table: '', average_maintenance_rate: rateText(mmr), pid: 0, pos_margin_mode: 'isolated', lever: leverage,
  };
}
