/**
 * The measured simulator's configuration (sim-server.ts, handler-drive.ts): one BTC_USDT market, four funded
 * users with the benchmark keys, rate limits off, no market maker, the given runner (one shard when threaded)
 * and optionally a journal file on the default policy.
 */
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { BENCH_KEYS } from './protocol.js';

export function config(runner: 'inline' | 'threaded', journal?: string): SimulatorConfig {
  return {
    currency_pairs: [
      { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6,
        min_base_amount: '0.0001', min_quote_amount: '1', fee: '0.2', maker_fee_rate: '0.2' },
    ],
    users: BENCH_KEYS.map((k, i) => ({
      uid: 20001 + i,
      keys: [{ key: k.key, secret: k.secret, mode: 1, perms: 'all', ip_whitelist: [] }],
      balances: { spot: { USDT: '1000000', BTC: '100' } },
    })),
    rate_limits: false,
    market_maker: false,
    engine: { runner, shards: 1, ...(journal === undefined ? {} : { journal }) },
  };
}
