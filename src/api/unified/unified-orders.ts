/**
 * Spot orders of a unified user in a borrowing mode (multi_currency, portfolio), with `account` unified or
 * spot: the order holds from the account's available balance like any spot order, and a shortfall is
 * borrowed first (one UnifiedBorrow command of kind auto, at least the currency's minimum):
 * - TRADE_RESTRICTED when the account is in its liquidation zone (margin balance below maintenance) and the
 *   order needs to borrow;
 * - AUTO_BORROW_TOO_MUCH when the shortfall is more than the account may borrow (margin, pool, user maximum);
 * - the borrow and the order are one journal group (a crash keeps both or neither); when the engine then
 *   rejects the order, the auto borrow is repaid at once (UnifiedRepay of kind auto), so a refused order
 *   leaves the account owing nothing new (a crash between the refusal and that repay keeps the loan).
 * Users in classic or single_currency mode trade their spot balance as before.
 */
import { Command, CommandType } from '../../core/command.js';
import { ResultCode } from '../../core/result-code.js';
import { borrowableOf, figuresOf, holdingsOf } from '../../core/unified/unified-account.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import { borrowingMode } from '../../core/unified/valuation.js';
import { Side } from '../../core/matching/order-types.js';
import type { ApiDeps } from '../deps.js';

/** What the caller learns: the final code and, on Ok, the stamped PlaceOrder (valid during the call). */
export type PlaceDone = (code: ResultCode, placed: Command | undefined) => void;

/** An auto UnifiedBorrow or UnifiedRepay of `units` of `cur` for `uid` (a fresh object). @allocates */
function loanCommand(type: number, uid: number, cur: number, units: bigint): Command {
  const c = new Command();
  c.type = type;
  c.uid = uid; c.currency = cur; c.side = LoanKind.Auto;
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) c.text = units.toString();
  else c.amount = Number(units);
  return c;
}

/**
 * Submits the PlaceOrder in `place` (already parsed) for `uid`, borrowing its shortfall first when the user
 * is in a borrowing mode (see the module header). `done` is called once. `place` may be reused by the caller
 * after this returns (it is copied when the order waits for its borrow).
 */
export function placeWithAutoBorrow(deps: ApiDeps, uid: number, place: Command, done: PlaceDone): void {
  const ex = deps.gateway.exchange;
  const direct = (c: Command): void => deps.gateway.submit(c, (rc, stamped) => done(rc, rc === ResultCode.Ok ? stamped : undefined));
  if (!borrowingMode(ex.unified.modeOf(uid))) return direct(place);
  const market = ex.markets[place.market];
  const need = market === undefined ? -1 : ex.ledger.holdUnits(place.market, place.side, place.orderType, place.price, place.amount);
  if (market === undefined || (typeof need === 'number' && need < 0)) return direct(place);
  const code = place.side === Side.Buy ? market.spec.quote : market.spec.base;
  const cur = ex.currencyIndex(code);
  const holdings = holdingsOf(ex, uid);
  const shortfall = BigInt(need) - holdings[cur]!.available;
  if (shortfall <= 0n) return direct(place);
  if (figuresOf(ex, holdings).locked) return done(ResultCode.TradeRestricted, undefined);
  const min = ex.unified.params.currencies.get(code)!.minBorrow;
  const units = shortfall < min ? min : shortfall;
  if (units > borrowableOf(ex, uid, cur, holdings)) return done(ResultCode.AutoBorrowTooMuch, undefined);
  // The loan and the order are one journal group: a crash keeps both or neither.
  let borrowed: ResultCode = ResultCode.Ok;
  deps.gateway.submitGroup([
    [loanCommand(CommandType.UnifiedBorrow, uid, cur, units), (code) => { borrowed = code; }],
    [new Command().copyFrom(place), (rc, stamped) => {
      if (rc === ResultCode.Ok) return done(rc, stamped);
      if (borrowed === ResultCode.Ok) deps.gateway.submit(loanCommand(CommandType.UnifiedRepay, uid, cur, units), () => undefined);
      done(borrowed === ResultCode.Ok ? rc : ResultCode.AutoBorrowTooMuch, undefined);
    }],
  ]);
}
