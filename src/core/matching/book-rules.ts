/**
 * Rules shared by every OrderBook implementation, so they accept, reject and hash alike.
 * Pure functions; no allocation.
 */
import type { Market } from '../market.js';
import { ResultCode } from '../result-code.js';
import type { StateHasher } from '../state-hash.js';
import { isInt31, isPositiveSafeInteger } from '../units.js';
import { OrderType, type PlaceOrder, Side, StpAct, TimeInForce } from './order-types.js';

const isSide = (v: number): boolean => v === Side.Buy || v === Side.Sell;
const isTif = (v: number): boolean => v === TimeInForce.Gtc || v === TimeInForce.Ioc || v === TimeInForce.Poc || v === TimeInForce.Fok;
const isStpAct = (v: number): boolean => v === StpAct.None || v === StpAct.CancelNew || v === StpAct.CancelOld || v === StpAct.CancelBoth;

/**
 * Checks a place command against the market, first failure wins, in this order:
 * enums and ids (InvalidParam) · stpAct without a group (StpWithoutGroup) · market orders only IOC/FOK and no
 * iceberg (InvalidParam) · amount, price, iceberg positive integers, iceberg ≤ amount (InvalidParam) ·
 * bounds: lots then notional against min (AmountTooLittle) and max (AmountTooMuch).
 * A market buy's amount is its quote budget and is checked against the notional bounds only.
 */
export function validatePlace(m: Market, c: PlaceOrder): ResultCode {
  if (!isSide(c.side) || !isTif(c.tif) || !isStpAct(c.stpAct)) return ResultCode.InvalidParam;
  if (c.type !== OrderType.Limit && c.type !== OrderType.Market) return ResultCode.InvalidParam;
  if (!isPositiveSafeInteger(c.orderId) || !isInt31(c.userId) || c.userId === 0 || !isInt31(c.stpId)) return ResultCode.InvalidParam;
  if (c.stpAct !== StpAct.None && c.stpId === 0) return ResultCode.StpWithoutGroup;
  if (!isPositiveSafeInteger(c.amount)) return ResultCode.InvalidParam;
  if (c.type === OrderType.Market) {
    if ((c.tif !== TimeInForce.Ioc && c.tif !== TimeInForce.Fok) || c.iceberg !== 0) return ResultCode.InvalidParam;
    if (c.side === Side.Buy) return checkNotional(m, c.amount);
    return checkLots(m, c.amount);
  }
  if (!isPositiveSafeInteger(c.price)) return ResultCode.InvalidParam;
  if (c.iceberg !== 0 && (!isPositiveSafeInteger(c.iceberg) || c.iceberg > c.amount)) return ResultCode.InvalidParam;
  return checkLimitBounds(m, c.price, c.amount);
}

/** Bounds of a limit order of `lots` at `price` (ticks): lots first, then notional. */
export function checkLimitBounds(m: Market, price: number, lots: number): ResultCode {
  const byLots = checkLots(m, lots);
  if (byLots !== ResultCode.Ok) return byLots;
  // price × lots may exceed 2^53 and round; the comparison against a safe bound stays correct.
  return checkNotional(m, price * lots);
}

function checkLots(m: Market, lots: number): ResultCode {
  if (lots < m.minLots) return ResultCode.AmountTooLittle;
  if (lots > m.maxLots) return ResultCode.AmountTooMuch;
  return ResultCode.Ok;
}

function checkNotional(m: Market, notional: number): ResultCode {
  if (notional < m.minNotional) return ResultCode.AmountTooLittle;
  if (notional > m.maxNotional) return ResultCode.AmountTooMuch;
  return ResultCode.Ok;
}

/**
 * Checks an amend's arguments against the order's current state (price 0 / amount 0 keep the current value).
 * Returns Ok or the rejection; the OrderNotFound and PocWouldTake checks are the book's.
 */
export function validateAmend(m: Market, price: number, amount: number, curPrice: number, curAmount: number, filled: number): ResultCode {
  if (!(price === 0 || isPositiveSafeInteger(price)) || !(amount === 0 || isPositiveSafeInteger(amount))) return ResultCode.InvalidParam;
  const newPrice = price === 0 ? curPrice : price;
  const newAmount = amount === 0 ? curAmount : amount;
  if (newPrice === curPrice && newAmount === curAmount) return ResultCode.NoChange;
  if (newAmount <= filled) return ResultCode.AmendBelowFilled;
  return checkLimitBounds(m, newPrice, newAmount);
}

/** A cancelAll scope: userId 0 (all) or a user id, side 0 (both), Buy or Sell. */
export const isCancelAllScope = (userId: number, side: number): boolean =>
  isInt31(userId) && (side === 0 || isSide(side));

/** True when a `side` order at limit `price` would trade against opposite best `oppositeBest` (0 = empty). */
export function crosses(side: number, price: number, oppositeBest: number): boolean {
  if (oppositeBest === 0) return false;
  return side === Side.Buy ? oppositeBest <= price : oppositeBest >= price;
}

/** The effective STP action of an order: a group member's None means CancelNew. */
export const effectiveStpAct = (stpId: number, stpAct: number): number =>
  stpId !== 0 && stpAct === StpAct.None ? StpAct.CancelNew : stpAct;

/**
 * Feeds one resting order into a book's state hash. Books call it for every order, bids then asks, each side
 * in priority order, after `h.add(bidCount).add(askCount)`.
 */
export function hashRestingOrder(h: StateHasher, orderId: number, userId: number, stpId: number, side: number,
  tif: number, stpAct: number, price: number, amount: number, left: number, visible: number, iceberg: number): void {
  h.add(orderId).add(userId).add(stpId).add(side).add(tif).add(stpAct)
    .add(price).add(amount).add(left).add(visible).add(iceberg);
}
