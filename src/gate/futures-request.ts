/**
 * Parsing of Gate's futures requests into engine commands, at the edge: the `{settle}` path segment and a
 * `contract` name become a contract index and its market, signed sizes become a side and whole contracts,
 * decimal prices become ticks, names become enums and flags; anything malformed becomes a result code
 * (→ Gate label) before the engine sees it. Unknown keys are ignored, as Gate does.
 *
 * Sizes: a JSON integer, or a decimal string of an integer ("3", "-3", "3.0"; the form gate-api sends with
 * X-Gate-Size-Decimal: 1); both forms are accepted whatever the header says; a fractional size is
 * INVALID_PARAM_VALUE (no contract here has decimal sizes). A price is a decimal string (or a JSON number) of
 * at most the contract's price decimals; "0" is a market order (tif ioc or fok; ioc when tif is absent).
 *
 * The PlaceOrder fields follow core/futures/futures-orders.ts: kind Futures, sub the settle currency, amount
 * |size| (0 with close / auto_size), price ticks (0 market), toKind FuturesFlag bits.
 * Allocation: none beyond the caller's command (per request).
 */
import { type Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { FuturesFlag } from '../core/futures/futures-orders.js';
import { parseSignedUnits } from '../core/futures/futures-math.js';
import { kindOfAcct } from '../core/ledger/futures-funds.js';
import { settleOfScope } from '../core/futures/contract.js';
import { OrderType, Side, StpAct, TimeInForce } from '../core/matching/order-types.js';
import { ResultCode } from '../core/result-code.js';

const TIFS: Readonly<Record<string, number>> = { gtc: TimeInForce.Gtc, ioc: TimeInForce.Ioc, poc: TimeInForce.Poc, fok: TimeInForce.Fok };
const STP_ACTS: Readonly<Record<string, number>> = { cn: StpAct.CancelNew, co: StpAct.CancelOld, cb: StpAct.CancelBoth, '-': StpAct.None };
/** Gate's client label: `t-` then at most 28 bytes of [0-9A-Za-z_.-]. */
const TEXT = /^t-[0-9A-Za-z_.-]{1,28}$/;
/** Largest |size| accepted at the edge (the contract's order_size_max refuses far less). */
const MAX_SIZE = 2 ** 50;

type Body = Readonly<Record<string, unknown>>;
const has = (o: Body, k: string): boolean => o[k] !== undefined && o[k] !== null;

/** True when some contract settles in `settle` (the lower-case path segment). */
export function isSettle(ex: Exchange, settle: string): boolean {
  return ex.futures.contracts.some((c) => c.settle === settle);
}

/** The settle path segments Gate always serves (`/futures/usdt`, `/futures/btc`, and the same under /delivery). */
export const DEFAULT_SETTLES: readonly string[] = ['usdt', 'btc'];

/** True when route scope `settle` is one of Gate's default settles or one some contract of the scope settles in. */
export function isKnownSettle(ex: Exchange, settle: string): boolean {
  return DEFAULT_SETTLES.includes(settleOfScope(settle)) || isSettle(ex, settle);
}

/**
 * The ledger currency index of settle `settle`, or InvalidParam when no contract settles in it and it is not one
 * of Gate's default settles of a known currency. A default settle without contracts answers like Gate's: empty
 * positions and orders, the account as the ledger holds it (ccxt reads `/delivery/btc/…` when told no settle).
 */
export function settleCurrency(ex: Exchange, settle: string): number {
  const plain = settleOfScope(settle);
  if (!isKnownSettle(ex, settle)) return ResultCode.InvalidParam;
  const cur = ex.currencyIndex(plain.toUpperCase());
  return cur < 0 ? ResultCode.InvalidParam : cur;
}

/** The contract index of `name` settled in `settle`: MissingParam when absent, ContractNotFound when unknown. */
export function parseContract(ex: Exchange, settle: string, name: unknown): number {
  if (name === undefined || name === null || name === '') return ResultCode.MissingParam;
  if (typeof name !== 'string') return ResultCode.ContractNotFound;
  const ci = ex.futures.contractIndex(settle, name);
  return ci < 0 ? ResultCode.ContractNotFound : ci;
}

/**
 * A signed size: a safe integer, or a string of one (a zero fraction allowed). Returns the size, or undefined
 * when malformed (the caller answers INVALID_PARAM_VALUE).
 */
export function parseSize(v: unknown): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^-?[0-9]{1,16}(\.0*)?$/.test(v)) n = Number.parseInt(v, 10);
  else return undefined;
  return Number.isSafeInteger(n) && Math.abs(n) <= MAX_SIZE ? (Object.is(n, -0) ? 0 : n) : undefined;
}

/** A price of contract `ci` in ticks (≥ 0), or InvalidParam. */
export function parseFuturesPrice(ex: Exchange, ci: number, v: unknown): number {
  const text = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  if (typeof text !== 'string') return ResultCode.InvalidParam;
  const units = parseSignedUnits(text, ex.futures.contracts[ci]!.priceScale);
  if (units === undefined || units < 0n || units > BigInt(Number.MAX_SAFE_INTEGER)) return ResultCode.InvalidParam;
  return Number(units);
}

