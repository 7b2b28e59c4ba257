// A market order's opening checks (liquidation at once, the liquidation price) are judged at the mark, as Gate
// does; its slippage bound only limits how far it may fill. Judged at the bound, a 100x market buy would always
// look liquidatable at once and be refused, where Gate accepts it.
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver } from '../../support/futures-driver.js';

const MARK = 2_000_000; // 20000.00 in 0.01 ticks

describe('futures market orders at high leverage', () => {
  it('a 100x market buy is accepted and fills against the book', () => {
    const d = new FuturesDriver();
    expect(d.fund(1, 'USDT', '1000')).toBe(ResultCode.Ok);
    expect(d.fund(2, 'USDT', '100000')).toBe(ResultCode.Ok);
    expect(d.prices('BTC_USDT', MARK, MARK)).toBe(ResultCode.Ok);
    expect(d.leverage(1, 'BTC_USDT', 100)).toBe(ResultCode.Ok);
    expect(d.order(2, 'BTC_USDT', -100, MARK)).toBe(ResultCode.Ok);
    // 100 contracts × 0.0001 BTC × 20000 = 200 USDT of value: 2 USDT of margin at 100x.
    expect(d.order(1, 'BTC_USDT', 100, 0)).toBe(ResultCode.Ok);
    expect(d.size(1, 'BTC_USDT')).toBe(100);
    d.ex.assertInvariants();
  });

  it('a limit order priced where the position would be liquidatable at the mark is still refused', () => {
    const d = new FuturesDriver();
    expect(d.fund(1, 'USDT', '1000')).toBe(ResultCode.Ok);
    expect(d.prices('BTC_USDT', MARK, MARK)).toBe(ResultCode.Ok);
    expect(d.leverage(1, 'BTC_USDT', 100)).toBe(ResultCode.Ok);
    // A buy at 21000 (5 % above the mark) at 100x: underwater by 5 % of its value against 1 % of margin.
    expect(d.order(1, 'BTC_USDT', 100, 2_100_000)).toBe(ResultCode.LiquidateImmediately);
  });
});
