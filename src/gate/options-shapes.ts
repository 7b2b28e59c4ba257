/**
 * Gate's options objects rendered from the exchange: OptionsUnderlying, OptionsContract, OptionsTicker,
 * OptionsOrder, OptionsPosition, OptionsAccount, OptionsSettlement, OptionsMySettlements, OptionsMyTrade,
 * OptionsAccountBook, OptionsPositionClose, and the liquidation rows.
 *
 * Display figures come from the option model (core/options/black-scholes.ts, floats): mark price = the model's
 * value at the index, the underlying's configured volatility and the time to expiry, rounded to the tick; mark
 * IV = that volatility; greeks likewise. Money figures are exact: the mark price in ticks enters exact
 * arithmetic (valueOf) for position values and unrealised PnL. Sizes are signed JSON integers (Gate's options
 * API has no size-decimal form). Times: float seconds to the millisecond, as Gate's. Costs: O(1) per object
 * (account and position figures walk the user's positions); each allocates its object.
 */
import type { Exchange } from '../core/exchange/exchange.js';
import { orderFlagsOf } from '../core/exchange/order-store.js';
import { formatSigned, ratioText } from '../core/futures/futures-math.js';
import type { AccountBookEntry } from '../core/ledger/queries.js';
import { FinishAs, Side, TIF_NAMES, type TimeInForce } from '../core/matching/order-types.js';
import { contractModel, type ModelFigures } from '../core/options/option-model.js';
import { type OptionContract, type OptionUnderlying, valueOf } from '../core/options/options-contract.js';
import { OptionsFlag } from '../core/options/options-orders.js';
import { optionsAccountFigures } from '../core/options/options-account.js';
import { liquidatableBy } from '../core/options/options-liquidation.js';
import type { OptionPosition, OptionsCloseRow, OptionsLiquidationRow } from '../core/options/options-state.js';

const floatSeconds = (us: number): number => Math.floor(us / 1000) / 1000;
const rateText = (r: bigint): string => formatSigned(r, 8);
const fixed = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(digits) : '0');

export const priceText = (u: OptionUnderlying, ticks: number | bigint): string => formatSigned(BigInt(ticks), u.priceScale);
export const moneyText = (u: OptionUnderlying, units: bigint): string => formatSigned(units, u.settleScale);

/**
 * Model figures of contract `ci` at engine time `nowUs` (core/options/option-model.ts): the mark is the journaled
 * one (OptionsSetMark) once there is one, else the model's; a settled contract shows its intrinsic value.
 */
export function modelOf(ex: Exchange, ci: number, nowUs: number): ModelFigures {
  const S = ex.options;
  const k = S.contracts[ci]!;
  if (S.settled[ci] !== 0) {
    const intrinsic = Math.max(0, k.call ? S.settled[ci]! - k.strike : k.strike - S.settled[ci]!);
    return { markTicks: intrinsic, iv: 0, delta: 0, gamma: 0, vega: 0, theta: 0 };
  }
  const m = contractModel(S.underlyings[k.u]!, k, S.index[k.u]!, nowUs);
  return S.mark[ci]! > 0 ? { ...m, markTicks: S.mark[ci]! } : m;
}

/** The mark of contract `ci` (ticks), as `modelOf` gives it, without running the model when a mark is set. */
export function markOf(ex: Exchange, ci: number, nowUs: number): number {
  const S = ex.options;
  return S.settled[ci] === 0 && S.mark[ci]! > 0 ? S.mark[ci]! : modelOf(ex, ci, nowUs).markTicks;
}

/** Open interest of contract `ci`: Σ long sizes. */
export function openInterest(ex: Exchange, ci: number): number {
  let n = 0;
  for (const p of ex.options.rows) if (p.ci === ci && p.size > 0) n += p.size;
  return n;
}

