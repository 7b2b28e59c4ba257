// An order that flips a position while some of the position is already reserved by the user's resting closing
// orders: its opening checks judge one consistent position (the closes fill first, then the opening part),
// on linear and inverse contracts alike. It was refused LIQUIDATE_IMMEDIATELY on the inverse contract,
// judged with the basis of the opening part and the size of the real flip.
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver } from '../../support/futures-driver.js';

const cases = [
  { contract: 'BTC_USD', settle: 'BTC', funds: '10', mark: 5_000_000, above: 5_100_000 },
  { contract: 'BTC_USDT', settle: 'USDT', funds: '100000', mark: 5_000_000, above: 5_100_000 },
];

describe('a flip beside resting closes', () => {
  it.each(cases)('$contract: a sell of 250 against a long of 100 with a resting close of 100 is accepted', ({ contract, settle, funds, mark, above }) => {
    const d = new FuturesDriver();
    expect(d.fund(1, settle, funds)).toBe(ResultCode.Ok);
    expect(d.fund(2, settle, funds)).toBe(ResultCode.Ok);
    expect(d.prices(contract, mark, mark)).toBe(ResultCode.Ok);
    expect(d.leverage(1, contract, 10)).toBe(ResultCode.Ok);
    expect(d.order(2, contract, -100, mark)).toBe(ResultCode.Ok);
    expect(d.order(1, contract, 100, mark)).toBe(ResultCode.Ok);
    expect(d.size(1, contract)).toBe(100);
    expect(d.order(1, contract, -100, above)).toBe(ResultCode.Ok); // resting close, reserves the whole long
    expect(d.order(2, contract, 300, mark)).toBe(ResultCode.Ok); // a bid for the flip to hit
    expect(d.order(1, contract, -250, mark)).toBe(ResultCode.Ok);
    expect(d.size(1, contract)).toBe(-150);
    d.ex.assertInvariants();
  });

  it('a flip whose opening part would be liquidatable at once is still refused', () => {
    const d = new FuturesDriver();
    expect(d.fund(1, 'BTC', '10')).toBe(ResultCode.Ok);
    expect(d.fund(2, 'BTC', '10')).toBe(ResultCode.Ok);
    expect(d.prices('BTC_USD', 5_000_000, 5_000_000)).toBe(ResultCode.Ok);
    expect(d.leverage(1, 'BTC_USD', 50)).toBe(ResultCode.Ok);
    expect(d.order(2, 'BTC_USD', -100, 5_000_000)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USD', 100, 5_000_000)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USD', -100, 5_100_000)).toBe(ResultCode.Ok);
    // A short opened 5 % below the mark at 50x is underwater by 5 % of its value against 2 % of margin.
    expect(d.order(1, 'BTC_USD', -250, 4_750_000)).toBe(ResultCode.LiquidateImmediately);
  });
});
