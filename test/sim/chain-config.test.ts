// The config's `chains` and `low_cap_currencies`: valid ones load (the demo's included), bad fields fail naming
// the field, and resolution into units checks decimals against the currency's scale.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/invariant.js';
import { resolveChains } from '../../src/sim/chains/chain-spec.js';
import { withdrawalFee } from '../../src/sim/chains/records.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { definitionFromConfig } from '../../src/sim/sim-config.js';

const BASE = {
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6 }],
};
const withChains = (chains: unknown, extra: Record<string, unknown> = {}): unknown => ({ ...BASE, chains, ...extra });

describe('chains in the config', () => {
  it('accepts the demo chains and resolves them against the currencies', () => {
    const config = validateConfig(DEMO_CONFIG);
    const { definition } = definitionFromConfig(config);
    const chains = resolveChains(definition.currencies, config.chains);
    expect(chains.get('USDT')!.map((c) => c.chain)).toEqual(['ETH', 'TRX', 'BSC', 'TON']);
    expect(chains.get('USDT')!.find((c) => c.chain === 'TON')!.isTag).toBe(true);
    expect(chains.get('BTC')!.map((c) => c.chain)).toEqual(['BTC']);
  });

  it('fails on unknown or bad fields, naming them', () => {
    const bad: [unknown, string][] = [
      [withChains({ XRP: [{ chain: 'XRP' }] }), 'chains.XRP: unknown currency'],
      [withChains({ USDT: [] }), 'chains.USDT: must be a non-empty array'],
      [withChains({ USDT: [{ chain: 'ETH', colour: 'red' }] }), 'chains.USDT[0].colour: unknown field'],
      [withChains({ USDT: [{ chain: 'eth' }] }), 'chains.USDT[0].chain'],
      [withChains({ USDT: [{ chain: 'ETH' }, { chain: 'ETH' }] }), 'chains.USDT[1].chain: duplicate'],
      [withChains({ USDT: [{ chain: 'ETH', decimals: 19 }] }), 'chains.USDT[0].decimals'],
      [withChains({ USDT: [{ chain: 'ETH', is_tag: 'yes' }] }), 'chains.USDT[0].is_tag'],
      [withChains({ USDT: [{ chain: 'ETH', withdraw_fix: 1 }] }), 'chains.USDT[0].withdraw_fix'],
      [withChains({ USDT: [{ chain: 'ETH', min_confirms: 5, unlock_confirms: 2 }] }), 'chains.USDT[0].unlock_confirms'],
      [withChains({ USDT: [{ chain: 'ETH', withdraw_percent: '100' }] }), 'chains.USDT[0].withdraw_percent'],
      [withChains([]), 'chains: must be an object'],
      [{ ...BASE, low_cap_currencies: ['DOGE'] }, 'low_cap_currencies[0]'],
    ];
    for (const [config, message] of bad) expect(() => validateConfig(config), message).toThrow(message);
  });

  it('refuses decimals or amounts finer than the currency at resolution', () => {
    const currencies = [{ code: 'USDT', scale: 8 }];
    expect(() => resolveChains(currencies, { USDT: [{ chain: 'ETH', decimals: 9 }] })).toThrow(ConfigError);
    expect(() => resolveChains(currencies, { USDT: [{ chain: 'ETH', withdraw_fix: '0.000000001' }] })).toThrow('chains.USDT[0].withdraw_fix');
    const implicit = resolveChains(currencies, undefined).get('USDT')!;
    expect(implicit.map((c) => [c.chain, c.minConfirms, c.blockTimeMs])).toEqual([['USDT', 0, 0]]);
  });

  it('computes the fee as fixed plus percent, rounded up to the chain decimals', () => {
    const [spec] = resolveChains([{ code: 'USDT', scale: 8 }], { USDT: [{ chain: 'ETH', decimals: 2, withdraw_fix: '1', withdraw_percent: '0.1' }] }).get('USDT')!;
    expect(withdrawalFee(spec!, 100_00000000n)).toBe(1_10000000n); // 1 + 0.1
    expect(withdrawalFee(spec!, 1_00000000n)).toBe(1_01000000n); // 0.001 rounds up to 0.01
  });
});
