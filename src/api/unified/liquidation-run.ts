/**
 * The step loop every liquidation shares (unified, isolated-margin and cross-margin accounts): each step is
 * one ordinary engine command, chosen afresh from the account's state after the previous one completed:
 *   1. cancel one open order of the account (its hold returns to the account);
 *   2. repay an owed currency from the account's available balance;
 *   3. sell collateral for an owed currency through the book with a market IOC order on the account (text
 *      `t-liquidation`), the most valuable first; step 2 then repays from the proceeds. A (owed, collateral)
 *      pair that cannot trade (no market, below the minimum, an empty book) is not tried again in the run.
 * It ends when the account is no longer locked, nothing more can be done, or after MAX_STEPS commands.
 */
import { Command, CommandType } from '../../core/command.js';
import type { LoanRow } from '../../core/ledger/loan-funds.js';
import { OrderType, Side, TimeInForce } from '../../core/matching/order-types.js';
import type { Holding } from '../../core/unified/valuation.js';
import type { ApiDeps } from '../deps.js';

const MAX_STEPS = 64;
const POW10 = (k: number): bigint => 10n ** BigInt(k);

/** One currency of the account: its holding and its weight for ordering (USD value owed, or held). */
export interface Held {
  readonly cur: number;
  readonly h: Holding;
  readonly liabUsd: bigint;
  readonly assetUsd: bigint;
}

/** What a kind of account tells the loop; every method reads the exchange as it is now. */
export interface LiquidationAccount {
  /** Whether the account is (still) to be liquidated, and its currencies. */
  view(): { readonly locked: boolean; readonly held: readonly Held[] };
  /** Fills `c` with a cancel of one of the account's open orders; false when it has none. */
  cancelOne(c: Command): boolean;
  /** Fills `c` with an automatic repayment of `units` of currency `cur`. */
  repay(c: Command, cur: number, units: bigint): void;
  /** Puts the market sale `c` (already filled by the loop) on the account; false when its market does not fit. */
  sale(c: Command): boolean;
}

const owedOf = (h: Holding): bigint => h.borrowed + h.interest;
const byWeight = (w: (x: Held) => bigint) => (a: Held, b: Held): number => (w(b) > w(a) ? 1 : w(b) < w(a) ? -1 : a.cur - b.cur);

/** Runs the loop for `uid` on `account`; `done` when it ends. */
export function runLiquidation(deps: ApiDeps, uid: number, account: LiquidationAccount, done: () => void): void {
  const tried = new Set<string>();
  let steps = 0;
  const c = new Command();
  const next = (): void => {
    if (++steps > MAX_STEPS) return done();
    const { locked, held } = account.view();
    if (!locked) return done();
    c.clear();
    if (account.cancelOne(c)) return deps.gateway.submit(c, () => next());
    const owed = held.filter((x) => owedOf(x.h) > 0n).sort(byWeight((x) => x.liabUsd));
    for (const o of owed) {
      const pay = o.h.available < owedOf(o.h) ? o.h.available : owedOf(o.h);
      if (pay <= 0n) continue;
      c.clear();
      account.repay(c, o.cur, pay);
      return deps.gateway.submit(c, () => next());
    }
    const collateral = held.filter((x) => x.h.available > 0n).sort(byWeight((x) => x.assetUsd));
    for (const o of owed) {
      for (const y of collateral) {
        const key = `${o.cur}|${y.cur}`;
        if (y.cur === o.cur || tried.has(key)) continue;
        tried.add(key);
        if (!marketOrder(deps, c, uid, y.h.code, o.h.code, y.h.available) || !account.sale(c)) continue;
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

/** Fills `c` with `units` as a funds command's amount (a decimal integer in `text` beyond 2^53). */
export function setUnits(c: Command, units: bigint): void {
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) c.text = units.toString();
  else c.amount = Number(units);
}

/**
 * Every `periodMs` (wall clock; the engine's clock may be simulated, the timer only gives the check a chance to
 * run), liquidates each distinct account `accountOf` picks from the open loans, one after the other (a run
 * still going skips the tick). Off with `unified.liquidation: false`; stopped by the deps' close.
 */
export function startLiquidationTimer(deps: ApiDeps, periodMs: number, accountOf: (loan: LoanRow) => string | undefined,
  liquidateOne: (account: string, done: () => void) => void): void {
  if (deps.gateway.exchange.definition.unified?.liquidation === false) return;
  let running = false;
  const t = setInterval(() => {
    if (running) return;
    const accounts = [...new Set(deps.gateway.exchange.ledger.openLoans().map(accountOf).filter((a) => a !== undefined))];
    running = true;
    const one = (i: number): void => {
      if (i >= accounts.length) { running = false; return; }
      liquidateOne(accounts[i]!, () => one(i + 1));
    };
    one(0);
  }, periodMs);
  t.unref();
  deps.onClose.push(() => clearInterval(t));
}
