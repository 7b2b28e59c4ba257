// POST /futures/{settle}/countdown_cancel_all under a simulated clock: the timer runs out when the clock passes
// it and cancels the user's open orders of its settle (or of its one contract), nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller } from './futures-helpers.js';
import { plainFetch } from './http-helpers.js';

let sim: Simulator;
let call: Call;

beforeAll(async () => {
  sim = await startSimulator({ ...FUTURES_CONFIG, clock: { type: 'sim' } }, { host: '127.0.0.1', port: 0 });
  call = futuresCaller(sim);
});
afterAll(async () => { await sim.close(); });

const advance = (ms: number) => plainFetch(sim.server.port, '/sim/clock', {
  method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }),
});
const status = async (settle: string, id: unknown): Promise<unknown> => (await call('GET', `/futures/${settle}/orders/${String(id)}`)).body.status;

describe('futures countdown cancel', () => {
  it('cancels the settle\'s open orders when the clock passes the deadline, and leaves the other settle alone', async () => {
    const usdt = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 1, price: '49000' } });
    const btc = await call('POST', '/futures/btc/orders', { body: { contract: 'BTC_USD', size: 10, price: '49000' } });
    expect([usdt.status, btc.status]).toEqual([201, 201]);
    const armed = await call('POST', '/futures/usdt/countdown_cancel_all', { body: { timeout: 10 } });
    expect(armed.status, JSON.stringify(armed.body)).toBe(200);
    expect((await advance(9_000)).status).toBe(200);
    expect(await status('usdt', usdt.body.id)).toBe('open');
    expect((await advance(2_000)).status).toBe(200);
    expect(await status('usdt', usdt.body.id)).toBe('finished');
    expect(await status('btc', btc.body.id)).toBe('open');
  });

  it('a contract timer cancels only that contract; renewing moves the deadline', async () => {
    const o = await call('POST', '/futures/btc/orders', { body: { contract: 'BTC_USD', size: 5, price: '48000' } });
    await call('POST', '/futures/btc/countdown_cancel_all', { body: { timeout: 10, contract: 'BTC_USD' } });
    await advance(8_000);
    await call('POST', '/futures/btc/countdown_cancel_all', { body: { timeout: 10, contract: 'BTC_USD' } });
    await advance(8_000);
    expect(await status('btc', o.body.id)).toBe('open');
    await advance(3_000);
    expect(await status('btc', o.body.id)).toBe('finished');
  });
});
