// Futures price-triggered orders over HTTP (/futures/{settle}/price_orders): labels on bad input with nothing
// changed, firing on the mark, index and last price, position TP/SL closes, a refused order finishing `failed`,
// lists, cancels, the record round trip, and gate-api's FuturesApi. Futures orders the tests need (makers,
// positions) go straight through the gateway (the /futures/orders routes live elsewhere).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import type { ResultCode } from '../../src/core/result-code.js';
import { priceOrderFromRecord, priceOrderRecord } from '../../src/api/price-orders/price-order-record.js';
import { type FuturesInitial, futuresPlaceCommand } from '../../src/gate/futures-price-order-request.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { TEST_CONFIG } from './http-helpers.js';
import { gateApiClient, rejection } from '../support/clients.js';
import { plainFetch, signedFetch, startTestSimulator } from './http-helpers.js';
import { ALICE, BOB, FUTURES_TEST_CONFIG } from './futures-price-orders-config.js';

let sim: Simulator;
type J = Record<string, unknown>;
const BOB_KEY: [string, string] = ['k2', 's2'];

const call = async (method: string, path: string, body?: unknown, query = '', key: [string, string] = ['k1', 's1']) =>
  signedFetch(sim.server.port, { method, path: `/api/v4${path}`, query, body: body === undefined ? '' : JSON.stringify(body), key: key[0], secret: key[1] }) as
    Promise<{ status: number; body: J & J[]; headers: Headers }>;
