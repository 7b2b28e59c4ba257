// Unchanged clients against the private futures routes: gate-api's FuturesApi (which sends X-Gate-Size-Decimal: 1
// and so reads sizes as strings) and ccxt's gate class in swap mode (integer sizes).
// ccxt runs with `defaultType: 'swap'` and otherwise its default options: its loadMarkets reads every market
// list (spot, the futures contracts of both settles, delivery and options).
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { ccxtGate, type CcxtGate, gateApiClient, rejection } from '../support/clients.js';
import { FUTURES_CONFIG, setMark } from './futures-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  port = sim.server.port;
  await setMark(sim, 'BTC_USDT', '50000');
  await setMark(sim, 'BTC_USD', '50000');
});
afterAll(async () => { await sim.close(); });

async function swapClient(key: string, secret: string): Promise<CcxtGate> {
  const gate = ccxtGate(port, key, secret, { defaultType: 'swap' });
  await gate.loadMarkets();
  return gate;
}

describe('gate-api FuturesApi', () => {
  it('places, lists, gets and cancels orders, and reads positions and the account', async () => {
    const api = new GateApi.FuturesApi(gateApiClient(port, 'k1', 's1'));
    const order = new GateApi.FuturesOrder();
    order.contract = 'BTC_USDT';
    order.size = '5';
    order.price = '49000';
    order.text = 't-gateapi';
    const placed = (await api.createFuturesOrder('usdt', order)).body;
    expect(placed).toMatchObject({ contract: 'BTC_USDT', size: '5', left: '5', price: '49000', status: 'open', text: 't-gateapi', tif: 'gtc' });
    const id = String(placed.id);
    const open = (await api.listFuturesOrders('usdt', 'open', { contract: 'BTC_USDT' })).body;
    expect(open.map((o) => String(o.id))).toContain(id);
    expect((await api.getFuturesOrder('usdt', id)).body).toMatchObject({ size: '5', status: 'open' });
    const amended = (await api.amendFuturesOrder('usdt', id, Object.assign(new GateApi.FuturesOrderAmendment(), { size: '6' }))).body;
    expect(amended.size).toBe('6');
    expect((await api.cancelFuturesOrder('usdt', id)).body).toMatchObject({ status: 'finished', finishAs: 'cancelled' });
    expect(await rejection(api.getFuturesOrder('usdt', '999999999'))).toEqual([404, 'ORDER_NOT_FOUND']);

    // A fill: 10002 rests a sell, 10001 buys at market.
    const seller = new GateApi.FuturesApi(gateApiClient(port, 'k2', 's2'));
    await seller.createFuturesOrder('usdt', Object.assign(new GateApi.FuturesOrder(), { contract: 'BTC_USDT', size: '-2', price: '50000' }));
    const market = (await api.createFuturesOrder('usdt', Object.assign(new GateApi.FuturesOrder(), {
      contract: 'BTC_USDT', size: '2', price: '0', tif: GateApi.FuturesOrder.Tif.Ioc,
    }))).body;
    expect(market).toMatchObject({ status: 'finished', finishAs: 'filled', fillPrice: '50000' });
    const positions = (await api.listPositions('usdt', { holding: true })).body;
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ contract: 'BTC_USDT', size: '2', entryPrice: '50000', value: '10', mode: 'single' });
    expect((await api.getPosition('usdt', 'BTC_USDT')).body.size).toBe('2');
    const lev = (await api.updatePositionLeverage('usdt', 'BTC_USDT', '5')).body;
    expect(lev.leverage).toBe('5');
    const account = (await api.listFuturesAccounts('usdt')).body;
    expect(account).toMatchObject({ currency: 'USDT', positionMargin: '2', inDualMode: false });
    expect(account.history?.dnw).toBe('10000');
    const trades = (await api.getMyTrades('usdt', { contract: 'BTC_USDT' })).body;
    expect(trades[0]).toMatchObject({ contract: 'BTC_USDT', size: '2', role: 'taker', price: '50000' });
  });
});

describe('ccxt gate (swap)', () => {
  it('creates limit, market and reduce-only orders, fetches and cancels them, and reads positions, balance and trades', async () => {
    const gate = await swapClient('k1', 's1');
    const maker = await swapClient('k2', 's2');
    const symbol = 'BTC/USDT:USDT';
    expect(gate.market(symbol).contractSize).toBe(0.0001);
    const held = (await gate.fetchPositions([symbol])).find((p) => p.symbol === symbol)?.contracts ?? 0;

    const limit = await gate.createOrder(symbol, 'limit', 'buy', 3, 48000);
    expect(limit).toMatchObject({ symbol, type: 'limit', side: 'buy', amount: 3, price: 48000, status: 'open', remaining: 3 });
    const fetched = await gate.fetchOrder(String(limit.id), symbol);
    expect(fetched).toMatchObject({ id: limit.id, status: 'open', amount: 3 });
    const open = await gate.fetchOpenOrders(symbol);
    expect(open.map((o) => o.id)).toContain(limit.id);
    const cancelled = await gate.cancelOrder(String(limit.id), symbol);
    expect(cancelled.status).toBe('canceled');

    await maker.createOrder(symbol, 'limit', 'sell', 4, 50000);
    const bought = await gate.createOrder(symbol, 'market', 'buy', 4);
    expect(bought).toMatchObject({ status: 'closed', filled: 4, average: 50000 });

    const positions = await gate.fetchPositions([symbol]);
    const long = positions.find((p) => p.symbol === symbol)!;
    expect(long).toMatchObject({ side: 'long', contracts: held + 4, entryPrice: 50000, contractSize: 0.0001 });

    await maker.createOrder(symbol, 'limit', 'buy', 1, 50000);
    const reduce = await gate.createOrder(symbol, 'market', 'sell', 1, undefined, { reduceOnly: true });
    expect(reduce).toMatchObject({ status: 'closed', filled: 1, reduceOnly: true });
    await expect(gate.createOrder(symbol, 'limit', 'sell', 10, 50000, { reduceOnly: true })).rejects.toThrow(/REDUCE_EXCEEDED/);

    const lev = await gate.setLeverage(7, symbol);
    expect(lev).toMatchObject({ leverage: '7' });

    const balance = await gate.fetchBalance({ type: 'swap' });
    expect(balance.USDT?.total).toBeCloseTo(Number((await new GateApi.FuturesApi(gateApiClient(port, 'k1', 's1')).listFuturesAccounts('usdt')).body.total), 6);

    const trades = await gate.fetchMyTrades(symbol);
    expect(trades.length).toBeGreaterThanOrEqual(2);
    expect(trades.every((t) => t.symbol === symbol)).toBe(true);
  });
});
