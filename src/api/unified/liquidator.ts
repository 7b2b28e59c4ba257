/**
 * Liquidation of unified accounts whose margin balance fell below maintenance (multi_currency, portfolio):
 * step by step, each step one ordinary engine command, until the account is no longer locked or nothing more
 * can be done:
 *   1. cancel the user's open orders (their holds return to the balance);
 *   2. repay each owed currency from its available balance (an auto repay);
 *   3. sell collateral for the owed currency through the book: a market IOC order of the user (text
 *      `t-liquidation`) selling all of one collateral currency on CUR_OWED, or buying the owed currency with
 *      all of it on OWED_CUR; the most valuable collateral first. The proceeds are repaid by step 2.
 * Liquidation orders trade like any other (fees, STP, the book's depth); a pair that cannot trade (no market,
 * below the minimum, an empty book) is not tried again in the same run. At most MAX_STEPS commands per run.
 * Runs when the account is read (GET /unified/accounts) and for every borrower on a timer (the simulator's
 * clock may be simulated, the timer only gives the check a chance to run). `unified.liquidation: false` in the
 * definition switches it off (accounts then stay locked, restricted, until the user repays).
 */
import { Command, CommandType } from '../../core/command.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../core/matching/order-types.js';
import { figuresOf, holdingsOf } from '../../core/unified/unified-account.js';
import { LoanKind } from '../../core/unified/unified-state.js';
import { borrowingMode } from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';

const MAX_STEPS = 64;
const POW10 = (k: number): bigint => 10n ** BigInt(k);

/** Liquidates `uid` if it is locked; `done` runs when the run ends (at once when there is nothing to do). */
export function liquidate(deps: ApiDeps, uid: number, done: () => void): void {
  if (deps.gateway.exchange.definition.unified?.liquidation === false) return done();
  const tried = new Set<string>();
  let steps = 0;
  const c = new Command();
  const next = (): void => {
    if (++steps > MAX_STEPS) return done();
    const ex = deps.gateway.exchange;
    if (!borrowingMode(ex.unified.modeOf(uid))) return done();
    const holdings = holdingsOf(ex, uid);
    const fig = figuresOf(ex, holdings);
    if (!fig.locked) return done();
    c.clear();
    const open = ex.orders.openOf(uid);
    if (open.length > 0) {
      c.type = CommandType.CancelAll; c.uid = uid; c.market = ex.orders.market[open[0]!]!;
      return deps.gateway.submit(c, () => next());
    }
    const owed = holdings.map((h, cur) => ({ h, cur, usd: fig.currencies.get(h.code)!.liabUsd }))
      .filter((o) => o.h.borrowed + o.h.interest > 0n).sort((a, b) => (b.usd > a.usd ? 1 : b.usd < a.usd ? -1 : a.cur - b.cur));
    for (const o of owed) {
      const pay = o.h.available < o.h.borrowed + o.h.interest ? o.h.available : o.h.borrowed + o.h.interest;
      if (pay <= 0n) continue;
      c.type = CommandType.UnifiedRepay; c.uid = uid; c.currency = o.cur; c.side = LoanKind.Auto;
      if (pay > BigInt(Number.MAX_SAFE_INTEGER)) c.text = pay.toString();
      else c.amount = Number(pay);
      return deps.gateway.submit(c, () => next());
    }
    const collateral = holdings.map((h, cur) => ({ h, cur, usd: fig.currencies.get(h.code)!.assetUsd }))
      .filter((x) => x.h.available > 0n).sort((a, b) => (b.usd > a.usd ? 1 : b.usd < a.usd ? -1 : a.cur - b.cur));
    for (const o of owed) {
      for (const y of collateral) {
        const key = `${o.cur}|${y.cur}`;
        if (y.cur === o.cur || tried.has(key)) continue;
        tried.add(key);
        if (!marketOrder(deps, c, uid, y.h.code, ex.currencies[o.cur]!, y.h.available)) continue;
        return deps.gateway.submit(c, () => next());
      }
    }
    done();
  };
  next();
}

/** Fills `c` with a market IOC order spending `units` of `pay` for `want`; false when no market can take it. */
export function marketOrder(deps: ApiDeps, c: Command, uid: number, pay: string, want: string, units: bigint): boolean {
  const ex = deps.gateway.exchange;
  const scaleOf = (code: string): number => ex.definition.currencies[ex.currencyIndex(code)]!.scale;
  let m = ex.marketIndex(`${pay}_${want}`);
  let side: number = Side.Sell;
  let amount: bigint;
  if (m >= 0) {
    amount = units / POW10(scaleOf(pay) - ex.markets[m]!.amountScale);
  } else {
    m = ex.marketIndex(`${want}_${pay}`);
    if (m < 0) return false;
    side = Side.Buy;
    const market = ex.markets[m]!;
    amount = (units / POW10(scaleOf(pay) - market.priceScale)) * BigInt(market.notionalPerQuoteUnit);
  }
  if (amount <= 0n || amount > BigInt(Number.MAX_SAFE_INTEGER)) return false;
  c.clear();
  c.type = CommandType.PlaceOrder; c.uid = uid; c.market = m; c.side = side; c.orderType = OrderType.Market;
  c.tif = TimeInForce.Ioc; c.amount = Number(amount); c.text = 't-liquidation';
  return true;
}

/** Starts a timer that liquidates every locked borrower each `periodMs`; stopped by the deps' close. */
export function startLiquidator(deps: ApiDeps, periodMs: number): void {
  if (deps.gateway.exchange.definition.unified?.liquidation === false) return;
  let running = false;
  const t = setInterval(() => {
    if (running) return;
    const uids = [...new Set(deps.gateway.exchange.ledger.openLoans().filter((l) => l.kind === AccountKind.Spot).map((l) => l.uid))];
    running = true;
    const one = (i: number): void => {
      if (i >= uids.length) { running = false; return; }
      liquidate(deps, uids[i]!, () => one(i + 1));
    };
    one(0);
  }, periodMs);
  t.unref();
  deps.onClose.push(() => clearInterval(t));
}

