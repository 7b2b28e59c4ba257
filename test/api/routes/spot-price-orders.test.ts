// Price-triggered spot orders over HTTP: validation (labels, nothing changed), firing on the last trade
// price in both directions, failure when the put order is refused, expiry in simulated time, cancels, lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from '../http-helpers.js';

let sim: Simulator;
type J = Record<string, unknown>;

const call = async (method: string, path: string, body?: unknown, query = '', key: [string, string] = ['k1', 's1']) =>
  signedFetch(sim.server.port, { method, path: `/api/v4${path}`, query, body: body === undefined ? '' : JSON.stringify(body), key: key[0], secret: key[1] }) as
    Promise<{ status: number; body: J & J[]; headers: Headers }>;
const BOB: [string, string] = ['k2', 's2'];
const hash = async (): Promise<string> => ((await plainFetch(sim.server.port, '/sim/state_hash')).body as J).state_hash as string;
const advance = (ms: number) => plainFetch(sim.server.port, '/sim/clock', { method: 'POST', body: JSON.stringify({ advance_ms: ms }), headers: { 'Content-Type': 'application/json' } });

/** A trade at `price` between alice (sells) and bob (buys): sets the pair's last price. */
async function tradeAt(price: string): Promise<void> {
  const sell = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.001', price });
  expect(sell.status).toBe(201);
  const buy = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price, time_in_force: 'ioc' }, '', BOB);
  expect(buy.body.finish_as).toBe('filled');
}

const trigger = (price: string, rule: string, put: J = {}, expiration = 3600): J => ({
  market: 'BTC_USDT', trigger: { price, rule, expiration },
  put: { type: 'limit', side: 'buy', price: '50000', amount: '0.001', account: 'normal', time_in_force: 'gtc', ...put },
});

beforeAll(async () => {
  sim = await startTestSimulator({ clock: { type: 'sim', start_ms: Date.UTC(2026, 5, 1) } });
});
afterAll(async () => { await sim.close(); });

