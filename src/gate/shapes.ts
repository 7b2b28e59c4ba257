/**
 * Gate API v4 resource shapes (Order, SpotAccount, SpotAccountBook, Trade, OrderBook) rendered from the
 * exchange's records: the embedded API and the REST routes return exactly these objects.
 * Decimal strings come from exact integers (formatUnits); the one division, avg_deal_price, uses big.js.
 * Everything here allocates (it builds JSON-ready objects); none of it is on the matching path.
 */
import Big from 'big.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { accountKindOf, OrderFlag, orderFlagsOf } from '../core/exchange/order-store.js';
import { ACCOUNT_KIND_NAMES, AccountKind } from '../core/ledger/account-kinds.js';
import { FINISH_AS_NAMES, type FinishAs, OrderType, Side, STP_ACT_NAMES, type StpAct, TIF_NAMES, type TimeInForce } from '../core/matching/order-types.js';
import type { OrderBook } from '../core/matching/order-book.js';
import { formatUnits } from '../core/units.js';

export interface GateOrder {
  id: string; text: string; amend_text: string;
  create_time: string; update_time: string; create_time_ms: number; update_time_ms: number;
  status: 'open' | 'closed' | 'cancelled'; currency_pair: string; type: 'limit' | 'market'; account: string;
  side: 'buy' | 'sell'; amount: string; price: string; time_in_force: string; iceberg: string; left: string;
  filled_amount: string; fill_price: string; filled_total: string; avg_deal_price: string;
  fee: string; fee_currency: string; point_fee: string; gt_fee: string; gt_maker_fee: string; gt_taker_fee: string;
  gt_discount: boolean; rebated_fee: string; rebated_fee_currency: string; finish_as: string;
  stp_id: number; stp_act: string; auto_borrow: boolean; auto_repay: boolean;
}

export interface GateSpotAccount { currency: string; available: string; locked: string; update_id: number }

export interface GateAccountBookEntry {
  id: string; time: number; currency: string; change: string; balance: string; type: string; code: string; text: string;
}

export interface GateTrade {
  id: string; create_time: string; create_time_ms: string; currency_pair: string; side: 'buy' | 'sell';
  role: 'taker' | 'maker'; amount: string; price: string; order_id: string; fee: string; fee_currency: string;
  point_fee: string; gt_fee: string; amend_text: string; sequence_id: string; text: string; deal: string;
}

export interface GatePublicTrade {
  id: string; create_time: string; create_time_ms: string; currency_pair: string; side: 'buy' | 'sell';
  amount: string; price: string; sequence_id: string;
}

export interface GateOrderBook { id?: number; current: number; update: number; asks: [string, string][]; bids: [string, string][] }

/** Gate's account-book `code` of each type code, where its documented list ("AccountBook code") names one. */
const BOOK_CODES: Readonly<Record<string, string>> = {
  deposit: '110', withdraw: '4', order_fill: '102', order_fee: '151', system_fee: '152', margin_in: '601', margin_out: '602',
  cross_in: '651', cross_out: '652', perp_in: '701', perp_out: '702', delivery_in: '703', delivery_out: '704',
  options_in: '1603', options_out: '1604', subaccount_trf: '1401', push_sent: '1907', push_rcvd: '1908', borrow: '630',
  repay: '631', margin_borrow: '670', margin_repay: '671', margin_interest_out: '676',
};

/** The `code` of an account-book entry of Gate type `type` ('' where Gate's list has none to match). */
export const accountBookCode = (type: string): string => BOOK_CODES[type] ?? '';

const seconds = (us: number): string => String(Math.floor(us / 1e6));
const millis = (us: number): number => Math.floor(us / 1e3);
/**
 * Gate's create_time_ms of trades: milliseconds with six decimals, as a string ("1706382263841.325000", as in
 * Gate's live answers); exact from integer µs (the last three decimals are zeros).
 */
function millisText(us: number): string {
  const t = Math.floor(us);
  return `${Math.floor(t / 1000)}.${String(t % 1000).padStart(3, '0')}000`;
}
const sideName = (side: number): 'buy' | 'sell' => (side === Side.Buy ? 'buy' : 'sell');

