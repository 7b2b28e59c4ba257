// The config file's `unified` section: valid sections pass, every bad field is named by its path, limits that
// need a currency's decimals are checked when the exchange is built, and `lendable` funds the lending pool.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/invariant.js';
import { resolveUnifiedParams } from '../../src/core/unified/unified-params.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { definitionFromConfig } from '../../src/sim/sim-config.js';

const PAIRS = [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6 }];
const config = (unified: unknown): unknown => ({ currency_pairs: PAIRS, unified });
const expectField = (unified: unknown, path: string): void => {
  expect(() => validateConfig(config(unified))).toThrow(new RegExp(`config: ${path.replace(/[[\].]/g, '\\$&')}:`));
};

describe('unified config', () => {
  it('accepts a full section and funds the pool from lendable', () => {
    const u = {
      initial_margin_rate: '0.25', maintenance_margin_rate: '0.1',
      currencies: { BTC: { index_price: '60000.5', hourly_rate: '0.00001', min_borrow: '0.001', max_borrow: '10', lendable: '100',
        discount_tiers: [{ upper_limit: '1000000', discount: '0.95' }, { discount: '0.8' }] }, USDT: { lendable: '0' } },
    };
    const v = validateConfig(config(u));
    const { definition, balances } = definitionFromConfig(v);
    expect(definition.unified).toEqual(u);
    expect(balances).toEqual([{ uid: 0, account: 'unified', currency: 'BTC', amount: '100' }]);
  });

  it('names each bad field', () => {
    expectField([], 'unified');
    expectField({ leverage: 3 }, 'unified.leverage');
    expectField({ initial_margin_rate: '1.5' }, 'unified.initial_margin_rate');
    expectField({ currencies: { XRP: {} } }, 'unified.currencies.XRP');
    expectField({ currencies: { BTC: { hourly_rate: 0.1 } } }, 'unified.currencies.BTC.hourly_rate');
    expectField({ currencies: { BTC: { apr: '1' } } }, 'unified.currencies.BTC.apr');
    expectField({ currencies: { BTC: { discount_tiers: [] } } }, 'unified.currencies.BTC.discount_tiers');
    expectField({ currencies: { BTC: { discount_tiers: [{ upper_limit: '5' }] } } }, 'unified.currencies.BTC.discount_tiers[0].discount');
    expectField({ currencies: { BTC: { discount_tiers: [{ discount: '2' }] } } }, 'unified.currencies.BTC.discount_tiers[0].discount');
  });

  it('checks what needs the currencies when the parameters are resolved', () => {
    const scales = new Map([['BTC', 8], ['USDT', 6]]);
    const bad = (def: Parameters<typeof resolveUnifiedParams>[0], field: string): void => {
      expect(() => resolveUnifiedParams(def, scales)).toThrow(ConfigError);
      expect(() => resolveUnifiedParams(def, scales)).toThrow(field);
    };
    bad({ currencies: { USDT: { min_borrow: '0.0000001' } } }, 'unified.currencies.USDT.min_borrow');
    bad({ currencies: { BTC: { discount_tiers: [{ discount: '1' }, { upper_limit: '5', discount: '1' }] } } }, 'unified.currencies.BTC.discount_tiers[0].upper_limit');
    bad({ currencies: { BTC: { discount_tiers: [{ upper_limit: '5', discount: '1' }, { upper_limit: '5', discount: '1' }] } } }, 'discount_tiers[1].upper_limit');
    bad({ initial_margin_rate: '0.1', maintenance_margin_rate: '0.2' }, 'unified.maintenance_margin_rate');
    bad({ currencies: { BTC: { index_price: '0' } } }, 'unified.currencies.BTC.index_price');
    bad({ currencies: { ETH: {} } }, 'unified.currencies.ETH');
    const p = resolveUnifiedParams(undefined, scales);
    expect(p.imrPpm).toBe(200_000n);
    expect(p.currencies.get('USDT')!.indexPrice).toEqual({ num: 1n, scale: 0 });
    expect(p.currencies.get('BTC')!.indexPrice).toBeUndefined();
    expect(p.currencies.get('BTC')!.hourlyRate).toBe(10_000_000n);
  });
});
