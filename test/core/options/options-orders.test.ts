// Options orders and expiry on the inline engine, with exact figures: the buyer pays the premium and its fee,
// the seller sets aside max(15 % × index − OTM, 10 % × index) × multiplier per contract plus the premium
// received, and at expiry an in-the-money position settles against the settlement price while an
// out-of-the-money one expires worthless. Each step leaves the ledger and options invariants intact.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { TimeInForce } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { E1, E2, optionName, OptionsDriver, optionsDefinition, T0 } from './options-driver.js';

const U = 100_000_000n; // USDT units (scale 8)
const CALL = optionName(E1, '100000', true);
const PUT = optionName(E1, '90000', false);

function setUp(): OptionsDriver {
  const d = new OptionsDriver();
  for (const uid of [1, 2]) expect(d.fund(uid, '100000')).toBe(ResultCode.Ok);
  expect(d.index(1_000_000)).toBe(ResultCode.Ok); // 100000.0
  return d;
}

describe('the settlement price', () => {
  it('is the mean index of the window before expiry, rounded half up to the tick', () => {
    const clock = new SimClock(T0);
    const d = new OptionsDriver(undefined, clock);
    d.fund(1, '100000');
    d.fund(2, '100000');
    d.index(1_000_000);
    d.order(2, CALL, -10, 20_000);
    d.order(1, CALL, 10, 20_000);
    const at = (s: number, ticks: number): void => { clock.advanceTo((E1 + s) * 1e6); expect(d.index(ticks)).toBe(ResultCode.Ok); };
    at(-1801, 2_000_000); // before the window [E − 1800, E): the last index, not a sample
    at(-1800, 1_000_000);
    at(-900, 1_100_000);
    at(-1, 1_200_002); // mean 3_300_002 / 3 = 1_100_000.67 → 1_100_001
    at(0, 9_000_000); // at expiry: neither
    const slot = d.ex.options.expirySlot(0, E1);
    expect([d.ex.options.settleSamples[slot], d.ex.options.lastIndex[slot]]).toEqual([3, 1_200_002]);
    expect(d.settle(E1, 5)).toBe(ResultCode.Ok);
    const ci = d.ex.options.contractIndex(CALL);
    expect(d.ex.options.settled[ci]).toBe(1_100_001);
    // 10 × 0.01 × (110000.1 − 100000) = 1000.01 to the long
    expect(d.ex.options.userSettlements.at(-2)).toMatchObject({ uid: 2, profit: String(-100_001_000_000n) });
    // The second expiration's window has not begun: its last index is the newest.
    expect(d.ex.options.lastIndex[d.ex.options.expirySlot(0, E2)]).toBe(9_000_000);
  });

  it('falls back to the last index before expiry when the clock jumped over the window', () => {
    const clock = new SimClock(T0);
    const d = new OptionsDriver(undefined, clock);
    d.index(1_234_567);
    clock.advanceTo((E1 + 3600) * 1e6);
    d.index(2_000_000); // after expiry: not this expiration's
    expect(d.settle(E1, 2_000_000)).toBe(ResultCode.Ok);
    expect(d.ex.options.settled[d.ex.options.contractIndex(CALL)]).toBe(1_234_567);
  });

  it('takes the window from settle_price_duration', () => {
    const def = optionsDefinition();
    const u = def.options!.underlyings[0]!;
    const clock = new SimClock(T0);
    const d = new OptionsDriver({ ...def, options: { underlyings: [{ ...u, settle_price_duration: 60 }] } }, clock);
    clock.advanceTo((E1 - 61) * 1e6);
    d.index(1_000_000); // outside a 60 s window
    clock.advanceTo((E1 - 60) * 1e6);
    d.index(1_000_010);
    clock.advanceTo(E1 * 1e6);
    expect(d.settle(E1, 7)).toBe(ResultCode.Ok);
    expect(d.ex.options.settled[d.ex.options.contractIndex(CALL)]).toBe(1_000_010);
    expect(() => new OptionsDriver({ ...def, options: { underlyings: [{ ...u, settle_price_duration: 86_401 }] } })).toThrow(/settle_price_duration/);
  });
});