const control = async (path: string, body: unknown) =>
  (await plainFetch(sim.server.port, `/sim/futures/${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })) as { status: number; body: J };
const hash = async (): Promise<string> => ((await plainFetch(sim.server.port, '/sim/state_hash')).body as J).state_hash as string;

const ex = () => sim.gateway.exchange;
const market = () => ex().futures.marketOf[0]!;
/** A futures order of `uid` on BTC_USDT straight through the gateway. */
function order(uid: number, size: number, price: string, more: Partial<FuturesInitial> = {}): Promise<ResultCode> {
  const c = new Command();
  futuresPlaceCommand(ex(), uid, market(), { contract: 'BTC_USDT', size, price, close: false, tif: price === '0' ? 'ioc' : 'gtc', text: '',
    reduce_only: false, auto_size: '', ...more }, c);
  return new Promise((resolve) => sim.gateway.submit(c, (code) => resolve(code)));
}
/** Cancels every open BTC_USDT order of `uid` (earlier tests leave resting bids). */
function cancelAll(uid: number): Promise<ResultCode> {
  const c = new Command();
  c.type = CommandType.CancelAll; c.uid = uid; c.market = market();
  return new Promise((resolve) => sim.gateway.submit(c, (code) => resolve(code)));
}
const positionOf = (uid: number): number => {
  const r = ex().futures.positions.find(uid, market(), 0);
  return r < 0 ? 0 : ex().futures.positions.size[r]!;
};
/** A trade of 1 contract at `price`: bob rests, alice takes (sets the last price). */
async function tradeAt(price: string): Promise<void> {
  expect(await order(BOB, -1, price)).toBe(0);
  expect(await order(ALICE, 1, price, { tif: 'ioc' })).toBe(0);
}
const mark = async (price: string, index = price) => expect((await control('prices', { contract: 'BTC_USDT', mark: price, index })).status).toBe(200);

const trig = (initial: J, trigger: J, more: J = {}): J => ({
  initial: { contract: 'BTC_USDT', size: 2, price: '60000', ...initial }, trigger: { price_type: 1, rule: 1, expiration: 3600, ...trigger }, ...more,
});

beforeAll(async () => {
  sim = await startTestSimulator(FUTURES_TEST_CONFIG);
  await mark('60000');
});
afterAll(async () => { await sim.close(); });

describe('futures price-triggered orders', () => {
  it('refuses bad requests with Gate labels and changes nothing', async () => {
    const before = await hash();
    const cases: [string, J, number, string][] = [
      ['usdt', { trigger: { price: '1', rule: 1 } }, 400, 'MISSING_REQUIRED_PARAM'],
      ['usdt', trig({ contract: 'NOPE_USDT' }, { price: '61000' }), 400, 'CONTRACT_NOT_FOUND'],
      ['btc', trig({}, { price: '61000' }), 400, 'CONTRACT_NOT_FOUND'],
      ['eur', trig({}, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({}, { price: '61000', price_type: 3 }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({}, { price: '61000', strategy_type: 1 }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({}, { price: '61000', rule: 3 }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({}, { price: '61000.001' }), 400, 'INVALID_PRECISION'],
      ['usdt', trig({}, { price: '-5' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({}, { price: '61000', expiration: -1 }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ size: 1.5 }, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ size: 200000 }, { price: '61000' }), 400, 'SIZE_TOO_LARGE'],
      ['usdt', trig({ size: 0 }, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ size: 1, close: true }, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ price: '60000.05' }, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ price: '0', tif: 'gtc' }, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ tif: 'fok' }, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ text: 'no prefix' }, { price: '61000' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({}, { price: '61000' }, { order_type: 'whatever' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ size: 1 }, { price: '61000' }, { order_type: 'close-long-position' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({ size: 1 }, { price: '61000' }, { order_type: 'plan-close-long-position' }), 400, 'INVALID_PARAM_VALUE'],
      ['usdt', trig({}, { price: '60000' }), 400, 'AUTO_TRIGGER_PRICE_LESS_LAST'],
      ['usdt', trig({}, { price: '61000', rule: 2 }), 400, 'AUTO_TRIGGER_PRICE_GREATE_LAST'],
    ];
    for (const [settle, body, status, label] of cases) {
      const r = await call('POST', `/futures/${settle}/price_orders`, body);
      expect([r.status, r.body.label], JSON.stringify(body)).toEqual([status, label]);
    }
    for (const [q, label] of [['', 'MISSING_REQUIRED_PARAM'], ['status=all', 'INVALID_PARAM_VALUE'], ['status=open&contract=NOPE', 'CONTRACT_NOT_FOUND']]) {
      expect((await call('GET', '/futures/usdt/price_orders', undefined, q)).body.label).toBe(label);
    }
    expect((await call('GET', '/futures/usdt/price_orders/123')).body.label).toBe('ORDER_NOT_FOUND');
    expect((await call('GET', '/futures/usdt/price_orders', undefined, 'status=open')).body).toEqual([]);
    expect(await hash()).toBe(before);
  });

  it('fires on the mark price and places the initial order as a FuturesOrder', async () => {
    await mark('60000');
    const created = await call('POST', '/futures/usdt/price_orders', trig({ size: 3, price: '59000', text: 't-mk1' }, { price: '60500' }));
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const open = (await call('GET', `/futures/usdt/price_orders/${id}`)).body;
    expect(open).toMatchObject({ id, id_string: String(id), user: ALICE, status: 'open', trade_id: 0, order_type: '',
      initial: { contract: 'BTC_USDT', size: 3, price: '59000', tif: 'gtc', text: 't-mk1', is_close: false, is_reduce_only: false },
      trigger: { strategy_type: 0, price_type: 1, price: '60500', rule: 1, expiration: 3600 } });
    expect(open).not.toHaveProperty('finish_as');
    expect(open).not.toHaveProperty('finish_time');
    await mark('60400');
    expect((await call('GET', `/futures/usdt/price_orders/${id}`)).body.status).toBe('open');
    await mark('60500', '60300');
    const fired = (await call('GET', `/futures/usdt/price_orders/${id}`)).body;
    expect(fired).toMatchObject({ status: 'finished', finish_as: 'succeeded', reason: '' });
    const orderId = fired.trade_id as number;
    expect(orderId).toBeGreaterThan(0);
    const O = ex().orders;
    const r = O.find(orderId);
    expect(r).toBeGreaterThanOrEqual(0);
    expect([O.uid[r], O.market[r], O.left[r], O.price[r], O.text[r]]).toEqual([ALICE, market(), 3, 5_900_000, 't-mk1']);
    const finished = (await call('GET', '/futures/usdt/price_orders', undefined, 'status=finished&contract=BTC_USDT')).body;
    expect(finished.map((o) => o.id)).toContain(id);
    expect((await call('DELETE', `/futures/usdt/price_orders/${id}`)).body.label).toBe('ORDER_CLOSED');
  });

  it('fires on the index price and on the last trade price', async () => {
    await mark('60000');
    const byIndex = (await call('POST', '/futures/usdt/price_orders', trig({ size: 1, price: '58000' }, { price_type: 2, price: '59500', rule: 2 }))).body.id as number;
    const byLast = (await call('POST', '/futures/usdt/price_orders', trig({ size: 1, price: '58000' }, { price_type: 0, price: '59900', rule: 2 }))).body.id as number;
    await mark('59400', '60000'); // the mark passes both prices: neither watches it
    const status = async (id: number) => (await call('GET', `/futures/usdt/price_orders/${id}`)).body.status;
    expect([await status(byIndex), await status(byLast)]).toEqual(['open', 'open']);
    await mark('60000', '59500');
    expect([await status(byIndex), await status(byLast)]).toEqual(['finished', 'open']);
    await tradeAt('59900');
    expect(await status(byLast)).toBe('finished');
  });

  it('closes a long position with a close-long-position stop on the mark', async () => {
    await mark('60000');
    for (const uid of [ALICE, BOB]) expect(await cancelAll(uid)).toBe(0);
    await tradeAt('60000'); // alice +1
    const size = positionOf(ALICE);
    expect(size).toBeGreaterThan(0);
    const sl = await call('POST', '/futures/usdt/price_orders', {
      initial: { contract: 'BTC_USDT', size: 0, price: '0', tif: 'ioc', close: true, reduce_only: true },
      trigger: { price_type: 1, price: '59000', rule: 2 }, order_type: 'close-long-position',
    });
    expect([sl.status, sl.body.label]).toEqual([201, undefined]);
    expect(await order(BOB, size, '59000')).toBe(0); // a bid the close sells into
    await mark('59000');
    const done = (await call('GET', `/futures/usdt/price_orders/${sl.body.id as number}`)).body;
    expect(done).toMatchObject({ status: 'finished', finish_as: 'succeeded', order_type: 'close-long-position',
      initial: { size: 0, price: '0', tif: 'ioc', is_close: true, is_reduce_only: true } });
    expect(positionOf(ALICE)).toBe(0);
  });

  it('finishes failed with the label when the engine refuses the order', async () => {
    await mark('60000');
    expect(positionOf(ALICE)).toBe(0);
    const id = (await call('POST', '/futures/usdt/price_orders', {
      initial: { contract: 'BTC_USDT', size: 0, price: '0', close: true }, trigger: { price_type: 1, price: '60100', rule: 1 },
    })).body.id as number;
    await mark('60100');
    expect((await call('GET', `/futures/usdt/price_orders/${id}`)).body).toMatchObject({ status: 'finished', finish_as: 'failed', reason: 'POSITION_EMPTY', trade_id: 0 });
  });

  it('lists, cancels one and all, keeps owners and products apart', async () => {
    await mark('60000');
    const ids: number[] = [];
    for (const p of ['61000', '62000', '63000']) ids.push((await call('POST', '/futures/usdt/price_orders', trig({ size: 1, price: '59000' }, { price: p }))).body.id as number);
    const open = await call('GET', '/futures/usdt/price_orders', undefined, 'status=open&limit=2&offset=1');
    expect(open.body.map((o) => o.id)).toEqual(ids.slice(1));
    expect((await call('GET', '/spot/price_orders', undefined, 'status=open')).body).toEqual([]);
    expect((await call('GET', '/futures/btc/price_orders', undefined, 'status=open')).body).toEqual([]);
    expect((await call('GET', `/spot/price_orders/${ids[0]}`)).body.label).toBe('ORDER_NOT_FOUND');
    expect((await call('GET', `/futures/usdt/price_orders/${ids[0]}`, undefined, '', BOB_KEY)).body.label).toBe('ORDER_NOT_FOUND');
    expect((await call('DELETE', `/futures/usdt/price_orders/${ids[0]}`, undefined, '', BOB_KEY)).body.label).toBe('ORDER_NOT_FOUND');
    const one = await call('DELETE', `/futures/usdt/price_orders/${ids[0]}`);
    expect(one.body).toMatchObject({ id: ids[0], status: 'finished', finish_as: 'cancelled' });
    expect((await call('DELETE', `/futures/usdt/price_orders/${ids[0]}`)).body.label).toBe('ORDER_CANCELLED');
    expect((await call('DELETE', '/futures/usdt/price_orders', undefined, 'contract=NOPE')).body.label).toBe('CONTRACT_NOT_FOUND');
    const rest = await call('DELETE', '/futures/usdt/price_orders', undefined, 'contract=BTC_USDT');
    expect(rest.body.map((o) => o.id)).toEqual(ids.slice(1));
    expect((await call('GET', '/futures/usdt/price_orders', undefined, 'status=open')).body).toEqual([]);
  });

  it('expires on the simulated clock', async () => {
    await mark('60000');
    const id = (await call('POST', '/futures/usdt/price_orders', trig({ size: 1, price: '59000' }, { price: '61000', expiration: 60 }))).body.id as number;
    await plainFetch(sim.server.port, '/sim/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 61_000 }), headers: { 'Content-Type': 'application/json' } });
    expect((await call('GET', `/futures/usdt/price_orders/${id}`)).body).toMatchObject({ status: 'finished', finish_as: 'expired' });
  });

  it('reads a trigger back from its record unchanged', async () => {
    await mark('60000');
    const created = await call('POST', '/futures/usdt/price_orders', trig({ size: -2, price: '61000', reduce_only: true }, { price: '55000', rule: 2, price_type: 0 }));
    expect(created.body.label).toBeUndefined();
    const id = created.body.id as number;
    const o = sim.server.deps.priceTriggers.store.get(id)!;
    const row = ex().records.get(`price_order/${id}`)!;
    expect(JSON.parse(row.value)).toEqual(JSON.parse(JSON.stringify(priceOrderRecord(ex(), o))));
    expect(priceOrderFromRecord(ex(), JSON.parse(row.value), row.orderId)).toEqual(o);
    await call('DELETE', `/futures/usdt/price_orders/${id}`);
  });
});

describe('gate-api FuturesApi price-triggered orders', () => {
  it('creates, lists, reads and cancels', async () => {
    await mark('60000');
    const api = new GateApi.FuturesApi(gateApiClient(sim.server.port, 'k1', 's1'));
    const req = new GateApi.FuturesPriceTriggeredOrder();
    req.initial = Object.assign(new GateApi.FuturesInitialOrder(), { contract: 'BTC_USDT', size: -1, price: '62000', tif: 'gtc' as const });
    req.trigger = Object.assign(new GateApi.FuturesPriceTrigger(), {
      strategyType: GateApi.FuturesPriceTrigger.StrategyType.NUMBER_0, priceType: GateApi.FuturesPriceTrigger.PriceType.NUMBER_1,
      price: '61000', rule: GateApi.FuturesPriceTrigger.Rule.NUMBER_1, expiration: 0,
    });
    const created = await api.createPriceTriggeredOrder('usdt', req);
    const id = Number(created.body.id);
    expect(id).toBeGreaterThan(0);
    const list = await api.listPriceTriggeredOrders('usdt', 'open', { contract: 'BTC_USDT' });
    expect(list.body.map((o) => [Number(o.id), o.initial.size, o.trigger.price, o.status])).toEqual([[id, -1, '61000', 'open']]);
    const got = await api.getPriceTriggeredOrder('usdt', id);
    expect(got.body.initial.contract).toBe('BTC_USDT');
    const cancelled = await api.cancelPriceTriggeredOrder('usdt', id);
    expect([cancelled.body.status, cancelled.body.finishAs]).toEqual(['finished', 'cancelled']);
    expect(await rejection(api.getPriceTriggeredOrder('usdt', 999_999_999))).toEqual([404, 'ORDER_NOT_FOUND']);
    const all = await api.cancelPriceTriggeredOrderList('usdt', { contract: 'BTC_USDT' });
    expect(all.body).toEqual([]);
  });
});

describe('futures triggers across a restart of a journaled server', () => {
  it('come back open, fire once on the mark, and keep their finished state', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringmatch-fpo-'));
    const journal = join(dir, 'j.journal');
    const start = (): Promise<Simulator> => startSimulator({ ...TEST_CONFIG, ...FUTURES_TEST_CONFIG, rate_limits: false,
      engine: { journal, fsync: 'batch' } }, { host: '127.0.0.1', port: 0 });
    const outer = sim;
    try {
      sim = await start();
      await mark('60000');
      const open = (await call('POST', '/futures/usdt/price_orders', trig({ size: 1, price: '59000' }, { price: '61000' }))).body.id as number;
      const done = (await call('POST', '/futures/usdt/price_orders', trig({ size: 1, price: '59000' }, { price: '60500' }))).body.id as number;
      await mark('60600');
      const fired = (await call('GET', `/futures/usdt/price_orders/${done}`)).body;
      expect(fired.finish_as).toBe('succeeded');
      await sim.close();
      sim = await start();
      expect((await call('GET', `/futures/usdt/price_orders/${done}`)).body).toEqual(fired);
      expect((await call('GET', '/futures/usdt/price_orders', undefined, 'status=open')).body.map((o) => o.id)).toEqual([open]);
      const lastId = ex().lastOrderId;
      await mark('61000');
      const now = (await call('GET', `/futures/usdt/price_orders/${open}`)).body;
      expect(now.finish_as).toBe('succeeded');
      expect(ex().orders.find(now.trade_id as number)).toBeGreaterThanOrEqual(0);
      expect(ex().lastOrderId).toBe(lastId + 1); // fired once, nothing else
      const next = (await call('POST', '/futures/usdt/price_orders', trig({ size: 1, price: '59000' }, { price: '62000' }))).body.id as number;
      expect(next).toBeGreaterThan(open);
    } finally {
      await sim.close();
      sim = outer;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
