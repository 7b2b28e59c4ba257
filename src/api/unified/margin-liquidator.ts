/**
 * Liquidation of isolated-margin and cross-margin accounts whose risk (assets / liabilities in USD) fell below
 * their threshold, through the shared loop of liquidation-run.ts, every command on that account: its open
 * orders cancelled one by one, owed currencies repaid automatically (MarginRepay), collateral sold for them
 * with market IOC orders on the account (an isolated account only on its own pair), in currency order. A timer (started with the margin routes) runs it for every account with a
 * loan; `unified.liquidation: false` switches it off (accounts then stay locked until the user repays).
 */
import { CommandType } from '../../core/command.js';
import { accountKindOf } from '../../core/exchange/order-store.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { crossAccountOf } from '../../core/margin/cross-margin.js';
import { marginAccountOf, pairCurrencies } from '../../core/margin/margin-account.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import type { ApiDeps } from '../deps.js';
import { type LiquidationAccount, runLiquidation, setUnits, startLiquidationTimer } from './liquidation-run.js';

/** The margin account of `market` (kind Margin) or the cross-margin account as the liquidation loop sees it. */
function marginAccount(deps: ApiDeps, uid: number, kind: number, market: number): LiquidationAccount {
  const ex = deps.gateway.exchange;
  const cross = kind === AccountKind.CrossMargin;
  return {
    view: () => {
      if (cross) {
        const v = crossAccountOf(ex, uid);
        return { locked: v.figures.locked, held: v.holdings.map((h, cur) => ({ cur, h, liabUsd: 0n, assetUsd: 0n })) };
      }
      const v = marginAccountOf(ex, uid, market);
      const [b, q] = pairCurrencies(ex, market);
      return { locked: v.figures.locked, held: [{ cur: b, h: v.base, liabUsd: 0n, assetUsd: 0n }, { cur: q, h: v.quote, liabUsd: 0n, assetUsd: 0n }] };
    },
    cancelOne: (c) => {
      const O = ex.orders;
      const r = O.openOf(uid).find((x) => accountKindOf(O.account[x]!) === kind && (cross || O.market[x] === market));
      if (r === undefined) return false;
      c.type = CommandType.CancelOrder; c.uid = uid; c.market = O.market[r]!; c.orderId = O.id[r]!;
      return true;
    },
    repay: (c, cur, units) => {
      c.type = CommandType.MarginRepay; c.uid = uid; c.kind = kind; c.market = cross ? 0 : market; c.currency = cur;
      c.side = LoanKind.Auto;
      setUnits(c, units);
    },
    sale: (c) => {
      if (!cross && c.market !== market) return false;
      c.kind = kind; c.sub = cross ? 0 : market;
      return true;
    },
  };
}

/**
 * Liquidates `uid`'s margin account of `market` (kind Margin) or its cross-margin account (kind CrossMargin,
 * market ignored) if it is locked; `done` runs when the run ends.
 */
export function liquidateMargin(deps: ApiDeps, uid: number, kind: number, market: number, done: () => void): void {
  if (deps.gateway.exchange.definition.unified?.liquidation === false) return done();
  runLiquidation(deps, uid, marginAccount(deps, uid, kind, market), done);
}

/** Starts a timer that liquidates every locked margin and cross-margin borrower each `periodMs`. */
export function startMarginLiquidator(deps: ApiDeps, periodMs: number): void {
  startLiquidationTimer(deps, periodMs,
    (l) => (l.kind === AccountKind.Margin || l.kind === AccountKind.CrossMargin ? `${l.uid}|${l.kind}|${l.sub}` : undefined),
    (account, done) => {
      const [uid, kind, sub] = account.split('|').map(Number) as [number, number, number];
      liquidateMargin(deps, uid, kind, sub, done);
    });
}
