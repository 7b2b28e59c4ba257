/**
 * Position bookkeeping shared by the options fills (options-orders.ts) and the liquidator's takeovers
 * (options-liquidation.ts): sizes, premium cost and realised PnL of a position row, and its close rows. Money is
 * moved by the callers (ledger/options-funds.ts). Costs: BigInt arithmetic; a close row when a position empties.
 */
import type { ExchangeContext } from '../exchange/context.js';
import { divRound, Round } from '../futures/futures-math.js';
import { premium } from './options-margin.js';
import type { OptionsCloseText } from './options-state.js';

/**
 * The bookkeeping of a trade of `lots` at `price` ticks on position row `row` (side `buy`), less `fee`: closing
 * lots first (their share of the cost leaves and the premium difference is realised), then opening lots (their
 * premium becomes cost). No money moves here (the caller pays premiums, fees and margin). A position that
 * empties leaves a close row with `text`. Returns [closing lots, opening lots]. Fills (OptionsOrders) and the
 * liquidator's takeovers (options-liquidation.ts) both move positions through this.
 */
export function tradeRow(ctx: ExchangeContext, row: number, buy: boolean, lots: number, price: number, fee: bigint, time: number,
  text: OptionsCloseText): [number, number] {
  const S = ctx.options;
  const p = S.rows[row]!;
  const u = S.underlyings[S.contracts[p.ci]!.u]!;
  const n = p.size;
  const before = p.pnl;
  const against = (n > 0 && !buy) || (n < 0 && buy);
  const closing = against ? Math.min(lots, Math.abs(n)) : 0;
  const opening = lots - closing;
  if (closing > 0) {
    const part = divRound(p.cost * BigInt(closing), BigInt(Math.abs(n)), Round.Down);
    const q = premium(u, BigInt(closing), BigInt(price));
    // Long sold: received q for what cost `part`; short bought back: paid q for what brought −part.
    p.pnl += buy ? -part - q : q - part;
    p.cost -= part;
  }
  p.pnl -= fee;
  if (closing > 0) S.resize(row, n + (buy ? closing : -closing), time, text);
  if (opening > 0) {
    const q = premium(u, BigInt(opening), BigInt(price));
    p.cost += buy ? q : -q;
    S.resize(row, p.size + (buy ? opening : -opening), time, text);
    // A position opened by this trade alone counts its fee in the PnL its close reports.
    if (n === 0) p.openPnl = before;
  }
  p.updateTime = time;
  return [closing, opening];
}
