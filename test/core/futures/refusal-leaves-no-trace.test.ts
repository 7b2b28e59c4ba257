// A futures post-only that would take, or a fill-or-kill that cannot fill, is refused in R2 (ORDER_POC_IMMEDIATE,
// ORDER_FOK) and must leave the state exactly as before — its order id included (found by the HTTP bad-input tests).
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { TimeInForce } from '../../../src/core/matching/order-types.js';
import { FuturesDriver } from '../../support/futures-driver.js';

describe('futures refusals in R2', () => {
  for (const [name, tif, price, code] of [
    ['fill-or-kill', TimeInForce.Fok, 510_000, ResultCode.OrderFok],
    ['post-only', TimeInForce.Poc, 500_000, ResultCode.OrderPocImmediate],
  ] as const) {
    it(`a refused ${name} leaves the state hash and the last order id unchanged`, () => {
      const d = new FuturesDriver();
      d.fund(1, 'USDT', '10000');
      d.fund(2, 'USDT', '10000');
      d.prices('BTC_USDT', 500_000);
      expect(d.order(2, 'BTC_USDT', -1, 500_000)).toBe(ResultCode.Ok);
      if (tif === TimeInForce.Fok) expect(d.cancel(2, 'BTC_USDT', d.lastOrderId)).toBe(ResultCode.Ok);
      const hash = d.engine.stateHash();
      const last = d.lastOrderId;
      expect(d.order(1, 'BTC_USDT', 1, price, { tif })).toBe(code);
      expect(d.lastOrderId).toBe(last);
      expect(d.engine.stateHash()).toBe(hash);
      expect(d.order(1, 'BTC_USDT', 1, 490_000)).toBe(ResultCode.Ok);
      expect(d.lastOrderId).toBe(last + 1);
    });
  }
});

describe('futures rejections in R1', () => {
  it('drop the position row a first order or setting created before its checks', () => {
    const d = new FuturesDriver();
    d.fund(1, 'USDT', '10000');
    d.prices('BTC_USDT', 500_000);
    const hash = d.engine.stateHash();
    expect(d.order(1, 'BTC_USDT', 1, 900_000)).toBe(ResultCode.PriceTooDeviated);
    expect(d.order(1, 'BTC_USDT', 1, 500_005)).toBe(ResultCode.InvalidParam);
    expect(d.leverage(1, 'BTC_USDT', 1000)).toBe(ResultCode.LeverageTooHigh);
    expect(d.riskLimit(1, 'BTC_USDT', 1n)).toBe(ResultCode.RiskLimitTooLow);
    expect(d.row(1, 'BTC_USDT')).toBe(-1);
    expect(d.engine.stateHash()).toBe(hash);
    expect(d.order(1, 'BTC_USDT', 1, 490_000)).toBe(ResultCode.Ok);
    expect(d.row(1, 'BTC_USDT')).toBeGreaterThanOrEqual(0);
  });
});
