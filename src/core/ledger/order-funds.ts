/**
 * Order holds (R1): funds set aside when an order enters, resized on amend, returned when it finishes.
 *
 * What a hold takes, from the order's account (the owner's Spot account, or its Margin account of the market,
 * or its CrossMargin account; what the order buys is received into the same account):
 * - limit buy: price × lots notional, in quote units (× 10^(quoteScale − notionalScale));
 * - market buy: its quote budget (`amount` is notional units), in quote units;
 * - limit or market sell: lots, in base units (× 10^(baseScale − amountScale)).
 * Holding moves available → locked; releasing moves the remaining hold locked → available. Neither changes
 * an account's total, so neither writes an account-book entry.
 *
 * Check order of holdOrder: InvalidParam → InvalidMarket → UserNotFound → HoldExists → AmountTooMuch →
 * BalanceNotEnough. Nothing changes on rejection.
 *
 * Costs: narrow currencies allocate nothing once the records exist; the first hold of a user in a market
 * creates the record that will receive what the order buys (so fills never create records).
 */
import { OrderType, Side } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import { isPositiveSafeInteger } from '../units.js';
import { AccountKind } from './account-kinds.js';
import { type Amount, addAmount, subAmount } from './amount.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { isCode, isValidAccount, isValidTime, type LedgerParts } from './parts.js';

const isValidMarket = (p: LedgerParts, m: number): boolean => (m | 0) === m && m >= 0 && m < p.markets.count;

/**
 * The hold an order needs, in units of the currency it pays (quote for buys, base for sells), or a negative
 * number code (InvalidParam, InvalidMarket, AmountTooMuch). For limit orders `amount` is lots; for a market buy
 * it is the quote budget in notional units. Also what an amend passes to resizeHold (with the remaining lots).
 * @allocates when the paid currency is wide
 */
export function holdUnits(p: LedgerParts, market: number, side: number, type: number, price: number, amount: number): Amount {
  if ((side !== Side.Buy && side !== Side.Sell) || (type !== OrderType.Limit && type !== OrderType.Market)
    || !isPositiveSafeInteger(amount) || (type === OrderType.Limit && !isPositiveSafeInteger(price))) return ResultCode.InvalidParam;
  if (!isValidMarket(p, market)) return ResultCode.InvalidMarket;
  const ms = p.markets;
  if (side === Side.Sell) {
    const units = ms.lotsToBase(market, amount);
    return p.currencies.withinSupply(ms.base[market]!, units) ? units : ResultCode.AmountTooMuch;
  }
  const notional = type === OrderType.Limit ? price * amount : amount;
  if (!Number.isSafeInteger(notional)) return ResultCode.AmountTooMuch;
  const units = ms.notionalToQuote(market, notional);
  return p.currencies.withinSupply(ms.quote[market]!, units) ? units : ResultCode.AmountTooMuch;
}

/** Opens the hold of order `orderId` of `uid` in `market` (see the module comment for what it takes). */
export function holdOrder(p: LedgerParts, time: number, orderId: number, uid: number, market: number, side: number,
  type: number, price: number, amount: number, kind: number = AccountKind.Spot, sub = 0): LedgerOutcome {
  if (!isValidTime(time) || !isPositiveSafeInteger(orderId) || !isValidAccount(p, kind, sub)) return ResultCode.InvalidParam;
  const units = holdUnits(p, market, side, type, price, amount);
  if (units === ResultCode.InvalidParam || units === ResultCode.InvalidMarket) return units;
  const s = p.store;
  if (!s.hasUser(uid)) return LedgerCode.UserNotFound;
  if (p.holds.find(orderId) >= 0) return LedgerCode.HoldExists;
  if (isCode(units)) return units as LedgerOutcome;
  const buy = side === Side.Buy;
  const ms = p.markets;
  const pays = buy ? ms.quote[market]! : ms.base[market]!;
  const gets = buy ? ms.base[market]! : ms.quote[market]!;
  const rec = s.findRecord(uid, kind, sub, pays);
  if (rec < 0 || s.available(rec) < units) return LedgerCode.BalanceNotEnough;
  const recv = s.record(uid, kind, sub, gets, p.currencies.wide[gets] === true);
  s.setAvailable(rec, subAmount(s.available(rec), units));
  s.setLocked(rec, addAmount(s.lockedOf(rec), units));
  p.holds.open(orderId, market, side, type, rec, recv, units);
  return ResultCode.Ok;
}

/**
 * Sets what remains held for `orderId` to `newRemaining` units of the held currency (an amend: usually
 * holdUnits(market, side, type, newPrice, remainingLots)). An increase takes the difference from available
 * (BalanceNotEnough when short, nothing changes); a decrease returns it. Codes in order: InvalidParam →
 * HoldNotFound → AmountTooMuch → BalanceNotEnough.
 */
export function resizeHold(p: LedgerParts, time: number, orderId: number, newRemaining: number | bigint): LedgerOutcome {
  if (!isValidTime(time) || !isNonNegativeInteger(newRemaining)) return ResultCode.InvalidParam;
  const h = p.holds;
  const slot = h.find(orderId);
  if (slot < 0) return LedgerCode.HoldNotFound;
  const s = p.store;
  const rec = h.rec[slot]!;
  const next = p.currencies.normalize(s.recCur[rec]!, newRemaining, true);
  if (isCode(next)) return next as LedgerOutcome;
  const delta = subAmount(next, h.remainingOf(slot));
  if (delta > 0 && s.available(rec) < delta) return LedgerCode.BalanceNotEnough;
  s.setAvailable(rec, subAmount(s.available(rec), delta));
  s.setLocked(rec, addAmount(s.lockedOf(rec), delta));
  h.setRemaining(slot, next);
  return ResultCode.Ok;
}

/**
 * The order finished (filled, cancelled, expired): its remaining hold returns to available and the hold is
 * closed. For a buy this returns the price improvement of fills below its limit and any unspent budget.
 */
export function releaseOrder(p: LedgerParts, time: number, orderId: number): LedgerOutcome {
  if (!isValidTime(time)) return ResultCode.InvalidParam;
  const slot = p.holds.find(orderId);
  if (slot < 0) return LedgerCode.HoldNotFound;
  releaseSlot(p, slot);
  return ResultCode.Ok;
}

/** Returns what remains of hold `slot` from locked to available and closes the hold (orders and withdrawals). */
export function releaseSlot(p: LedgerParts, slot: number): void {
  const h = p.holds;
  const s = p.store;
  const rec = h.rec[slot]!;
  const rem = h.remainingOf(slot);
  s.setLocked(rec, subAmount(s.lockedOf(rec), rem));
  s.setAvailable(rec, addAmount(s.available(rec), rem));
  h.close(slot);
}

function isNonNegativeInteger(v: number | bigint): boolean {
  return typeof v === 'bigint' ? v >= 0n : Number.isSafeInteger(v) && v >= 0;
}