/** Gate's `tag` of an expiration: day, week, month or quarter by its distance from `nowUs` (display only). */
export function tagOf(k: OptionContract, nowUs: number): string {
  const days = (k.expiration * 1e6 - nowUs) / 86_400e6;
  return days <= 2 ? 'DAY' : days <= 14 ? 'WEEK' : days <= 62 ? 'MONTH' : 'QUARTER';
}

/** What the public feed knows of a contract's market: last trade, last trade id and traded size. */
export interface MarketFigures { lastTicks: number; tradeId: number; tradeSize: number; bid: [number, number]; ask: [number, number] }

export function renderUnderlying(ex: Exchange, ui: number): Record<string, unknown> {
  const u = ex.options.underlyings[ui]!;
  return { name: u.name, index_price: priceText(u, ex.options.index[ui]!) };
}

export function renderOptionContract(ex: Exchange, ci: number, nowUs: number, f: MarketFigures): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[ci]!;
  const u = S.underlyings[k.u]!;
  const m = modelOf(ex, ci, nowUs);
  const tick = priceText(u, u.tick);
  return {
    name: k.name, tag: tagOf(k, nowUs), create_time: 0, expiration_time: k.expiration, is_call: k.call,
    strike_price: k.strikeText, multiplier: formatSigned(u.mUnits, u.mScale), underlying: u.name,
    underlying_price: priceText(u, S.index[k.u]!), last_price: priceText(u, f.lastTicks), mark_price: priceText(u, m.markTicks),
    index_price: priceText(u, S.index[k.u]!), maker_fee_rate: rateText(u.makerRate), taker_fee_rate: rateText(u.takerRate),
    order_price_round: tick, mark_price_round: tick, order_size_min: u.sizeMin, order_size_max: u.sizeMax,
    order_price_deviate: '0.9', ref_discount_rate: '0', ref_rebate_rate: '0', orderbook_id: f.tradeId, trade_id: f.tradeId,
    trade_size: f.tradeSize, position_size: openInterest(ex, ci), orders_limit: u.ordersLimit, settle_fee_rate: '0',
    price_limit_fee_rate: rateText(u.feeCap),
  };
}

export function renderOptionTicker(ex: Exchange, ci: number, nowUs: number, f: MarketFigures): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[ci]!;
  const u = S.underlyings[k.u]!;
  const m = modelOf(ex, ci, nowUs);
  const index = S.index[k.u]!;
  return {
    name: k.name, last_price: priceText(u, f.lastTicks), mark_price: priceText(u, m.markTicks), index_price: priceText(u, index),
    ask1_size: -f.ask[1], ask1_price: priceText(u, f.ask[0]), bid1_size: f.bid[1], bid1_price: priceText(u, f.bid[0]),
    position_size: openInterest(ex, ci), mark_iv: fixed(m.iv, 4), bid_iv: '0', ask_iv: '0',
    leverage: m.markTicks > 0 && index > 0 ? fixed(index / m.markTicks, 2) : '0',
    delta: fixed(m.delta, 5), gamma: fixed(m.gamma, 8), vega: fixed(m.vega, 5), theta: fixed(m.theta, 5), rho: '0',
  };
}

function finishAsName(f: number): string {
  switch (f) {
    case 0: return '';
    case FinishAs.Filled: return 'filled';
    case FinishAs.Ioc: case FinishAs.DepthNotEnough: case FinishAs.Small: return 'ioc';
    case FinishAs.Stp: return 'stp';
    case FinishAs.Liquidated: return 'liquidated';
    case FinishAs.MmpCancelled: return 'mmp_cancelled';
    default: return 'cancelled';
  }
}

