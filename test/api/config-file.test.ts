// The config file: the fixed example loads; unknown or invalid fields fail naming the field.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/invariant.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';

const EXAMPLE = {
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6,
    min_base_amount: '0.0001', min_quote_amount: '1', fee: '0.2', maker_fee_rate: '0.2' }],
  users: [{ uid: 10001, keys: [{ key: 'k1', secret: 's1', mode: 1, perms: 'all', ip_whitelist: [] }],
    balances: { spot: { USDT: '100000', BTC: '2' } } }, { uid: 10002 }],
  stp_groups: [{ id: 1, name: 'desk', users: [10001, 10002] }],
  market_maker: false,
};

/** The example with the value at `path` (keys and indices) replaced. */
function withValue(path: readonly (string | number)[], value: unknown): unknown {
  const c = structuredClone(EXAMPLE) as unknown as Record<string | number, unknown>;
  let node = c;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return c;
}

describe('config file', () => {
  it('accepts the fixed example and the demo defaults', () => {
    expect(validateConfig(structuredClone(EXAMPLE)).users).toHaveLength(2);
    expect(validateConfig(DEMO_CONFIG).currency_pairs.map((p) => p.id)).toEqual(['BTC_USDT', 'ETH_USDT', 'ETH_BTC']);
  });

  it('accepts a VIP level 0–16 on a main account (fill-ratio tiers at 14+)', () => {
    const c = validateConfig(withValue(['users', 0, 'vip_level'], 16));
    expect((c.users![0] as { vip_level?: number }).vip_level).toBe(16);
  });

  it('accepts every engine setting', () => {
    for (const engine of [{ runner: 'inline' }, { runner: 'threaded', shards: 4, journal: '/tmp/x.journal', fsync: 'batch' }, { fsync: 'never' }, { fsync: 50 }]) {
      expect(validateConfig({ ...structuredClone(EXAMPLE), engine }).engine).toEqual(engine);
    }
  });

  it.each([
    ['colour', ['colour'], 'red'],
    ['currency_pairs[0].precision', ['currency_pairs', 0, 'precision'], 'two'],
    ['currency_pairs[0].id', ['currency_pairs', 0, 'id'], 'BTCUSDT'],
    ['currency_pairs[0].fee', ['currency_pairs', 0, 'fee'], 0.2],
    ['users[0].keys[0].perms[0].name', ['users', 0, 'keys', 0, 'perms'], [{ name: 'moon' }]],
    ['users[0].keys[0].mode', ['users', 0, 'keys', 0, 'mode'], 3],
    ['users[0].keys[0].ip_whitelist[0]', ['users', 0, 'keys', 0, 'ip_whitelist'], ['localhost']],
    ['users[0].balances.spot.DOGE', ['users', 0, 'balances', 'spot', 'DOGE'], '1'],
    ['users[0].balances.margin', ['users', 0, 'balances', 'margin'], {}],
    ['users[1].uid', ['users', 1, 'uid'], 10001],
    ['users[1].vip_level', ['users', 1, 'vip_level'], 17],
    ['users[1].vip_level', ['users', 1, 'vip_level'], 14.5],
    ['users[1].vip_level', ['users', 1], { uid: 10002, main_uid: 10001, vip_level: 14 }],
    ['stp_groups[0].users[1]', ['stp_groups', 0, 'users', 1], 999],
    ['market_maker', ['market_maker'], 'yes'],
    ['clock.type', ['clock'], { type: 'moon' }],
    ['engine.runner', ['engine'], { runner: 'fast' }],
    ['engine.shards', ['engine'], { shards: 0 }],
    ['engine.journal', ['engine'], { journal: '' }],
    ['engine.fsync', ['engine'], { fsync: 'always' }],
    ['engine.colour', ['engine'], { colour: 1 }],
  ] as const)('names %s when it is wrong', (field, path, value) => {
    expect(() => validateConfig(withValue(path, value))).toThrow(ConfigError);
    expect(() => validateConfig(withValue(path, value))).toThrow(field);
  });
});
