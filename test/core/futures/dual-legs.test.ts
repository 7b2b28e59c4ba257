// Dual (hedge) mode legs never change sign. A reduce-only order may outlive its leg (the core leaves cutting it
// to the edge: a CancelOrder with tif ReduceOut or PositionClosed); when it fills, what it cannot reduce opens the
// other leg — whether this fill emptied the leg or the leg was already empty.
import { describe, expect, it } from 'vitest';
import { FuturesFlag } from '../../../src/core/futures/futures-orders.js';
import { PositionSlot, positionHoldKey } from '../../../src/core/futures/position-store.js';
import { TimeInForce } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver } from '../../support/futures-driver.js';

const C = 'BTC_USDT';

describe('dual-mode legs', () => {
  it('a reduce-only order meeting an already empty long leg opens the short leg, not a negative long', () => {
    const d = new FuturesDriver();
    for (const u of [1, 2, 3]) expect(d.fund(u, 'USDT', '10000')).toBe(ResultCode.Ok);
    expect(d.prices(C, 5_000_000)).toBe(ResultCode.Ok);
    expect(d.dualMode(1, 'USDT', true)).toBe(ResultCode.Ok);
    expect(d.order(2, C, -10, 5_000_000)).toBe(ResultCode.Ok);
    expect(d.order(1, C, 10, 5_000_000, { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    expect(d.size(1, C, PositionSlot.DualLong)).toBe(10);
    // Two reduce-only sells of the whole leg: each alone is allowed.
    expect(d.order(1, C, -10, 5_000_100, { flags: FuturesFlag.ReduceOnly })).toBe(ResultCode.Ok);
    expect(d.order(1, C, -10, 5_000_200, { flags: FuturesFlag.ReduceOnly })).toBe(ResultCode.Ok);
    const before = d.available(1, 'USDT');
    expect(d.order(3, C, 20, 5_000_200, { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    expect(d.size(1, C, PositionSlot.DualLong)).toBe(0);
    expect(d.size(1, C, PositionSlot.DualShort)).toBe(-10);
    // The short leg opened 10 at 50002.00 (value 50.002 USDT) with margin ⌈50.002 / 10⌉ from available.
    const short = d.row(1, C, PositionSlot.DualShort);
    expect(d.ex.ledger.futures.held(positionHoldKey(short))).toBe(500_020_000n);
    expect(d.ex.futures.positions.basis[short]).toBe(5_000_200_000n);
    // Available: + the long leg's margin back (5) + its PnL 10 × 0.0001 × 1 + the two maker rebates
    // (0.0001 × 50.001 and × 50.002) − the short leg's margin.
    expect(d.available(1, 'USDT') - before).toBe(500_000_000n + 100_000n + 500_010n + 500_020n - 500_020_000n);
    d.ex.assertInvariants();
  });
});
