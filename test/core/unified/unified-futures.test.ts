// Seed 4.6: a unified account in multi_currency (usdt_futures on) or portfolio mode margins its USDT futures
// from its unified USDT. Switching in moves the futures account's USDT over; positions then hold margin on the
// unified balance, their unrealised PnL is part of the USDT equity and their margins enter the account's
// initial and maintenance margins; a switch with a USDT position or futures order open is refused and changes
// nothing; BTC-settled futures keep their own account. Conservation is checked after every command.
import { describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../../src/core/command.js';
import { crossFigures } from '../../../src/core/futures/account-figures.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { figuresOf, holdingsOf } from '../../../src/core/unified/unified-account.js';
import { UnifiedSetting } from '../../../src/core/unified/unified-state.js';
import { UnifiedMode, usdOf } from '../../../src/core/unified/valuation.js';
import { FuturesDriver, futuresDefinition } from '../../support/futures-driver.js';

const USDT = 1e8; // units per USDT (scale 8)
const PRICE = 2_000_000; // 20000.00 in 0.01 ticks

function setup(): { d: FuturesDriver; usdt: number; btc: number; spot: (uid: number) => { available: bigint; locked: bigint }; mode: (uid: number, m: number, s?: number) => ResultCode } {
  const d = new FuturesDriver(futuresDefinition(4));
  const ex = d.ex;
  const usdt = ex.currencyIndex('USDT');
  const btc = ex.currencyIndex('BTC');
  const submit = d.engine.submit.bind(d.engine);
  d.engine.submit = (c: Command, continues?: boolean): ResultCode => {
    const code = submit(c, continues);
    ex.assertInvariants();
    return code;
  };
  const c = new Command();
  c.type = CommandType.Credit; c.uid = 1; c.kind = AccountKind.Spot; c.currency = usdt; c.amount = 5000 * USDT;
  expect(d.engine.submit(c)).toBe(ResultCode.Ok);
  expect(d.fund(1, 'USDT', '1000')).toBe(ResultCode.Ok);
  expect(d.fund(1, 'BTC', '1')).toBe(ResultCode.Ok);
  expect(d.fund(2, 'USDT', '100000')).toBe(ResultCode.Ok);
  expect(d.prices('BTC_USDT', PRICE, PRICE)).toBe(ResultCode.Ok);
  const spot = (uid: number): { available: bigint; locked: bigint } => {
    const b = ex.ledger.balance(uid, AccountKind.Spot, 0, 'USDT')!;
    return { available: BigInt(b.available), locked: BigInt(b.locked) };
  };
  const mode = (uid: number, m: number, s = 0): ResultCode => {
    const cmd = new Command();
    cmd.type = CommandType.UnifiedSetMode; cmd.uid = uid; cmd.side = m; cmd.price = s;
    return d.engine.submit(cmd);
  };
  return { d, usdt, btc, spot, mode };
}

describe('unified account carrying USDT futures', () => {
  it('switching in moves the futures USDT into the unified balance, which then margins USDT positions', () => {
    const { d, usdt, btc, spot, mode } = setup();
    const L = d.ex.ledger;
    expect(L.futures.onSpot(1, usdt)).toBe(false);
    expect(mode(1, UnifiedMode.MultiCurrency, UnifiedSetting.UsdtFutures)).toBe(ResultCode.Ok);
    expect(L.futures.onSpot(1, usdt)).toBe(true);
    expect(L.futures.onSpot(1, btc)).toBe(false);
    expect(spot(1)).toEqual({ available: 6000n * BigInt(USDT), locked: 0n });
    expect(BigInt(L.balance(1, AccountKind.Futures, usdt, 'USDT')!.available)).toBe(0n);
    expect(d.ex.futures.account(1, usdt).dnw).toBe(0n); // +1000 funded, −1000 moved
    expect(L.futures.available(1, usdt)).toBe(6000n * BigInt(USDT));
    // BTC-settled futures keep their own account.
    expect(L.futures.available(1, btc)).toBe(1n * 10n ** 8n);

    // A long of 1000 contracts (0.1 BTC, 2000 USDT at 20000) against user 2's short.
    expect(d.order(2, 'BTC_USDT', -1000, PRICE)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USDT', 1000, PRICE)).toBe(ResultCode.Ok);
    expect(d.size(1, 'BTC_USDT')).toBe(1000);
    const afterOpen = spot(1);
    const f = crossFigures(d.ex, 1, usdt);
    expect(afterOpen.locked).toBe(f.positionMargin);
    expect(f.positionMargin).toBeGreaterThan(0n);
    expect(afterOpen.available + afterOpen.locked).toBe(L.futures.total(1, usdt));

    // The unified figures see the position: equity moves with the mark, margins add up.
    const before = figuresOf(d.ex, holdingsOf(d.ex, 1));
    expect(before.maintenanceMargin).toBeGreaterThan(0n);
    expect(d.prices('BTC_USDT', PRICE - 100_000, PRICE - 100_000)).toBe(ResultCode.Ok); // mark 19000: −100 USDT
    const holdings = holdingsOf(d.ex, 1);
    const after = figuresOf(d.ex, holdings);
    const eqBefore = before.currencies.get('USDT')!.equity;
    const eqAfter = after.currencies.get('USDT')!.equity;
    expect(eqBefore - eqAfter).toBe(100n * BigInt(USDT));
    const g = crossFigures(d.ex, 1, usdt);
    const usdtHolding = holdings[usdt]!;
    expect(after.maintenanceMargin).toBe(usdOf(g.allMaintenance, 8, usdtHolding.price));
    expect(after.initialMargin).toBe(usdOf(g.allInitial, 8, usdtHolding.price));

    // Closing realises the loss on the unified balance.
    expect(d.order(2, 'BTC_USDT', 1000, PRICE - 100_000)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USDT', -1000, PRICE - 100_000)).toBe(ResultCode.Ok);
    expect(d.size(1, 'BTC_USDT')).toBe(0);
    const closed = spot(1);
    expect(closed.locked).toBe(0n);
    expect(closed.available).toBeLessThan(6000n * BigInt(USDT) - 100n * BigInt(USDT));
    expect(closed.available).toBeGreaterThan(6000n * BigInt(USDT) - 103n * BigInt(USDT)); // the loss plus two taker fees
  });

  it('refuses a switch out with a USDT position or futures order open, and changes nothing', () => {
    const { d, usdt, spot, mode } = setup();
    expect(mode(1, UnifiedMode.Portfolio)).toBe(ResultCode.Ok);
    expect(d.ex.ledger.futures.onSpot(1, usdt)).toBe(true);
    expect(d.order(2, 'BTC_USDT', -10, PRICE)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USDT', 10, PRICE)).toBe(ResultCode.Ok);
    const hash = d.engine.stateHash();
    const held = spot(1);
    expect(mode(1, UnifiedMode.Classic)).toBe(ResultCode.PositionHolding);
    expect(mode(1, UnifiedMode.MultiCurrency, 0)).toBe(ResultCode.PositionHolding);
    expect(d.engine.stateHash()).toBe(hash);
    expect(spot(1)).toEqual(held);
    // Closed, with a resting futures order: refused as pending orders.
    expect(d.order(2, 'BTC_USDT', 10, PRICE)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USDT', -10, PRICE)).toBe(ResultCode.Ok);
    expect(d.size(1, 'BTC_USDT')).toBe(0);
    expect(d.order(1, 'BTC_USDT', 5, PRICE - 50_000)).toBe(ResultCode.Ok);
    expect(mode(1, UnifiedMode.Classic)).toBe(ResultCode.UserPendingOrders);
    expect(d.cancel(1, 'BTC_USDT', d.lastOrderId)).toBe(ResultCode.Ok);
    expect(mode(1, UnifiedMode.Classic)).toBe(ResultCode.Ok);
    expect(d.ex.ledger.futures.onSpot(1, usdt)).toBe(false);
    // Back in classic, futures margin is the (now empty) futures account again.
    expect(d.ex.ledger.futures.available(1, usdt)).toBe(0n);
    expect(d.order(1, 'BTC_USDT', 5, PRICE - 50_000)).not.toBe(ResultCode.Ok);
  });

  it('multi_currency without usdt_futures keeps the futures account apart', () => {
    const { d, usdt, spot, mode } = setup();
    expect(mode(1, UnifiedMode.MultiCurrency, 0)).toBe(ResultCode.Ok);
    expect(d.ex.ledger.futures.onSpot(1, usdt)).toBe(false);
    expect(spot(1).available).toBe(5000n * BigInt(USDT));
    expect(d.ex.ledger.futures.available(1, usdt)).toBe(1000n * BigInt(USDT));
    // Turning it on moves the futures USDT in.
    expect(mode(1, UnifiedMode.MultiCurrency, UnifiedSetting.UsdtFutures)).toBe(ResultCode.Ok);
    expect(spot(1).available).toBe(6000n * BigInt(USDT));
  });
});
