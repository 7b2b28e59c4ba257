// Futures order entry over /v4/ws/fx/usdt on raw sockets: futures.login, order_place (ack then result),
// order_status, order_amend and order_cancel answer exactly what the REST routes show for the same order;
// order_batch_place, order_cancel_ids, order_cancel_cp and order_list as their REST routes; bad input gets
// Gate's labels and changes nothing (state hash).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, type J, setMark } from '../api/futures-helpers.js';
import { apiRequest, type Frame, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
let call: Call;
const USDT = '/v4/ws/fx/usdt';

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  call = futuresCaller(sim);
  await setMark(sim, 'BTC_USDT', '50000');
});
afterAll(async () => { await sim.close(); });

let seq = 0;
const rid = (): string => `r${++seq}`;
/** Sends a signed api request and answers its result frame (ack false). */
const api = async (s: TestSocket, channel: string, param: unknown, key = 'k1', secret = 's1'): Promise<Frame> => {
  const f = apiRequest(key, secret, channel, rid(), param);
  const from = s.frames.length;
  s.send(f);
  return s.next((x) => x.request_id === f.id && x.ack === false, 3000, from);
};
const result = (f: Frame): J => (f.data as J).result as J;
const errs = (f: Frame): J => (f.data as J).errs as J;
const status = (f: Frame): string => (f.header as J).status as string;