describe('price-triggered orders', () => {
  it('refuses malformed triggers with Gate labels and changes nothing', async () => {
    await tradeAt('60000');
    const before = await hash();
    const cases: [J, number, string][] = [
      [{ trigger: { price: '1', rule: '>=', expiration: 1 }, put: {} }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ ...trigger('61000', '>='), market: 'NOPE_USDT' }, 400, 'INVALID_CURRENCY_PAIR'],
      [{ ...trigger('61000', '>='), trigger: undefined }, 400, 'MISSING_REQUIRED_PARAM'],
      [trigger('61000', '>'), 400, 'INVALID_PARAM_VALUE'],
      [trigger('61000.123', '>='), 400, 'INVALID_PRECISION'],
      [trigger('-5', '>='), 400, 'INVALID_PARAM_VALUE'],
      [{ ...trigger('61000', '>='), trigger: { price: '61000', rule: '>=', expiration: -1 } }, 400, 'INVALID_PARAM_VALUE'],
      [trigger('61000', '>=', { side: 'up' }), 400, 'INVALID_PARAM_VALUE'],
      [trigger('61000', '>=', { time_in_force: 'fok' }), 400, 'INVALID_PARAM_VALUE'],
      [trigger('61000', '>=', { account: 'margin' }), 400, 'MARGIN_NOT_SUPPORTED'],
      [trigger('61000', '>=', { amount: '0.0000001' }), 400, 'INVALID_PRECISION'],
      [trigger('61000', '>=', { amount: '0.00001' }), 400, 'AMOUNT_TOO_LITTLE'],
      [trigger('61000', '>=', { amount: '0.0001', price: '5' }), 400, 'AMOUNT_TOO_LITTLE'],
      [trigger('61000', '>=', { text: 'bad label' }), 400, 'INVALID_PARAM_VALUE'],
      [trigger('60000', '>='), 400, 'AUTO_TRIGGER_PRICE_LESS_LAST'],
      [trigger('59000', '>='), 400, 'AUTO_TRIGGER_PRICE_LESS_LAST'],
      [trigger('60000', '<='), 400, 'AUTO_TRIGGER_PRICE_GREATE_LAST'],
    ];
    for (const [body, status, label] of cases) {
      const r = await call('POST', '/spot/price_orders', body);
      expect([r.status, r.body.label], JSON.stringify(body)).toEqual([status, label]);
    }
    expect((await call('GET', '/spot/price_orders', undefined, 'status=open')).body).toEqual([]);
    expect(await hash()).toBe(before);
  });

  it('fires a ">=" trigger when the last price rises to it, placing the put order as the owner', async () => {
    await tradeAt('60000');
    const created = await call('POST', '/spot/price_orders', trigger('60500', '>=', { side: 'sell', price: '65000', text: 't-tp1' }));
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(created.body.id_string).toBe(String(id));
    const open = await call('GET', `/spot/price_orders/${id}`);
    expect(open.body).toMatchObject({ id, user: 10001, market: 'BTC_USDT', status: 'open', fired_order_id: 0,
      trigger: { price: '60500', rule: '>=', expiration: 3600 },
      put: { side: 'sell', price: '65000', amount: '0.00100000000000000000', account: 'normal', text: 't-tp1' } });
    expect(open.body).not.toHaveProperty('ftime');
    await tradeAt('60400');
    expect((await call('GET', `/spot/price_orders/${id}`)).body.status).toBe('open');
    await tradeAt('60500');
    const fired = (await call('GET', `/spot/price_orders/${id}`)).body;
    expect(fired.status).toBe('finish');
    expect(fired.ftime).toBeGreaterThan(0);
    const order = await call('GET', `/spot/orders/${fired.fired_order_id as number}`, undefined, 'currency_pair=BTC_USDT');
    expect(order.body).toMatchObject({ side: 'sell', price: '65000', amount: '0.001', status: 'open', text: 't-tp1' });
    await call('DELETE', `/spot/orders/${fired.fired_order_id as number}`, undefined, 'currency_pair=BTC_USDT');
  });

  it('fires a "<=" trigger when the price falls through it, and several in creation order', async () => {
    await tradeAt('60000');
    const a = (await call('POST', '/spot/price_orders', trigger('59000', '<=', { price: '50000' }))).body.id as number;
    const b = (await call('POST', '/spot/price_orders', trigger('59500', '<=', { price: '50001' }))).body.id as number;
    await tradeAt('58000');
    const fa = (await call('GET', `/spot/price_orders/${a}`)).body;
    const fb = (await call('GET', `/spot/price_orders/${b}`)).body;
    expect([fa.status, fb.status]).toEqual(['finish', 'finish']);
    expect(fa.fired_order_id as number).toBeLessThan(fb.fired_order_id as number);
    await call('DELETE', '/spot/orders', undefined, 'currency_pair=BTC_USDT');
  });

  it('records a failed trigger with the label when the put order is refused', async () => {
    await tradeAt('60000');
    const id = (await call('POST', '/spot/price_orders', trigger('61000', '>=', { side: 'buy', price: '61000', amount: '50' }))).body.id as number;
    await tradeAt('61000');
    expect((await call('GET', `/spot/price_orders/${id}`)).body).toMatchObject({ status: 'failed', reason: 'BALANCE_NOT_ENOUGH', fired_order_id: 0 });
  });

  it('expires in simulated time', async () => {
    await tradeAt('60000');
    const o = (await call('POST', '/spot/price_orders', trigger('70000', '>=', {}, 60))).body.id as number;
    const ctime = (await call('GET', `/spot/price_orders/${o}`)).body.ctime as number;
    await advance(59_000);
    expect((await call('GET', `/spot/price_orders/${o}`)).body.status).toBe('open');
    await advance(2_000);
    expect((await call('GET', `/spot/price_orders/${o}`)).body).toMatchObject({ status: 'expired', ftime: ctime + 60 });
  });

  it('cancels one or all, keeps them private, and lists open and finished with filters', async () => {
    await tradeAt('60000');
    const ids: number[] = [];
    for (const p of ['70001', '70002', '70003']) ids.push((await call('POST', '/spot/price_orders', trigger(p, '>='))).body.id as number);
    expect((await call('GET', `/spot/price_orders/${ids[0]!}`, undefined, '', BOB)).body.label).toBe('ORDER_NOT_FOUND');
    expect((await call('DELETE', `/spot/price_orders/${ids[0]!}`, undefined, '', BOB)).body.label).toBe('ORDER_NOT_FOUND');
    expect((await call('GET', '/spot/price_orders/99999999')).status).toBe(404);
    const one = await call('DELETE', `/spot/price_orders/${ids[0]!}`);
    expect(one.body).toMatchObject({ id: ids[0], status: 'canceled' });
    expect(one.body.ftime).toBeGreaterThan(0);
    expect((await call('DELETE', `/spot/price_orders/${ids[0]!}`)).body.label).toBe('ORDER_CANCELLED');
    const open = (await call('GET', '/spot/price_orders', undefined, 'status=open&market=BTC_USDT')).body;
    expect(open.map((o) => o.id)).toEqual([ids[1], ids[2]]);
    const page = await call('GET', '/spot/price_orders', undefined, 'status=open&limit=1&offset=1');
    expect(page.body.map((o) => o.id)).toEqual([ids[2]]);
    expect(['limit', 'offset', 'total'].map((h) => page.headers.get(`x-pagination-${h}`))).toEqual(['1', '1', '2']);
    expect((await call('GET', '/spot/price_orders', undefined, 'status=open&account=unified')).body).toEqual([]);
    expect((await call('GET', '/spot/price_orders', undefined, 'status=open&market=ETH_USDT')).body).toEqual([]);
    const all = await call('DELETE', '/spot/price_orders', undefined, 'market=BTC_USDT&account=normal');
    expect(all.body.map((o) => [o.id, o.status])).toEqual([[ids[1], 'canceled'], [ids[2], 'canceled']]);
    const finished = (await call('GET', '/spot/price_orders', undefined, 'status=finished&limit=3')).body;
    expect(finished.map((o) => o.id)).toEqual([ids[2], ids[1], ids[0]]);
    for (const [q, label] of [['', 'MISSING_REQUIRED_PARAM'], ['status=done', 'INVALID_PARAM_VALUE'], ['status=open&limit=0', 'INVALID_PARAM_VALUE'],
      ['status=open&market=X_Y', 'INVALID_CURRENCY_PAIR'], ['status=open&account=futures', 'INVALID_PARAM_VALUE']] as const) {
      expect((await call('GET', '/spot/price_orders', undefined, q)).body.label, q).toBe(label);
    }
  });
});
