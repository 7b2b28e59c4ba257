/**
 * The objects the options WebSocket pushes, in the fields of Gate's options WebSocket v4 (numbers where Gate's
 * push has numbers, `user` a string, `time` seconds and `time_ms` beside every record), rendered from the REST
 * renderers (gate/options-shapes.ts) so both fronts show the same figures. Floats appear only as the display
 * numbers Gate pushes (prices, PnL); money stays exact inside. Each function allocates the object it returns.
 */
import Big from 'big.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { formatSigned, RATE_SCALE } from '../../core/futures/futures-math.js';
import type { AccountBookEntry } from '../../core/ledger/queries.js';
import { Side } from '../../core/matching/order-types.js';
import { payoff } from '../../core/options/options-margin.js';
import type { OptionsCloseRow, OptionsLiquidationRow, UserSettlementRow } from '../../core/options/options-state.js';
import {
  type MarketFigures, moneyText, priceText, renderOptionContract, renderOptionOrder, renderOptionPosition,
  renderOptionPublicTrade, renderOptionsBookEntry, tagOf,
} from '../../gate/options-shapes.js';

const sec = (us: number): number => Math.floor(us / 1e6);
const ms = (us: number): number => Math.floor(us / 1000);
const num = (v: unknown): number => Number(v);
const rateNum = (r: bigint): number => Number(formatSigned(r, RATE_SCALE));

/** A time pair `{time, time_ms}` of engine time `us`. */
const stamp = (us: number): { time: number; time_ms: number } => ({ time: sec(us), time_ms: ms(us) });

/** options.trades / options.ul_trades: one trade (size signed by the taker's side); `withType` adds `is_call`. */
export function tradePush(ex: Exchange, id: number, withType: boolean): Record<string, unknown> {
  const r = renderOptionPublicTrade(ex, id);
  const S = ex.options;
  const k = S.contracts[S.contractOf(ex.trades.market[ex.trades.slotOf(id)]!)]!;
  return {
    contract: k.name, create_time: Math.floor(r.create_time as number), create_time_ms: r.create_time_ms, id, price: num(r.price), size: r.size,
    underlying: S.underlyings[k.u]!.name, ...(withType ? { is_call: k.call } : {}),
  };
}

/** options.contracts: the contract's terms. */
export function contractPush(ex: Exchange, ci: number, nowUs: number, f: MarketFigures): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[ci]!;
  const u = S.underlyings[k.u]!;
  const c = renderOptionContract(ex, ci, nowUs, f);
  return {
    contract: k.name, tag: c.tag, create_time: c.create_time, expiration_time: k.expiration, init_margin_high: rateNum(u.imRate),
    init_margin_low: rateNum(u.imMinRate), is_call: k.call, maint_margin_base: rateNum(u.mmRate), multiplier: num(c.multiplier),
    underlying: u.name, maker_fee_rate: num(c.maker_fee_rate), taker_fee_rate: num(c.taker_fee_rate), order_price_round: num(c.order_price_round),
    mark_price_round: num(c.mark_price_round), order_size_min: u.sizeMin, order_size_max: u.sizeMax, order_price_deviate: num(c.order_price_deviate),
    ref_discount_rate: 0, ref_rebate_rate: 0, orders_limit: u.ordersLimit, min_balance_short: 0, min_order_margin: 0,
    strike_price: num(k.strikeText), ...stamp(nowUs),
  };
}

/**
 * options.settlements: contract `ci` settled at `price` ticks; `openLong` the long contracts it settled (the
 * position size before the settlement emptied it); `profit` what one contract paid, per Gate "per size".
 */
export function settlementPush(ex: Exchange, ci: number, price: number, openLong: number, timeUs: number, f: MarketFigures): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[ci]!;
  const u = S.underlyings[k.u]!;
  return {
    contract: k.name, orderbook_id: f.tradeId, position_size: openLong, profit: num(moneyText(u, payoff(u, k, 1n, price))),
    settle_price: num(priceText(u, price)), strike_price: num(k.strikeText), tag: tagOf(k, timeUs), trade_id: f.tradeId,
    trade_size: f.tradeSize, underlying: u.name, ...stamp(timeUs),
  };
}

/** options.ul_price: the underlying's index. */
export function underlyingPricePush(ex: Exchange, ui: number, timeUs: number): Record<string, unknown> {
  const u = ex.options.underlyings[ui]!;
  return { underlying: u.name, price: num(priceText(u, ex.options.index[ui]!)), ...stamp(timeUs) };
}

/** options.mark_price(s): a contract's mark (ticks). */
export function markPush(ex: Exchange, ci: number, markTicks: number, timeUs: number): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[ci]!;
  return { contract: k.name, price: num(priceText(S.underlyings[k.u]!, markTicks)), ...stamp(timeUs) };
}

/**
 * A candlestick row `{t, v, c, h, l, o, a, n}` from a CandleStore row ([start, quote volume, close, high, low, open,
 * base volume, closed]); `v` the base volume (contracts), `a` the quote volume times `valueScale` (an option's
 * multiplier: its premium value in the settle currency; "1" for a spot market).
 */
