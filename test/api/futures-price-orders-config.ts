// The simulator config of the futures control-plane and price-order tests: the test users 10001 and 10002 with
// futures balances, a linear BTC_USDT and an inverse BTC_USD contract, a funded USDT insurance fund, a sim clock.
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { TEST_CONFIG } from './http-helpers.js';

export const ALICE = 10001;
export const BOB = 10002;

export const FUTURES_TEST_CONFIG: Partial<SimulatorConfig> = {
  users: TEST_CONFIG.users!.map((u) => (u.uid === ALICE || u.uid === BOB
    ? { ...u, balances: { ...u.balances, futures: { USDT: '100000' } } } : u)),
  futures: {
    contracts: [
      { name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
        leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
        risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '8000000', order_size_min: 1, order_size_max: 100000,
        order_price_deviate: '0.5' },
      { name: 'BTC_USD', settle: 'btc', type: 'inverse', order_price_round: '0.1', mark_price_round: '0.01', leverage_min: '1',
        leverage_max: '100', maintenance_rate: '0.005', risk_limit_base: '100', risk_limit_step: '50', risk_limit_max: '1000' },
    ],
    insurance: { USDT: '100000' },
  },
  clock: { type: 'sim', start_ms: Date.UTC(2026, 5, 1) },
};

