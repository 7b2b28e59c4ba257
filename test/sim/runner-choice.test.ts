// The runner a config without `engine.runner` (or with "auto") gets: threaded from four cores, inline below;
// an explicit choice stands on any machine. And the config check accepts exactly the three settings.
import { describe, expect, it } from 'vitest';
import { AUTO_THREADED_CORES, resolveRunner } from '../../src/sim/runner-choice.js';
import { validateConfig } from '../../src/sim/config-file.js';

const PAIRS = [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6 }];
const loadConfigText = (extra: object): unknown => validateConfig({ currency_pairs: PAIRS, ...extra });

describe('engine.runner', () => {
  it('auto picks by core count, explicit settings stand', () => {
    expect(AUTO_THREADED_CORES).toBe(4);
    for (const setting of [undefined, 'auto'] as const) {
      expect(resolveRunner(setting, 1)).toBe('inline');
      expect(resolveRunner(setting, 2)).toBe('inline');
      expect(resolveRunner(setting, 3)).toBe('inline');
      expect(resolveRunner(setting, 4)).toBe('threaded');
      expect(resolveRunner(setting, 64)).toBe('threaded');
    }
    expect(resolveRunner('threaded', 1)).toBe('threaded');
    expect(resolveRunner('inline', 64)).toBe('inline');
  });

  it('the config accepts auto, threaded and inline, and names the field otherwise', () => {
    for (const runner of ['auto', 'threaded', 'inline']) expect(() => loadConfigText({ engine: { runner } })).not.toThrow();
    expect(() => loadConfigText({ engine: { runner: 'fast' } })).toThrow(/engine\.runner.*"threaded", "inline" or "auto"/);
  });
});
