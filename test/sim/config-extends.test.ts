// `"extends": "demo"`: a config file that keeps the demo and adds to it. Lists merge by identity (pairs by id,
// users by uid, chains by chain, lending currencies by code), other fields replace the demo's, and the demo's
// market maker quotes the added pair with funds it gives itself.
import { afterAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { simulatorSetup } from '../../src/sim/simulator-setup.js';
import { plainFetch, signedFetch } from '../api/http-helpers.js';

const FILE = {
  extends: 'demo',
  currency_pairs: [{ id: 'SOL_USDT', base: 'SOL', quote: 'USDT', precision: 2, amount_precision: 3 },
    { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 6, amount_precision: 4 }],
  users: [{ uid: 10002, keys: [{ key: 'bob2', secret: 'bob2-secret' }], balances: { spot: { SOL: '10' } } },
    { uid: 10004, keys: [{ key: 'dave', secret: 'dave-secret' }], balances: { spot: { USDT: '500' } } }],
  chains: { USDT: [{ chain: 'TRX', withdraw_fix: '2' }, { chain: 'SOL' }] },
  unified: { currencies: { SOL: { index_price: '150', lendable: '500' } } },
  rate_limits: false,
};

let sim: Simulator | undefined;
afterAll(async () => { await sim?.close(); });

describe('extends: "demo"', () => {
  it('merges lists by identity and replaces other fields', () => {
    const c = validateConfig(structuredClone(FILE));
    expect(c.currency_pairs.map((p) => p.id)).toEqual(['BTC_USDT', 'ETH_USDT', 'ETH_BTC', 'SOL_USDT']);
    expect(c.currency_pairs[2]!.precision).toBe(6);
    expect(c.users!.map((u) => u.uid)).toEqual([10000, 9999, 10001, 10002, 10003, 10004]);
    expect(c.users![3]!.keys!.map((k) => k.key)).toEqual(['bob2']);
    expect(c.users![2]!.keys!.map((k) => k.key)).toEqual(['demo-alice-key', 'demo-alice-readonly']);
    expect(c.stp_groups).toEqual(DEMO_CONFIG.stp_groups);
    expect(c.chains!.USDT!.map((x) => [x.chain, x.withdraw_fix])).toEqual([['ETH', '5'], ['TRX', '2'], ['BSC', '0.5'], ['TON', '0.3'], ['SOL', undefined]]);
    expect(c.chains!.BTC).toEqual(DEMO_CONFIG.chains!.BTC);
    expect(Object.keys(c.unified!.currencies!)).toEqual(['USDT', 'BTC', 'ETH', 'SOL']);
    expect(c.market_maker).toBe(true);
    expect(c.rate_limits).toBe(false);
    expect('extends' in c).toBe(false);
    expect(DEMO_CONFIG.currency_pairs).toHaveLength(3);
  });

  it('names a bad base, and validates the merged config', () => {
    expect(() => validateConfig({ ...FILE, extends: 'production' })).toThrow('config: extends: must be one of "demo"');
    expect(() => validateConfig({ extends: 'demo', stp_groups: [{ id: 2, users: [10005] }] }))
      .toThrow('config: stp_groups[1].users[0]: must be the uid of a user defined in "users" (10005 is not)');
    expect(validateConfig({ extends: 'demo' }).currency_pairs).toEqual(DEMO_CONFIG.currency_pairs);
  });

  it('funds the demo maker in the added currency, leaving its configured balances alone', () => {
    const { balances, marketMaker } = simulatorSetup(validateConfig(structuredClone(FILE)));
    expect(marketMaker!.markets.map((m) => [m.market, m.price])).toEqual([['BTC_USDT', '60000'], ['ETH_USDT', '3000'], ['ETH_BTC', '0.05'], ['SOL_USDT', '150']]);
    expect(balances.filter((b) => (b.uid === 10000 || b.uid === 9999) && b.account === 'spot').map((b) => [b.uid, b.currency])).toEqual([
      [10000, 'USDT'], [10000, 'BTC'], [10000, 'ETH'], [9999, 'USDT'], [9999, 'BTC'], [9999, 'ETH'], [10000, 'SOL'], [9999, 'SOL']]);
    expect(balances.filter((b) => (b.uid === 10000 || b.uid === 9999) && b.account === 'futures').map((b) => [b.uid, b.currency]))
      .toEqual([[10000, 'USDT'], [10000, 'BTC'], [9999, 'USDT'], [9999, 'BTC']]);
  });

  it('serves the demo keys, the added user and a quoted added pair', async () => {
    sim = await startSimulator(validateConfig(structuredClone(FILE)), { host: '127.0.0.1', port: 0 });
    const port = sim.server.port;
    for (const [key, secret] of [['demo-alice-key', 'demo-alice-secret'], ['dave', 'dave-secret'], ['bob2', 'bob2-secret']]) {
      expect((await signedFetch(port, { path: '/api/v4/spot/accounts', key, secret })).status).toBe(200);
    }
    let asks = 0;
    for (let i = 0; i < 50 && asks === 0; i++) {
      asks = ((await plainFetch(port, '/api/v4/spot/order_book?currency_pair=SOL_USDT')).body as { asks: unknown[] }).asks.length;
      if (asks === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(asks).toBeGreaterThan(0);
  });
});
