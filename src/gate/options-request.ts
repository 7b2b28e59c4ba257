/**
 * Parsing of Gate's options order requests into engine commands, at the edge: `contract` becomes its market,
 * the signed `size` a side and whole contracts, the decimal `price` ticks (a multiple of order_price_round),
 * `iceberg` the shown size (0: all), `tif`, `reduce_only`, `close` and `mmp` the PlaceOrder's fields (core/options/options-orders.ts: kind Options,
 * sub 0, toKind OptionsFlag bits). Anything malformed becomes a result code before the engine sees it; unknown
 * keys are ignored. Price "0" is a market order (tif ioc, the default then, or fok; core/options/options-orders.ts
 * bounds it).
 */
import { type Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { parseSignedUnits } from '../core/futures/futures-math.js';
import { AccountKind } from '../core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import { OptionsFlag } from '../core/options/options-orders.js';
import { ResultCode } from '../core/result-code.js';
import { parseSize } from './futures-request.js';

const TIFS: Readonly<Record<string, number>> = { gtc: TimeInForce.Gtc, ioc: TimeInForce.Ioc, poc: TimeInForce.Poc, fok: TimeInForce.Fok };
const TEXT = /^t-[0-9A-Za-z_.-]{1,28}$/;
type Body = Readonly<Record<string, unknown>>;
const has = (o: Body, k: string): boolean => o[k] !== undefined && o[k] !== null;

/** The contract index of `name`: MissingParam when absent, ContractNotFound when unknown. */
export function parseOptionContract(ex: Exchange, name: unknown): number {
  if (name === undefined || name === null || name === '') return ResultCode.MissingParam;
  if (typeof name !== 'string') return ResultCode.ContractNotFound;
  const ci = ex.options.contractIndex(name);
  return ci < 0 ? ResultCode.ContractNotFound : ci;
}

/** The underlying index of `name`: MissingParam when absent, InvalidParam when unknown. */
export function parseUnderlying(ex: Exchange, name: unknown): number {
  if (name === undefined || name === null || name === '') return ResultCode.MissingParam;
  const ui = typeof name === 'string' ? ex.options.underlyingIndex(name) : -1;
  return ui < 0 ? ResultCode.InvalidParam : ui;
}

function flag(body: Body, k: string): boolean | undefined {
  const v = body[k];
  if (v === undefined || v === null) return false;
  return typeof v === 'boolean' ? v : undefined;
}

/** Fills `out` with an options PlaceOrder for `uid` from Gate's OptionsOrder body; Ok or the rejection. */
export function parseOptionsOrder(ex: Exchange, uid: number, body: Body, out: Command): ResultCode {
  const ci = parseOptionContract(ex, body.contract);
  if (ci < 0) return ci as ResultCode;
  const u = ex.options.underlyings[ex.options.contracts[ci]!.u]!;
  if (!has(body, 'size')) return ResultCode.MissingParam;
  const size = parseSize(body.size);
  const close = flag(body, 'close');
  const reduceOnly = flag(body, 'reduce_only');
  const mmp = flag(body, 'mmp');
  if (size === undefined || close === undefined || reduceOnly === undefined || mmp === undefined) return ResultCode.InvalidParam;
  if (!has(body, 'price')) return ResultCode.MissingParam;
  const priceText = typeof body.price === 'number' && Number.isFinite(body.price) ? String(body.price) : body.price;
  const units = typeof priceText === 'string' ? parseSignedUnits(priceText, u.priceScale) : undefined;
  if (units === undefined || units < 0n || units > BigInt(Number.MAX_SAFE_INTEGER) || Number(units) % u.tick !== 0) return ResultCode.InvalidParam;
  const market = units === 0n;
  const tif = has(body, 'tif') ? (typeof body.tif === 'string' && Object.hasOwn(TIFS, body.tif) ? TIFS[body.tif]! : -1)
    : (market ? TimeInForce.Ioc : TimeInForce.Gtc);
  if (tif < 0 || (market && tif !== TimeInForce.Ioc && tif !== TimeInForce.Fok)) return ResultCode.InvalidParam;
  const text = body.text ?? '';
  if (text !== '' && (typeof text !== 'string' || !TEXT.test(text))) return ResultCode.InvalidParam;
  let iceberg = 0;
  if (has(body, 'iceberg')) {
    const ice = parseSize(body.iceberg);
    if (ice === undefined || ice < 0) return ResultCode.InvalidParam;
    iceberg = ice;
  }
  let flags = (reduceOnly ? OptionsFlag.ReduceOnly : 0) | (mmp ? OptionsFlag.Mmp : 0);
  if (close) {
    if (size !== 0) return ResultCode.InvalidParam;
    flags |= OptionsFlag.Close;
  } else if (size === 0) {
    return ResultCode.SizeTooSmall;
  }
  out.clear();
  out.type = CommandType.PlaceOrder;
  out.uid = uid; out.market = ex.options.marketOf[ci]!; out.kind = AccountKind.Options; out.sub = 0;
  out.side = size >= 0 ? Side.Buy : Side.Sell; out.amount = Math.abs(size); out.price = Number(units);
  out.orderType = market ? OrderType.Market : OrderType.Limit; out.tif = tif; out.toKind = flags; out.text = text;
  out.iceberg = iceberg;
  return ResultCode.Ok;
}

/** A decimal price of underlying `u` in ticks (a positive multiple of order_price_round), or InvalidParam. */
function parsePrice(u: { priceScale: number; tick: number }, v: unknown): number {
  const text = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  const units = typeof text === 'string' ? parseSignedUnits(text, u.priceScale) : undefined;
  if (units === undefined || units <= 0n || units > BigInt(Number.MAX_SAFE_INTEGER) || Number(units) % u.tick !== 0) return ResultCode.InvalidParam;
  return Number(units);
}

/**
 * Fills `out` with an AmendOrder of order record `r` (an options order of `uid`) from Gate's
 * AmendOptionsOrderRequest: `contract` (the order's), `price` the new limit, `size` the new total size signed as
 * the order (as the perpetuals' amend). All three are required, as Gate documents them.
 */
export function parseOptionsAmend(ex: Exchange, uid: number, r: number, body: Body, out: Command): ResultCode {
  const O = ex.orders;
  const ci = parseOptionContract(ex, body.contract);
  if (ci < 0) return ci as ResultCode;
  if (ex.options.marketOf[ci] !== O.market[r]) return ResultCode.InvalidParam;
  if (!has(body, 'size') || !has(body, 'price')) return ResultCode.MissingParam;
  const size = parseSize(body.size);
  if (size === undefined || size === 0 || (size > 0) !== (O.side[r] === Side.Buy)) return ResultCode.InvalidParam;
  const price = parsePrice(ex.options.underlyings[ex.options.contracts[ci]!.u]!, body.price);
  if (price < 0) return price as ResultCode;
  out.clear();
  out.type = CommandType.AmendOrder;
  out.uid = uid; out.market = O.market[r]!; out.orderId = O.id[r]!; out.price = price; out.amount = Math.abs(size);
  return ResultCode.Ok;
}
