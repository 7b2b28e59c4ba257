// x-gate-exptime in an order-entry request's req_header, on /v4/ws/fx/usdt and /ws/v4/: a place, amend or cancel
// arriving after that ms timestamp gets REQUEST_EXPIRED (401) with no ack and nothing changed (state hash); a
// malformed value INVALID_PARAM_VALUE; a future one is served; reads ignore it; the header name is matched
// whatever its case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { FUTURES_CONFIG, type J, setMark, stateHash } from '../api/futures-helpers.js';
import { apiRequest, type Frame, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  await setMark(sim, 'BTC_USDT', '50000');
});
afterAll(async () => { await sim.close(); });

let seq = 0;
/** A signed api request with `header` as req_header; answers its result frame (ack false) and whether an ack came first. */
const api = async (s: TestSocket, channel: string, param: unknown, header: J): Promise<{ f: Frame; acked: boolean }> => {
  const req = apiRequest('k1', 's1', channel, `x${++seq}`, param);
  (req.payload as J).req_header = header;
  const from = s.frames.length;
  s.send(req);
  const f = await s.next((x) => x.request_id === req.id && x.ack === false, 3000, from);
  return { f, acked: s.frames.slice(from).some((x) => x.request_id === req.id && x.ack === true) };
};
const label = (f: Frame): unknown => ((f.data as J).errs as J | undefined)?.label;
const status = (f: Frame): string => (f.header as J).status as string;
const past = (): string => String(Date.now() - 2000);
const future = (): string => String(Date.now() + 60_000);

describe('x-gate-exptime over the websocket API', () => {
  it('refuses expired futures places, amends and cancels and changes nothing', async () => {
    const s = await TestSocket.open(sim.server.port, '/v4/ws/fx/usdt');
    try {
      const body = { contract: 'BTC_USDT', size: 1, price: '40000', tif: 'gtc' };
      const before = await stateHash(sim);
      for (const header of [{ 'x-gate-exptime': past() }, { 'X-Gate-Exptime': past() }, { 'X-GATE-EXPTIME': Number(past()) }]) {
        const { f, acked } = await api(s, 'futures.order_place', body, header);
        expect([status(f), label(f), acked], JSON.stringify(header)).toEqual(['401', 'REQUEST_EXPIRED', false]);
      }
      for (const bad of ['soon', '-1', '1.5', '12345678901234567']) {
        const { f } = await api(s, 'futures.order_place', body, { 'x-gate-exptime': bad });
        expect([status(f), label(f)], bad).toEqual(['400', 'INVALID_PARAM_VALUE']);
      }
      const batch = await api(s, 'futures.order_batch_place', [body], { 'x-gate-exptime': past() });
      expect(label(batch.f)).toBe('REQUEST_EXPIRED');
      expect(await stateHash(sim)).toBe(before);

      const placed = await api(s, 'futures.order_place', body, { 'x-gate-exptime': future() });
      expect(status(placed.f)).toBe('200');
      expect(placed.acked).toBe(true);
      const id = String(((placed.f.data as J).result as J).id);
      const mid = await stateHash(sim);
      for (const [channel, param] of [['futures.order_amend', { order_id: id, price: '41000' }], ['futures.order_cancel', { order_id: id }],
        ['futures.order_cancel_ids', [id]], ['futures.order_cancel_cp', { contract: 'BTC_USDT' }]] as [string, unknown][]) {
        const { f } = await api(s, channel, param, { 'x-gate-exptime': past() });
        expect([status(f), label(f)], channel).toEqual(['401', 'REQUEST_EXPIRED']);
      }
      expect(await stateHash(sim)).toBe(mid);
      // Reads are not refused; the order is still open.
      const st = await api(s, 'futures.order_status', { order_id: id }, { 'x-gate-exptime': past() });
      expect(((st.f.data as J).result as J).status).toBe('open');
      const cancel = await api(s, 'futures.order_cancel', { order_id: id }, { 'x-gate-exptime': future() });
      expect(((cancel.f.data as J).result as J).status).toBe('finished');
    } finally {
      s.close();
    }
  });

  it('refuses an expired spot place the same way', async () => {
    const s = await TestSocket.open(sim.server.port, '/ws/v4/');
    try {
      const before = await stateHash(sim);
      const body = { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '20000', type: 'limit' };
      const { f, acked } = await api(s, 'spot.order_place', body, { 'x-gate-exptime': past() });
      expect([status(f), label(f), acked]).toEqual(['401', 'REQUEST_EXPIRED', false]);
      expect(await stateHash(sim)).toBe(before);
      const ok = await api(s, 'spot.order_place', body, { 'X-Gate-Exptime': future() });
      expect(status(ok.f)).toBe('200');
    } finally {
      s.close();
    }
  });
});
