/**
 * The price bounds of options orders that name no price: a user's market order (marketBound) and the
 * liquidator's order trading out what it took over (liquidatorOrder, liquidatorLimit; the liquidator of the engine
 * clock checks the book against the same limit, engine/options/options-liquidator.ts). Integer ticks; pure.
 */
import type { Command } from '../command.js';
import type { ExchangeContext } from '../exchange/context.js';
import { divRound, RATE_ONE, Round } from '../futures/futures-math.js';
import { OrderType, Side, TimeInForce } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import type { OptionContract, OptionUnderlying } from './options-contract.js';
import { feeBound, premium } from './options-margin.js';

/**
 * The liquidator's order (INSURANCE_UID, flag Liquidation, a market IOC) trading out position `row` it took over:
 * its side and size are the position's (at most order_size_max, and for a buy what the fund's available can hold
 * at the bound), its limit mark × (1 ± liquidation_price_band) on the tick grid (a buy rounded up, a sell down,
 * at least one tick). Sets c.side, c.amount, c.price; NothingDue without a position or a mark,
 * InsufficientAvailable when the fund cannot hold one contract.
 */
export function liquidatorOrder(ctx: ExchangeContext, ci: number, row: number, c: Command): ResultCode {
  const S = ctx.options;
  const k = S.contracts[ci]!;
  const u = S.underlyings[k.u]!;
  const n = S.rows[row]!.size;
  const mark = S.mark[ci]!;
  if (n === 0 || mark <= 0 || c.orderType !== OrderType.Market || c.tif !== TimeInForce.Ioc) return ResultCode.NothingDue;
  const buy = n < 0;
  c.side = buy ? Side.Buy : Side.Sell;
  c.price = liquidatorLimit(u, mark, buy);
  let amount = Math.min(Math.abs(n), u.sizeMax);
  if (buy) {
    const one = premium(u, 1n, BigInt(c.price)) + feeBound(u, 1n, BigInt(c.price));
    const afford = ctx.ledger.options.available(c.uid, S.settleCur[k.u]!) / one;
    if (afford < BigInt(amount)) amount = Number(afford);
    if (amount === 0) return ResultCode.InsufficientAvailable;
  }
  c.amount = amount;
  return ResultCode.Ok;
}

/** The liquidator's limit around `mark` ticks: mark × (1 ± liquidation_price_band) on the tick grid (see liquidatorOrder). */
export function liquidatorLimit(u: OptionUnderlying, mark: number, buy: boolean): number {
  const tick = BigInt(u.tick);
  const M = BigInt(mark);
  return buy ? Number(divRound(M * (RATE_ONE + u.liqBand), RATE_ONE * tick, Round.Up) * tick)
    : Math.max(u.tick, Number(divRound(M * (RATE_ONE - u.liqBand), RATE_ONE * tick, Round.Down) * tick));
}

/**
 * The limit of a market order: a buy pays at most what the option can be worth — a call the index (the strike
 * while there is none), a put its strike — rounded up to the tick; a sell takes down to one tick.
 */
export function marketBound(k: OptionContract, tick: number, index: number, side: number): number {
  if (side !== Side.Buy) return tick;
  const cap = k.call ? (index > 0 ? index : k.strike) : k.strike;
  return Math.ceil(cap / tick) * tick;
}
