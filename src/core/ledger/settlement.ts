/**
 * Settlement of fills (R2).
 *
 * A fill of `lots` at `price` ticks between a taker and a maker order of one market moves:
 * - quote: price × lots notional in quote units, out of the buyer's hold (its `locked`) to the seller;
 * - base: lots in base units, out of the seller's hold to the buyer.
 * Each side receives into its available balance what it bought, minus a fee in that currency:
 * fee = floor(received × ratePpm / 10^6), exact (see feeOf), credited to the platform fee account. A buy's hold
 * was taken at its own limit (or budget), so a fill below the limit leaves the difference in the hold until
 * releaseOrder returns it. The ledger does not know limits: the engine guarantees fills at or better than
 * them; the ledger guarantees that no hold goes below zero (HoldExceeded otherwise).
 *
 * Check order: InvalidParam → AmountTooMuch (notional beyond exact range) → InvalidMarket → HoldNotFound →
 * HoldMismatch → HoldExceeded. Nothing changes on rejection.
 *
 * Account book, per side: order_fill (−paid), order_fill (+received), order_fee (−fee, when > 0), and the fee
 * account's fee_income (+fee). Entries reference the order id. Costs: no allocation for narrow currencies.
 */
import { Side } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import { isPositiveSafeInteger } from '../units.js';
import { type Amount, addAmount, feeOf, isZeroAmount, subAmount, zeroLike } from './amount.js';
import { BookType } from './account-book.js';
import { LedgerCode, type LedgerOutcome } from './ledger-codes.js';
import { FEE_KIND, FEE_SUB, isValidTime, type LedgerParts, PLATFORM_UID } from './parts.js';

const MAX_PPM = 1_000_000;
const isRate = (r: number): boolean => (r | 0) === r && r >= 0 && r <= MAX_PPM;

/** Settles one fill; see the module comment. */
export function settleFill(p: LedgerParts, time: number, market: number, takerOrderId: number, makerOrderId: number,
  takerSide: number, price: number, lots: number, takerFeePpm: number, makerFeePpm: number): LedgerOutcome {
  if (!isValidTime(time) || (takerSide !== Side.Buy && takerSide !== Side.Sell) || !isPositiveSafeInteger(price)
    || !isPositiveSafeInteger(lots) || !isRate(takerFeePpm) || !isRate(makerFeePpm)
    || takerOrderId === makerOrderId) return ResultCode.InvalidParam;
  const notional = price * lots;
  if (!Number.isSafeInteger(notional)) return ResultCode.AmountTooMuch;
  const ms = p.markets;
  if ((market | 0) !== market || market < 0 || market >= ms.count) return ResultCode.InvalidMarket;
  const h = p.holds;
  const taker = h.find(takerOrderId);
  const maker = h.find(makerOrderId);
  if (taker < 0 || maker < 0) return LedgerCode.HoldNotFound;
  if (h.market[taker] !== market || h.market[maker] !== market || h.side[taker] !== takerSide
    || h.side[maker] === takerSide) return LedgerCode.HoldMismatch;
  const buyer = takerSide === Side.Buy ? taker : maker;
  const seller = takerSide === Side.Buy ? maker : taker;
  const quote = ms.notionalToQuote(market, notional);
  const base = ms.lotsToBase(market, lots);
  if (h.remainingOf(buyer) < quote || h.remainingOf(seller) < base) return LedgerCode.HoldExceeded;
  const buyerRate = takerSide === Side.Buy ? takerFeePpm : makerFeePpm;
  const sellerRate = takerSide === Side.Buy ? makerFeePpm : takerFeePpm;
  const quoteCur = ms.quote[market]!;
  const baseCur = ms.base[market]!;
  // Taker's entries first, then the maker's.
  if (takerSide === Side.Buy) {
    p.fees.taker = exchange(p, time, buyer, takerOrderId, quote, base, baseCur, buyerRate);
    p.fees.maker = exchange(p, time, seller, makerOrderId, base, quote, quoteCur, sellerRate);
  } else {
    p.fees.taker = exchange(p, time, seller, takerOrderId, base, quote, quoteCur, sellerRate);
    p.fees.maker = exchange(p, time, buyer, makerOrderId, quote, base, baseCur, buyerRate);
  }
  return ResultCode.Ok;
}

/**
 * One side of a fill: pays `paid` out of hold `slot`, receives `received` of currency `gets` less its fee.
 * Returns the fee.
 */
function exchange(p: LedgerParts, time: number, slot: number, orderId: number, paid: Amount, received: Amount,
  gets: number, ratePpm: number): Amount {
  const s = p.store;
  const h = p.holds;
  const book = p.book;
  const rec = h.rec[slot]!;
  h.setRemaining(slot, subAmount(h.remainingOf(slot), paid));
  s.setLocked(rec, subAmount(s.lockedOf(rec), paid));
  book.append(time, rec, BookType.OrderFill, subAmount(zeroLike(paid), paid), s.total(rec), '', orderId);
  const recv = h.recv[slot]!;
  s.setAvailable(recv, addAmount(s.available(recv), received));
  book.append(time, recv, BookType.OrderFill, received, s.total(recv), '', orderId);
  const fee = feeOf(received, ratePpm);
  if (isZeroAmount(fee)) return fee;
  s.setAvailable(recv, subAmount(s.available(recv), fee));
  book.append(time, recv, BookType.OrderFee, subAmount(zeroLike(fee), fee), s.total(recv), '', orderId);
  const feeRec = s.findRecord(PLATFORM_UID, FEE_KIND, FEE_SUB, gets);
  s.setAvailable(feeRec, addAmount(s.available(feeRec), fee));
  book.append(time, feeRec, BookType.FeeIncome, fee, s.total(feeRec), '', orderId);
  return fee;
}
