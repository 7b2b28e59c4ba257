/**
 * The options liquidator of the engine clock (run by options-services.ts): finds options accounts whose equity is
 * at or below their maintenance margin (core isOptionsLiquidatable, marks as journaled) and issues the commands
 * that resolve them, one at a time, each chosen from the state after the previous one completed:
 *   1. a CancelAll of the owner's orders in each options market of the account's currency where it has any;
 *   2. OptionsLiquidate: the liquidator takes its shorts over at the mark (and longs for a deficit);
 *   (1 and 2 are the futures liquidator's step, cancelThenLiquidate, futures-liquidator.ts)
 *   3. once per contract and pass, when the liquidator holds a position there and the book's best opposite price
 *      lies within its band of the mark: its market IOC order (flag Liquidation) trading it out. What it cannot
 *      trade out it keeps; the expiry settles it against the options insurance fund (no auto-deleveraging).
 * Order: settle currencies and owners in position-row order (deterministic for a given state). Bounded: at most
 * `budget` liquidations per pass (a pass that used it reports `more`). Each command re-checks its condition in
 * the core, so a stale decision changes nothing.
 * Costs per pass: O(position rows) to list owners with shorts, O(the owner's rows) per account checked, one
 * book probe per contract the liquidator holds; allocations: the owner lists and the markets to clear.
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { INSURANCE_UID } from '../../core/ledger/futures-funds.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../core/matching/order-types.js';
import { isOptionsLiquidatable } from '../../core/options/options-liquidation.js';
import { liquidatorLimit } from '../../core/options/options-limits.js';
import { OptionsFlag } from '../../core/options/options-orders.js';
import type { ResultCode } from '../../core/result-code.js';
import { cancelThenLiquidate, type LiquidatorStats, type PassResult } from '../futures/futures-liquidator.js';
import type { BookProbe } from '../futures/futures-prices.js';

/** Owners with an open short, per settle currency, in row order. @allocates */
function shortOwners(ex: Exchange): [number, number][] {
  const S = ex.options;
  const out: [number, number][] = [];
  const seen = new Set<number>();
  const span = ex.currencies.length;
  for (const p of S.rows) {
    if (p.size >= 0 || p.uid === INSURANCE_UID) continue;
    const cur = S.settleCur[S.contracts[p.ci]!.u]!;
    const key = p.uid * span + cur;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([p.uid, cur]);
  }
  return out;
}

/** Options markets of `uid` in currency `cur` with open orders. @allocates */
function marketsToClear(ex: Exchange, uid: number, cur: number): number[] {
  const S = ex.options;
  const out: number[] = [];
  for (const r of S.rowsOf(uid)) {
    const p = S.rows[r]!;
    if (p.pending > 0 && S.settleCur[S.contracts[p.ci]!.u] === cur) out.push(S.marketOf[p.ci]!);
  }
  return out;
}

/** One options liquidation pass at engine time `nowUs` (see the module comment); `probe` reads the books for step 3. */
export function* optionsLiquidationPass(ex: Exchange, probe: BookProbe, nowUs: number, budget: number, stats: LiquidatorStats,
  out: PassResult): Generator<Command, void, ResultCode> {
  const S = ex.options;
  const c = new Command();
  let left = budget;
  out.more = false;
  for (const [uid, cur] of shortOwners(ex)) {
    if (left <= 0) { out.more = true; break; }
    if (!isOptionsLiquidatable(ex, uid, cur)) continue;
    const done = yield* cancelThenLiquidate(c, uid, marketsToClear(ex, uid, cur), (x) => {
      x.type = CommandType.OptionsLiquidate; x.uid = uid; x.currency = cur;
    }, stats);
    if (done) left--;
  }
  for (let ci = 0; ci < S.contracts.length; ci++) {
    const row = S.find(INSURANCE_UID, ci);
    const n = row < 0 ? 0 : S.rows[row]!.size;
    const mark = S.mark[ci]!;
    if (n === 0 || mark <= 0 || S.settled[ci] !== 0 || nowUs >= S.contracts[ci]!.expiration * 1e6) continue;
    const market = S.marketOf[ci]!;
    const buy = n < 0;
    const best = probe.best(market, buy ? Side.Sell : Side.Buy);
    const limit = liquidatorLimit(S.underlyings[S.contracts[ci]!.u]!, mark, buy);
    if (best <= 0 || (buy ? best > limit : best < limit)) continue;
    c.clear();
    c.type = CommandType.PlaceOrder; c.uid = INSURANCE_UID; c.market = market; c.kind = AccountKind.Options;
    c.side = buy ? Side.Buy : Side.Sell; c.orderType = OrderType.Market; c.tif = TimeInForce.Ioc; c.toKind = OptionsFlag.Liquidation;
    stats.commands++;
    yield c;
    const after = S.rows[row]!.size;
    if (after !== n) stats.bookCloses++;
  }
}
