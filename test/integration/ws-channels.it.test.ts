// /ws/v4/ beyond ccxt: raw envelopes, the channels ccxt does not use, unsubscribe, per-connection frame
// limits and the slow-consumer cut-off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import type { PriceOrder } from '../../src/api/price-orders/price-order-store.js';
import { parseCreateOrder } from '../../src/gate/spot-order-request.js';
import { SLOW_CONSUMER_CLOSE } from '../../src/api/ws/ws-server.js';
import type { Simulator } from '../../src/main.js';
import { startTestSimulator } from '../api/http-helpers.js';
import { apiRequest, type Frame, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
beforeAll(async () => { sim = await startTestSimulator(); });
afterAll(async () => { await sim.close(); });

/** Places an order in-process (the pushes are the same as over HTTP); resolves with its id once applied. */
function place(uid: number, body: Record<string, string>): Promise<number> {
  const cmd = new Command();
  expect(parseCreateOrder(sim.gateway.exchange, uid, { currency_pair: 'BTC_USDT', ...body }, cmd)).toBe(ResultCode.Ok);
  return new Promise((resolve, reject) => {
    sim.gateway.submit(cmd, (code, c) => (code === ResultCode.Ok ? resolve(c.orderId) : reject(new Error(`order rejected: ${code}`))));
  });
}

describe('websocket channels', () => {
  it('acks with Gate envelope, pushes book_ticker, order_book snapshots, and stops after unsubscribe', async () => {
    const s = await TestSocket.open(sim.server.port);
    const ack = await s.request({ id: 11, time: nowS(), channel: 'spot.book_ticker', event: 'subscribe', payload: ['BTC_USDT'] });
    expect(ack).toMatchObject({ id: 11, channel: 'spot.book_ticker', event: 'subscribe', result: { status: 'success' }, payload: ['BTC_USDT'] });
    expect(typeof ack.time).toBe('number');
    expect(typeof ack.time_ms).toBe('number');
    const snap = await s.request({ id: 12, time: nowS(), channel: 'spot.order_book', event: 'subscribe', payload: ['BTC_USDT', '5', '100ms'] });
    expect(snap.result).toEqual({ status: 'success' });
    const from = s.frames.length;
    await place(10002, { side: 'sell', amount: '0.01', price: '61000' });
    const bt = await s.next((f) => f.channel === 'spot.book_ticker' && f.event === 'update', 3000, from);
    expect(bt.result).toMatchObject({ s: 'BTC_USDT', a: '61000', A: '0.01' });
    const ob = await s.next((f) => f.channel === 'spot.order_book' && f.event === 'update' && ((f.result as { asks: unknown[] }).asks.length > 0), 3000, from);
    expect(ob.result).toMatchObject({ s: 'BTC_USDT', asks: [['61000', '0.01']] });
    await s.request({ id: 13, time: nowS(), channel: 'spot.book_ticker', event: 'unsubscribe', payload: ['BTC_USDT'] });
    const after = s.frames.length;
    await place(10002, { side: 'sell', amount: '0.01', price: '60500' });
    await s.request({ id: 14, time: nowS(), channel: 'spot.ping' });
    expect(s.frames.slice(after).filter((f) => f.channel === 'spot.book_ticker' && f.event === 'update')).toEqual([]);
    s.close();
  });

  it('authenticates private subscriptions (either signed event on unsubscribe) and rejects bad ones with code 4', async () => {
    const s = await TestSocket.open(sim.server.port);
    const t = nowS();
    const bad = await s.request({ id: 1, time: t, channel: 'spot.usertrades', event: 'subscribe', payload: ['!all'], auth: subAuth('k1', 'nope', 'spot.usertrades', 'subscribe', t) });
    expect(bad.error).toMatchObject({ code: 4 });
    expect(JSON.parse((bad.error as { message: string }).message)).toMatchObject({ label: 'INVALID_SIGNATURE' });
    const ok = await s.request({ id: 2, time: t, channel: 'spot.priceorders', event: 'subscribe', payload: ['!all'], auth: subAuth('k1', 's1', 'spot.priceorders', 'subscribe', t) });
    expect(ok.result).toEqual({ status: 'success' });
    for (const signed of ['subscribe', 'unsubscribe']) {
      const un = await s.request({ id: `u-${signed}`, time: t, channel: 'spot.priceorders', event: 'unsubscribe', payload: ['!all'], auth: subAuth('k1', 's1', 'spot.priceorders', signed, t) });
      expect(un.result).toEqual({ status: 'success' });
    }
    s.close();
  });

  it('pushes price-triggered orders on spot.priceorders when created, fired and cancelled', async () => {
    const s = await TestSocket.open(sim.server.port);
    const t = nowS();
    const ok = await s.request({ id: 1, time: t, channel: 'spot.priceorders', event: 'subscribe', payload: ['BTC_USDT'], auth: subAuth('k1', 's1', 'spot.priceorders', 'subscribe', t) });
    expect(ok.result).toEqual({ status: 'success' });
    const from = s.frames.length;
    const triggers = sim.server.deps.priceTriggers;
    const o = await new Promise<PriceOrder>((resolve, reject) => triggers.create({ uid: 10001, market: 0, triggerTicks: 1, triggerPrice: '0.01',
      rule: '<=', expiration: 0, createUs: 1,
      put: { type: 'limit', side: 'buy', price: '100', amount: '0.01', account: 'normal', time_in_force: 'gtc', auto_borrow: false, auto_repay: false, text: '' } },
    (code, created) => (created !== undefined ? resolve(created) : reject(new Error(`refused: ${code}`)))));
    const put = await s.next((f) => f.channel === 'spot.priceorders' && f.event === 'update', 3000, from);
    expect(put.result).toEqual([expect.objectContaining({ id: o.id, market: 'BTC_USDT', status: 'open', event: 'put', user: 10001 })]);
    triggers.cancel([o], () => undefined);
    const fin = await s.next((f) => f.channel === 'spot.priceorders' && f.event === 'update' && (f.result as { event: string }[])[0]?.event === 'finish', 3000, from);
    expect(fin.result).toEqual([expect.objectContaining({ id: o.id, status: 'canceled', event: 'finish' })]);
    s.close();
  });

  it('serves order entry channels: status, list, cancel_ids and cancel_cp', async () => {
    const s = await TestSocket.open(sim.server.port);
    const a = await place(10001, { side: 'buy', amount: '0.001', price: '40000' });
    const b = await place(10001, { side: 'buy', amount: '0.001', price: '40001' });
    const st = await s.request(apiRequest('k1', 's1', 'spot.order_status', 'q1', { order_id: String(a), currency_pair: 'BTC_USDT' }));
    expect(st).toMatchObject({ request_id: 'q1', ack: false, header: { status: '200', channel: 'spot.order_status' }, data: { result: { id: String(a), status: 'open' } } });
    const list = await s.request(apiRequest('k1', 's1', 'spot.order_list', 'q2', { currency_pair: 'BTC_USDT', status: 'open' }));
    expect(((list.data as Frame).result as Frame[]).map((o) => o.id)).toEqual(expect.arrayContaining([String(a), String(b)]));
    const ids = await s.request(apiRequest('k1', 's1', 'spot.order_cancel_ids', 'q3', [{ currency_pair: 'BTC_USDT', id: String(a) }, { currency_pair: 'BTC_USDT', id: '999999' }]));
    expect((ids.data as Frame).result).toEqual([
      { currency_pair: 'BTC_USDT', id: String(a), succeeded: true, label: '', message: '' },
      { currency_pair: 'BTC_USDT', id: '999999', succeeded: false, label: 'ORDER_NOT_FOUND', message: 'Order not found' }]);
    const cp = await s.request(apiRequest('k1', 's1', 'spot.order_cancel_cp', 'q4', { currency_pair: 'BTC_USDT', side: 'buy' }));
    expect(((cp.data as Frame).result as Frame[]).map((o) => o.id)).toContain(String(b));
    const unsigned = await s.request({ id: 'q5', time: nowS(), channel: 'spot.order_status', event: 'api', payload: { req_id: 'q5', req_param: {} } });
    expect(unsigned).toMatchObject({ header: { status: '401' }, data: { errs: { label: 'MISSING_REQUIRED_HEADER' } } });
    s.close();
  });
});

describe('websocket under simulated time', () => {
  it('stamps pushes with the engine clock (replay mode)', async () => {
    const startMs = Date.UTC(2025, 5, 1);
    const replay = await startTestSimulator({ clock: { type: 'sim', start_ms: startMs } });
    try {
      const s = await TestSocket.open(replay.server.port);
      await s.request({ id: 1, time: nowS(), channel: 'spot.trades', event: 'subscribe', payload: ['BTC_USDT'] });
      const cmd = new Command();
      for (const [uid, side] of [[10002, 'sell'], [10001, 'buy']] as const) {
        expect(parseCreateOrder(replay.gateway.exchange, uid, { currency_pair: 'BTC_USDT', side, amount: '0.001', price: '60000' }, cmd)).toBe(ResultCode.Ok);
        replay.gateway.submit(cmd, () => undefined);
      }
      const push = await s.next((f) => f.channel === 'spot.trades' && f.event === 'update');
      expect(push.time_ms).toBe(startMs);
      expect(push.result).toMatchObject({ create_time: String(startMs / 1000), create_time_ms: `${startMs}.000000` });
      s.close();
    } finally {
      await replay.close();
    }
  });
});

describe('websocket limits', () => {
  it('answers frames over the per-connection limit with code 5', async () => {
    const limited = await startTestSimulator({ rate_limits: true });
    try {
      const s = await TestSocket.open(limited.server.port);
      for (let i = 0; i < 260; i++) s.send({ id: i, time: nowS(), channel: 'spot.ping' });
      await s.next((f) => f.id === 259);
      const over = s.frames.filter((f) => (f.error as { code?: number } | undefined)?.code === 5);
      const pongs = s.frames.filter((f) => f.channel === 'spot.pong');
      expect(pongs.length).toBeGreaterThan(0);
      expect(over.length).toBeGreaterThan(0);
      expect(pongs.length + over.length).toBe(260);
      s.close();
    } finally {
      await limited.close();
    }
  });

  it('cuts off a consumer that stops reading with the slow-consumer close code', async () => {
    for (let i = 0; i < 400; i++) {
      await place(10001, { side: 'buy', amount: '0.001', price: String(30000 + i) });
      await place(10002, { side: 'sell', amount: '0.001', price: String(70000 + i) });
    }
    const slow = await TestSocket.open(sim.server.port);
    const healthy = await TestSocket.open(sim.server.port);
    slow.raw.pause();
    const frame = (id: number, event: string): Frame => ({ id, time: nowS(), channel: 'spot.obu', event, payload: ['ob.BTC_USDT.400'] });
    for (let i = 0; i < 6000; i++) slow.send(frame(i, i % 2 === 0 ? 'subscribe' : 'unsubscribe'));
    const pong = await healthy.request({ id: 'alive', time: nowS(), channel: 'spot.ping' }, 20_000);
    expect(pong.channel).toBe('spot.pong');
    slow.raw.resume();
    for (let i = 0; i < 200 && slow.closed === undefined; i++) await new Promise((r) => setTimeout(r, 50));
    expect(slow.closed?.code).toBe(SLOW_CONSUMER_CLOSE);
    expect(healthy.closed).toBeUndefined();
    healthy.close();
  }, 40_000);
});
