/**
 * Parsing of Gate's spot order requests (create and amend bodies) into engine commands, at the edge:
 * decimal strings become ticks, lots or a quote budget, names become enums, and anything malformed becomes
 * a result code (→ Gate label) before the engine sees it. Unknown keys are ignored, as Gate does.
 * A market order without `time_in_force` is `ioc` (Gate's default for market orders).
 * Allocation: none beyond the caller's command (this is per request, not per match).
 */
import { type Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { OrderFlag } from '../core/exchange/order-store.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { parseLots, parsePrice, parseQuoteBudget } from '../core/market.js';
import { OrderType, Side, StpAct, TimeInForce } from '../core/matching/order-types.js';
import { ResultCode } from '../core/result-code.js';

const SIDES: Readonly<Record<string, number>> = { buy: Side.Buy, sell: Side.Sell };
const TYPES: Readonly<Record<string, number>> = { limit: OrderType.Limit, market: OrderType.Market };
const TIFS: Readonly<Record<string, number>> = { gtc: TimeInForce.Gtc, ioc: TimeInForce.Ioc, poc: TimeInForce.Poc, fok: TimeInForce.Fok };
const STP_ACTS: Readonly<Record<string, number>> = { cn: StpAct.CancelNew, co: StpAct.CancelOld, cb: StpAct.CancelBoth };
/** Gate's client label: `t-` then at most 28 bytes of [0-9A-Za-z_.-]. */
const TEXT = /^t-[0-9A-Za-z_.-]{1,28}$/;

const has = (o: Readonly<Record<string, unknown>>, k: string): boolean => o[k] !== undefined && o[k] !== null;
const lookup = (table: Readonly<Record<string, number>>, v: unknown): number =>
  typeof v === 'string' && Object.hasOwn(table, v) ? table[v]! : -1;

/**
 * The account kind an `account` names: Spot for absent, `spot` or `unified` (a unified user trades from its
 * spot balance, borrowing in multi_currency and portfolio modes: api/unified/unified-orders.ts), Margin for
 * `margin` (the pair's isolated account: api/unified/margin-orders.ts), CrossMargin for `cross_margin` (the
 * user's cross-margin account, the same module); else InvalidParam.
 */
export function accountKindParam(v: unknown): number {
  if (v === undefined || v === null || v === '' || v === 'spot' || v === 'unified') return AccountKind.Spot;
  if (v === 'margin') return AccountKind.Margin;
  return v === 'cross_margin' ? AccountKind.CrossMargin : ResultCode.InvalidParam;
}

/** Ok for an account accountKindParam accepts, else its rejection. */
export function checkAccount(v: unknown): ResultCode {
  const k = accountKindParam(v);
  return k < 0 ? (k as ResultCode) : ResultCode.Ok;
}

/** Order flags of `auto_borrow` / `auto_repay` (booleans; absent false), or -1 when one is not a boolean. */
function orderFlags(body: Readonly<Record<string, unknown>>): number {
  let flags = 0;
  for (const [k, f] of [['auto_borrow', OrderFlag.AutoBorrow], ['auto_repay', OrderFlag.AutoRepay]] as const) {
    const v = body[k];
    if (v === undefined || v === null || v === false) continue;
    if (v !== true) return -1;
    flags |= f;
  }
  return flags;
}

/** The market index named by `currency_pair`, or a negative code. */
export function parsePair(ex: Exchange, v: unknown): number {
  if (v === undefined || v === null || v === '') return ResultCode.MissingParam;
  if (typeof v !== 'string') return ResultCode.InvalidParam;
  const m = ex.marketIndex(v);
  return m < 0 ? ResultCode.InvalidMarket : m;
}

/** Fills `out` with a PlaceOrder for `uid` from a Gate create-order body; Ok or the rejection. */
export function parseCreateOrder(ex: Exchange, uid: number, body: Readonly<Record<string, unknown>>, out: Command): ResultCode {
  const market = parsePair(ex, body.currency_pair);
  if (market < 0) return market as ResultCode;
  if (!has(body, 'side') || !has(body, 'amount')) return ResultCode.MissingParam;
  const side = lookup(SIDES, body.side);
  const type = has(body, 'type') ? lookup(TYPES, body.type) : OrderType.Limit;
  const defaultTif = type === OrderType.Market ? TimeInForce.Ioc : TimeInForce.Gtc;
  const tif = has(body, 'time_in_force') ? lookup(TIFS, body.time_in_force) : defaultTif;
  const stpAct = has(body, 'stp_act') ? lookup(STP_ACTS, body.stp_act) : StpAct.None;
  const account = accountKindParam(body.account);
  if (account < 0) return account as ResultCode;
  const flags = orderFlags(body);
  if (side < 0 || type < 0 || tif < 0 || stpAct < 0 || flags < 0) return ResultCode.InvalidParam;
  const text = body.text ?? '';
  if (text !== '' && (typeof text !== 'string' || !TEXT.test(text))) return ResultCode.InvalidParam;
  const m = ex.markets[market]!;
  let price = 0;
  let amount: number;
  let iceberg = 0;
  if (type === OrderType.Limit) {
    if (!has(body, 'price')) return ResultCode.MissingParam;
    price = parsePrice(m, body.price);
    if (price < 0) return price as ResultCode;
    amount = parseLots(m, body.amount);
  } else {
    amount = side === Side.Buy ? parseQuoteBudget(m, body.amount) : parseLots(m, body.amount);
  }
  if (amount < 0) return amount as ResultCode;
  if (has(body, 'iceberg') && body.iceberg !== '0') {
    iceberg = parseLots(m, body.iceberg);
    if (iceberg < 0) return iceberg as ResultCode;
  }
  out.clear();
  out.type = CommandType.PlaceOrder;
  out.uid = uid; out.market = market; out.side = side; out.orderType = type; out.tif = tif; out.price = price;
  out.amount = amount; out.iceberg = iceberg; out.stpAct = stpAct; out.text = text;
  if (account === AccountKind.Margin) {
    out.kind = AccountKind.Margin; out.sub = market; out.toKind = flags;
  } else if (account === AccountKind.CrossMargin) {
    out.kind = AccountKind.CrossMargin; out.sub = 0; out.toKind = flags;
  }
  return ResultCode.Ok;
}

/** Fills `out` with an AmendOrder from Gate's OrderPatch body (`currency_pair` from body or query). */
export function parseAmendOrder(ex: Exchange, uid: number, orderId: number, body: Readonly<Record<string, unknown>>, out: Command): ResultCode {
  const market = parsePair(ex, body.currency_pair);
  if (market < 0) return market as ResultCode;
  const account = checkAccount(body.account);
  if (account !== ResultCode.Ok) return account;
  if (!has(body, 'price') && !has(body, 'amount')) return ResultCode.MissingParam;
  const m = ex.markets[market]!;
  const price = has(body, 'price') ? parsePrice(m, body.price) : 0;
  if (price < 0) return price as ResultCode;
  const amount = has(body, 'amount') ? parseLots(m, body.amount) : 0;
  if (amount < 0) return amount as ResultCode;
  const amendText = body.amend_text ?? '';
  if (typeof amendText !== 'string' || amendText.length > 31) return ResultCode.InvalidParam;
  out.clear();
  out.type = CommandType.AmendOrder;
  out.uid = uid; out.market = market; out.orderId = orderId; out.price = price; out.amount = amount;
  out.text = amendText;
  return ResultCode.Ok;
}

/** Gate order ids are numeric strings; returns the id or a negative code. */
export function parseOrderId(v: unknown): number {
  if (typeof v !== 'string' || !/^[1-9][0-9]{0,15}$/.test(v)) return ResultCode.OrderNotFound;
  const id = Number(v);
  return Number.isSafeInteger(id) ? id : ResultCode.OrderNotFound;
}
