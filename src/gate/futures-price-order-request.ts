/**
 * Gate's FuturesPriceTriggeredOrder request, parsed (POST /futures/{settle}/price_orders): the `initial` order,
 * the `trigger` and `order_type`, and the PlaceOrder a fired trigger submits.
 *
 *   initial   {contract, size (signed integer contracts; 0 with close or auto_size), price (decimal string,
 *              "0" a market order with tif ioc), close, tif gtc|ioc, text (t-…), reduce_only, auto_size
 *              close_long|close_short (dual mode)}
 *   trigger   {strategy_type 0 (by price; 1, by price gap, is not served), price_type 0 last | 1 mark | 2 index,
 *              price (decimal string on the contract's tick), rule 1 (>=) | 2 (<=), expiration (seconds, 0 never)}
 *   order_type  '' or one of ORDER_TYPES (position TP/SL): close-*-position closes the whole position (size 0
 *              with close, or auto_size in dual mode); plan-close-*-position closes part of it (reduce-only).
 *
 * Checked when the trigger is created: everything that cannot change before it fires (contract, size bounds,
 * price on the tick grid, tif, text, flag combinations, TP/SL direction). What can change (positions, funds,
 * the price band around the mark, dual mode) is the engine's to judge when the order is placed; a refusal
 * then finishes the trigger `failed` with the label as `reason`.
 */
import { CommandType, type Command } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import { FuturesFlag } from '../core/futures/futures-orders.js';
import { kindOfAcct } from '../core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../core/matching/order-types.js';
import { ResultCode } from '../core/result-code.js';
import { formatUnits, parseUnits } from '../core/units.js';

/** Which price a trigger watches: 0 the last trade price, 1 the mark price, 2 the index price. */
export type PriceType = 0 | 1 | 2;
type TriggerRule = '>=' | '<=';

/**
 * The futures order placed when the trigger fires (Gate's FuturesInitialOrder as the client gave it): `size`
 * signed contracts (0 with `close` or `auto_size`), `price` a decimal string ("0": market, tif ioc).
 */
export interface FuturesInitial {
  readonly contract: string;
  readonly size: number;
  readonly price: string;
  readonly close: boolean;
  readonly tif: 'gtc' | 'ioc';
  readonly text: string;
  readonly reduce_only: boolean;
  readonly auto_size: '' | 'close_long' | 'close_short';
}

const TEXT = /^t-[0-9A-Za-z_.-]{1,28}$/;
/** Longest trigger wait: 30 days, as spot. */
export const MAX_EXPIRATION_S = 30 * 86_400;
/** Gate's order_type values for position TP/SL (the rest of Gate's list names close-*-order kinds served alike). */
export const ORDER_TYPES = [
  'close-long-order', 'close-short-order', 'close-long-position', 'close-short-position',
  'plan-close-long-position', 'plan-close-short-position',
] as const;

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null || v === '';
const bool = (v: unknown): boolean | undefined => (v === undefined || v === null ? false : typeof v === 'boolean' ? v : undefined);

/** A create body checked and converted: everything of a futures trigger but its owner, id, time and state. */
export interface ParsedFuturesTrigger {
  readonly market: number;
  readonly triggerTicks: number;
  readonly triggerPrice: string;
  readonly rule: TriggerRule;
  readonly priceType: PriceType;
  readonly expiration: number;
  readonly initial: FuturesInitial;
  readonly orderType: string;
}

/** A rule in Gate's numbers (1 >=, 2 <=; numbers or numeric strings), or undefined. */
function ruleOf(v: unknown): TriggerRule | undefined {
  if (v === 1 || v === '1' || v === '>=') return '>=';
  if (v === 2 || v === '2' || v === '<=') return '<=';
  return undefined;
}

/** An integer 0..max given as a number or an integer string (gate-api sends enums as strings), or undefined. */
function smallInt(v: unknown, max: number): number | undefined {
  const n = typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= max ? n : undefined;
}

/** Ticks of a price string: 0 for "0" (a market order), else parseUnits' (positive, or a rejection code). */
const priceTicks = (text: unknown, scale: number): number =>
  (typeof text === 'string' && /^0+(\.0+)?$/.test(text) ? 0 : typeof text === 'string' ? parseUnits(text, scale) : ResultCode.InvalidParam);