/** Trims a fixed-point decimal's trailing zeros ("1.500" → "1.5", "2.000" → "2"). */
function trimDecimal(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** The Gate Order for order record `r`. */
export function renderOrder(ex: Exchange, r: number): GateOrder {
  const O = ex.orders;
  const m = ex.markets[O.market[r]!]!;
  const spec = m.spec;
  const side = O.side[r]!;
  const marketBuy = O.type[r] === OrderType.Market && side === Side.Buy;
  const amountOf = (v: number): string => (marketBuy ? formatUnits(v, m.notionalScale) : formatUnits(v, m.amountScale));
  const finishAs = O.finishAs[r]!;
  const filledLots = O.filledLots[r]!;
  const filledNotional = O.filledNotional[r]!;
  const feeCurrency = side === Side.Buy ? spec.base : spec.quote;
  const avg = filledLots === 0 ? '0'
    : trimDecimal(new Big(filledNotional).div(filledLots).div(10 ** m.priceScale).toFixed(m.priceScale + 4, Big.roundHalfUp));
  const filledTotal = formatUnits(filledNotional, m.notionalScale);
  return {
    id: String(O.id[r]!),
    text: O.text[r] !== '' ? O.text[r]! : 'apiv4',
    amend_text: O.amendText[r] !== '' ? O.amendText[r]! : '-',
    create_time: seconds(O.createTime[r]!),
    update_time: seconds(O.updateTime[r]!),
    create_time_ms: millis(O.createTime[r]!),
    update_time_ms: millis(O.updateTime[r]!),
    status: finishAs === 0 ? 'open' : (finishAs === 1 ? 'closed' : 'cancelled'),
    currency_pair: m.id,
    type: O.type[r] === OrderType.Market ? 'market' : 'limit',
    account: accountKindOf(O.account[r]!) === AccountKind.Spot ? 'spot' : ACCOUNT_KIND_NAMES[accountKindOf(O.account[r]!) as AccountKind],
    side: sideName(side),
    amount: amountOf(O.amount[r]!),
    price: O.type[r] === OrderType.Market ? '0' : formatUnits(O.price[r]!, m.priceScale),
    time_in_force: TIF_NAMES[O.tif[r] as TimeInForce],
    iceberg: formatUnits(O.iceberg[r]!, m.amountScale),
    left: amountOf(O.left[r]!),
    filled_amount: formatUnits(filledLots, m.amountScale),
    fill_price: filledTotal,
    filled_total: filledTotal,
    avg_deal_price: avg,
    fee: ex.ledger.format(feeCurrency, O.fee[r]!),
    fee_currency: feeCurrency,
    point_fee: '0', gt_fee: '0', gt_maker_fee: '0', gt_taker_fee: '0', gt_discount: false,
    rebated_fee: '0', rebated_fee_currency: spec.quote,
    finish_as: finishAs === 0 ? 'open' : FINISH_AS_NAMES[finishAs as FinishAs],
    stp_id: O.stpId[r]!,
    stp_act: STP_ACT_NAMES[O.stpAct[r] as StpAct],
    auto_borrow: (orderFlagsOf(O.account[r]!) & OrderFlag.AutoBorrow) !== 0,
    auto_repay: (orderFlagsOf(O.account[r]!) & OrderFlag.AutoRepay) !== 0,
  };
}

/** A JSON string literal: as is when it needs no escaping (the common case), else JSON.stringify's. */
const SAFE_TEXT = /^[\w .:/+-]*$/;
const jsonString = (s: string): string => (SAFE_TEXT.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * `JSON.stringify(o)` of a rendered Order, written field by field (an order reply's largest cost was the
 * generic serializer). The text is identical, key order included — a test renders random orders both
 * ways. Decimal and enum fields need no escaping; client-supplied and configured strings go through
 * `jsonString`.
 */
export function orderJson(o: GateOrder): string {
  return `{"id":"${o.id}","text":${jsonString(o.text)},"amend_text":${jsonString(o.amend_text)},"create_time":"${o.create_time}",`
    + `"update_time":"${o.update_time}","create_time_ms":${o.create_time_ms},"update_time_ms":${o.update_time_ms},`
    + `"status":"${o.status}","currency_pair":${jsonString(o.currency_pair)},"type":"${o.type}","account":${jsonString(o.account)},`
    + `"side":"${o.side}","amount":"${o.amount}","price":"${o.price}","time_in_force":"${o.time_in_force}","iceberg":"${o.iceberg}",`
    + `"left":"${o.left}","filled_amount":"${o.filled_amount}","fill_price":"${o.fill_price}","filled_total":"${o.filled_total}",`
    + `"avg_deal_price":"${o.avg_deal_price}","fee":"${o.fee}","fee_currency":${jsonString(o.fee_currency)},"point_fee":"${o.point_fee}",`
    + `"gt_fee":"${o.gt_fee}","gt_maker_fee":"${o.gt_maker_fee}","gt_taker_fee":"${o.gt_taker_fee}","gt_discount":${o.gt_discount},`
    + `"rebated_fee":"${o.rebated_fee}","rebated_fee_currency":${jsonString(o.rebated_fee_currency)},"finish_as":"${o.finish_as}",`
    + `"stp_id":${o.stp_id},"stp_act":"${o.stp_act}","auto_borrow":${o.auto_borrow},"auto_repay":${o.auto_repay}}`;
}

/** The side of a trade one row of a user's trade history shows. */
export type TradeRole = 'taker' | 'maker';

/**
 * The roles `uid` played in the trade at ring slot `slot`: none, one, or both for a self-trade (the user's
 * order met its own resting order), whose two sides are two trades of the user, each with its order, side and
 * fee. @allocates a small array
 */
export function rolesOf(ex: Exchange, slot: number, uid: number): TradeRole[] {
  const T = ex.trades;
  const out: TradeRole[] = [];
  if (T.takerUid[slot] === uid) out.push('taker');
  if (T.makerUid[slot] === uid) out.push('maker');
  return out;
}

/** The order of trade slot `slot` on `role`'s side. */
export const orderOfRole = (ex: Exchange, slot: number, role: TradeRole): number =>
  (role === 'taker' ? ex.trades.takerOrder[slot]! : ex.trades.makerOrder[slot]!);

/** Trade `id` as the owner of its `role` side sees it (GET /spot/my_trades, spot.usertrades). */
export function renderTrade(ex: Exchange, id: number, role: TradeRole): GateTrade | undefined {
  const T = ex.trades;
  const i = T.slotOf(id);
  if (i < 0) return undefined;
  const m = ex.markets[T.market[i]!]!;
  const taker = role === 'taker';
  const takerSide = T.takerSide[i]!;
  const side = taker ? takerSide : (takerSide === Side.Buy ? Side.Sell : Side.Buy);
  const feeCurrency = side === Side.Buy ? m.spec.base : m.spec.quote;
  const orderId = orderOfRole(ex, i, role);
  const r = ex.orders.find(orderId);
  const time = T.time[i]!;
  return {
    id: String(id),
    create_time: seconds(time),
    create_time_ms: millisText(time),
    currency_pair: m.id,
    side: sideName(side),
    role,
    amount: formatUnits(T.lots[i]!, m.amountScale),
    price: formatUnits(T.price[i]!, m.priceScale),
    order_id: String(orderId),
    fee: ex.ledger.format(feeCurrency, taker ? T.takerFee[i]! : T.makerFee[i]!),
    fee_currency: feeCurrency,
    point_fee: '0',
    gt_fee: '0',
    amend_text: '-',
    sequence_id: String(T.marketSeq[i]!),
    text: r >= 0 && ex.orders.text[r] !== '' ? ex.orders.text[r]! : 'apiv4',
    deal: formatUnits(T.price[i]! * T.lots[i]!, m.notionalScale),
  };
}

/**
 * `uid`'s trade history rows, newest trade first (a self-trade gives two rows, taker then maker), keeping
 * the rows `keep(slot, role)` accepts, at most `limit`. @allocates
 */
export function userTrades(ex: Exchange, uid: number, keep: (slot: number, role: TradeRole) => boolean, limit: number): GateTrade[] {
  const T = ex.trades;
  const out: GateTrade[] = [];
  const oldest = Math.max(1, T.count - T.capacity + 1);
  for (let id = T.count; id >= oldest && out.length < limit; id--) {
    const slot = T.slotOf(id);
    if (T.takerUid[slot] !== uid && T.makerUid[slot] !== uid) continue;
    for (const role of rolesOf(ex, slot, uid)) {
      if (out.length < limit && keep(slot, role)) out.push(renderTrade(ex, id, role)!);
    }
  }
  return out;
}

/** Trade `id` as the public feed shows it (side is the taker's). */
export function renderPublicTrade(ex: Exchange, id: number): GatePublicTrade | undefined {
  const T = ex.trades;
  const i = T.slotOf(id);
  if (i < 0) return undefined;
  const m = ex.markets[T.market[i]!]!;
  const time = T.time[i]!;
  return {
    id: String(id), create_time: seconds(time), create_time_ms: millisText(time), currency_pair: m.id,
    side: sideName(T.takerSide[i]!), amount: formatUnits(T.lots[i]!, m.amountScale),
    price: formatUnits(T.price[i]!, m.priceScale), sequence_id: String(T.marketSeq[i]!),
  };
}

/** L2 depth of a book in Gate's shape (asks ascending, bids descending). */
export function renderOrderBook(ex: Exchange, market: number, book: OrderBook, limit: number, nowUs: number): GateOrderBook {
  const m = ex.markets[market]!;
  const prices = new Float64Array(limit);
  const lots = new Float64Array(limit);
  const side = (s: number): [string, string][] => {
    const n = book.depth(s, limit, prices, lots);
    const out: [string, string][] = [];
    for (let k = 0; k < n; k++) out.push([formatUnits(prices[k]!, m.priceScale), formatUnits(lots[k]!, m.amountScale)]);
    return out;
  };
  return { current: millis(nowUs), update: millis(nowUs), asks: side(Side.Sell), bids: side(Side.Buy) };
}
