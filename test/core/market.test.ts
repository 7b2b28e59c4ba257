// defineMarket validates Gate currency-pair specs and derives exact integer bounds; the parse helpers use them.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/invariant.js';
import { defineMarket, type MarketSpec, parseLots, parsePrice, parseQuoteBudget } from '../../src/core/market.js';
import { ResultCode } from '../../src/core/result-code.js';

const base: MarketSpec = { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4 };
const MAX = Number.MAX_SAFE_INTEGER;

describe('defineMarket', () => {
  it.each(['btc_usdt', 'BTCUSDT', 'BTC-USDT', '', 'BTC_', '_USDT', 'BTC_USDT_X', 'BTC USDT'])('rejects market id %j', (id) => {
    expect(() => defineMarket({ ...base, id })).toThrow(ConfigError);
  });

  it.each([-1, 1.5, 13, Number.NaN, Infinity])('rejects precision %s and amount_precision %s', (p) => {
    expect(() => defineMarket({ ...base, precision: p })).toThrow(ConfigError);
    expect(() => defineMarket({ ...base, amount_precision: p })).toThrow(ConfigError);
  });

  it('accepts precisions 0 and 12', () => {
    expect(defineMarket({ ...base, precision: 0, amount_precision: 12 }).notionalScale).toBe(12);
    expect(defineMarket({ ...base, precision: 12, amount_precision: 0 }).notionalPerQuoteUnit).toBe(1);
  });

  it('rejects bounds that are not positive decimals at the market precision', () => {
    expect(() => defineMarket({ ...base, min_base_amount: '0.00001' })).toThrow(ConfigError);
    expect(() => defineMarket({ ...base, min_quote_amount: 'abc' })).toThrow(ConfigError);
    expect(() => defineMarket({ ...base, max_base_amount: '-1' })).toThrow(ConfigError);
  });

  it('rejects a minimum above its maximum', () => {
    expect(() => defineMarket({ ...base, min_base_amount: '2', max_base_amount: '1' })).toThrow(ConfigError);
    expect(() => defineMarket({ ...base, min_quote_amount: '10', max_quote_amount: '9.99' })).toThrow(ConfigError);
  });

  it('rejects a max_quote_amount whose notional exceeds exact integers', () => {
    // precision 8 + amount_precision 8: a quote unit of 10^-8 is 10^8 notional units; 2^53 / 10^8 ≈ 90071992.5 units.
    const fine = defineMarket({ ...base, precision: 8, amount_precision: 8, max_quote_amount: '0.90071992' });
    expect(fine.maxNotional).toBe(90071992 * 1e8);
    expect(() => defineMarket({ ...base, precision: 8, amount_precision: 8, max_quote_amount: '0.90071993' })).toThrow(ConfigError);
  });

  it('derives units and bounds of a Gate-like market', () => {
    const m = defineMarket({ ...base, min_base_amount: '0.0001', min_quote_amount: '1', max_base_amount: '100', max_quote_amount: '1000000' });
    expect(m).toMatchObject({
      id: 'BTC_USDT', priceScale: 2, amountScale: 4, notionalScale: 6, notionalPerQuoteUnit: 10_000,
      minLots: 1, maxLots: 1_000_000, minNotional: 1_000_000, maxNotional: 1_000_000_000_000,
    });
    expect(m.spec.base).toBe('BTC');
  });

  it('defaults absent or zero bounds to one lot, no minimum notional and the exact range', () => {
    for (const m of [defineMarket(base), defineMarket({ ...base, min_base_amount: '0', max_quote_amount: '0', min_quote_amount: '0' })]) {
      expect(m.minLots).toBe(1);
      expect(m.maxLots).toBe(MAX);
      expect(m.minNotional).toBe(0);
      expect(m.maxNotional).toBe(Math.floor(MAX / 10_000) * 10_000);
      expect(Number.isSafeInteger(m.maxNotional)).toBe(true);
    }
  });
});

describe('parsePrice, parseLots, parseQuoteBudget', () => {
  const m = defineMarket(base);

  it('parses prices into ticks and amounts into lots at the market precisions', () => {
    expect(parsePrice(m, '100.25')).toBe(10_025);
    expect(parsePrice(m, '0.01')).toBe(1);
    expect(parseLots(m, '0.5')).toBe(5_000);
    expect(parseLots(m, '0.0001')).toBe(1);
  });

  it('parses a quote budget into notional units (ticks × lots)', () => {
    expect(parseQuoteBudget(m, '30')).toBe(30 * 100 * 10_000);
    expect(parseQuoteBudget(m, '0.01')).toBe(10_000);
    // One lot at one tick costs exactly one notional unit; the smallest budget buys it.
    expect(parseQuoteBudget(m, '0.01') / (parsePrice(m, '0.01') * parseLots(m, '0.0001'))).toBe(10_000);
  });

  it('passes parse errors through as negative result codes', () => {
    expect(parsePrice(m, '1.001')).toBe(ResultCode.InvalidPrecision);
    expect(parseLots(m, '0.00001')).toBe(ResultCode.InvalidPrecision);
    expect(parseQuoteBudget(m, '1.001')).toBe(ResultCode.InvalidPrecision);
    expect(parsePrice(m, '-1')).toBe(ResultCode.InvalidParam);
    expect(parseLots(m, 'x')).toBe(ResultCode.InvalidParam);
    expect(parseQuoteBudget(m, '0')).toBe(ResultCode.InvalidParam);
  });

  it('answers AmountTooMuch for a budget whose notional is not a safe integer', () => {
    // 2^53 − 1 notional units = 9007199254.740991 USDT; the budget has cent precision.
    expect(parseQuoteBudget(m, '9007199254.74')).toBe(9_007_199_254_740_000);
    expect(parseQuoteBudget(m, '9007199254.75')).toBe(ResultCode.AmountTooMuch);
  });
});
