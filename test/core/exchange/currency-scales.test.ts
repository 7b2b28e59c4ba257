// Currency scales derived from the markets (src/core/exchange/currency-scales.ts), one derivation for the
// simulator's config and for replays: every fee exact, the smallest fill's included.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { replayCurrencies } from '../../../src/backtest/replay-currencies.js';
import { currencySpecs, defaultSupply, derivedScales, feeDecimals } from '../../../src/core/exchange/currency-scales.js';
import type { MarketConfig } from '../../../src/core/exchange/exchange-definition.js';
import { DEMO_CONFIG } from '../../../src/sim/demo.js';
import { deriveCurrencies } from '../../../src/sim/sim-config.js';

const MESSAGES = { below: () => 'below', tooMany: () => 'too many' };
const pair = (id: string, precision: number, amount_precision: number, fee: string, maker_fee_rate = fee): MarketConfig => {
  const [base, quote] = id.split('_') as [string, string];
  return { id, base, quote, precision, amount_precision, fee, maker_fee_rate };
};

/** True when `x` has at most `scale` decimals. */
const fits = (x: Big, scale: number): boolean => x.round(scale, Big.roundDown).eq(x);

describe('derived currency scales', () => {
  it('give each currency, over its pairs, the decimals of what it receives plus the fee rate\'s', () => {
    expect(derivedScales([pair('ETH_USDT', 2, 4, '0.2'), pair('ETH_BTC', 5, 4, '0.1', '0.0125'), pair('BTC_USDT', 1, 6, '0')]))
      .toEqual([
        { code: 'ETH', amounts: 4, scale: 10 },      // ETH_BTC: 4 + 6 (0.0125 % = 0.000125)
        { code: 'USDT', amounts: 7, scale: 9 },      // ETH_USDT: 6 + 3; BTC_USDT: 7 + 0
        { code: 'BTC', amounts: 9, scale: 15 },      // quote of ETH_BTC: 9 + 6
      ]);
    expect(derivedScales([pair('BTC_USDT', 8, 8, '0.0001')])).toEqual([
      { code: 'BTC', amounts: 8, scale: 14 }, { code: 'USDT', amounts: 16, scale: 18 }]); // capped at the ledger's 18
  });

  it('make every taker and maker fee of the demo\'s smallest fills exact, so never 0', () => {
    const scales = new Map(deriveCurrencies(DEMO_CONFIG.currency_pairs).map((c) => [c.code, c.scale]));
    expect(Object.fromEntries(scales)).toEqual({ BTC: 12, USDT: 10, ETH: 7 });
    for (const m of DEMO_CONFIG.currency_pairs) {
      const lot = new Big(1).div(10 ** m.amount_precision);
      const tick = new Big(1).div(10 ** m.precision);
      for (const rate of [m.fee!, m.maker_fee_rate!].map((r) => new Big(r).div(100))) {
        // One lot bought (base received), one lot sold at one tick (quote received), and the minimum amounts.
        for (const [received, cur] of [[lot, m.base], [lot.times(tick), m.quote], [new Big(m.min_base_amount!), m.base],
          [new Big(m.min_quote_amount!), m.quote]] as const) {
          const fee = received.times(rate);
          expect(fee.gt(0) && fits(fee, scales.get(cur)!), `${m.id}: ${fee.toFixed()} ${cur}`).toBe(true);
        }
      }
    }
  });

  it('keep an explicit scale (at least what the amounts need) and its max supply; default supplies by size', () => {
    const m = [pair('ETH_USDT', 2, 4, '0.2')];
    expect(currencySpecs(m, [{ code: 'ETH', scale: 4 }, { code: 'SOL', scale: 9, max_supply: '5' }], MESSAGES)).toEqual([
      { code: 'ETH', scale: 4, maxSupply: undefined },
      { code: 'USDT', scale: 9, maxSupply: '1000000000000' },
      { code: 'SOL', scale: 9, maxSupply: '5' },
    ]);
    expect(() => currencySpecs(m, [{ code: 'USDT', scale: 5 }], MESSAGES)).toThrow('below');
    expect(() => currencySpecs([pair('A_B', 10, 9, '0.2')], [], MESSAGES)).toThrow('too many');
    expect(defaultSupply(6)).toBe(String(Math.floor(Number.MAX_SAFE_INTEGER / 1e6)));   // 9,007,199,254: numbers
    expect(defaultSupply(7)).toBe('1000000000000');                                       // 900,719,925 < 10^9: BigInt
  });

  it('are the same for the simulator and for a replay of the same market', () => {
    for (const m of [pair('BTC_USDT', 1, 3, '0.2', '0.1'), pair('ETH_USDT', 2, 4, '0.075'), pair('X_USD', 4, 0, '0')]) {
      expect(deriveCurrencies([m])).toEqual(replayCurrencies(m));
      expect(feeDecimals(m)).toBe(m.fee === '0.075' ? 5 : m.fee === '0' ? 0 : 3);
    }
  });
});