/** Parses a create body for settle currency path `settle`; the trigger, or the rejection and a message. */
export function parseFuturesTrigger(ex: Exchange, settle: string, body: Obj): ParsedFuturesTrigger | [ResultCode, string] {
  const initial = body.initial;
  const trigger = body.trigger;
  if (!isObj(initial) || !isObj(trigger)) return [ResultCode.MissingParam, 'initial and trigger are required objects'];
  if (absent(initial.contract)) return [ResultCode.MissingParam, 'initial.contract is required'];
  const ci = typeof initial.contract === 'string' ? ex.futures.contractIndex(settle, initial.contract) : -1;
  if (ci < 0) return [ResultCode.ContractNotFound, `initial.contract: no such contract settled in ${settle}`];
  const k = ex.futures.contracts[ci]!;
  // trigger
  const strategy = trigger.strategy_type === undefined || trigger.strategy_type === null ? 0 : smallInt(trigger.strategy_type, 1);
  if (strategy !== 0) return [ResultCode.InvalidParam, 'trigger.strategy_type: only 0 (by price) is served'];
  const pt = trigger.price_type === undefined || trigger.price_type === null ? 0 : smallInt(trigger.price_type, 2);
  if (pt === undefined) return [ResultCode.InvalidParam, 'trigger.price_type must be 0 (last), 1 (mark) or 2 (index)'];
  if (absent(trigger.price) || absent(trigger.rule)) return [ResultCode.MissingParam, 'trigger.price and trigger.rule are required'];
  const triggerTicks = typeof trigger.price === 'string' ? parseUnits(trigger.price, k.priceScale) : ResultCode.InvalidParam;
  if (triggerTicks <= 0) return [triggerTicks < 0 ? triggerTicks as ResultCode : ResultCode.InvalidParam, `trigger.price: a positive decimal string with at most ${k.priceScale} decimals`];
  const rule = ruleOf(trigger.rule);
  if (rule === undefined) return [ResultCode.InvalidParam, 'trigger.rule must be 1 (>=) or 2 (<=)'];
  const exp = trigger.expiration === undefined || trigger.expiration === null ? 0 : smallInt(trigger.expiration, MAX_EXPIRATION_S);
  if (exp === undefined) return [ResultCode.InvalidParam, `trigger.expiration: whole seconds in 0..${MAX_EXPIRATION_S}`];
  // initial
  const sizeIn = typeof initial.size === 'string' && /^-?\d{1,15}$/.test(initial.size) ? Number(initial.size) : initial.size ?? 0;
  if (typeof sizeIn !== 'number' || !Number.isSafeInteger(sizeIn)) return [ResultCode.InvalidParam, 'initial.size: an integer number of contracts'];
  const size = sizeIn === 0 ? 0 : sizeIn; // no -0
  const close = bool(initial.close);
  const reduceOnly = bool(initial.reduce_only);
  if (close === undefined || reduceOnly === undefined) return [ResultCode.InvalidParam, 'initial.close and initial.reduce_only are booleans'];
  const autoSize = absent(initial.auto_size) ? '' : initial.auto_size;
  if (autoSize !== '' && autoSize !== 'close_long' && autoSize !== 'close_short') return [ResultCode.InvalidParam, 'initial.auto_size must be close_long or close_short'];
  if ((close || autoSize !== '') !== (size === 0)) {
    return [ResultCode.InvalidParam, size === 0 ? 'initial.size 0 needs close (single mode) or auto_size (dual mode)' : 'close and auto_size need initial.size 0'];
  }
  if (close && autoSize !== '') return [ResultCode.InvalidParam, 'give close or auto_size, not both'];
  if (size !== 0 && Math.abs(size) < k.sizeMin) return [ResultCode.SizeTooSmall, `|initial.size| is at least ${k.sizeMin}`];
  if (Math.abs(size) > k.sizeMax) return [ResultCode.SizeTooLarge, `|initial.size| is at most ${k.sizeMax}`];
  if (absent(initial.price)) return [ResultCode.MissingParam, 'initial.price is required ("0" for a market order)'];
  const ticks = priceTicks(initial.price, k.priceScale);
  if (ticks < 0) return [ticks as ResultCode, `initial.price: a decimal string with at most ${k.priceScale} decimals`];
  if (ticks % k.tick !== 0) return [ResultCode.InvalidParam, `initial.price must be a multiple of ${k.spec.order_price_round}`];
  const tif = absent(initial.tif) ? (ticks === 0 ? 'ioc' : 'gtc') : initial.tif;
  if (tif !== 'gtc' && tif !== 'ioc') return [ResultCode.InvalidParam, 'initial.tif must be gtc or ioc'];
  if (ticks === 0 && tif !== 'ioc') return [ResultCode.InvalidParam, 'a market order (price "0") takes tif ioc'];
  const text = absent(initial.text) ? '' : initial.text;
  if (typeof text !== 'string' || (text !== '' && !TEXT.test(text))) return [ResultCode.InvalidParam, 'initial.text must be t- followed by 1 to 28 of 0-9A-Za-z_.-'];
  // order_type: position TP/SL kinds, and the direction they close.
  const orderType = absent(body.order_type) ? '' : body.order_type;
  if (typeof orderType !== 'string' || (orderType !== '' && !(ORDER_TYPES as readonly string[]).includes(orderType))) {
    return [ResultCode.InvalidParam, `order_type must be one of ${ORDER_TYPES.join(', ')}`];
  }
  if (orderType !== '') {
    const long = orderType.includes('-long-');
    const whole = orderType.endsWith('-position') && !orderType.startsWith('plan-');
    if (whole && size !== 0) return [ResultCode.InvalidParam, `${orderType} closes the whole position: initial.size 0 with close or auto_size`];
    if (autoSize !== '' && (autoSize === 'close_long') !== long) return [ResultCode.InvalidParam, `auto_size ${autoSize} does not match ${orderType}`];
    if (size !== 0 && (size < 0) !== long) return [ResultCode.InvalidParam, `${orderType}: a ${long ? 'long is closed by a negative' : 'short is closed by a positive'} size`];
  }
  const reduce = reduceOnly || (orderType !== '' && size !== 0);
  return {
    market: ex.futures.marketOf[ci]!, triggerTicks, triggerPrice: formatUnits(triggerTicks, k.priceScale), rule, priceType: pt as PriceType,
    expiration: exp, orderType,
    initial: {
      contract: k.name, size, price: ticks === 0 ? '0' : formatUnits(ticks, k.priceScale), close, tif, text, reduce_only: reduce, auto_size: autoSize,
    },
  };
}

