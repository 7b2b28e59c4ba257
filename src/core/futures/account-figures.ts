/**
 * Read-only figures of futures accounts and positions at the current mark prices: what Gate's FuturesAccount
 * and Position report, and what the liquidation rule reads (risk.ts has the formulas). Pure functions of the
 * state; BigInt settle units and ticks.
 *
 * An account's total is its ledger record (available + locked: order margins and position margins), Gate's
 * `total`; `position_margin` and `order_margin` split its locked part; `unrealised_pnl` sums its positions at
 * their marks. Cross margin: the cross margin balance is total − isolated position margins + Σ cross uPnL,
 * against Σ cross maintenance margins (liquidation when ≤).
 *
 * Costs: O(positions of the user) per account (a scan of the position rows); allocates.
 */
import type { ExchangeContext } from '../exchange/context.js';
import { maxBig } from './futures-math.js';
import { positionHoldKey } from './position-store.js';
import {
  effectiveLeverage, initialMarginShown, liquidationPrice, maintenanceMargin, mmrOf, positionValue, unrealisedPnl,
} from './risk.js';

/** A position's figures at its contract's mark (ticks; money in settle units). */
export interface PositionFigures {
  readonly mark: number;
  readonly value: bigint;
  readonly margin: bigint;
  readonly upnl: bigint;
  readonly initial: bigint;
  readonly maintenance: bigint;
  readonly mmr: bigint;
  /** Ticks; 0 when none. */
  readonly liqPrice: bigint;
  readonly leverage: number;
}

/** The figures of position row `row`. */
export function positionFigures(ctx: ExchangeContext, row: number): PositionFigures {
  const S = ctx.futures;
  const P = S.positions;
  const ci = S.contractOf(P.market[row]!);
  const k = S.contracts[ci]!;
  const mark = S.mark[ci]!;
  const n = P.size[row]!;
  const value = positionValue(k, n, mark);
  const margin = maxBig(0n, ctx.ledger.futures.held(positionHoldKey(row)));
  const lev = effectiveLeverage(k, P.leverage[row]!, P.crossLimit[row]!, P.riskLimit[row]!);
  const mmr = mmrOf(k, P.riskLimit[row]!);
  const upnl = unrealisedPnl(k, n, P.basis[row]!, mark);
  let liqMargin = margin;
  if (P.leverage[row] === 0 && n !== 0) liqMargin += ctx.ledger.futures.available(P.uid[row]!, S.acct[ci]!);
  return {
    mark, value, margin, upnl, mmr, leverage: lev,
    initial: n === 0 ? 0n : initialMarginShown(k, value, lev),
    maintenance: n === 0 ? 0n : maintenanceMargin(k, value, mmr),
    liqPrice: n === 0 ? 0n : liquidationPrice(k, n, P.basis[row]!, liqMargin, P.riskLimit[row]!),
  };
}

/** A futures account's figures (settle currency index `cur`). */
export interface AccountFigures {
  readonly total: bigint;
  readonly available: bigint;
  readonly positionMargin: bigint;
  readonly orderMargin: bigint;
  readonly upnl: bigint;
  /** Isolated positions' margins; cross positions' margins, uPnL, maintenance and initial margins. */
  readonly isolatedMargin: bigint;
  readonly crossMargin: bigint;
  readonly crossUpnl: bigint;
  readonly maintenance: bigint;
  readonly crossInitial: bigint;
  /** total − isolated margins + cross uPnL. */
  readonly marginBalance: bigint;
  /** Open cross positions. */
  readonly positions: number;
  readonly allMaintenance: bigint;
  readonly allInitial: bigint;
}

/** The figures of (uid, cur)'s futures account. */
export function crossFigures(ctx: ExchangeContext, uid: number, cur: number): AccountFigures {
  const S = ctx.futures;
  const P = S.positions;
  const L = ctx.ledger.futures;
  const available = L.available(uid, cur);
  const total = L.total(uid, cur);
  let positionMargin = 0n;
  let isolatedMargin = 0n;
  let crossMargin = 0n;
  let upnl = 0n;
  let crossUpnl = 0n;
  let maintenance = 0n;
  let crossInitial = 0n;
  let allMaintenance = 0n;
  let allInitial = 0n;
  let positions = 0;
  for (const r of P.rowsOf(uid)) {
    const ci = S.contractOf(P.market[r]!);
    if (S.acct[ci] !== cur) continue;
    const f = positionFigures(ctx, r);
    positionMargin += f.margin;
    upnl += f.upnl;
    allMaintenance += f.maintenance;
    allInitial += f.initial;
    if (P.leverage[r] === 0) {
      crossMargin += f.margin;
      crossUpnl += f.upnl;
      maintenance += f.maintenance;
      crossInitial += f.initial;
      if (P.size[r] !== 0) positions++;
    } else {
      isolatedMargin += f.margin;
    }
  }
  const orderMargin = total - available - positionMargin;
  return {
    total, available, positionMargin, orderMargin, upnl, isolatedMargin, crossMargin, crossUpnl, maintenance, crossInitial,
    marginBalance: total - isolatedMargin + crossUpnl, positions, allMaintenance, allInitial,
  };
}
