// Shared by the unified route tests: a config with unified parameters, a lending pool, a unified user 10010
// (key u1, mode 2) with a sub-account 10011, a user 10012 holding only ETH (priced by its last trade), and TEST_CONFIG's users (10003's `wallet-only` key lacks `unified`).
import type { SimulatorConfig } from '../../../src/sim/config-file.js';
import { TEST_CONFIG } from '../http-helpers.js';

export const U1: [string, string] = ['u1', 'us1'];
export const U_SUB: [string, string] = ['u2', 'us2'];
export const U_ETH: [string, string] = ['u3', 'us3'];

export const UNIFIED_CONFIG: SimulatorConfig = {
  ...TEST_CONFIG,
  users: [
    ...TEST_CONFIG.users!,
    { uid: 10010, keys: [{ key: 'u1', secret: 'us1', mode: 2, perms: 'all' }], balances: { spot: { USDT: '10000', BTC: '1' } } },
    { uid: 10011, main_uid: 10010, keys: [{ key: 'u2', secret: 'us2', mode: 2, perms: 'all' }], balances: { spot: { USDT: '500' } } },
    { uid: 10012, keys: [{ key: 'u3', secret: 'us3', mode: 2, perms: 'all' }], balances: { spot: { ETH: '10' } } },
  ],
  unified: {
    initial_margin_rate: '0.2',
    maintenance_margin_rate: '0.1',
    currencies: {
      BTC: { index_price: '50000', hourly_rate: '0.0001', min_borrow: '0.0001', lendable: '10',
        discount_tiers: [{ upper_limit: '100000', discount: '0.9' }, { discount: '0.5' }] },
      USDT: { hourly_rate: '0.00002', min_borrow: '1', max_borrow: '200000', lendable: '1000000' },
      ETH: { lendable: '100' },
    },
  },
};
