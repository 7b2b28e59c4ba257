// The `options` config section: relative expirations resolve to 08:00 UTC of the start's day + n (the simulated
// clock's start, or the start given), absolute ones pass as they are, opening options balances are credited to
// the options account; every bad field fails naming itself, before anything starts.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/invariant.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { definitionFromConfig } from '../../src/sim/sim-config.js';

const BASE = {
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
  users: [{ uid: 10001, balances: { options: { USDT: '5000' } } }],
  market_maker: false,
  clock: { type: 'sim', start_ms: Date.UTC(2026, 2, 10, 15) },
  options: { underlyings: [{ name: 'BTC_USDT', multiplier: '0.01', order_price_round: '0.1', strikes: ['90000', '100000'],
    expiration_days: [1, 7], expirations: [1798185600] }], quoter: { uid: 10001, spread: '0.1' } },
};

function withOption(field: string, value: unknown): unknown {
  const c = structuredClone(BASE) as unknown as { options: { underlyings: Record<string, unknown>[] } };
  c.options.underlyings[0]![field] = value;
  return c;
}

describe('options config', () => {
  it('resolves expirations, lists the contracts and credits opening options balances', () => {
    const config = validateConfig(structuredClone(BASE));
    const { definition, balances } = definitionFromConfig(config);
    const day = Date.UTC(2026, 2, 10) / 1000;
    expect(definition.options?.underlyings[0]?.expirations).toEqual([day + 86_400 + 8 * 3600, day + 7 * 86_400 + 8 * 3600, 1798185600]);
    expect(balances).toContainEqual({ uid: 10001, account: 'options', currency: 'USDT', amount: '5000' });
    // Another start (the wall clock's day) resolves to other days.
    const later = definitionFromConfig(config, Date.UTC(2026, 2, 12, 1)).definition.options?.underlyings[0]?.expirations;
    expect(later?.[0]).toBe(Date.UTC(2026, 2, 13, 8) / 1000);
  });

  it('names the bad field', () => {
    const cases: [unknown, RegExp][] = [
      [withOption('multiplier', '0'), /multiplier/],
      [withOption('order_price_round', '0.00000001'), /needs 10|decimals/],
      [withOption('strikes', []), /strikes/],
      [withOption('strikes', ['100000', '100000.0']), /listed twice/],
      [withOption('strikes', ['100000.05']), /multiple of order_price_round/],
      [withOption('expiration_days', [-1]), /expiration_days\[0\]/],
      [withOption('surprise', 1), /surprise/],
      [withOption('volatility', '11'), /volatility/],
      [{ ...structuredClone(BASE), options: { underlyings: [{ name: 'BTC_USDT', multiplier: '0.01', order_price_round: '0.1', strikes: ['1'] }] } },
        /needs expirations or expiration_days/],
      [{ ...structuredClone(BASE), options: { ...structuredClone(BASE.options), quoter: { uid: 10001, spread: '2' } } }, /quoter.spread/],
      [{ ...structuredClone(BASE), options: { underlyings: [{ ...structuredClone(BASE.options.underlyings[0]), name: 'BTC_EUR' }] } }, /EUR/],
    ];
    for (const [config, message] of cases) {
      expect(() => validateConfig(config), String(message)).toThrow(ConfigError);
      expect(() => validateConfig(config), String(message)).toThrow(message);
    }
  });
});