/** Gate's OptionsOrder of order record `r`. */
export function renderOptionOrder(ex: Exchange, r: number): Record<string, unknown> {
  const O = ex.orders;
  const S = ex.options;
  const k = S.contracts[S.contractOf(O.market[r]!)]!;
  const u = S.underlyings[k.u]!;
  const sign = O.side[r] === Side.Buy ? 1 : -1;
  const flags = orderFlagsOf(O.account[r]!);
  const finishAs = O.finishAs[r]!;
  const filled = O.filledLots[r]!;
  const open = finishAs === 0;
  return {
    id: O.id[r]!, user: O.uid[r]!, create_time: floatSeconds(O.createTime[r]!),
    ...(open ? {} : { finish_time: floatSeconds(O.updateTime[r]!) }),
    finish_as: finishAsName(finishAs), status: open ? 'open' : 'finished', contract: k.name,
    size: sign * O.amount[r]!, iceberg: O.iceberg[r]!, price: priceText(u, O.price[r]!),
    close: (flags & OptionsFlag.Close) !== 0, is_close: (flags & OptionsFlag.Close) !== 0,
    reduce_only: (flags & OptionsFlag.ReduceOnly) !== 0, is_reduce_only: (flags & OptionsFlag.ReduceOnly) !== 0,
    is_liq: (flags & OptionsFlag.Liquidation) !== 0, mmp: (flags & OptionsFlag.Mmp) !== 0, is_mmp: (flags & OptionsFlag.Mmp) !== 0, tif: TIF_NAMES[O.tif[r] as TimeInForce], left: sign * O.left[r]!,
    fill_price: filled === 0 ? '0' : ratioText(BigInt(O.filledNotional[r]!), BigInt(filled) * 10n ** BigInt(u.priceScale), u.priceScale + 4),
    text: O.text[r] !== '' ? O.text[r]! : 'api', tkfr: rateText(u.takerRate), mkfr: rateText(u.makerRate), refu: 0, refr: '0',
  };
}

/** Gate's OptionsPosition of position row `row` at engine time `nowUs`. */
export function renderOptionPosition(ex: Exchange, row: number, nowUs: number): Record<string, unknown> {
  return renderPositionOf(ex, ex.options.rows[row]!, nowUs);
}

/** The empty OptionsPosition of (uid, contract `ci`) that never traded (nothing is created). */
export function renderEmptyOptionPosition(ex: Exchange, uid: number, ci: number, nowUs: number): Record<string, unknown> {
  return renderPositionOf(ex, { uid, ci, size: 0, cost: 0n, pnl: 0n, openPnl: 0n, openBuy: 0, openSell: 0, pending: 0, updateTime: 0 }, nowUs);
}

function renderPositionOf(ex: Exchange, p: OptionPosition, nowUs: number): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[p.ci]!;
  const u = S.underlyings[k.u]!;
  const m = modelOf(ex, p.ci, nowUs);
  const n = p.size;
  const abs = BigInt(Math.abs(n));
  const markValue = valueOf(u, abs, BigInt(m.markTicks)) * (n < 0 ? -1n : 1n);
  const entry = n === 0 ? '0' : ratioText(p.cost < 0n ? -p.cost : p.cost, abs * u.mUnits * u.valueFactor * 10n ** BigInt(u.priceScale), u.priceScale);
  const pending = ex.orders.openOf(p.uid, S.marketOf[p.ci]).length;
  return {
    user: p.uid, underlying: u.name, underlying_price: priceText(u, S.index[k.u]!), contract: k.name, size: n,
    entry_price: entry, mark_price: priceText(u, m.markTicks), mark_iv: fixed(m.iv, 4),
    realised_pnl: moneyText(u, p.pnl), unrealised_pnl: moneyText(u, markValue - p.cost), pending_orders: pending,
    close_order: null,
    delta: fixed(m.delta * n, 5), gamma: fixed(m.gamma * n, 8), vega: fixed(m.vega * n, 5), theta: fixed(m.theta * n, 5),
  };
}

/**
 * Gate's OptionsAccount of `uid` in underlying quote currency `code` (USDT): the exact figures the liquidator
 * judges (core/options/options-account.ts), `liq_triggered` true while the account is at or below its
 * maintenance margin (the liquidator resolves it at its next pass), and the order holds split by side.
 */