describe('options orders', () => {
  it('holds the seller margin, pays the premium and fees at a fill', () => {
    const d = setUp();
    expect(d.order(2, CALL, -10, 20_000)).toBe(ResultCode.Ok); // sell 10 at 2000.0
    // max(0.15 × 100000 − 0, 0.1 × 100000) × 0.01 × 10 = 1500
    expect(d.account(2)).toEqual([98_500n * U, 100_000n * U]);
    expect(d.order(1, CALL, 10, 20_000)).toBe(ResultCode.Ok);
    // premium 10 × 0.01 × 2000 = 200; fee min(0.0003 × 10 × 0.01 × 100000, 12.5 % × 200) = 3 each side
    expect(d.account(1)).toEqual([99_797n * U, 99_797n * U]);
    expect(d.account(2)).toEqual([98_497n * U, 100_197n * U]); // 1500 margin + 200 premium held
    expect(d.position(1, CALL)).toMatchObject({ size: 10, cost: 200n * U, pnl: -3n * U });
    expect(d.position(2, CALL)).toMatchObject({ size: -10, cost: -200n * U, pnl: -3n * U });
    d.ex.assertInvariants();
  });

  it('settles in-the-money positions at the settlement price and lets others expire', () => {
    const d = new OptionsDriver(undefined, new SimClock(T0));
    for (const uid of [1, 2]) d.fund(uid, '100000');
    d.index(1_000_000);
    d.order(2, CALL, -10, 20_000);
    d.order(1, CALL, 10, 20_000);
    d.order(2, PUT, -5, 1_000); // put 90000 at 100.0
    d.order(1, PUT, 5, 1_000);
    expect(d.settle(E1, 1_050_000)).toBe(ResultCode.NothingDue); // not yet expired
    (d.clock as SimClock).advanceTo((E1 - 60) * 1e6);
    d.index(1_050_000); // within the 30-minute window: the only sample, so the settlement price
    (d.clock as SimClock).advanceTo(E1 * 1e6);
    d.order(1, CALL, 1, 10_000); // refused: expired
    expect(d.ex.orders.openCount).toBe(0);
    expect(d.settle(E1, 1)).toBe(ResultCode.Ok); // 105000.0 (the command's price is only the last fallback)
    // call: 10 × 0.01 × (105000 − 100000) = 500 from the seller to the buyer; the put expires worthless
    // put 90000: premium 5 × 0.01 × 100 = 5, fee min(0.0003 × 5 × 0.01 × 100000, 12.5 % × 5) = 0.625 each side
    expect(d.account(1)).toEqual([100_291_375n * U / 1000n, 100_291_375n * U / 1000n]);
    expect(d.account(2)).toEqual([99_701_375n * U / 1000n, 99_701_375n * U / 1000n]);
    expect(d.position(1, CALL)).toMatchObject({ size: 0, cost: 0n, pnl: 297n * U });
    expect(d.position(2, CALL)).toMatchObject({ size: 0, cost: 0n, pnl: -303n * U });
    expect(d.ex.options.settlements.length).toBe(6);
    expect(d.settle(E1, 1_050_000)).toBe(ResultCode.NothingDue);
    d.ex.assertInvariants();
  });

  it('refuses what it cannot do and changes nothing', () => {
    const d = setUp();
    const hash = d.engine.stateHash();
    expect(d.order(3, CALL, 1, 10_000)).toBe(ResultCode.UserNotFound); // no options account
    expect(d.order(1, CALL, 1, 0)).toBe(ResultCode.InvalidParam); // no price
    expect(d.order(1, CALL, 0, 10_000)).toBe(ResultCode.SizeTooSmall);
    expect(d.order(1, CALL, 1_000_000, 10_000)).toBe(ResultCode.SizeTooLarge);
    expect(d.order(1, CALL, 100_000, 10_000_000)).toBe(ResultCode.InsufficientAvailable);
    expect(d.order(1, CALL, -1, 10_000, { flags: 1 })).toBe(ResultCode.ReduceExceeded);
    expect(d.order(1, CALL, 0, 10_000, { flags: 2 })).toBe(ResultCode.PositionEmpty);
    expect(d.cancel(1, CALL, 999)).toBe(ResultCode.OrderNotFound);
    expect(d.engine.stateHash()).toBe(hash);
  });

  it('closes a short: buying back releases its margin in proportion', () => {
    const d = setUp();
    d.order(2, CALL, -10, 20_000);
    d.order(1, CALL, 10, 20_000);
    d.order(1, CALL, -4, 30_000); // long sells 4 at 3000.0
    d.order(2, CALL, 4, 30_000); // short buys 4 back
    expect(d.position(2, CALL)!.size).toBe(-6);
    // Held: (1500 + 200) × 6 / 10 = 1020
    const [avail, total] = d.account(2);
    expect(total - avail).toBe(1020n * U);
    d.ex.assertInvariants();
  });

  it('covers a seller who cannot pay at expiry from the options insurance fund, then pays longs what the pool holds', () => {
    const d = new OptionsDriver(undefined, new SimClock(T0));
    d.fund(1, '100000');
    d.fund(2, '1503'); // exactly the initial margin 1500 and the fee 3
    expect(d.fundInsurance('1000')).toBe(ResultCode.Ok);
    d.index(1_000_000);
    expect(d.order(2, CALL, -10, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL, 10, 20_000)).toBe(ResultCode.Ok);
    expect(d.account(2)).toEqual([0n, 1700n * U]); // all of it margin: 1500 + the 200 premium
    const cur = d.ex.currencyIndex('USDT');
    expect(BigInt(d.ex.ledger.conservation()[cur]!.feeAccount)).toBe(6n * U);
    (d.clock as SimClock).advanceTo((E1 - 1) * 1e6);
    d.index(1_500_000);
    (d.clock as SimClock).advanceTo(E1 * 1e6);
    expect(d.settle(E1, 1_500_000)).toBe(ResultCode.Ok); // 150000: the short owes 10 × 0.01 × 50000 = 5000
    expect(d.account(2)).toEqual([0n, 0n]);
    // The pool: the seller's 1700 and the fund's 1000; the long receives 2700 of the 5000 it was owed.
    expect(d.account(1)).toEqual([(100_000n - 203n + 2700n) * U, (100_000n - 203n + 2700n) * U]);
    const c = d.ex.ledger.conservation()[cur]!;
    expect(BigInt(c.feeAccount)).toBe(6n * U); // fees stay the platform's
    expect(d.ex.ledger.options.insuranceFund(cur)).toBe(0n);
    expect(c.clearing).toBe(0n);
    expect(d.ex.options.insurance.at(-1)).toMatchObject({ cur, balance: '0' });
    d.ex.assertInvariants();
  });

  it('takes market orders as limits at the bound no premium can pass, and returns what they did not use', () => {
    const d = setUp();
    expect(d.order(2, CALL, -3, 20_000)).toBe(ResultCode.Ok);
    expect(d.marketOrder(1, CALL, 5)).toBe(ResultCode.Ok); // ioc
    // 3 filled at 2000: premium 60, fee min(0.0003 × 3 × 0.01 × 100000, 12.5 % × 60) = 0.9; the rest released
    expect(d.account(1)).toEqual([99_939_100_000n * U / 1_000_000n, 99_939_100_000n * U / 1_000_000n]);
    const O = d.ex.orders;
    const r = O.find(d.ex.lastOrderId);
    expect([O.price[r], O.type[r], O.left[r], O.filledLots[r]]).toEqual([0, 2, 2, 3]);
    // A market buy holds the premium at the bound (the index for a call: 100000 × 0.01 × 100000 here) and its fee cap.
    expect(d.marketOrder(1, CALL, 100_000)).toBe(ResultCode.InsufficientAvailable);
    expect(d.marketOrder(1, CALL, 1, TimeInForce.Gtc)).toBe(ResultCode.InvalidParam); // gtc is not for market orders
    expect(d.position(2, CALL)!.size).toBe(-3);
    d.ex.assertInvariants();
  });
});
