// The private futures order routes over HTTP: place, list, get (id and t- text), amend, cancel, cancel all,
// batches, countdown and the size forms; fills reach positions, trades and the account book.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, expectRejected, FUTURES_CONFIG, futuresCaller, type J, setMark } from './futures-helpers.js';
import { signedFetch } from './http-helpers.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  call = futuresCaller(sim);
  await setMark(sim, 'BTC_USDT', '50000');
  await setMark(sim, 'BTC_USD', '50000');
});
afterAll(async () => { await sim.close(); });

const place = (body: J, key?: [string, string], decimal = false) => call('POST', '/futures/usdt/orders', { body, key, decimal });

describe('POST/GET/PUT/DELETE /futures/{settle}/orders', () => {
  it('places a limit order (201) with every FuturesOrder field, lists, gets by id and text, amends and cancels it', async () => {
    const r = await place({ contract: 'BTC_USDT', size: 10, price: '49000', text: 't-first', unknown_key: 1 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const o = r.body;
    expect(o).toMatchObject({
      user: 10001, contract: 'BTC_USDT', size: 10, left: 10, price: '49000', tif: 'gtc', status: 'open', finish_as: '_new',
      is_close: false, is_reduce_only: false, is_liq: false, reduce_only: false, close: false, text: 't-first', fill_price: '0',
      tkfr: '0.00075', mkfr: '-0.0001', refu: 0, iceberg: 0, stp_act: '-', amend_text: '-', auto_size: '',
    });
    expect(typeof o.id).toBe('number');
    expect(typeof o.create_time).toBe('number');
    for (const k of ['update_time', 'stp_id', 'biz_info']) expect(o).toHaveProperty(k);
    expect(o).not.toHaveProperty('finish_time');

    const list = await call('GET', '/futures/usdt/orders', { query: 'status=open&contract=BTC_USDT' });
    expect(list.status).toBe(200);
    expect(list.body.map((x) => x.id)).toEqual([o.id]);
    const byId = await call('GET', `/futures/usdt/orders/${String(o.id)}`);
    expect(byId.body.id).toBe(o.id);
    const byText = await call('GET', '/futures/usdt/orders/t-first');
    expect(byText.body.id).toBe(o.id);

    const amended = await call('PUT', `/futures/usdt/orders/${String(o.id)}`, { body: { size: 20, price: '49100', amend_text: 'bigger' } });
    expect(amended.status, JSON.stringify(amended.body)).toBe(200);
    expect(amended.body).toMatchObject({ size: 20, left: 20, price: '49100', amend_text: 'bigger' });
    await expectRejected(sim, () => call('PUT', `/futures/usdt/orders/${String(o.id)}`, { body: { size: -20 } }), 400, 'INVALID_PARAM_VALUE');

    const cancelled = await call('DELETE', `/futures/usdt/orders/${String(o.id)}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'finished', finish_as: 'cancelled', left: 20 });
    expect(typeof cancelled.body.finish_time).toBe('number');
    await expectRejected(sim, () => call('DELETE', `/futures/usdt/orders/${String(o.id)}`), 400, 'ORDER_FINISHED');
    const finished = await call('GET', '/futures/usdt/orders', { query: 'status=finished' });
    expect(finished.body.map((x) => x.id)).toContain(o.id);
  });

  it('writes sizes as strings under X-Gate-Size-Decimal and reads string sizes', async () => {
    const r = await place({ contract: 'BTC_USDT', size: '-3', price: '51000' }, undefined, true);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ size: '-3', left: '-3', iceberg: '0' });
    const again = await call('GET', `/futures/usdt/orders/${String(r.body.id)}`);
    expect(again.body.size).toBe(-3);
    const svc = await signedFetch(sim.server.port, { path: `/api/v4/futures/usdt/orders/${String(r.body.id)}`, headers: { 'X-Svc-Size-Decimal': '1' } });
    expect((svc.body as J).size).toBe('-3');
    // X-Gate-Size-Decimal decides over X-Svc-Size-Decimal whichever comes first; header names in any case.
    const path = `/api/v4/futures/usdt/orders/${String(r.body.id)}`;
    const both = await signedFetch(sim.server.port, { path, headers: { 'x-svc-size-decimal': '1', 'X-GATE-SIZE-DECIMAL': '0' } });
    expect((both.body as J).size).toBe(-3);
    const gateFirst = await signedFetch(sim.server.port, { path, headers: { 'X-Gate-Size-Decimal': '1', 'X-Svc-Size-Decimal': '0' } });
    expect((gateFirst.body as J).size).toBe('-3');
    await call('DELETE', `/futures/usdt/orders/${String(r.body.id)}`);
  });

  it('fills a market order against a resting one: positions, fill_price, my_trades and the account book', async () => {
    const maker = await place({ contract: 'BTC_USDT', size: 10, price: '50000' });
    expect(maker.status).toBe(201);
    const taker = await place({ contract: 'BTC_USDT', size: -4, price: '0', tif: 'ioc' }, B);
    expect(taker.status, JSON.stringify(taker.body)).toBe(201);
    expect(taker.body).toMatchObject({ status: 'finished', finish_as: 'filled', size: -4, left: 0, fill_price: '50000', price: '0' });
    const m = await call('GET', `/futures/usdt/orders/${String(maker.body.id)}`);
    expect(m.body).toMatchObject({ status: 'open', left: 6, fill_price: '50000' });

    const pa = await call('GET', '/futures/usdt/positions/BTC_USDT');
    expect(pa.body).toMatchObject({ size: 4, entry_price: '50000', value: '20', mode: 'single', mark_price: '50000', pending_orders: 1 });
    const pb = await call('GET', '/futures/usdt/positions/BTC_USDT', { key: B });
    expect(pb.body).toMatchObject({ size: -4, entry_price: '50000', value: '20' });
    // Taker fee 20 × 0.00075 = 0.015 USDT; maker rebate 20 × 0.0001 = 0.002.
    expect(pb.body.pnl_fee).toBe('-0.015');
    expect(pa.body.pnl_fee).toBe('0.002');

    const ta = await call('GET', '/futures/usdt/my_trades', { query: 'contract=BTC_USDT' });
    expect(ta.body[0]).toMatchObject({ contract: 'BTC_USDT', order_id: String(maker.body.id), size: 4, price: '50000', role: 'maker', fee: '-0.002' });
    const tb = await call('GET', '/futures/usdt/my_trades_timerange', { query: 'contract=BTC_USDT&role=taker', key: B });
    expect(tb.body[0]).toMatchObject({ order_id: String(taker.body.id), size: -4, role: 'taker', fee: '0.015' });
    expect(typeof tb.body[0]!.trade_id).toBe('string');

    const fees = await call('GET', '/futures/usdt/account_book', { query: 'type=fee', key: B });
    expect(fees.body[0]).toMatchObject({ type: 'fee', change: '-0.015', contract: 'BTC_USDT', text: `BTC_USDT:${String(taker.body.id)}` });
    await call('DELETE', `/futures/usdt/orders/${String(maker.body.id)}`);
  });

  it('closes a position with close:true (size 0) and refuses reduce-only orders that exceed or increase it', async () => {
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: -5, price: '50000', reduce_only: true }), 400, 'REDUCE_EXCEEDED');
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: 1, price: '50000', reduce_only: true }), 400, 'INCREASE_POSITION');
    await place({ contract: 'BTC_USDT', size: 4, price: '50000' }, B);
    const close = await place({ contract: 'BTC_USDT', size: 0, close: true, price: '0', tif: 'ioc' });
    expect(close.status, JSON.stringify(close.body)).toBe(201);
    expect(close.body).toMatchObject({ is_close: true, is_reduce_only: true, finish_as: 'filled', size: -4 });
    const p = await call('GET', '/futures/usdt/positions/BTC_USDT');
    expect(p.body.size).toBe(0);
    const closes = await call('GET', '/futures/usdt/position_close', { query: 'contract=BTC_USDT' });
    expect(closes.body[0]).toMatchObject({ contract: 'BTC_USDT', side: 'long' });
  });

  it('cancels all with contract, side and exclude_reduce_only filters', async () => {
    const a = await place({ contract: 'BTC_USDT', size: 1, price: '49000' });
    const b = await place({ contract: 'BTC_USDT', size: 1, price: '49500' });
    const c = await place({ contract: 'BTC_USDT', size: -1, price: '52000' });
    await expectRejected(sim, () => call('DELETE', '/futures/usdt/orders'), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => call('DELETE', '/futures/usdt/orders', { query: 'contract=BTC_USDT&side=up' }), 400, 'INVALID_PARAM_VALUE');
    const bids = await call('DELETE', '/futures/usdt/orders', { query: 'contract=BTC_USDT&side=bid' });
    expect(bids.status).toBe(200);
    expect(bids.body.map((o) => o.id).sort()).toEqual([a.body.id, b.body.id].sort());
    const rest = await call('DELETE', '/futures/usdt/orders', { query: 'contract=BTC_USDT' });
    expect(rest.body.map((o) => o.id)).toEqual([c.body.id]);
  });

  it('batch places ≤ 10 with per-item results and batch cancels by id', async () => {
    const r = await call('POST', '/futures/usdt/batch_orders', { body: [
      { contract: 'BTC_USDT', size: 1, price: '49000', text: 't-b1' },
      { contract: 'NOPE_USDT', size: 1, price: '49000', text: 't-b2' },
      { contract: 'BTC_USDT', size: -2, price: '52000' },
    ] });
    expect(r.status).toBe(200);
    expect(r.body.map((x) => x.succeeded)).toEqual([true, false, true]);
    expect(r.body[1]).toMatchObject({ label: 'CONTRACT_NOT_FOUND', text: 't-b2' });
    expect(r.body[0]).toMatchObject({ label: '', detail: '', text: 't-b1', status: 'open' });
    await expectRejected(sim, () => call('POST', '/futures/usdt/batch_orders', {
      body: Array.from({ length: 11 }, () => ({ contract: 'BTC_USDT', size: 1, price: '49000' })),
    }), 400, 'TOO_MANY_ORDERS');
    const ids = [String(r.body[0]!.id), String(r.body[2]!.id), '999999999'];
    const c = await call('POST', '/futures/usdt/batch_cancel_orders', { body: ids });
    expect(c.body).toEqual([
      { id: ids[0], user_id: 10001, succeeded: true, message: '' },
      { id: ids[1], user_id: 10001, succeeded: true, message: '' },
      { id: ids[2], user_id: 10001, succeeded: false, message: 'ORDER_NOT_FOUND' },
    ]);
  });

  it('arms and disarms the countdown cancel', async () => {
    const r = await call('POST', '/futures/usdt/countdown_cancel_all', { body: { timeout: 30, contract: 'BTC_USDT' } });
    expect(r.status).toBe(200);
    expect(r.body.triggerTime).toBeGreaterThan(0);
    const off = await call('POST', '/futures/usdt/countdown_cancel_all', { body: { timeout: 0, contract: 'BTC_USDT' } });
    expect(off.body.triggerTime).toBe(0);
    await expectRejected(sim, () => call('POST', '/futures/usdt/countdown_cancel_all', { body: { timeout: 3 } }), 400, 'INVALID_PARAM_VALUE');
  });

  it('lists orders_timerange and serves the inverse contract under /futures/btc', async () => {
    const r = await call('POST', '/futures/btc/orders', { body: { contract: 'BTC_USD', size: 100, price: '49000.5' } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const tr = await call('GET', '/futures/btc/orders_timerange', { query: 'contract=BTC_USD' });
    expect(tr.body.map((o) => o.id)).toContain(r.body.id);
    await expectRejected(sim, () => call('GET', `/futures/usdt/orders/${String(r.body.id)}`), 404, 'ORDER_NOT_FOUND');
    await call('DELETE', `/futures/btc/orders/${String(r.body.id)}`);
  });
});
