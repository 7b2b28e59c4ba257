// Leverage bounds of a contract: below `leverage_min` (isolated, or as a cross limit) is LEVERAGE_TOO_LOW, above
// the risk-limit tier's maximum LEVERAGE_TOO_HIGH; a refusal changes nothing (state hash).
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver, futuresDefinition, LINEAR } from '../../support/futures-driver.js';

describe('futures leverage bounds', () => {
  it('refuses leverage outside [leverage_min, tier maximum] and changes nothing', () => {
    const def = futuresDefinition();
    const d = new FuturesDriver({ ...def, futures: { contracts: [{ ...LINEAR, leverage_min: '2', leverage_max: '50' }] } });
    expect(d.fund(1, 'USDT', '1000')).toBe(ResultCode.Ok);
    const hash = d.engine.stateHash();
    expect(d.leverage(1, 'BTC_USDT', 1)).toBe(ResultCode.LeverageTooLow);
    expect(d.leverage(1, 'BTC_USDT', 0, 1)).toBe(ResultCode.LeverageTooLow);
    expect(d.leverage(1, 'BTC_USDT', 51)).toBe(ResultCode.LeverageTooHigh);
    expect(d.leverage(1, 'BTC_USDT', 0, 51)).toBe(ResultCode.LeverageTooHigh);
    expect(d.engine.stateHash()).toBe(hash);
    expect(d.leverage(1, 'BTC_USDT', 2)).toBe(ResultCode.Ok);
    expect(d.leverage(1, 'BTC_USDT', 0, 2)).toBe(ResultCode.Ok);
  });
});