/** A boolean field (absent: false), or undefined when it is not a boolean. */
function flag(body: Body, k: string): boolean | undefined {
  const v = body[k];
  if (v === undefined || v === null) return false;
  return typeof v === 'boolean' ? v : undefined;
}

/** Fills `out` with a futures PlaceOrder for `uid` from Gate's FuturesOrder body; Ok or the rejection. */
export function parseFuturesOrder(ex: Exchange, settle: string, uid: number, body: Body, out: Command): ResultCode {
  const cur = settleCurrency(ex, settle);
  if (cur < 0) return cur as ResultCode;
  const ci = parseContract(ex, settle, body.contract);
  if (ci < 0) return ci as ResultCode;
  if (!has(body, 'size')) return ResultCode.MissingParam;
  const size = parseSize(body.size);
  if (size === undefined) return ResultCode.InvalidParam;
  const close = flag(body, 'close');
  const reduceOnly = flag(body, 'reduce_only');
  if (close === undefined || reduceOnly === undefined) return ResultCode.InvalidParam;
  const priceText = has(body, 'price') ? body.price : (close ? '0' : undefined);
  if (priceText === undefined) return ResultCode.MissingParam;
  const price = parseFuturesPrice(ex, ci, priceText);
  if (price < 0) return price as ResultCode;
  const market = price === 0;
  const tif = has(body, 'tif') ? (typeof body.tif === 'string' && Object.hasOwn(TIFS, body.tif) ? TIFS[body.tif]! : -1)
    : (market ? TimeInForce.Ioc : TimeInForce.Gtc);
  if (tif < 0 || (market && tif !== TimeInForce.Ioc && tif !== TimeInForce.Fok)) return ResultCode.InvalidParam;
  const stpAct = has(body, 'stp_act') ? (typeof body.stp_act === 'string' && Object.hasOwn(STP_ACTS, body.stp_act) ? STP_ACTS[body.stp_act]! : -1)
    : StpAct.None;
  if (stpAct < 0) return ResultCode.InvalidParam;
  const text = body.text ?? '';
  if (text !== '' && (typeof text !== 'string' || !TEXT.test(text))) return ResultCode.InvalidParam;
  let iceberg = 0;
  if (has(body, 'iceberg')) {
    const ice = parseSize(body.iceberg);
    if (ice === undefined || ice < 0) return ResultCode.InvalidParam;
    iceberg = ice;
  }
  let flags = reduceOnly ? FuturesFlag.ReduceOnly : 0;
  let side = size > 0 ? Side.Buy : Side.Sell;
  const autoSize = body.auto_size;
  if (autoSize !== undefined && autoSize !== null && autoSize !== '') {
    if (autoSize !== 'close_long' && autoSize !== 'close_short') return ResultCode.InvalidParam;
    if (size !== 0 || close) return ResultCode.InvalidParam;
    flags |= FuturesFlag.AutoSize;
    side = autoSize === 'close_long' ? Side.Sell : Side.Buy;
  } else if (close) {
    if (size !== 0) return ResultCode.InvalidParam;
    flags |= FuturesFlag.Close;
  } else if (size === 0) {
    return ResultCode.SizeTooSmall;
  }
  out.clear();
  out.type = CommandType.PlaceOrder;
  out.uid = uid; out.market = ex.futures.marketOf[ci]!; out.kind = kindOfAcct(ex.futures.acct[ci]!); out.sub = cur;
  out.side = side; out.amount = Math.abs(size); out.price = price;
  out.orderType = market ? OrderType.Market : OrderType.Limit; out.tif = tif;
  out.toKind = flags; out.iceberg = iceberg; out.stpAct = stpAct; out.text = text;
  return ResultCode.Ok;
}

/**
 * Fills `out` with an AmendOrder of order record `r` (a futures order of `uid`) from Gate's
 * FuturesOrderAmendment: `size` the new total size, keeping the order's sign; `price`; `amend_text`.
 */
export function parseFuturesAmend(ex: Exchange, uid: number, r: number, body: Body, out: Command): ResultCode {
  const O = ex.orders;
  const ci = ex.futures.contractOf(O.market[r]!);
  if (!has(body, 'size') && !has(body, 'price')) return ResultCode.MissingParam;
  let amount = 0;
  if (has(body, 'size')) {
    const size = parseSize(body.size);
    if (size === undefined || size === 0 || (size > 0) !== (O.side[r] === Side.Buy)) return ResultCode.InvalidParam;
    amount = Math.abs(size);
  }
  let price = 0;
  if (has(body, 'price')) {
    price = parseFuturesPrice(ex, ci, body.price);
    if (price < 0) return price as ResultCode;
    if (price === 0) return ResultCode.InvalidParam;
  }
  const amendText = body.amend_text ?? '';
  if (typeof amendText !== 'string' || amendText.length > 31) return ResultCode.InvalidParam;
  out.clear();
  out.type = CommandType.AmendOrder;
  out.uid = uid; out.market = O.market[r]!; out.orderId = O.id[r]!; out.price = price; out.amount = amount; out.text = amendText;
  return ResultCode.Ok;
}