/**
 * Fills `cmd` with the PlaceOrder that futures trigger order `initial` of `uid` on `market` stands for (the
 * futures book product's field layout, futures-orders.ts). Ok, or ContractNotFound for a record of a contract
 * no longer configured. A close of the whole position leaves the side to the engine (it reads the position);
 * auto_size close_long sells, close_short buys.
 */
export function futuresPlaceCommand(ex: Exchange, uid: number, market: number, initial: FuturesInitial, cmd: Command): ResultCode {
  const ci = ex.futures.contractOf(market);
  const k = ex.futures.contracts[ci];
  if (k === undefined) return ResultCode.ContractNotFound;
  const price = priceTicks(initial.price, k.priceScale);
  if (price < 0) return ResultCode.InvalidParam;
  cmd.clear();
  cmd.type = CommandType.PlaceOrder;
  cmd.uid = uid; cmd.market = market; cmd.kind = kindOfAcct(ex.futures.acct[ci]!); cmd.sub = ex.futures.settleCur[ci]!;
  cmd.side = initial.auto_size === 'close_long' ? Side.Sell : initial.auto_size === 'close_short' ? Side.Buy
    : initial.size >= 0 ? Side.Buy : Side.Sell;
  cmd.amount = Math.abs(initial.size);
  cmd.price = price;
  cmd.orderType = price === 0 ? OrderType.Market : OrderType.Limit;
  cmd.tif = initial.tif === 'ioc' ? TimeInForce.Ioc : TimeInForce.Gtc;
  cmd.toKind = (initial.reduce_only ? FuturesFlag.ReduceOnly : 0) | (initial.close ? FuturesFlag.Close : 0)
    | (initial.auto_size !== '' ? FuturesFlag.AutoSize : 0);
  cmd.text = initial.text;
  return ResultCode.Ok;
}
