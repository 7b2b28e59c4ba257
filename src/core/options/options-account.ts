/**
 * An options account's figures, exact (BigInt units of its settle currency), as Gate's OptionsAccount names them.
 * One function serves the liquidation check (options-liquidation.ts) and the routes (gate/options-shapes.ts), so
 * what an account shows is what the liquidator judges.
 *
 * For the options account of (uid, settle currency `cur`), over its positions in contracts settled in `cur`:
 *   total           available + locked (order holds, short positions' margin and the premium they received)
 *   position_value  Σ size × multiplier × mark            (a long counts positive, a short negative)
 *   unrealised_pnl  Σ (size × multiplier × mark − cost)   (cost: the premium paid, or received (< 0), of what is open)
 *   equity          total + position_value
 *   init_margin     Σ over shorts ⌈max(a × I − OTM, b × I) × multiplier × |size|⌉       (options-margin.ts)
 *   maint_margin    Σ over shorts ⌈max(m × I − OTM, n × I) × multiplier × |size|⌉
 * with the mark of each contract (OptionsState.mark, ticks; 0 before the first) and I its underlying's index.
 * Costs: O(the user's position rows); allocates the result.
 */
import type { ExchangeContext } from '../exchange/context.js';
import { valueOf } from './options-contract.js';
import { OptionsState } from './options-state.js';
import { initialMargin, maintenanceMargin } from './options-margin.js';

export interface OptionsAccountFigures {
  readonly total: bigint;
  readonly available: bigint;
  readonly positionValue: bigint;
  readonly unrealisedPnl: bigint;
  readonly equity: bigint;
  readonly initialMargin: bigint;
  readonly maintenanceMargin: bigint;
  /** Open short positions (contracts with size < 0). */
  readonly shorts: number;
}

/** The figures of (uid, cur) now (see the module comment). */
export function optionsAccountFigures(ctx: Pick<ExchangeContext, 'options' | 'ledger'>, uid: number, cur: number): OptionsAccountFigures {
  const S = ctx.options;
  const L = ctx.ledger.options;
  let positionValue = 0n;
  let upnl = 0n;
  let im = 0n;
  let mm = 0n;
  let shorts = 0;
  for (const r of S.rowsOf(uid)) {
    const p = S.rows[r]!;
    if (p.size === 0) continue;
    const k = S.contracts[p.ci]!;
    if (S.settleCur[k.u] !== cur) continue;
    const u = S.underlyings[k.u]!;
    const abs = BigInt(Math.abs(p.size));
    const v = valueOf(u, abs, BigInt(S.mark[p.ci]!)) * (p.size < 0 ? -1n : 1n);
    positionValue += v;
    upnl += v - p.cost;
    if (p.size < 0) {
      shorts++;
      im += initialMargin(u, k, abs, S.index[k.u]!);
      mm += maintenanceMargin(u, k, abs, S.index[k.u]!);
    }
  }
  const total = L.total(uid, cur);
  return {
    total, available: L.available(uid, cur), positionValue, unrealisedPnl: upnl, equity: total + positionValue,
    initialMargin: im, maintenanceMargin: mm, shorts,
  };
}

/** Appends the options insurance fund's balance of `cur` to its history when it changed. */
export function noteInsurance(ctx: ExchangeContext, cur: number, time: number): void {
  const S = ctx.options;
  const balance = ctx.ledger.options.insuranceFund(cur).toString();
  for (let i = S.insurance.length - 1; i >= 0; i--) {
    if (S.insurance[i]!.cur !== cur) continue;
    if (S.insurance[i]!.balance === balance) return;
    break;
  }
  OptionsState.push(S.insurance, { t: time, cur, balance });
}
