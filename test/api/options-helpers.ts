// Shared by the options route tests: a simulator on 127.0.0.1 on a simulated clock with BTC_USDT options
// (expirations 1 and 7 days after the clock's start, strikes around 60000), users with funded options accounts
// (10003 has none), and an index set by a BTC_USDT spot trade at 60000 (the options services follow it).
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { plainFetch, TEST_CONFIG } from './http-helpers.js';
import { type Call, futuresCaller } from './futures-helpers.js';

export const START_MS = Date.UTC(2026, 0, 1);
/** 08:00 UTC one and seven days after the start. */
export const EXP1 = START_MS / 1000 + 86_400 + 8 * 3600;
export const EXP2 = START_MS / 1000 + 7 * 86_400 + 8 * 3600;
export const CALL = 'BTC_USDT-20260102-60000-C';
export const PUT = 'BTC_USDT-20260102-55000-P';

export const OPTIONS_CONFIG: SimulatorConfig = {
  ...TEST_CONFIG,
  clock: { type: 'sim', start_ms: START_MS },
  users: [
    { uid: 10001, keys: [{ key: 'k1', secret: 's1', mode: 1, perms: 'all' }],
      balances: { spot: { USDT: '100000', BTC: '2' }, options: { USDT: '20000' } } },
    { uid: 10002, keys: [{ key: 'k2', secret: 's2', mode: 1, perms: 'all' }],
      balances: { spot: { USDT: '100000', BTC: '2' }, options: { USDT: '20000' } } },
    { uid: 10003, keys: [{ key: 'k3', secret: 's3', perms: 'all' }], balances: { spot: { USDT: '1000' } } },
  ],
  options: {
    underlyings: [{ name: 'BTC_USDT', multiplier: '0.01', order_price_round: '0.1', volatility: '0.6', expiration_days: [1, 7],
      strikes: ['55000', '60000', '65000'] }],
  },
};

/** A signed caller (key k1 unless told). */
export const optionsCaller = (sim: Simulator): Call => futuresCaller(sim);

/** A BTC_USDT spot trade at `price` between 10001 (buys) and 10002 (sells), then the index follows it. */
export async function spotTrade(call: Call, price: string): Promise<void> {
  const sell = await call('POST', '/spot/orders', { key: ['k2', 's2'], body: { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.001', price } });
  if (sell.status !== 201) throw new Error(JSON.stringify(sell.body));
  const buy = await call('POST', '/spot/orders', { body: { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price } });
  if (buy.status !== 201) throw new Error(JSON.stringify(buy.body));
}

/** POST /sim/clock with `body` ({ advance_ms } or { set_ms }); it answers once what the move made due has run. */
export const simClock = (sim: Simulator, body: unknown): Promise<{ status: number; body: unknown }> => plainFetch(sim.server.port,
  '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/**
 * A simulator on `config` (127.0.0.1) whose BTC_USDT index is 60000: a spot trade there, then the clock 2 s on
 * (an index step), and a signed caller of it.
 */
export async function startIndexed(config: SimulatorConfig = OPTIONS_CONFIG): Promise<{ sim: Simulator; call: Call }> {
  const sim = await startSimulator(config, { host: '127.0.0.1', port: 0 });
  const call = optionsCaller(sim);
  await spotTrade(call, '60000');
  await simClock(sim, { advance_ms: 2000 });
  return { sim, call };
}
