// The `futures.clock` config section: defaults, overrides, the off switch, and each bad value refused with its path.
import { describe, expect, it } from 'vitest';
import { FUTURES_SERVICE_DEFAULTS } from '../../src/engine/futures/futures-services.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { futuresServiceOptions } from '../../src/sim/futures-config.js';
import { blocks } from '../support/markdown.js';

const base = (clock?: unknown): unknown => ({
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
  futures: {
    contracts: [{ name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1' }],
    ...(clock === undefined ? {} : { clock }),
  },
});

describe('futures.clock config', () => {
  it('defaults every field, reads each one, and switches the services off', () => {
    const d = futuresServiceOptions(validateConfig(base()).futures);
    expect(d).toMatchObject({ markBasisCap: FUTURES_SERVICE_DEFAULTS.markBasisCap });
    expect(d?.priceIntervalMs).toBeUndefined(); // the services' default (1000)
    const o = futuresServiceOptions(validateConfig(base({
      price_interval_ms: 250, mark_ema_samples: 10, mark_basis_cap: '0.01', liquidation_interval_ms: 500, liquidations_per_pass: 50,
    })).futures);
    expect(o).toEqual({ priceIntervalMs: 250, markEmaSamples: 10, markBasisCap: 1_000_000n, liquidationIntervalMs: 500, liquidationsPerPass: 50 });
    expect(futuresServiceOptions(validateConfig(base({ enabled: false })).futures)).toBeUndefined();
    expect(futuresServiceOptions(undefined)).toBeUndefined();
  });

  it("docs/futures.md's example config validates and states the defaults", () => {
    const example = blocks('docs/futures.md').find((b) => b.lang === 'json' && b.code.includes('"clock"'))!;
    const config = validateConfig(JSON.parse(example.code));
    const o = futuresServiceOptions(config.futures)!;
    expect(o).toEqual({ priceIntervalMs: FUTURES_SERVICE_DEFAULTS.priceIntervalMs, markEmaSamples: FUTURES_SERVICE_DEFAULTS.markEmaSamples,
      markBasisCap: FUTURES_SERVICE_DEFAULTS.markBasisCap, basisIntervalMs: FUTURES_SERVICE_DEFAULTS.basisIntervalMs,
      liquidationIntervalMs: FUTURES_SERVICE_DEFAULTS.liquidationIntervalMs, liquidationsPerPass: FUTURES_SERVICE_DEFAULTS.liquidationsPerPass });
  });

  it.each([
    [{ price_interval_ms: 0 }, 'futures.clock.price_interval_ms'],
    [{ mark_ema_samples: 1.5 }, 'futures.clock.mark_ema_samples'],
    [{ basis_interval_ms: 0 }, 'futures.clock.basis_interval_ms'],
    [{ mark_basis_cap: '2' }, 'futures.clock.mark_basis_cap'],
    [{ mark_basis_cap: 0.01 }, 'futures.clock.mark_basis_cap'],
    [{ liquidations_per_pass: -1 }, 'futures.clock.liquidations_per_pass'],
    [{ enabled: 'yes' }, 'futures.clock.enabled'],
    [{ speed: 1 }, 'futures.clock.speed'],
    ['fast', 'futures.clock'],
  ])('refuses %j', (clock, path) => {
    expect(() => validateConfig(base(clock))).toThrow(`config: ${path}:`);
  });
});
