/**
 * Liquidation of isolated-margin and cross-margin accounts whose risk (assets / liabilities in USD) fell below
 * their threshold, as the unified liquidator does for unified accounts: step by step, each step one ordinary
 * engine command on that account, until it is no longer locked or nothing more can be done:
 *   1. cancel the account's open orders (their holds return to it);
 *   2. repay each owed currency from the account's available balance (MarginRepay, an automatic repayment);
 *   3. sell collateral for the owed currency through the book: a market IOC order on the account (text
 *      `t-liquidation`), the most valuable collateral first; step 2 then repays from the proceeds.
 * At most MAX_STEPS commands per run. A timer (started with the margin routes) runs it for every account with a
 * loan; `unified.liquidation: false` switches it off (accounts then stay locked until the user repays).
 */
import { Command, CommandType } from '../../core/command.js';
import { accountKindOf } from '../../core/exchange/order-store.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { crossAccountOf } from '../../core/margin/cross-margin.js';
import { marginAccountOf, pairCurrencies } from '../../core/margin/margin-account.js';
import type { Holding } from '../../core/unified/valuation.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import type { ApiDeps } from '../deps.js';
import { marketOrder } from './liquidator.js';

const MAX_STEPS = 64;

/** The account's holdings as [currency index, holding] and whether it is locked. */
function accountOf(deps: ApiDeps, uid: number, kind: number, market: number): { held: [number, Holding][]; locked: boolean } {
  const ex = deps.gateway.exchange;
  if (kind === AccountKind.CrossMargin) {
    const v = crossAccountOf(ex, uid);
    return { held: v.holdings.map((h, i) => [i, h]), locked: v.figures.locked };
  }
  const v = marginAccountOf(ex, uid, market);
  const [b, q] = pairCurrencies(ex, market);
  return { held: [[b, v.base], [q, v.quote]], locked: v.figures.locked };
}

const owedOf = (h: Holding): bigint => h.borrowed + h.interest;

/**
 * Liquidates `uid`'s margin account of `market` (kind Margin) or its cross-margin account (kind CrossMargin,
 * market ignored) if it is locked; `done` runs when the run ends.
 */
export function liquidateMargin(deps: ApiDeps, uid: number, kind: number, market: number, done: () => void): void {
  if (deps.gateway.exchange.definition.unified?.liquidation === false) return done();
  const cross = kind === AccountKind.CrossMargin;
  const tried = new Set<string>();
  let steps = 0;
  const c = new Command();
  const next = (): void => {
    if (++steps > MAX_STEPS) return done();
    const ex = deps.gateway.exchange;
    const { held, locked } = accountOf(deps, uid, kind, market);
    if (!locked) return done();
    const O = ex.orders;
    const open = O.openOf(uid).filter((r) => accountKindOf(O.account[r]!) === kind && (cross || O.market[r] === market));
    c.clear();
    if (open.length > 0) {
      const r = open[0]!;
      c.type = CommandType.CancelOrder; c.uid = uid; c.market = O.market[r]!; c.orderId = O.id[r]!;
      return deps.gateway.submit(c, () => next());
    }
    const owed = held.filter(([, h]) => owedOf(h) > 0n);
    for (const [cur, h] of owed) {
      const pay = h.available < owedOf(h) ? h.available : owedOf(h);
      if (pay <= 0n) continue;
      c.type = CommandType.MarginRepay; c.uid = uid; c.kind = kind; c.market = cross ? 0 : market; c.currency = cur;
      c.side = LoanKind.Auto;
      if (pay > BigInt(Number.MAX_SAFE_INTEGER)) c.text = pay.toString();
      else c.amount = Number(pay);
      return deps.gateway.submit(c, () => next());
    }
    const collateral = held.filter(([, h]) => h.available > 0n && owedOf(h) === 0n);
    for (const [oCur, o] of owed) {
      for (const [yCur, y] of collateral) {
        const key = `${oCur}|${yCur}`;
        if (tried.has(key)) continue;
        tried.add(key);
        if (!marketOrder(deps, c, uid, y.code, o.code, y.available)) continue;
        if (!cross && c.market !== market) continue;
        c.kind = kind; c.sub = cross ? 0 : market;
        return deps.gateway.submit(c, () => next());
      }
    }
    done();
  };
  next();
}

/** Starts a timer that liquidates every locked margin and cross-margin borrower each `periodMs`. */
export function startMarginLiquidator(deps: ApiDeps, periodMs: number): void {
  if (deps.gateway.exchange.definition.unified?.liquidation === false) return;
  let running = false;
  const t = setInterval(() => {
    if (running) return;
    const seen = new Set<string>();
    const accounts: [number, number, number][] = [];
    for (const l of deps.gateway.exchange.ledger.openLoans()) {
      if (l.kind !== AccountKind.Margin && l.kind !== AccountKind.CrossMargin) continue;
      const key = `${l.uid}|${l.kind}|${l.sub}`;
      if (!seen.has(key)) { seen.add(key); accounts.push([l.uid, l.kind, l.sub]); }
    }
    running = true;
    const one = (i: number): void => {
      if (i >= accounts.length) { running = false; return; }
      const [uid, kind, sub] = accounts[i]!;
      liquidateMargin(deps, uid, kind, sub, () => one(i + 1));
    };
    one(0);
  }, periodMs);
  t.unref();
  deps.onClose.push(() => clearInterval(t));
}
