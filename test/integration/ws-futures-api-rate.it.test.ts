// Futures order entry over the socket counts under the REST rate classes per UID (seed 8.1): placements and
// amends share one 100 r/s window across the user's connections, cancellations have their own, other users
// are not affected; a rejected request answers TOO_MANY_REQUESTS (429) and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { FUTURES_CONFIG, type J, setMark } from '../api/futures-helpers.js';
import { apiRequest, type Frame, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
const USDT = '/v4/ws/fx/usdt';

beforeAll(async () => {
  sim = await startSimulator({ ...FUTURES_CONFIG, rate_limits: true }, { host: '127.0.0.1', port: 0 });
  await setMark(sim, 'BTC_USDT', '50000');
});
afterAll(async () => { await sim.close(); });

let seq = 0;
const login = async (s: TestSocket, key: string, secret: string): Promise<void> => {
  const f = apiRequest(key, secret, 'futures.login', `l${++seq}`, {});
  const from = s.frames.length;
  s.send(f);
  const r = await s.next((x) => x.request_id === f.id, 3000, from);
  expect((r.header as J).status).toBe('200');
};
/** Sends `n` unsigned requests at once; answers their result frames in order. */
const burst = async (s: TestSocket, channel: string, param: unknown, n: number): Promise<Frame[]> => {
  const ids = Array.from({ length: n }, () => `b${++seq}`);
  const from = s.frames.length;
  for (const id of ids) s.send({ id, time: 0, channel, event: 'api', payload: { req_id: id, req_param: param } });
  return Promise.all(ids.map((id) => s.next((x) => x.request_id === id && x.ack === false, 5000, from)));
};
const labels = (fs: Frame[]): string[] => fs.map((f) => String(((f.data as J).errs as J).label));

describe('futures websocket order entry rate limits', () => {
  it('shares the futures-place window per UID across connections; cancels and other users are apart', async () => {
    const [a, b, c] = await Promise.all([TestSocket.open(sim.server.port, USDT), TestSocket.open(sim.server.port, USDT),
      TestSocket.open(sim.server.port, USDT)]);
    try {
      await login(a, 'k1', 's1');
      await login(b, 'k1', 's1');
      await login(c, 'k2', 's2');
      const hash = await sim.gateway.stateHash();
      const amend = { order_id: '999999', price: '1' };
      const first = [...await burst(a, 'futures.order_amend', amend, 60), ...await burst(b, 'futures.order_amend', amend, 40)];
      expect(new Set(labels(first))).toEqual(new Set(['ORDER_NOT_FOUND']));
      const over = await burst(a, 'futures.order_place', { contract: 'BTC_USDT', size: 1, price: '40000' }, 1);
      expect(labels(over)).toEqual(['TOO_MANY_REQUESTS']);
      expect((over[0]!.header as J).status).toBe('429');
      expect(labels(await burst(b, 'futures.order_amend', amend, 1))).toEqual(['TOO_MANY_REQUESTS']);
      expect(labels(await burst(a, 'futures.order_cancel', { order_id: '999999' }, 1))).toEqual(['ORDER_NOT_FOUND']);
      expect(labels(await burst(c, 'futures.order_amend', amend, 1))).toEqual(['ORDER_NOT_FOUND']);
      expect(await sim.gateway.stateHash()).toBe(hash);
    } finally {
      a.close(); b.close(); c.close();
    }
  });
});