export function renderOptionsAccount(ex: Exchange, uid: number, code: string): Record<string, unknown> {
  const S = ex.options;
  const cur = ex.currencyIndex(code);
  const L = ex.ledger.options;
  const u = S.underlyings.find((x) => x.quote === code) ?? S.underlyings[0]!;
  const f = optionsAccountFigures(ex, uid, cur);
  let bid = 0n;
  let ask = 0n;
  const O = ex.orders;
  for (const r of O.openOf(uid)) {
    if (S.contractOf(O.market[r]!) < 0) continue;
    const h = L.held(O.id[r]!);
    if (h <= 0n) continue;
    if (O.side[r] === Side.Buy) bid += h;
    else ask += h;
  }
  return {
    user: uid, total: moneyText(u, f.total), position_value: moneyText(u, f.positionValue),
    equity: moneyText(u, f.equity), short_enabled: true, mmp_enabled: S.underlyings.some((_, ui) => (S.mmpOf(uid, ui)?.window ?? 0) > 0),
    liq_triggered: liquidatableBy(uid, f), margin_mode: 0, unrealised_pnl: moneyText(u, f.unrealisedPnl),
    init_margin: moneyText(u, f.initialMargin), maint_margin: moneyText(u, f.maintenanceMargin), order_margin: moneyText(u, bid + ask),
    ask_order_margin: moneyText(u, ask), bid_order_margin: moneyText(u, bid), available: moneyText(u, f.available), point: '0',
    currency: code, orders_limit: u.ordersLimit, position_notional_limit: 0,
  };
}

/**
 * Gate's OptionsPositionClose of a close row: time in seconds, `side` of the closed position, `pnl` realised since
 * it opened, `text` how it closed (`close` a trade, `liquidated` the liquidator's takeover, `settled` the expiry),
 * `settle_size` its size before the close, for GET /options/position_close (the options.position_closes push has
 * its own shape: api/ws/options-push-shapes.ts).
 */
export function renderOptionsPositionClose(ex: Exchange, r: OptionsCloseRow): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[r.ci]!;
  return { time: floatSeconds(r.t), contract: k.name, side: r.size > 0 ? 'long' : 'short', pnl: moneyText(S.underlyings[k.u]!, BigInt(r.pnl)),
    text: r.text, settle_size: String(r.size) };
}

/**
 * A liquidation row as the control plane shows it (the options.liquidates push has Gate's own shape:
 * api/ws/options-push-shapes.ts): time in seconds (and ms), user, contract, the
 * size taken over (signed as the position), the mark it was taken at, the liquidation order's id, and the
 * account's equity and maintenance margin when it was liquidated.
 */
export function renderOptionsLiquidation(ex: Exchange, r: OptionsLiquidationRow): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[r.ci]!;
  const u = S.underlyings[k.u]!;
  return { time: floatSeconds(r.t), time_ms: Math.floor(r.t / 1000), user: r.uid, contract: k.name, size: r.size,
    price: priceText(u, r.price), order_id: r.orderId, equity: moneyText(u, BigInt(r.equity)), maint_margin: moneyText(u, BigInt(r.maintenance)) };
}

/** Gate's OptionsMyTrade of trade `id` for `uid`. */
export function renderOptionTrade(ex: Exchange, id: number, uid: number): Record<string, unknown> {
  const T = ex.trades;
  const s = T.slotOf(id);
  const S = ex.options;
  const k = S.contracts[S.contractOf(T.market[s]!)]!;
  const u = S.underlyings[k.u]!;
  const taker = T.takerUid[s] === uid;
  const buy = (T.takerSide[s] === Side.Buy) === taker;
  return {
    id, create_time: floatSeconds(T.time[s]!), contract: k.name, order_id: taker ? T.takerOrder[s]! : T.makerOrder[s]!,
    size: (buy ? 1 : -1) * T.lots[s]!, price: priceText(u, T.price[s]!), underlying_price: priceText(u, S.index[k.u]!),
    role: taker ? 'taker' : 'maker',
  };
}

