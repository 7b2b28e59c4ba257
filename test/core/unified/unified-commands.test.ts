// Unified commands through the inline engine: borrow, repay, hourly interest and mode switches keep every
// ledger invariant (per-currency conservation, pool + loans accounting), reject with the documented codes and
// change nothing when they do.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { Command, CommandType } from '../../../src/core/command.js';
import type { ExchangeDefinition } from '../../../src/core/exchange/exchange-definition.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../../src/core/matching/order-types.js';
import { Prng } from '../../../src/core/prng.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { LoanKind, UnifiedSetting } from '../../../src/core/unified/unified-state.js';
import { UnifiedMode } from '../../../src/core/unified/valuation.js';
import { InlineEngine } from '../../../src/engine/inline-engine.js';

const HOUR = 3_600_000_000;
const DEF: ExchangeDefinition = {
  currencies: [{ code: 'BTC', scale: 8 }, { code: 'USDT', scale: 8 }],
  markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6, fee: '0.2' }],
  users: [{ uid: 1 }, { uid: 2 }],
  unified: {
    currencies: {
      BTC: { index_price: '50000', hourly_rate: '0.0001', min_borrow: '0.0001', discount_tiers: [{ upper_limit: '100000', discount: '0.9' }, { discount: '0.5' }] },
      USDT: { hourly_rate: '0.00002', min_borrow: '1', max_borrow: '200000' },
    },
  },
};

function setup(): { engine: InlineEngine; clock: SimClock; run: (f: (c: Command) => void) => ResultCode } {
  const clock = new SimClock(Date.UTC(2026, 0, 1) * 1000);
  const engine = new InlineEngine(DEF, { clock });
  const cmd = new Command();
  const run = (f: (c: Command) => void): ResultCode => { cmd.clear(); f(cmd); return engine.submit(cmd); };
  const credit = (uid: number, kind: number, cur: number, amount: number): void => {
    expect(run((c) => { c.type = CommandType.Credit; c.uid = uid; c.kind = kind; c.currency = cur; c.amount = amount; })).toBe(ResultCode.Ok);
  };
  credit(0, AccountKind.Unified, 0, 10 * 1e8);
  credit(0, AccountKind.Unified, 1, 1_000_000 * 1e8);
  credit(1, AccountKind.Spot, 0, 1e8);
  credit(1, AccountKind.Spot, 1, 10_000 * 1e8);
  credit(2, AccountKind.Spot, 1, 1000 * 1e8);
  return { engine, clock, run };
}

const borrow = (uid: number, cur: number, amount: number) => (c: Command): void => {
  c.type = CommandType.UnifiedBorrow; c.uid = uid; c.currency = cur; c.amount = amount; c.side = LoanKind.Manual;
};
const repay = (uid: number, cur: number, amount: number) => (c: Command): void => {
  c.type = CommandType.UnifiedRepay; c.uid = uid; c.currency = cur; c.amount = amount; c.side = LoanKind.Manual;
};
const setMode = (uid: number, mode: number, settings = 0) => (c: Command): void => {
  c.type = CommandType.UnifiedSetMode; c.uid = uid; c.side = mode; c.price = settings;
};
const accrue = (c: Command): void => { c.type = CommandType.UnifiedAccrue; };

