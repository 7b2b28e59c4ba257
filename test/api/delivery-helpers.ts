// Shared by the delivery route tests: a simulator config with the perpetual BTC_USDT and two dated BTC_USDT
// contracts (weekly 2026-06-05, quarterly 2026-06-26, 08:00 UTC) on a simulated clock starting 2026-06-01, users
// with delivery funds (10003 has none), and small HTTP helpers for the control plane.
import type { ContractConfig } from '../../src/core/futures/contract.js';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch } from './http-helpers.js';
import { LINEAR } from './futures-helpers.js';
import { TEST_CONFIG } from './http-helpers.js';

export const WEEKLY = 'BTC_USDT_20260605';
export const QUARTERLY = 'BTC_USDT_20260626';
export const WEEKLY_EXPIRE = Date.UTC(2026, 5, 5, 8) / 1000;
export const START_MS = Date.UTC(2026, 5, 1);

const dated = (name: string, expire: number, cycle: string): ContractConfig => ({
  ...LINEAR, name, expire_time: expire, cycle, mark_price_round: '0.1', index_source: 'BTC_USDT', maker_fee_rate: '0',
  taker_fee_rate: '0.0005', settle_fee_rate: '0.0015', settle_price_duration: 600, delisting_duration: 600, orders_limit: 50,
});

export const DELIVERY_CONTRACTS: ContractConfig[] = [
  dated(WEEKLY, WEEKLY_EXPIRE, 'WEEKLY'), dated(QUARTERLY, Date.UTC(2026, 5, 26, 8) / 1000, 'QUARTERLY'),
];

export const DELIVERY_CONFIG: SimulatorConfig = {
  ...TEST_CONFIG,
  users: [
    { uid: 10001, keys: [{ key: 'k1', secret: 's1', mode: 1, perms: 'all' }],
      balances: { spot: { USDT: '100000', BTC: '2' }, futures: { USDT: '1000' }, delivery: { USDT: '10000' } } },
    { uid: 10002, keys: [{ key: 'k2', secret: 's2', mode: 1, perms: 'all' }],
      balances: { spot: { USDT: '50000', BTC: '1' }, delivery: { USDT: '10000' } } },
    { uid: 10003, keys: [
      { key: 'k3', secret: 's3', perms: 'all' },
      { key: 'fut', secret: 'futs', perms: [{ name: 'futures' }] },
    ], balances: { spot: { USDT: '1000' }, futures: { USDT: '1000' } } },
  ],
  futures: { contracts: [LINEAR, ...DELIVERY_CONTRACTS], insurance: { USDT: '100000' } },
  clock: { type: 'sim', start_ms: START_MS },
};

type J = Record<string, unknown>;

/** POST to the control plane (JSON body). */
export const simPost = async (sim: Simulator, path: string, body: unknown): Promise<{ status: number; body: J }> =>
  (await plainFetch(sim.server.port, path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })) as
    { status: number; body: J };

/** Moves the simulated clock to `ms` and waits for what it made due (the expiry step included). */
export async function clockTo(sim: Simulator, ms: number): Promise<void> {
  const r = await simPost(sim, '/sim/clock', { set_ms: ms });
  if (r.status !== 200) throw new Error(`clock: ${JSON.stringify(r.body)}`);
}
