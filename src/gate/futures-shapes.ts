/**
 * Gate's futures order and trade objects rendered from the order store and the trade log (FuturesOrder,
 * BatchFuturesOrder's order part, MyFuturesTrade, MyFuturesTradeTimeRange), and the futures account book.
 *
 * Sizes are signed contracts (positive buys); `SizeForm` says whether they are written as JSON integers (Gate's
 * default, what ccxt reads) or as decimal strings (requests carrying X-Gate-Size-Decimal: 1, as gate-api sends).
 * Prices are decimal strings of the contract's ticks; money is decimal strings of settle units, exact. Times:
 * float seconds to the millisecond (of the engine clock), as Gate's.
 *
 * Costs: O(1) per order or trade; allocates the object.
 */
import type { Exchange } from '../core/exchange/exchange.js';
import { orderFlagsOf } from '../core/exchange/order-store.js';
import type { Contract } from '../core/futures/contract.js';
import { FuturesFlag } from '../core/futures/futures-orders.js';
import { formatSigned, ratioText } from '../core/futures/futures-math.js';
import { FinishAs, Side, STP_ACT_NAMES, type StpAct, TIF_NAMES, type TimeInForce } from '../core/matching/order-types.js';
import type { AccountBookEntry } from '../core/ledger/queries.js';

/** How sizes are written: JSON integers, or decimal strings (X-Gate-Size-Decimal: 1). */
export type SizeForm = 'int' | 'string';
export const sizeOut = (n: number, form: SizeForm): number | string => (form === 'string' ? String(n) : n);

/**
 * µs → Gate's float seconds, to the millisecond as Gate writes them (1546569968.184). More digits would break
 * clients that parse JSON numbers of 16+ significant digits as BigInt (gate-api's json-bigint).
 */
export const floatSeconds = (us: number): number => Math.floor(us / 1000) / 1000;

/** Ticks of `c` as a decimal price. */
export const priceText = (c: Contract, ticks: number | bigint): string => formatSigned(BigInt(ticks), c.priceScale);
/** A 10^-8 rate as a decimal. */
export const rateText = (rate: bigint): string => formatSigned(rate, 8);
/** Settle units of `c` as a decimal. */
export const moneyText = (c: Contract, units: bigint): string => formatSigned(units, c.settleScale);

/** Gate's futures finish_as of a FinishAs (`_new` while open). */
function finishAsName(f: number): string {
  switch (f) {
    case 0: return '_new';
    case FinishAs.Filled: return 'filled';
    case FinishAs.Cancelled: case FinishAs.Poc: case FinishAs.Fok: return 'cancelled';
    case FinishAs.Ioc: case FinishAs.DepthNotEnough: case FinishAs.Small: return 'ioc';
    case FinishAs.Stp: return 'stp';
    case FinishAs.Liquidated: return 'liquidated';
    case FinishAs.AutoDeleveraged: return 'auto_deleveraged';
    case FinishAs.ReduceOut: return 'reduce_out';
    case FinishAs.PositionClosed: return 'position_closed';
    default: return 'cancelled';
  }
}

/** The contract of order record `r` (a futures order). */
export const contractOfOrder = (ex: Exchange, r: number): Contract =>
  ex.futures.contracts[ex.futures.contractOf(ex.orders.market[r]!)]!;

