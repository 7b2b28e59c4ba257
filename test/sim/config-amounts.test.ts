// Amount fields of the config file: zero is a valid opening balance (and a valid "none" for a pair's minimum or
// maximum), and every really invalid amount fails at load time with its field's path and what is wrong:
// negative, too many decimals for its currency or market, not a number, or above its maximum.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/invariant.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { loadConfigFile, validateConfig } from '../../src/sim/config-file.js';
import { definitionFromConfig } from '../../src/sim/sim-config.js';
import { signedFetch } from '../api/http-helpers.js';

/**
 * BTC has 9 decimals (amount_precision 6, and 3 for the default 0.2 % fee), USDT 11 (precision + amount_precision + 3);
 * both have the default max supply of a currency that wide, 10^12 (src/core/exchange/currency-scales.ts).
 */
const BASE = {
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6,
    min_base_amount: '0.0001', min_quote_amount: '1' }],
  users: [{ uid: 10001, keys: [{ key: 'k1', secret: 's1' }], balances: { spot: { USDT: '0', BTC: '0.000' } } }],
};
type Cfg = Record<string, unknown>;
const cfg = (patch: (c: Cfg) => void): Cfg => {
  const c = structuredClone(BASE) as unknown as Cfg;
  patch(c);
  return c;
};
const balances = (c: Cfg): Cfg => ((c.users as Cfg[])[0]!.balances as Cfg).spot as Cfg;
const pair = (c: Cfg): Cfg => (c.currency_pairs as Cfg[])[0]!;

function refused(c: Cfg, message: string): void {
  expect(() => validateConfig(c)).toThrow(ConfigError);
  expect(() => validateConfig(c)).toThrow(message);
}

let sim: Simulator | undefined;
afterAll(async () => { await sim?.close(); });

