// Shared setup of the wallet tests: TEST_CONFIG plus chains on a simulated clock, and small HTTP helpers.
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from './http-helpers.js';

export const START_MS = 1_700_000_000_000;

export const WALLET_CONFIG: Partial<SimulatorConfig> = {
  clock: { type: 'sim', start_ms: START_MS },
  low_cap_currencies: ['ETH'],
  chains: {
    USDT: [
      { chain: 'ETH', name_en: 'ETH/ERC20', contract_address: '0xdac17f958d2ee523a2206206994597c13d831ec7', decimals: 6,
        min_confirms: 3, unlock_confirms: 5, block_time_ms: 1000, withdraw_step_ms: 1000, withdraw_fix: '1',
        withdraw_percent: '0.1', withdraw_amount_mini: '2', withdraw_eachtime_limit: '1000', withdraw_day_limit: '1500',
        min_deposit_amount: '1' },
      { chain: 'TON', is_tag: true, decimals: 6, min_confirms: 1, block_time_ms: 1000, withdraw_step_ms: 1000, withdraw_fix: '0.5' },
      { chain: 'TRX', decimals: 6, deposit_enabled: false, withdraw_enabled: false },
    ],
    BTC: [{ chain: 'BTC', decimals: 6, min_confirms: 1, block_time_ms: 10000, withdraw_step_ms: 1000, withdraw_fix: '0.0005' }],
  },
};

export const startWalletSimulator = (overrides: Partial<SimulatorConfig> = {}): Promise<Simulator> =>
  startTestSimulator({ ...WALLET_CONFIG, ...overrides });

export type Res = { status: number; body: unknown };

export const post = (port: number, path: string, body: unknown): Promise<Res> =>
  plainFetch(port, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export const advance = (port: number, ms: number): Promise<Res> => post(port, '/sim/clock', { advance_ms: ms });

export const stateHash = async (port: number): Promise<string> =>
  ((await plainFetch(port, '/sim/state_hash')).body as { state_hash: string }).state_hash;

export const label = (r: Res): [number, string] => [r.status, (r.body as { label?: string }).label ?? ''];

/** A signed GET of a private route as `key`. */
export const get = (port: number, path: string, query = '', key = 'k1', secret = 's1'): Promise<Res> =>
  signedFetch(port, { path: `/api/v4${path}`, query, key, secret });

/** A signed POST /withdrawals (or another private POST) as `key`. */
export const send = (port: number, method: string, path: string, body: unknown, key = 'k1', secret = 's1'): Promise<Res> =>
  signedFetch(port, { method, path: `/api/v4${path}`, body: body === undefined ? '' : JSON.stringify(body), key, secret });

/** Spot balance of a currency as {available, locked}. */
export async function spot(port: number, currency: string, key = 'k1', secret = 's1'): Promise<{ available: string; locked: string }> {
  const r = await get(port, '/spot/accounts', `currency=${currency}`, key, secret);
  const rows = r.body as { available: string; locked: string }[];
  return rows[0] === undefined ? { available: '0', locked: '0' } : { available: rows[0].available, locked: rows[0].locked };
}
