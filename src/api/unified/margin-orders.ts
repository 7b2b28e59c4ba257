/**
 * Spot orders with `account=margin` or `account=cross_margin`: the order holds from, and receives into, the
 * user's isolated Margin account of its pair (the PlaceOrder carries kind Margin, sub = market, and its flags)
 * or the user's cross-margin account (kind CrossMargin, sub 0; loans in any currency, figures over all of them:
 * core/margin/cross-margin.ts). The loan commands carry the same account. Around the engine:
 * - a locked account (risk below the liquidation threshold) may only place orders that buy a currency it owes
 *   (they reduce its debt); others answer TRADE_RESTRICTED;
 * - `auto_borrow`: a shortfall of the hold is borrowed first (one MarginBorrow of kind auto, at least the
 *   currency's minimum); AUTO_BORROW_TOO_MUCH beyond what the account may borrow (leverage, pool, maximum);
 *   when the engine then refuses the order, the loan is repaid at once (MarginRepay of kind auto);
 * - `auto_repay`: once the order is accepted, what the account owes in the currency the order buys is repaid
 *   from its available balance (MarginRepay of kind auto, as much as is both owed and available). Fills of a
 *   resting order that come later repay nothing by themselves (the next auto_repay order of the pair or a
 *   manual repayment does).
 * Without auto_borrow a shortfall answers BALANCE_NOT_ENOUGH from the engine, as for spot.
 */
import { Command, CommandType } from '../../core/command.js';
import { OrderFlag } from '../../core/exchange/order-store.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { crossAccountOf, crossBorrowableOf, crossHolding } from '../../core/margin/cross-margin.js';
import { marginAccountOf, marginBorrowableOf, marginHolding } from '../../core/margin/margin-account.js';
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import type { Holding } from '../../core/unified/valuation.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import type { ApiDeps } from '../deps.js';
import type { PlaceDone } from './unified-orders.js';

const isCross = (kind: number): boolean => kind === AccountKind.CrossMargin;

/** The holding of `cur` in `uid`'s account of the order: cross-margin (`kind` CrossMargin) or the pair's. */
const holding = (ex: Exchange, kind: number, uid: number, market: number, cur: number): Holding =>
  (isCross(kind) ? crossHolding(ex, uid, cur) : marginHolding(ex, uid, market, cur));

/**
 * Submits an auto MarginBorrow or MarginRepay of `units` (0: repay all owed) of `cur` on `uid`'s account of
 * `kind`: the `market` pair's Margin account, or the cross-margin account (market 0).
 */
function submitMarginLoan(deps: ApiDeps, type: number, kind: number, uid: number, market: number, cur: number, units: bigint,
  done: (code: ResultCode) => void): void {
  deps.gateway.submit(marginLoan(type, kind, uid, market, cur, units), (code) => done(code));
}

/** The auto MarginBorrow or MarginRepay command of submitMarginLoan (a fresh object). @allocates */
function marginLoan(type: number, kind: number, uid: number, market: number, cur: number, units: bigint): Command {
  const c = new Command();
  c.type = type;
  c.uid = uid; c.currency = cur; c.side = LoanKind.Auto;
  if (isCross(kind)) c.kind = AccountKind.CrossMargin;
  else c.market = market;
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) c.text = units.toString();
  else c.amount = Number(units);
  return c;
}

/** Repays from the order's proceeds what the account owes in the currency it buys, then answers. */
function autoRepay(deps: ApiDeps, placed: Command, done: PlaceDone): void {
  const ex = deps.gateway.exchange;
  const market = ex.markets[placed.market]!;
  const cur = ex.currencyIndex(placed.side === Side.Buy ? market.spec.base : market.spec.quote);
  const h = holding(ex, placed.kind, placed.uid, placed.market, cur);
  const owed = h.borrowed + h.interest;
  const units = owed < h.available ? owed : h.available;
  const order = new Command().copyFrom(placed);
  if (units <= 0n) return done(ResultCode.Ok, order);
  submitMarginLoan(deps, CommandType.MarginRepay, placed.kind, placed.uid, placed.market, cur, units, () => done(ResultCode.Ok, order));
}

/**
 * Places the margin order in `place` (parsed: kind Margin with sub = market, or CrossMargin with sub 0; flags in
 * `toKind`) for `uid`; see the module header. `done` is called once; `place` may be reused by the caller after this returns.
 */
export function placeMarginOrder(deps: ApiDeps, uid: number, place: Command, done: PlaceDone): void {
  const ex = deps.gateway.exchange;
  const flags = place.toKind;
  const m = place.market;
  const kind = place.kind;
  const after = (rc: ResultCode, stamped: Command | undefined): void => {
    if (rc !== ResultCode.Ok || stamped === undefined) return done(rc, undefined);
    if ((flags & OrderFlag.AutoRepay) !== 0) return autoRepay(deps, stamped, done);
    done(rc, stamped);
  };
  const market = ex.markets[m];
  const need = market === undefined || (kind !== AccountKind.Margin && !isCross(kind)) ? -1
    : ex.ledger.holdUnits(m, place.side, place.orderType, place.price, place.amount);
  if (market === undefined || (typeof need === 'number' && need < 0)) return deps.gateway.submit(place, after);
  const pays = ex.currencyIndex(place.side === Side.Buy ? market.spec.quote : market.spec.base);
  const gets = ex.currencyIndex(place.side === Side.Buy ? market.spec.base : market.spec.quote);
  const locked = (isCross(kind) ? crossAccountOf(ex, uid) : marginAccountOf(ex, uid, m)).figures.locked;
  if (locked) {
    const g = holding(ex, kind, uid, m, gets);
    if (g.borrowed + g.interest === 0n) return done(ResultCode.TradeRestricted, undefined);
  }
  const shortfall = BigInt(need) - holding(ex, kind, uid, m, pays).available;
  if (shortfall <= 0n || (flags & OrderFlag.AutoBorrow) === 0) return deps.gateway.submit(place, after);
  if (locked) return done(ResultCode.TradeRestricted, undefined);
  const min = ex.unified.params.currencies.get(ex.currencies[pays]!)!.minBorrow;
  const units = shortfall < min ? min : shortfall;
  const room = isCross(kind) ? crossBorrowableOf(ex, uid, pays) : marginBorrowableOf(ex, uid, m, pays);
  if (units > room) return done(ResultCode.AutoBorrowTooMuch, undefined);
  // The loan and the order are one journal group: a crash keeps both or neither.
  let borrowed: ResultCode = ResultCode.Ok;
  deps.gateway.submitGroup([
    [marginLoan(CommandType.MarginBorrow, kind, uid, m, pays, units), (code) => { borrowed = code; }],
    [new Command().copyFrom(place), (rc, stamped) => {
      if (rc !== ResultCode.Ok && borrowed === ResultCode.Ok) submitMarginLoan(deps, CommandType.MarginRepay, kind, uid, m, pays, units, () => undefined);
      if (rc !== ResultCode.Ok && borrowed !== ResultCode.Ok) return done(ResultCode.AutoBorrowTooMuch, undefined);
      after(rc, stamped);
    }],
  ]);
}