describe('config amounts', () => {
  it('take a zero opening balance from a file and start, crediting nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringmatch-cfg-'));
    const file = join(dir, 'zero.json');
    writeFileSync(file, JSON.stringify({ ...BASE, market_maker: false, rate_limits: false }));
    const config = loadConfigFile(file);
    expect(definitionFromConfig(config).balances.filter((b) => b.uid === 10001)).toEqual([]);
    sim = await startSimulator(config, { host: '127.0.0.1', port: 0 });
    const r = await signedFetch(sim.server.port, { path: '/api/v4/spot/accounts', key: 'k1', secret: 's1' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('say what is wrong with a balance, naming the field', () => {
    refused(cfg((c) => { balances(c).USDT = '-5'; }), 'config: users[0].balances.spot.USDT: "-5" is negative');
    refused(cfg((c) => { balances(c).USDT = '0.000000000001'; }), 'config: users[0].balances.spot.USDT: "0.000000000001" has 12 decimals: USDT takes at most 11');
    refused(cfg((c) => { balances(c).BTC = 'lots'; }), 'config: users[0].balances.spot.BTC: "lots" is not a number');
    refused(cfg((c) => { balances(c).BTC = '1e3'; }), 'config: users[0].balances.spot.BTC: "1e3" is not a number');
    refused(cfg((c) => { balances(c).BTC = 100; }), 'config: users[0].balances.spot.BTC: must be a decimal string such as "100" (in quotes), not the number 100');
    refused(cfg((c) => { balances(c).USDT = '1000000000001'; }), 'config: users[0].balances.spot.USDT: "1000000000001" is above the maximum of USDT (1000000000000, its max supply)');
  });

  it('check the sum of what is credited against the max supply', () => {
    const c = cfg((x) => {
      x.currencies = [{ code: 'BTC', scale: 6, max_supply: '21' }];
      (x.users as Cfg[]).push({ uid: 10002, balances: { spot: { BTC: '11' } } }, { uid: 10003, balances: { spot: { BTC: '10' } } });
      x.unified = { currencies: { BTC: { lendable: '0' } } };
    });
    expect(() => validateConfig(c)).not.toThrow();
    (c.users as Cfg[]).push({ uid: 10004, balances: { spot: { BTC: '0.000001' } } });
    refused(c, 'config: opening balances of BTC: users\' balances, the lending pool and the market maker\'s funds add up to 21.000001, '
      + 'above BTC\'s max supply 21');
    // The default pool takes only what the balances leave (21 − 20 = 1, less than a tenth of 21).
    const fits = validateConfig(cfg((x) => { x.currencies = [{ code: 'BTC', scale: 6, max_supply: '21' }]; balances(x).BTC = '20'; }));
    expect(definitionFromConfig(fits).definition.unified?.currencies?.BTC).toEqual({ lendable: '1' });
  });

  it('check a pair\'s minimums, maximums and fees against its precisions, zero meaning none', () => {
    expect(() => validateConfig(cfg((c) => { pair(c).min_base_amount = '0.00'; pair(c).max_quote_amount = '0'; }))).not.toThrow();
    refused(cfg((c) => { pair(c).min_base_amount = '0.0000001'; }), 'config: currency_pairs[0].min_base_amount: "0.0000001" has 7 decimals: BTC_USDT base amounts (amount_precision 6) takes at most 6');
    refused(cfg((c) => { pair(c).min_quote_amount = '-1'; }), 'config: currency_pairs[0].min_quote_amount: "-1" is negative');
    refused(cfg((c) => { pair(c).max_base_amount = '0.00001'; }), 'config: currency_pairs[0].min_base_amount: must not be above max_base_amount (0.00001)');
    refused(cfg((c) => { pair(c).fee = '101'; }), 'config: currency_pairs[0].fee: "101" is above the maximum of a fee in percent (100)');
    refused(cfg((c) => { pair(c).maker_fee_rate = '0.00001'; }), 'config: currency_pairs[0].maker_fee_rate: "0.00001" has 5 decimals');
    refused(cfg((c) => { c.currencies = [{ code: 'BTC', scale: 6, max_supply: '0' }]; }), 'config: currencies[0].max_supply: must be above 0');
  });

  it('check chain fees and limits against the currency', () => {
    const chain = (fields: Cfg): Cfg => cfg((c) => { c.chains = { USDT: [{ chain: 'TRX', ...fields }] }; });
    expect(() => validateConfig(chain({ withdraw_fix: '0', withdraw_day_limit: '0', withdraw_percent: '0.1' }))).not.toThrow();
    refused(chain({ withdraw_fix: '-1' }), 'config: chains.USDT[0].withdraw_fix: "-1" is negative');
    refused(chain({ withdraw_amount_mini: '0.000000000001' }), 'config: chains.USDT[0].withdraw_amount_mini: "0.000000000001" has 12 decimals: USDT takes at most 11');
    refused(chain({ withdraw_eachtime_limit: 'none' }), 'config: chains.USDT[0].withdraw_eachtime_limit: "none" is not a number');
    refused(chain({ withdraw_percent: '100' }), 'config: chains.USDT[0].withdraw_percent: "100" is above the maximum of a percent (below 100)');
    refused(chain({ decimals: 12 }), 'config: chains.USDT[0].decimals: 12 is above the 11 decimals of USDT');
  });

  it('check lending pools, limits and rates against the currency', () => {
    const unified = (u: Cfg): Cfg => cfg((c) => { c.unified = u; });
    refused(unified({ currencies: { BTC: { lendable: '0.0000000001' } } }), 'config: unified.currencies.BTC.lendable: "0.0000000001" has 10 decimals: BTC takes at most 9');
    refused(unified({ currencies: { USDT: { min_borrow: '-1' } } }), 'config: unified.currencies.USDT.min_borrow: "-1" is negative');
    refused(unified({ currencies: { USDT: { min_borrow: '10', max_borrow: '5' } } }), 'config: unified.currencies.USDT.min_borrow: must not be above max_borrow (5)');
    refused(unified({ currencies: { BTC: { index_price: '0' } } }), 'config: unified.currencies.BTC.index_price: must be above 0');
    refused(unified({ currencies: { BTC: { hourly_rate: '0.0000000000001' } } }), 'config: unified.currencies.BTC.hourly_rate: "0.0000000000001" has 13 decimals');
    refused(unified({ initial_margin_rate: '1.5' }), 'config: unified.initial_margin_rate: "1.5" is above the maximum of a ratio (1)');
    refused(unified({ initial_margin_rate: '0.1', maintenance_margin_rate: '0.2' }), 'config: unified.maintenance_margin_rate: must not exceed initial_margin_rate');
  });

  it('check the market maker\'s prices and sizes against the pair', () => {
    const mm = (m: Cfg): Cfg => cfg((c) => { c.market_maker = { markets: [{ market: 'BTC_USDT', ...m }] }; });
    expect(() => validateConfig(mm({ price: '60000.5', size: '0.01' }))).not.toThrow();
    refused(mm({ price: '60000.123' }), 'config: market_maker.markets[0].price: "60000.123" has 3 decimals: BTC_USDT prices (precision 2) takes at most 2');
    refused(mm({ price: '0' }), 'config: market_maker.markets[0].price: must be above 0');
    refused(mm({ size: '0' }), 'config: market_maker.markets[0].size: must be above 0');
    refused(mm({ size: '-0.1' }), 'config: market_maker.markets[0].size: "-0.1" is negative');
    refused(cfg((c) => { c.market_maker = { markets: [{ market: 'ETH_USDT' }] }; }), 'config: market_maker.markets[0].market: "ETH_USDT" is not a configured currency pair');
  });
});