describe('futures websocket order entry', () => {
  it('logs in, places (ack then result), reads, amends and cancels as REST answers', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    try {
      const login = await api(s, 'futures.login', {});
      expect(status(login)).toBe('200');
      expect(result(login)).toEqual({ api_key: 'k1', uid: '10001' });
      expect(login.header).toMatchObject({ channel: 'futures.login', event: 'api' });

      // Unsigned after login: accepted as the logged-in user.
      const body = { contract: 'BTC_USDT', size: 2, price: '40000', tif: 'gtc', text: 't-ws1' };
      const reqId = rid();
      const from = s.frames.length;
      s.send({ id: reqId, time: 0, channel: 'futures.order_place', event: 'api', payload: { req_id: reqId, req_param: body,
        req_header: { 'X-Gate-Channel-Id': 'x' } } });
      const ack = await s.next((x) => x.request_id === reqId && x.ack === true, 3000, from);
      expect((ack.data as J).result).toMatchObject({ req_id: reqId, req_param: body, req_header: { 'X-Gate-Channel-Id': 'x' } });
      const placed = result(await s.next((x) => x.request_id === reqId && x.ack === false, 3000, from));
      const id = String(placed.id);
      const rest = await call('GET', `/futures/usdt/orders/${id}`);
      expect(placed).toEqual(rest.body);
      expect(placed).toMatchObject({ contract: 'BTC_USDT', size: 2, left: 2, price: '40000', status: 'open', text: 't-ws1' });

      expect(result(await api(s, 'futures.order_status', { order_id: id }))).toEqual(rest.body);
      expect(result(await api(s, 'futures.order_status', { order_id: 't-ws1' }))).toEqual(rest.body);

      const amended = result(await api(s, 'futures.order_amend', { order_id: id, size: 3, price: '41000' }));
      expect(amended).toMatchObject({ id: placed.id, size: 3, left: 3, price: '41000', status: 'open' });
      expect(amended).toEqual((await call('GET', `/futures/usdt/orders/${id}`)).body);

      const cancelled = result(await api(s, 'futures.order_cancel', { order_id: id }));
      expect(cancelled).toMatchObject({ id: placed.id, status: 'finished', finish_as: 'cancelled', left: 3 });
      expect(cancelled).toEqual((await call('GET', `/futures/usdt/orders/${id}`)).body);

      // Size decimal form on request.
      const dec = apiRequest('k1', 's1', 'futures.order_status', rid(), { order_id: id });
      (dec.payload as J).req_header = { 'X-Gate-Size-Decimal': '1' };
      const decFrom = s.frames.length;
      s.send(dec);
      const decAnswer = await s.next((x) => x.request_id === dec.id && x.ack === false, 3000, decFrom);
      expect(result(decAnswer)).toMatchObject({ size: '3', left: '3' });
    } finally {
      s.close();
    }
  });

  it('rejects bad input with Gate labels and changes nothing', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    try {
      const open = await api(s, 'futures.order_place', { contract: 'BTC_USDT', size: 1, price: '40000', tif: 'gtc' });
      const id = String(result(open).id);
      const other = await api(s, 'futures.order_place', { contract: 'BTC_USDT', size: -1, price: '60000', tif: 'gtc' }, 'k2', 's2');
      const otherId = String(result(other).id);
      const hash = await sim.gateway.stateHash();
      const label = async (channel: string, param: unknown, key = 'k1', secret = 's1'): Promise<[string, unknown]> => {
        const f = await api(s, channel, param, key, secret);
        return [status(f), errs(f).label];
      };
      // Not logged in on this connection, unsigned.
      const u = rid();
      const uFrom = s.frames.length;
      s.send({ id: u, time: 0, channel: 'futures.order_status', event: 'api', payload: { req_id: u, req_param: { order_id: id } } });
      const unsigned = await s.next((x) => x.request_id === u, 3000, uFrom);
      expect(errs(unsigned).label).toBe('MISSING_REQUIRED_HEADER');

      expect(await label('futures.order_place', { contract: 'ETH_USDT', size: 1, price: '1', tif: 'gtc' })).toEqual(['400', 'CONTRACT_NOT_FOUND']);
      expect(await label('futures.order_place', { contract: 'BTC_USD', size: 1, price: '1', tif: 'gtc' })).toEqual(['400', 'CONTRACT_NOT_FOUND']);
      expect(await label('futures.order_place', { contract: 'BTC_USDT', price: '40000', tif: 'gtc' })).toEqual(['400', 'MISSING_REQUIRED_PARAM']);
      expect(await label('futures.order_place', { contract: 'BTC_USDT', size: 1, price: '40000', tif: 'gtc' }, 'k1', 'wrong')).toEqual(['401', 'INVALID_SIGNATURE']);
      expect(await label('futures.order_place', { contract: 'BTC_USDT', size: 1, price: '40000', tif: 'gtc' }, 'nokey', 's1')).toEqual(['401', 'INVALID_KEY']);
      expect(await label('futures.order_place', { contract: 'BTC_USDT', size: 1, price: '40000', tif: 'gtc' }, 'ro', 'ros')).toEqual(['403', 'READ_ONLY']);
      expect(await label('futures.order_place', { contract: 'BTC_USDT', size: 1, price: '40000', tif: 'gtc' }, 'k3', 's3')).toEqual(['400', 'USER_NOT_FOUND']);
      expect(await label('futures.order_status', { order_id: otherId })).toEqual(['404', 'ORDER_NOT_FOUND']);
      expect(await label('futures.order_cancel', { order_id: otherId })).toEqual(['404', 'ORDER_NOT_FOUND']);
      expect(await label('futures.order_cancel', {})).toEqual(['400', 'MISSING_REQUIRED_PARAM']);
      expect(await label('futures.order_amend', { order_id: id, size: -1 })).toEqual(['400', 'INVALID_PARAM_VALUE']);
      expect(await label('futures.order_amend', { order_id: id })).toEqual(['400', 'MISSING_REQUIRED_PARAM']);
      expect(await label('futures.order_amend', { order_id: 't-none', price: '1' })).toEqual(['404', 'ORDER_NOT_FOUND']);
      expect(await label('futures.order_status', [1])).toEqual(['400', 'INVALID_REQUEST_BODY']);
      expect(await sim.gateway.stateHash()).toBe(hash);
      // The inverse endpoint does not see the USDT order.
      const btc = await TestSocket.open(sim.server.port, '/v4/ws/fx/btc');
      try {
        const f = await api(btc, 'futures.order_status', { order_id: id });
        expect(errs(f).label).toBe('ORDER_NOT_FOUND');
      } finally {
        btc.close();
      }
      // An unknown api channel on the futures endpoint.
      const bad = await api(s, 'futures.order_nothing', {});
      expect(errs(bad).label).toBeDefined();
      expect(await sim.gateway.stateHash()).toBe(hash);
    } finally {
      s.close();
    }
  });
  it('batch places, lists, cancels by ids and cancels all of a contract as the REST routes', async () => {
    expect((await call('DELETE', '/futures/usdt/orders', { query: 'contract=BTC_USDT' })).status).toBe(200); // earlier tests' orders
    const s = await TestSocket.open(sim.server.port, USDT);
    try {
      const reqParam = [
        { contract: 'BTC_USDT', size: 1, price: '30000', tif: 'gtc', text: 't-b1' },
        { contract: 'ETH_USDT', size: 1, price: '1', tif: 'gtc', text: 't-b2' },
        { contract: 'BTC_USDT', size: -1, price: '70000', tif: 'gtc', text: 't-b3' },
        { contract: 'BTC_USDT', size: 2, price: '31000', tif: 'gtc', text: 't-b4' },
      ];
      const f = apiRequest('k1', 's1', 'futures.order_batch_place', rid(), reqParam);
      const from = s.frames.length;
      s.send(f);
      const ack = await s.next((x) => x.request_id === f.id && x.ack === true, 3000, from);
      expect(((ack.data as J).result as J).req_param).toEqual(reqParam);
      const out = result(await s.next((x) => x.request_id === f.id && x.ack === false, 3000, from)) as unknown as J[];
      expect(out.map((o) => [o.succeeded, o.label, o.text])).toEqual([
        [true, '', 't-b1'], [false, 'CONTRACT_NOT_FOUND', 't-b2'], [true, '', 't-b3'], [true, '', 't-b4']]);
      expect(out[1]).toEqual({ succeeded: false, label: 'CONTRACT_NOT_FOUND', detail: expect.any(String) as string, text: 't-b2', contract: 'ETH_USDT' });
      const [b1, , b3, b4] = out.map((o) => String(o.id));

      const restOpen = await call('GET', '/futures/usdt/orders', { query: 'status=open&contract=BTC_USDT' });
      const open = result(await api(s, 'futures.order_list', { status: 'open', contract: 'BTC_USDT' }));
      expect(open).toEqual(restOpen.body);
      expect((open as unknown as J[]).map((o) => String(o.id))).toEqual([b4, b3, b1]);
      expect(result(await api(s, 'futures.order_list', { status: 'open', limit: 1, offset: 1 }))).toEqual(
        (await call('GET', '/futures/usdt/orders', { query: 'status=open&limit=1&offset=1' })).body);

      const ids = result(await api(s, 'futures.order_cancel_ids', [b1!, '999999999', 't-b3']));
      expect(ids).toEqual([
        { id: b1, user_id: 10001, succeeded: true, message: '' },
        { id: '999999999', user_id: 10001, succeeded: false, message: 'ORDER_NOT_FOUND' },
        { id: 't-b3', user_id: 10001, succeeded: true, message: '' }]);
      const another = result(await api(s, 'futures.order_place', { contract: 'BTC_USDT', size: -1, price: '71000', tif: 'gtc' }));
      const bids = result(await api(s, 'futures.order_cancel_cp', { contract: 'BTC_USDT', side: 'bid' })) as unknown as J[];
      expect(bids.map((o) => [String(o.id), o.status, o.finish_as])).toEqual([[b4, 'finished', 'cancelled']]);
      const all = result(await api(s, 'futures.order_cancel_cp', { contract: 'BTC_USDT', settle: 'usdt' })) as unknown as J[];
      expect(all.map((o) => o.id)).toEqual([another.id]);
      expect(result(await api(s, 'futures.order_list', { status: 'open' }))).toEqual([]);
      const finished = result(await api(s, 'futures.order_list', { status: 'finished', contract: 'BTC_USDT', limit: 4 }));
      expect(finished).toEqual((await call('GET', '/futures/usdt/orders', { query: 'status=finished&contract=BTC_USDT&limit=4' })).body);

      const hash = await sim.gateway.stateHash();
      const label = async (channel: string, param: unknown): Promise<unknown> => errs(await api(s, channel, param)).label;
      expect(await label('futures.order_batch_place', { contract: 'BTC_USDT' })).toBe('INVALID_REQUEST_BODY');
      expect(await label('futures.order_batch_place', Array.from({ length: 11 }, () => ({ contract: 'BTC_USDT', size: 1, price: '1' })))).toBe('TOO_MANY_ORDERS');
      expect(await label('futures.order_cancel_ids', [1])).toBe('INVALID_REQUEST_BODY');
      expect(await label('futures.order_cancel_ids', Array.from({ length: 21 }, () => '1'))).toBe('TOO_MANY_ORDERS');
      expect(await label('futures.order_cancel_cp', {})).toBe('MISSING_REQUIRED_PARAM');
      expect(await label('futures.order_cancel_cp', { contract: 'BTC_USDT', side: 'buy' })).toBe('INVALID_PARAM_VALUE');
      expect(await label('futures.order_list', {})).toBe('MISSING_REQUIRED_PARAM');
      expect(await label('futures.order_list', { status: 'all' })).toBe('INVALID_PARAM_VALUE');
      expect(await label('futures.order_list', { status: 'open', limit: 0 })).toBe('INVALID_PARAM_VALUE');
      expect(await label('futures.order_list', { status: 'open', contract: 'BTC_USD' })).toBe('CONTRACT_NOT_FOUND');
      expect(await sim.gateway.stateHash()).toBe(hash);
    } finally {
      s.close();
    }
  });
});