export function candleRow(r: readonly string[], n: string, valueScale: string): Record<string, unknown> {
  return { t: Number(r[0]), v: Number(r[6]), c: r[2], h: r[3], l: r[4], o: r[5], a: new Big(r[1]!).times(valueScale).toString(), n };
}

/** options.orders: order record `r`. */
export function orderPush(ex: Exchange, r: number, timeUs: number): Record<string, unknown> {
  const o = renderOptionOrder(ex, r);
  const S = ex.options;
  const k = S.contracts[S.contractOf(ex.orders.market[r]!)]!;
  return {
    contract: o.contract, create_time: Math.floor(o.create_time as number), fill_price: num(o.fill_price), finish_as: o.finish_as,
    iceberg: o.iceberg, id: o.id, is_close: o.is_close, is_liq: o.is_liq, is_reduce_only: o.is_reduce_only, left: o.left,
    mkfr: num(o.mkfr), price: num(o.price), refr: 0, refu: 0, size: o.size, status: o.status, text: o.text, tif: o.tif, tkfr: num(o.tkfr),
    underlying: S.underlyings[k.u]!.name, user: String(o.user), ...stamp(timeUs),
  };
}

/** options.usertrades: `uid`'s side of trade `id` in `role` (a self-trade: once per role). */
export function userTradePush(ex: Exchange, id: number, role: 'taker' | 'maker'): Record<string, unknown> {
  const T = ex.trades;
  const s = T.slotOf(id);
  const S = ex.options;
  const k = S.contracts[S.contractOf(T.market[s]!)]!;
  const u = S.underlyings[k.u]!;
  const taker = role === 'taker';
  const buy = (T.takerSide[s] === Side.Buy) === taker;
  const r = ex.orders.find(taker ? T.takerOrder[s]! : T.makerOrder[s]!);
  const t = T.time[s]!;
  return {
    id: String(id), underlying: u.name, order: String(taker ? T.takerOrder[s]! : T.makerOrder[s]!), contract: k.name, create_time: sec(t),
    create_time_ms: ms(t), price: priceText(u, T.price[s]!), role, size: (buy ? 1 : -1) * T.lots[s]!,
    fee: moneyText(u, BigInt(taker ? T.takerFee[s]! : T.makerFee[s]!)), text: r >= 0 && ex.orders.text[r] !== '' ? ex.orders.text[r]! : 'api',
  };
}

/** options.positions: position row `row`. */
export function positionPush(ex: Exchange, row: number, timeUs: number): Record<string, unknown> {
  const p = renderOptionPosition(ex, row, timeUs);
  return { contract: p.contract, entry_price: num(p.entry_price), realised_pnl: num(p.realised_pnl), size: p.size, user: String(p.user), ...stamp(timeUs) };
}

/** options.user_settlements: one user's settlement. */
export function userSettlementPush(ex: Exchange, r: UserSettlementRow): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[r.ci]!;
  const u = S.underlyings[k.u]!;
  return {
    contract: k.name, realised_pnl: num(moneyText(u, BigInt(r.pnl))), settle_price: num(priceText(u, r.price)),
    settle_profit: num(moneyText(u, BigInt(r.profit))), size: r.size, strike_price: num(k.strikeText), underlying: u.name,
    user: String(r.uid), time: r.t, time_ms: r.t * 1000,
  };
}

/**
 * options.position_closes: a position that became empty. `pnl` what closed it paid or received, `text` how it closed
 * (`settled` for an expiry; a liquidation's record says `liquidated`), `size` the size it had.
 */
export function positionClosePush(ex: Exchange, r: OptionsCloseRow): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[r.ci]!;
  const u = S.underlyings[k.u]!;
  const timeS = Math.floor(r.t / 1e6);
  return {
    contract: k.name, pnl: num(moneyText(u, BigInt(r.pnl))), settle_size: r.size, side: r.size > 0 ? 'long' : 'short', text: r.text,
    underlying: u.name, user: String(r.uid), time: timeS, time_ms: timeS * 1000,
  };
}

/**
 * options.liquidates: Gate's object (user, init_margin, maint_margin, order_margin, time, time_ms: the account when
 * the liquidator took it over; its orders were cancelled first, so order_margin is 0), plus the position taken
 * over (contract, size as the owner held it, price) and the liquidation order's id.
 */
export function liquidationPush(ex: Exchange, r: OptionsLiquidationRow): Record<string, unknown> {
  const S = ex.options;
  const k = S.contracts[r.ci]!;
  const u = S.underlyings[k.u]!;
  return {
    user: String(r.uid), init_margin: r.initial === undefined ? null : num(moneyText(u, BigInt(r.initial))),
    maint_margin: num(moneyText(u, BigInt(r.maintenance))), order_margin: 0, ...stamp(r.t),
    contract: k.name, size: r.size, price: num(priceText(u, r.price)), order_id: r.orderId,
  };
}

/** options.balances: one options-account book entry of `uid` (types dnw, prem, fee, set as GET /options/account_book). */
export function balancePush(ex: Exchange, uid: number, e: AccountBookEntry): Record<string, unknown> {
  const r = renderOptionsBookEntry(ex, e);
  return { balance: num(e.balance), change: num(e.change), text: r.text, time: sec(e.time), time_ms: ms(e.time), type: r.type, user: String(uid) };
}