describe('unified commands', () => {
  it('borrow, repay and interest conserve every currency and account for the pool', () => {
    const { engine, clock, run } = setup();
    const ex = engine.exchange;
    const L = ex.ledger;
    for (const uid of [1, 2]) expect(run(setMode(uid, UnifiedMode.MultiCurrency, UnifiedSetting.UsdtFutures))).toBe(ResultCode.Ok);
    const pool0 = [L.poolAvailable(0), L.poolAvailable(1)];
    const rng = new Prng(11);
    const accepted = new Map<number, number>();
    for (let step = 0; step < 600; step++) {
      const uid = 1 + rng.nextInt(2);
      const cur = rng.nextInt(2);
      const amount = cur === 0 ? rng.between(1, 5_000_000) : rng.between(1, 5_000) * 1e8;
      const k = rng.nextInt(10);
      if (k < 1) clock.advanceBy(rng.nextInt(3) * HOUR + rng.nextInt(HOUR));
      const before = engine.stateHash();
      const code = k < 5 ? run(borrow(uid, cur, amount)) : k < 8 ? run(repay(uid, cur, rng.chance(0.3) ? 0 : amount)) : run(accrue);
      accepted.set(code, (accepted.get(code) ?? 0) + 1);
      if (code !== ResultCode.Ok) expect(engine.stateHash(), `step ${step} code ${code}`).toBe(before);
      ex.assertInvariants();
      for (const c of [0, 1]) {
        let lent = 0n; let unpaid = 0n;
        for (const l of L.openLoans()) if (l.cur === c) { lent += l.borrowed; unpaid += l.interest; }
        const charged = ex.unified.interest.filter((r) => r.cur === c).reduce((s, r) => s + r.interest, 0n);
        expect(L.poolAvailable(c) + lent, `step ${step} cur ${c}`).toBe(pool0[c]! + charged - unpaid);
      }
    }
    expect(accepted.get(ResultCode.Ok)).toBeGreaterThan(100);
    expect(accepted.get(ResultCode.RepayTooMuch) ?? 0).toBeGreaterThan(0);
    expect(ex.unified.interest.length).toBeGreaterThan(0);
  });

  it('charges whole hours in the clock\'s time, from the balance first', () => {
    const { engine, clock, run } = setup();
    const L = engine.exchange.ledger;
    expect(run(setMode(2, UnifiedMode.MultiCurrency))).toBe(ResultCode.Ok);
    expect(run(borrow(2, 1, 1000 * 1e8))).toBe(ResultCode.Ok);
    expect(run(accrue)).toBe(ResultCode.Ok);
    expect(engine.exchange.unified.interest).toHaveLength(0);
    clock.advanceBy(3 * HOUR);
    expect(run(accrue)).toBe(ResultCode.Ok);
    const r = engine.exchange.unified.interest[0]!;
    expect(r.interest).toBe(3n * 2_000_000n); // 1000 USDT × 0.00002 = 0.02 USDT per hour
    expect(r.paid).toBe(true);
    expect(BigInt(L.balance(2, AccountKind.Spot, 0, 'USDT')!.available)).toBe(BigInt(2000 * 1e8 - 6_000_000));
    expect(run(repay(2, 1, 0))).toBe(ResultCode.Ok);
    expect(L.loanOf(2, 1)).toEqual([0n, 0n]);
  });

  it('rejects borrowing outside the limits with the documented codes', () => {
    const { engine, run } = setup();
    expect(run(borrow(1, 1, 100 * 1e8))).toBe(ResultCode.BorrowNotAllowed);
    expect(run(setMode(1, UnifiedMode.MultiCurrency))).toBe(ResultCode.Ok);
    expect(run(borrow(1, 1, 1e7))).toBe(ResultCode.AmountTooLittle);
    expect(run(borrow(1, 1, 300_000 * 1e8))).toBe(ResultCode.BorrowTooLarge);
    expect(run(borrow(1, 0, 11 * 1e8))).toBe(ResultCode.BorrowTooLarge);
    // Collateral: 1 BTC at 50,000 × 0.9 + 10,000 USDT = 55,000 USD; imr 0.2 carries 275,000 USD of debt.
    expect(run(borrow(1, 0, 6 * 1e8))).toBe(ResultCode.MarginNotEnough);
    expect(run(borrow(1, 0, 5 * 1e8))).toBe(ResultCode.Ok);
    expect(run(repay(1, 1, 1))).toBe(ResultCode.RepayTooMuch);
    expect(run(borrow(9, 1, 1e8))).toBe(ResultCode.UserNotFound);
    engine.exchange.assertInvariants();
  });

  it('keeps borrowed funds from leaving the margin that carries them', () => {
    const { engine, run } = setup();
    expect(run(setMode(2, UnifiedMode.MultiCurrency))).toBe(ResultCode.Ok);
    // 1,000 USDT of margin at imr 0.2 carries 5,000 USDT of debt; then nothing is transferable.
    expect(run(borrow(2, 1, 5000 * 1e8 + 1))).toBe(ResultCode.MarginNotEnough);
    expect(run(borrow(2, 1, 5000 * 1e8))).toBe(ResultCode.Ok);
    const out = (type: number) => (c: Command): void => {
      c.type = type; c.uid = 2; c.kind = AccountKind.Spot; c.currency = 1; c.amount = 1e8; c.toUid = 2; c.toKind = AccountKind.Futures; c.toSub = 1;
    };
    expect(run(out(CommandType.Transfer))).toBe(ResultCode.BalanceNotEnough);
    expect(run(out(CommandType.Debit))).toBe(ResultCode.BalanceNotEnough);
    expect(run((c) => { c.type = CommandType.WithdrawHold; c.uid = 2; c.orderId = 7; c.currency = 1; c.amount = 1e8; })).toBe(ResultCode.BalanceNotEnough);
    expect(run(repay(2, 1, 0))).toBe(ResultCode.Ok);
    expect(run(out(CommandType.Transfer))).toBe(ResultCode.Ok);
    engine.exchange.assertInvariants();
  });

  it('refuses mode switches with liabilities or open orders, and turning off multi_currency settings', () => {
    const { engine, run } = setup();
    expect(run(setMode(1, UnifiedMode.MultiCurrency, UnifiedSetting.UsdtFutures | UnifiedSetting.Options))).toBe(ResultCode.Ok);
    expect(run(setMode(1, UnifiedMode.MultiCurrency, UnifiedSetting.Options))).toBe(ResultCode.InvalidParam);
    expect(run(setMode(1, UnifiedMode.MultiCurrency, 15))).toBe(ResultCode.Ok);
    expect(engine.exchange.unified.settingsOf(1)).toBe(UnifiedSetting.UsdtFutures | UnifiedSetting.Options | UnifiedSetting.UseFunding);
    expect(run(borrow(1, 1, 10 * 1e8))).toBe(ResultCode.Ok);
    expect(run(setMode(1, UnifiedMode.Classic))).toBe(ResultCode.UserLiab);
    expect(run(setMode(1, UnifiedMode.SingleCurrency))).toBe(ResultCode.UserLiab);
    expect(run(setMode(1, UnifiedMode.Portfolio, UnifiedSetting.SpotHedge))).toBe(ResultCode.Ok);
    expect(run(repay(1, 1, 0))).toBe(ResultCode.Ok);
    expect(run((c) => {
      c.type = CommandType.PlaceOrder; c.uid = 1; c.market = 0; c.side = Side.Sell; c.orderType = OrderType.Limit;
      c.tif = TimeInForce.Gtc; c.price = 6_000_000; c.amount = 1000;
    })).toBe(ResultCode.Ok);
    expect(run(setMode(1, UnifiedMode.Classic))).toBe(ResultCode.UserPendingOrders);
    expect(run(setMode(1, 4))).toBe(ResultCode.InvalidParam);
    expect(engine.exchange.unified.modeOf(1)).toBe(UnifiedMode.Portfolio);
  });
});
