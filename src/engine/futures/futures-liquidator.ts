/**
 * The liquidator: finds positions at or below maintenance margin at the mark (core isLiquidatable: isolated,
 * margin + unrealised PnL ≤ maintenance margin; cross, the account's margin balance ≤ its maintenance) and
 * issues the commands that resolve them, one at a time, each chosen from the state after the previous one
 * completed (a generator the services' step runner drives):
 *   1. CancelAll of the owner's orders in each contract market the core requires empty (the position's own
 *      market; for a cross position every market where the owner has a cross position with orders);
 *   2. FuturesLiquidate: the liquidator (INSURANCE_UID) takes the position over at its bankruptcy price;
 *   3. once per contract and pass, when the liquidator holds a position: its market IOC order (Liquidation
 *      flag) closes it through the book no worse than the price where the insurance fund is used up;
 *   4. what the book could not take (the fund cannot cover more, or the book is too thin): FuturesDeleverage,
 *      closing it against the ADL queue (most profitable × leverage first).
 *
 * Order: contracts in index order, positions in creation order (deterministic for a given state). Bounded: at
 * most `budget` liquidations per pass (a pass that used its budget reports `more`, so the next one follows at
 * once). Each command re-checks its own condition in the core, so a stale decision changes nothing.
 *
 * Costs per pass: one isLiquidatable per open position (a cross one computes its account's figures), O(rows)
 * per liquidation for the orders check; allocations: the open-row lists of each contract and the commands'
 * fields (one reused Command).
 */
import { Command, CommandType } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { isLiquidatable } from '../../core/futures/futures-liquidation.js';
import { FuturesFlag } from '../../core/futures/futures-orders.js';
import { PositionSlot } from '../../core/futures/position-store.js';
import { INSURANCE_UID, kindOfAcct } from '../../core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';

/** Running counts of what the liquidator did (since the services started). */
export interface LiquidatorStats {
  /** Commands issued (cancels, liquidations, liquidator orders, deleverages). */
  commands: number;
  liquidations: number;
  /** Positions closed by auto-deleveraging (rows of the ADL history). */
  adl: number;
  /** Liquidator orders that closed part or all of a taken-over position through the book. */
  bookCloses: number;
}

export const emptyLiquidatorStats = (): LiquidatorStats => ({ commands: 0, liquidations: 0, adl: 0, bookCloses: 0 });

/** The outcome of a pass. */
export interface PassResult {
  /** True when the budget ran out before the scan ended (another pass should follow at once). */
  more: boolean;
}

/** True when some open position of the exchange is liquidatable now. O(open positions). */
export function anyLiquidatable(ex: Exchange): boolean {
  const S = ex.futures;
  for (let ci = 0; ci < S.contracts.length; ci++) {
    for (const r of S.positions.openRows(S.marketOf[ci])) if (isLiquidatable(ex, ci, r)) return true;
  }
  return false;
}

/** Markets whose orders of the owner of `row` must be cancelled before it can be liquidated. @allocates */
function marketsToClear(ex: Exchange, ci: number, row: number): number[] {
  const S = ex.futures;
  const P = S.positions;
  const uid = P.uid[row]!;
  const cur = S.acct[ci]!;
  const cross = P.leverage[row] === 0;
  const out: number[] = [];
  for (const r of P.rowsOf(uid)) {
    const m = P.market[r]!;
    if (P.pending[r] === 0 || S.acct[S.contractOf(m)] !== cur || out.includes(m)) continue;
    if (r === row || m === P.market[row] || (cross && P.leverage[r] === 0)) out.push(m);
  }
  return out;
}

/**
 * One liquidation pass (see the module header): yields each command and receives its result code. `budget`
 * bounds the liquidations; `stats` is updated as commands complete; `only` (≥ 0) limits the pass to one
 * contract index. The same pass serves the services' timer and the control plane's "liquidate now".
 */
export function* liquidationPass(ex: Exchange, budget: number, stats: LiquidatorStats, out: PassResult, only = -1): Generator<Command, void, ResultCode> {
  const S = ex.futures;
  const P = S.positions;
  const c = new Command();
  let left = budget;
  out.more = false;
  for (let ci = 0; ci < S.contracts.length; ci++) {
    if (only >= 0 && ci !== only) continue;
    const market = S.marketOf[ci]!;
    for (const row of P.openRows(market)) {
      if (left <= 0) { out.more = true; break; }
      if (!isLiquidatable(ex, ci, row)) continue;
      const uid = P.uid[row]!;
      const slot = P.slot[row]!;
      const done = yield* cancelThenLiquidate(c, uid, marketsToClear(ex, ci, row), (x) => {
        x.type = CommandType.FuturesLiquidate; x.uid = uid; x.market = market; x.sub = slot;
      }, stats);
      if (done) left--;
    }
    yield* closeTakenOver(ex, ci, c, stats);
  }
}

/** A CancelAll of `uid`'s orders in `market`, written into the cleared `c` (counted in `stats`). */
export function* cancelAllStep(c: Command, uid: number, market: number, stats: { commands: number }): Generator<Command, void, ResultCode> {
  c.clear();
  c.type = CommandType.CancelAll; c.uid = uid; c.market = market;
  stats.commands++;
  yield c;
}

/**
 * One owner's liquidation: a CancelAll of its orders in each of `markets`, then the liquidation command `fill`
 * writes into the cleared `c`; true when that succeeded (counted in `stats`). The futures and the options
 * liquidators (engine/options/options-liquidator.ts) both resolve an owner through this.
 */
export function* cancelThenLiquidate(c: Command, uid: number, markets: readonly number[], fill: (c: Command) => void,
  stats: LiquidatorStats): Generator<Command, boolean, ResultCode> {
  for (const m of markets) yield* cancelAllStep(c, uid, m, stats);
  c.clear();
  fill(c);
  stats.commands++;
  if ((yield c) !== ResultCode.Ok) return false;
  stats.liquidations++;
  return true;
}

/** Step 3 and 4 for contract `ci`: the liquidator's book close, then auto-deleveraging of the rest. */
function* closeTakenOver(ex: Exchange, ci: number, c: Command, stats: LiquidatorStats): Generator<Command, void, ResultCode> {
  const S = ex.futures;
  const P = S.positions;
  const market = S.marketOf[ci]!;
  const held = (): number => {
    const r = P.find(INSURANCE_UID, market, PositionSlot.Single);
    return r < 0 ? 0 : P.size[r]!;
  };
  const before = held();
  if (before === 0) return;
  c.clear();
  c.type = CommandType.PlaceOrder; c.uid = INSURANCE_UID; c.market = market; c.kind = kindOfAcct(S.acct[ci]!);
  c.sub = S.settleCur[ci]!; c.side = before > 0 ? Side.Sell : Side.Buy; c.orderType = OrderType.Market;
  c.tif = TimeInForce.Ioc; c.toKind = FuturesFlag.Liquidation;
  // The core sets side, size and price bound from the position it holds.
  stats.commands++;
  yield c;
  const after = held();
  if (after !== before) stats.bookCloses++;
  if (after === 0) return;
  const idBefore = ex.lastOrderId;
  c.clear();
  c.type = CommandType.FuturesDeleverage; c.market = market;
  stats.commands++;
  yield c;
  // Each victim's close is an order with a fresh id (the history is capped, so its length cannot count them).
  for (let i = S.adl.length - 1; i >= 0 && S.adl[i]!.orderId > idBefore; i--) stats.adl++;
}
