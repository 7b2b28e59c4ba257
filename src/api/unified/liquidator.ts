/**
 * Liquidation of unified accounts whose margin balance fell below maintenance (multi_currency, portfolio),
 * through the shared loop of liquidation-run.ts: the user's open orders are cancelled market by market,
 * owed currencies repaid automatically (UnifiedRepay), then collateral sold for them through the book, the
 * largest debt and the most valuable collateral (USD at index prices) first. Liquidation orders trade like any
 * other (fees, STP, the book's depth).
 * Runs when the account is read (GET /unified/accounts) and for every borrower on a timer (the simulator's
 * clock may be simulated, the timer only gives the check a chance to run). `unified.liquidation: false` in the
 * definition switches it off (accounts then stay locked, restricted, until the user repays).
 */
import { CommandType } from '../../core/command.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { figuresOf, holdingsOf } from '../../core/unified/unified-account.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import { borrowingMode } from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';
import { type LiquidationAccount, runLiquidation, setUnits, startLiquidationTimer } from './liquidation-run.js';

/** The unified account (the user's spot records) as the liquidation loop sees it. */
function unifiedAccount(deps: ApiDeps, uid: number): LiquidationAccount {
  const ex = deps.gateway.exchange;
  return {
    view: () => {
      if (!borrowingMode(ex.unified.modeOf(uid))) return { locked: false, held: [] };
      const holdings = holdingsOf(ex, uid);
      const fig = figuresOf(ex, holdings);
      return { locked: fig.locked, held: holdings.map((h, cur) => {
        const f = fig.currencies.get(h.code)!;
        return { cur, h, liabUsd: f.liabUsd, assetUsd: f.assetUsd };
      }) };
    },
    cancelOne: (c) => {
      const open = ex.orders.openOf(uid);
      if (open.length === 0) return false;
      c.type = CommandType.CancelAll; c.uid = uid; c.market = ex.orders.market[open[0]!]!;
      return true;
    },
    repay: (c, cur, units) => {
      c.type = CommandType.UnifiedRepay; c.uid = uid; c.currency = cur; c.side = LoanKind.Auto;
      setUnits(c, units);
    },
    sale: () => true,
  };
}

/** Liquidates `uid` if it is locked; `done` runs when the run ends (at once when there is nothing to do). */
export function liquidate(deps: ApiDeps, uid: number, done: () => void): void {
  if (deps.gateway.exchange.definition.unified?.liquidation === false) return done();
  runLiquidation(deps, uid, unifiedAccount(deps, uid), done);
}

/** Starts a timer that liquidates every locked borrower each `periodMs`; stopped by the deps' close. */
export function startLiquidator(deps: ApiDeps, periodMs: number): void {
  startLiquidationTimer(deps, periodMs, (l) => (l.kind === AccountKind.Spot ? String(l.uid) : undefined),
    (uid, done) => liquidate(deps, Number(uid), done));
}