/** Gate's FuturesOrder of order record `r`. */
export function renderFuturesOrder(ex: Exchange, r: number, form: SizeForm): Record<string, unknown> {
  const O = ex.orders;
  const c = contractOfOrder(ex, r);
  const sign = O.side[r] === Side.Buy ? 1 : -1;
  const flags = orderFlagsOf(O.account[r]!);
  const finishAs = O.finishAs[r]!;
  const filled = O.filledLots[r]!;
  const open = finishAs === 0;
  const autoSize = (flags & FuturesFlag.AutoSize) === 0 ? '' : O.side[r] === Side.Sell ? 'close_long' : 'close_short';
  return {
    id: O.id[r]!,
    user: O.uid[r]!,
    create_time: floatSeconds(O.createTime[r]!),
    update_time: floatSeconds(O.updateTime[r]!),
    ...(open ? {} : { finish_time: floatSeconds(O.updateTime[r]!) }),
    finish_as: finishAsName(finishAs),
    status: open ? 'open' : 'finished',
    contract: c.name,
    size: sizeOut(sign * O.amount[r]!, form),
    iceberg: sizeOut(O.iceberg[r]!, form),
    price: priceText(c, O.price[r]!),
    close: (flags & FuturesFlag.Close) !== 0,
    is_close: (flags & (FuturesFlag.Close | FuturesFlag.AutoSize)) !== 0,
    reduce_only: (flags & FuturesFlag.ReduceOnly) !== 0,
    is_reduce_only: (flags & FuturesFlag.ReduceOnly) !== 0,
    is_liq: (flags & FuturesFlag.Liquidation) !== 0,
    tif: TIF_NAMES[O.tif[r] as TimeInForce],
    left: sizeOut(sign * O.left[r]!, form),
    fill_price: filled === 0 ? '0' : ratioText(BigInt(O.filledNotional[r]!), BigInt(filled) * 10n ** BigInt(c.priceScale), c.priceScale + 4),
    text: O.text[r] !== '' ? O.text[r]! : 'api',
    tkfr: rateText(c.takerRate),
    mkfr: rateText(c.makerRate),
    refu: 0,
    auto_size: autoSize,
    stp_id: O.stpId[r]!,
    stp_act: STP_ACT_NAMES[O.stpAct[r] as StpAct],
    amend_text: O.amendText[r] !== '' ? O.amendText[r]! : '-',
    biz_info: '-',
    pid: 0,
    pos_margin_mode: '',
  };
}

export type TradeRole = 'taker' | 'maker';

/** Gate's MyFuturesTrade of trade `id` seen by `role` (`timeRange`: the my_trades_timerange form). */
export function renderFuturesTrade(ex: Exchange, id: number, role: TradeRole, form: SizeForm, timeRange = false): Record<string, unknown> {
  const T = ex.trades;
  const s = T.slotOf(id);
  const c = ex.futures.contracts[ex.futures.contractOf(T.market[s]!)]!;
  const taker = role === 'taker';
  const orderId = taker ? T.takerOrder[s]! : T.makerOrder[s]!;
  const buy = (T.takerSide[s] === Side.Buy) === taker;
  const r = ex.orders.find(orderId);
  const fee = taker ? T.takerFee[s]! : T.makerFee[s]!;
  return {
    ...(timeRange ? { trade_id: String(id) } : { id }),
    create_time: floatSeconds(T.time[s]!),
    contract: c.name,
    order_id: String(orderId),
    size: sizeOut((buy ? 1 : -1) * T.lots[s]!, form),
    close_size: sizeOut(0, form),
    price: priceText(c, T.price[s]!),
    role,
    text: r >= 0 && ex.orders.text[r] !== '' ? ex.orders.text[r]! : 'api',
    fee: formatSigned(BigInt(fee), c.settleScale),
    point_fee: '0',
  };
}

/** Gate's futures account-book type of an entry type name (ledger BOOK_TYPE_NAMES). */
export function futuresBookType(name: string): string {
  return name === 'pnl' || name === 'fee' || name === 'fund' ? name : 'dnw';
}

/**
 * Gate's FuturesAccountBook of an entry of a futures account: pnl and fee entries name `contract:order_id`
 * (the contract found from the order while it is in the finished window), fund entries the contract.
 */
export function renderFuturesBookEntry(ex: Exchange, e: AccountBookEntry): Record<string, unknown> {
  const type = futuresBookType(e.type);
  let contract = '';
  let text = e.text;
  if (type === 'fund') {
    contract = e.text;
  } else if ((type === 'pnl' || type === 'fee') && /^[0-9]+$/.test(e.text)) {
    const r = ex.orders.find(Number(e.text));
    if (r >= 0) {
      contract = contractOfOrder(ex, r).name;
      text = `${contract}:${e.text}`;
    }
  }
  return {
    time: floatSeconds(e.time), change: e.change, balance: e.balance, type, text, contract, trade_id: '', id: String(e.id),
  };
}
