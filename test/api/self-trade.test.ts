// A self-trade (a user's order meeting its own resting order, no STP group) is two trades of the user: the
// maker row and the taker row, each with its order, side, role and fee, over REST, the WebSocket and the
// embedded API, so that the balance reconciles from the trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Big from 'big.js';
import type { Simulator } from '../../src/main.js';
import { EmbeddedExchange } from '../../src/sim/embedded-exchange.js';
import { signedFetch, startTestSimulator, TEST_CONFIG } from './http-helpers.js';
import { nowS, subAuth, TestSocket } from './ws/ws-client.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startTestSimulator();
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

type Row = Record<string, string>;
const post = async (body: Record<string, string>): Promise<Row> =>
  (await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify(body) })).body as Row;
const balance = async (cur: string): Promise<Big> => {
  const r = await signedFetch(port, { path: '/api/v4/spot/accounts', query: `currency=${cur}` });
  const [b] = r.body as Row[];
  return new Big(b!.available!).plus(b!.locked!);
};

describe('self-trade', () => {
  it('lists both sides as two trades of the user, each with its role and fee', async () => {
    const ws = await TestSocket.open(port);
    const time = nowS();
    await ws.request({ id: 1, time, channel: 'spot.usertrades', event: 'subscribe', payload: ['!all'],
      auth: subAuth('k1', 's1', 'spot.usertrades', 'subscribe', time) });
    const btc0 = await balance('BTC');
    const usdt0 = await balance('USDT');
    const sell = await post({ currency_pair: 'BTC_USDT', side: 'sell', amount: '0.01', price: '15000', time_in_force: 'gtc' });
    const buy = await post({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '15000', time_in_force: 'ioc' });
    expect([sell.finish_as, buy.finish_as]).toEqual(['open', 'filled']);

    const maker = await signedFetch(port, { path: '/api/v4/spot/my_trades', query: `currency_pair=BTC_USDT&order_id=${sell.id}` });
    const [m] = maker.body as Row[];
    expect(maker.body).toHaveLength(1);
    expect(m).toMatchObject({ order_id: sell.id, side: 'sell', role: 'maker', amount: '0.01', price: '15000',
      fee: '0.15', fee_currency: 'USDT' });
    const taker = await signedFetch(port, { path: '/api/v4/spot/my_trades', query: `currency_pair=BTC_USDT&order_id=${buy.id}` });
    const [t] = taker.body as Row[];
    expect(taker.body).toHaveLength(1);
    expect(t).toMatchObject({ order_id: buy.id, side: 'buy', role: 'taker', amount: '0.01', price: '15000',
      fee: '0.00002', fee_currency: 'BTC' });
    expect(t!.id).toBe(m!.id);

    const all = (await signedFetch(port, { path: '/api/v4/spot/my_trades', query: 'currency_pair=BTC_USDT' })).body as Row[];
    expect(all.map((r) => r.role)).toEqual(['taker', 'maker']);
    const paged = (await signedFetch(port, { path: '/api/v4/spot/my_trades', query: 'currency_pair=BTC_USDT&limit=1&page=2' })).body as Row[];
    expect(paged.map((r) => r.role)).toEqual(['maker']);

    // The balance reconciles from the trades: what each row paid and received, less its fee.
    const btc = all.reduce((a, r) => a.plus(r.side === 'buy' ? r.amount! : `-${r.amount}`).minus(r.fee_currency === 'BTC' ? r.fee! : '0'), new Big(0));
    const usdt = all.reduce((a, r) => a.plus(new Big(r.amount!).times(r.price!).times(r.side === 'sell' ? 1 : -1))
      .minus(r.fee_currency === 'USDT' ? r.fee! : '0'), new Big(0));
    expect((await balance('BTC')).minus(btc0).eq(btc)).toBe(true);
    expect((await balance('USDT')).minus(usdt0).eq(usdt)).toBe(true);

    const push = await ws.next((f) => f.channel === 'spot.usertrades' && f.event === 'update');
    const rows = push.result as Row[];
    expect(rows.map((r) => [r.role, r.order_id, r.fee])).toEqual([['taker', buy.id, '0.00002'], ['maker', sell.id, '0.15']]);
    ws.close();
  });

  it('the embedded API lists both sides', () => {
    const ex = EmbeddedExchange.create({ currency_pairs: TEST_CONFIG.currency_pairs, users: [{ uid: 1, balances: { spot: { BTC: '1', USDT: '1000' } } }] });
    const sell = ex.createOrder(1, { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.01', price: '15000' });
    ex.createOrder(1, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '15000', time_in_force: 'ioc' });
    expect(ex.myTrades(1).map((t) => t.role)).toEqual(['taker', 'maker']);
    expect(ex.myTrades(1, { order_id: sell.id }).map((t) => [t.role, t.side])).toEqual([['maker', 'sell']]);
  });
});
