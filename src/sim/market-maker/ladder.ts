/**
 * The quote ladder around a reference price, in ticks: `levels` bids strictly descending below `levels`
 * asks strictly ascending, best bid < best ask, every price ≥ 1 tick (levels that would fall below are
 * dropped). Pure; allocates the two arrays.
 */
export interface Ladder { readonly bids: number[]; readonly asks: number[] }

export function ladder(ref: number, levels: number, spreadBps: number, stepBps: number): Ladder {
  const bids: number[] = [];
  const asks: number[] = [];
  for (let i = 0; i < levels; i++) {
    const off = (spreadBps / 2 + i * stepBps) / 1e4;
    let bid = Math.floor(ref * (1 - off));
    let ask = Math.ceil(ref * (1 + off));
    if (i > 0) {
      bid = Math.min(bid, bids[bids.length - 1]! - 1);
      ask = Math.max(ask, asks[asks.length - 1]! + 1);
    } else {
      if (bid >= ref) bid = Math.ceil(ref) - 1;
      if (ask <= bid) ask = bid + 1;
    }
    if (bid >= 1 && (i === 0 || bids.length === i)) bids.push(bid);
    if (Number.isSafeInteger(ask)) asks.push(ask);
  }
  return { bids, asks };
}