/** Gate's OptionsTrade (public) of trade `id`. */
export function renderOptionPublicTrade(ex: Exchange, id: number): Record<string, unknown> {
  const T = ex.trades;
  const s = T.slotOf(id);
  const S = ex.options;
  const k = S.contracts[S.contractOf(T.market[s]!)]!;
  const u = S.underlyings[k.u]!;
  return {
    id, create_time: floatSeconds(T.time[s]!), create_time_ms: Math.floor(T.time[s]! / 1000), contract: k.name,
    size: (T.takerSide[s] === Side.Buy ? 1 : -1) * T.lots[s]!, price: priceText(u, T.price[s]!),
  };
}

/** Gate's options account-book type of a ledger entry type name: prem, fee, set, or dnw. */
export function optionsBookType(name: string): string {
  if (name === 'order_fill') return 'prem';
  if (name === 'fee') return 'fee';
  if (name === 'pnl') return 'set';
  return 'dnw';
}

/**
 * Gate's OptionsAccountBook of an options-account entry: premium and fee entries name `contract:order_id` while
 * the order is in the finished window (else the order id), settlements the contract.
 */
export function renderOptionsBookEntry(ex: Exchange, e: AccountBookEntry): Record<string, unknown> {
  let text = e.text;
  if (/^[0-9]+$/.test(text)) {
    const r = ex.orders.find(Number(text));
    const ci = r < 0 ? -1 : ex.options.contractOf(ex.orders.market[r]!);
    if (ci >= 0) text = `${ex.options.contracts[ci]!.name}:${e.text}`;
  }
  return { time: floatSeconds(e.time), change: e.change, balance: e.balance, type: optionsBookType(e.type), text };
}

/**
 * Portfolio-mode figure `options_order_loss` of `uid` (settle units of `code`): what its open options orders
 * would lose at once against the mark if they filled at their limits — Σ max(0, limit − mark) × multiplier ×
 * left over buys, Σ max(0, mark − limit) × multiplier × left over sells. Display only.
 */
export function optionsOrderLoss(ex: Exchange, uid: number, code: string, nowUs: number): bigint {
  const S = ex.options;
  const O = ex.orders;
  let loss = 0n;
  for (const r of O.openOf(uid)) {
    const ci = S.contractOf(O.market[r]!);
    if (ci < 0) continue;
    const k = S.contracts[ci]!;
    const u = S.underlyings[k.u]!;
    if (u.quote !== code) continue;
    const mark = modelOf(ex, ci, nowUs).markTicks;
    const diff = O.side[r] === Side.Buy ? O.price[r]! - mark : mark - O.price[r]!;
    if (diff > 0) loss += valueOf(u, BigInt(O.left[r]!), BigInt(diff));
  }
  return loss;
}

/** optionsOrderLoss in USDT as a decimal string ('0' without USDT options). */
export function optionsOrderLossText(ex: Exchange, uid: number, nowUs: number): string {
  const u = ex.options.underlyings.find((x) => x.quote === 'USDT');
  return u === undefined ? '0' : moneyText(u, optionsOrderLoss(ex, uid, 'USDT', nowUs));
}

/** Position greeks of `uid` per underlying base currency (delta in base units: Σ delta × size × multiplier). */
export function optionsGreeksByBase(ex: Exchange, uid: number, nowUs: number): Map<string, { delta: number; gamma: number; theta: number; vega: number }> {
  const S = ex.options;
  const out = new Map<string, { delta: number; gamma: number; theta: number; vega: number }>();
  for (const p of S.rows) {
    if (p.uid !== uid || p.size === 0) continue;
    const k = S.contracts[p.ci]!;
    const u = S.underlyings[k.u]!;
    const m = modelOf(ex, p.ci, nowUs);
    const q = p.size * Number(u.mUnits) / 10 ** u.mScale;
    const g = out.get(u.base) ?? { delta: 0, gamma: 0, theta: 0, vega: 0 };
    g.delta += m.delta * q; g.gamma += m.gamma * q; g.theta += m.theta * q; g.vega += m.vega * q;
    out.set(u.base, g);
  }
  return out;
}
