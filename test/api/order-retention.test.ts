// Gate's retention of finished orders that traded nothing: about a minute after they finished (engine clock),
// they answer ORDER_NOT_FOUND and leave the finished lists; orders with fills stay. Configurable with
// cancelled_order_retention_s; a read-model rule that leaves the state hash alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { signedFetch, startTestSimulator } from './http-helpers.js';
import { advance, stateHash } from './wallet-helpers.js';
import { apiRequest, TestSocket } from './ws/ws-client.js';

const CLOCK = { type: 'sim', start_ms: 1_700_000_000_000 } as const;
let sim: Simulator;
let kept: Simulator;

beforeAll(async () => {
  sim = await startTestSimulator({ clock: CLOCK });
  kept = await startTestSimulator({ clock: CLOCK, cancelled_order_retention_s: 3600 });
});
afterAll(async () => { await sim.close(); await kept.close(); });

type J = Record<string, unknown>;
const call = async (s: Simulator, method: string, path: string, query = '', body?: unknown, key = 'k1', secret = 's1') =>
  signedFetch(s.server.port, { method, path: `/api/v4${path}`, query, body: body === undefined ? '' : JSON.stringify(body), key, secret });
const place = async (s: Simulator, body: J, key = 'k1', secret = 's1'): Promise<string> =>
  ((await call(s, 'POST', '/spot/orders', '', { currency_pair: 'BTC_USDT', ...body }, key, secret)).body as J).id as string;
const get = async (s: Simulator, id: string, key = 'k1', secret = 's1'): Promise<[number, unknown]> => {
  const r = await call(s, 'GET', `/spot/orders/${id}`, 'currency_pair=BTC_USDT', undefined, key, secret);
  return [r.status, (r.body as J).label ?? (r.body as J).status];
};
const finished = async (s: Simulator): Promise<string[]> =>
  ((await call(s, 'GET', '/spot/orders', 'currency_pair=BTC_USDT&status=finished')).body as J[]).map((o) => o.id as string);

describe('retention of finished orders with no fills', () => {
  it('keeps a cancelled order readable for 60 s of the engine clock, then answers ORDER_NOT_FOUND', async () => {
    const port = sim.server.port;
    const cancelled = await place(sim, { side: 'buy', amount: '0.001', price: '1000' });
    expect((await call(sim, 'DELETE', `/spot/orders/${cancelled}`, 'currency_pair=BTC_USDT')).status).toBe(200);
    const ioc = await place(sim, { side: 'buy', amount: '0.001', price: '1000', time_in_force: 'ioc' });
    // a resting sell partly filled, then cancelled; and a filled buy: both traded, both stay
    const partial = await place(sim, { side: 'sell', amount: '0.002', price: '30000' }, 'k2', 's2');
    const filled = await place(sim, { side: 'buy', amount: '0.001', price: '30000' });
    expect((await call(sim, 'DELETE', `/spot/orders/${partial}`, 'currency_pair=BTC_USDT', undefined, 'k2', 's2')).status).toBe(200);

    await advance(port, 59_000);
    expect(await get(sim, cancelled)).toEqual([200, 'cancelled']);
    expect(await finished(sim)).toEqual(expect.arrayContaining([cancelled, ioc, filled]));

    await advance(port, 1_000);
    // The move itself is journaled state (the clock's record); retiring the orders past the window is not.
    const hash = await stateHash(port);
    expect(await get(sim, cancelled)).toEqual([404, 'ORDER_NOT_FOUND']);
    expect(await get(sim, ioc)).toEqual([404, 'ORDER_NOT_FOUND']);
    expect((await call(sim, 'DELETE', `/spot/orders/${cancelled}`, 'currency_pair=BTC_USDT')).body).toMatchObject({ label: 'ORDER_NOT_FOUND' });
    expect(await get(sim, filled)).toEqual([200, 'closed']);
    expect(await get(sim, partial, 'k2', 's2')).toEqual([200, 'cancelled']);
    const list = await finished(sim);
    expect(list).toContain(filled);
    expect(list).not.toContain(cancelled);
    expect(list).not.toContain(ioc);
    expect(await stateHash(port)).toBe(hash);

    const ws = await TestSocket.open(port);
    const st = await ws.request(apiRequest('k1', 's1', 'spot.order_status', 'q1', { order_id: cancelled, currency_pair: 'BTC_USDT' }));
    expect((st.data as { errs: { label: string } }).errs.label).toBe('ORDER_NOT_FOUND');
    ws.close();
  });

  it('follows cancelled_order_retention_s', async () => {
    const id = await place(kept, { side: 'buy', amount: '0.001', price: '1000' });
    await call(kept, 'DELETE', `/spot/orders/${id}`, 'currency_pair=BTC_USDT');
    await advance(kept.server.port, 3_599_000);
    expect(await get(kept, id)).toEqual([200, 'cancelled']);
    await advance(kept.server.port, 1_000);
    expect(await get(kept, id)).toEqual([404, 'ORDER_NOT_FOUND']);
  });
});
