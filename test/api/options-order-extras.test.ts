// Options amend (PUT /options/orders/{id}), countdown cancel (POST /options/countdown_cancel_all) and iceberg orders
// over HTTP, with unchanged clients: gate-api's OptionsApi (amendOptionsOrder, countdownCancelAllOptions,
// createOptionsOrder with iceberg) and ccxt with default options (createOrder with iceberg through params, its
// implicit privateOptionsPutOrdersOrderId, and editOrder, which ccxt sends to the futures route for an option
// market as it does against Gate). Holds follow an amend exactly; bad input answers its label and changes nothing;
// the countdown runs out on the simulated clock and cancels only its scope.
import ccxt from 'ccxt';
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { ccxtGate, gateApiClient, rejection } from '../support/clients.js';
import { type Call, expectRejected, stateHash } from './futures-helpers.js';
import { CALL, PUT, simClock, startIndexed } from './options-helpers.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  ({ sim, call } = await startIndexed());
});
afterAll(async () => { await sim.close(); });

const account = async (key: [string, string] = ['k1', 's1']): Promise<Record<string, unknown>> => (await call('GET', '/options/accounts', { key })).body;

describe('options amend', () => {
  it('reprices and resizes a resting order with gate-api, re-holding exactly', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k1', 's1'));
    const o = new GateApi.OptionsOrder();
    o.contract = CALL; o.size = 3; o.price = '500';
    const placed = (await api.createOptionsOrder(o)).body;
    // A buy holds its premium 3 × 0.01 × 500 = 15 and the fee cap 12.5 % of it = 1.875
    expect(await account()).toMatchObject({ bid_order_margin: '16.875' });
    const amend = new GateApi.AmendOptionsOrderRequest();
    amend.contract = CALL; amend.price = '400'; amend.size = 5;
    const amended = (await api.amendOptionsOrder(Number(placed.id), amend)).body;
    expect(amended).toMatchObject({ id: placed.id, size: 5, left: 5, price: '400', status: 'open' });
    // 5 × 0.01 × 400 = 20, + 2.5
    expect(await account()).toMatchObject({ bid_order_margin: '22.5' });
    expect((await call('GET', '/options/order_book', { query: `contract=${CALL}` })).body.bids).toEqual([{ p: '400', s: 5 }]);
    // A sell fills part; an amend to a total below what filled is refused and changes nothing.
    expect((await call('POST', '/options/orders', { key: B, body: { contract: CALL, size: -2, price: '400' } })).status).toBe(201);
    await expectRejected(sim, () => call('PUT', `/options/orders/${String(placed.id)}`, { body: { contract: CALL, price: '400', size: 2 } }), 400,
      'INVALID_PARAM_VALUE');
    const down = await call('PUT', `/options/orders/${String(placed.id)}`, { body: { contract: CALL, price: '400', size: 4 } });
    expect(down.body).toMatchObject({ size: 4, left: 2 });
    expect(await account()).toMatchObject({ bid_order_margin: '9' }); // 2 left × 4 + 12.5 %
    await call('DELETE', `/options/orders/${String(placed.id)}`);
  });

  it('answers each bad amendment with its label and changes nothing', async () => {
    const placed = (await call('POST', '/options/orders', { key: B, body: { contract: PUT, size: -2, price: '300' } })).body;
    const id = String(placed.id);
    const cases: [unknown, [string, string], number, string][] = [
      [{ contract: PUT, price: '300', size: -3 }, ['k1', 's1'], 404, 'ORDER_NOT_FOUND'],
      [{ contract: CALL, price: '300', size: -3 }, B, 400, 'INVALID_PARAM_VALUE'],
      [{ contract: 'nope', price: '300', size: -3 }, B, 400, 'CONTRACT_NOT_FOUND'],
      [{ price: '300', size: -3 }, B, 400, 'MISSING_REQUIRED_PARAM'],
      [{ contract: PUT, size: -3 }, B, 400, 'MISSING_REQUIRED_PARAM'],
      [{ contract: PUT, price: '300' }, B, 400, 'MISSING_REQUIRED_PARAM'],
      [{ contract: PUT, price: '300', size: 3 }, B, 400, 'INVALID_PARAM_VALUE'],
      [{ contract: PUT, price: '300.05', size: -3 }, B, 400, 'INVALID_PARAM_VALUE'],
      [{ contract: PUT, price: '0', size: -3 }, B, 400, 'INVALID_PARAM_VALUE'],
      [{ contract: PUT, price: '300', size: -100_001 }, B, 400, 'SIZE_TOO_LARGE'],
      [{ contract: PUT, price: '300', size: -90_000 }, B, 400, 'INSUFFICIENT_AVAILABLE'],
    ];
    for (const [body, key, status, label] of cases) await expectRejected(sim, () => call('PUT', `/options/orders/${id}`, { body, key }), status, label);
    await expectRejected(sim, () => call('PUT', '/options/orders/999999', { body: { contract: PUT, price: '1', size: 1 }, key: B }), 404, 'ORDER_NOT_FOUND');
    await call('DELETE', `/options/orders/${id}`, { key: B });
    await expectRejected(sim, () => call('PUT', `/options/orders/${id}`, { body: { contract: PUT, price: '300', size: -3 }, key: B }), 400, 'ORDER_FINISHED');
  });

  it("works through ccxt's implicit options route; ccxt's editOrder goes to the futures route, as against Gate", async () => {
    const gate = ccxtGate(sim.server.port, 'k1', 's1');
    await gate.loadMarkets();
    const symbol = 'BTC/USDT:USDT-260102-60000-C';
    const order = await gate.createOrder(symbol, 'limit', 'buy', 2, 300);
    const implicit = gate as unknown as { privateOptionsPutOrdersOrderId: (p: object) => Promise<Record<string, unknown>> };
    const raw = await implicit.privateOptionsPutOrdersOrderId({ order_id: order.id, contract: CALL, price: '350', size: 3 });
    expect(raw).toMatchObject({ size: 3, price: '350' });
    expect(await gate.fetchOrder(order.id!, symbol)).toMatchObject({ amount: 3, price: 350, status: 'open' });
    const hash = await stateHash(sim);
    // PUT /futures/USDT/orders/{id}: this user has no futures account (USER_NOT_FOUND, ccxt's AccountNotEnabled).
    await expect(gate.editOrder(order.id!, symbol, 'limit', 'buy', 4, 360)).rejects.toThrow(ccxt.AccountNotEnabled);
    expect(await stateHash(sim)).toBe(hash);
    expect(await gate.cancelOrder(order.id!, symbol)).toMatchObject({ status: 'canceled' });
  });
});

describe('options iceberg orders', () => {
  it('show only their iceberg in the book and refill it as it fills', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k2', 's2'));
    const o = new GateApi.OptionsOrder();
    o.contract = CALL; o.size = -10; o.price = '1200'; o.iceberg = 3;
    const placed = (await api.createOptionsOrder(o)).body;
    expect(placed).toMatchObject({ size: -10, iceberg: 3, left: -10 });
    const book = async () => (await call('GET', '/options/order_book', { query: `contract=${CALL}` })).body.asks;
    expect(await book()).toEqual([{ p: '1200', s: 3 }]);
    expect((await call('POST', '/options/orders', { body: { contract: CALL, size: 4, price: '1200', tif: 'ioc' } })).body).toMatchObject({ left: 0 });
    expect(await book()).toEqual([{ p: '1200', s: 2 }]); // 3 shown and filled, 3 shown again and 1 of them filled
    expect((await call('GET', `/options/orders/${String(placed.id)}`, { key: B })).body).toMatchObject({ left: -6, iceberg: 3 });
    const gate = ccxtGate(sim.server.port, 'k2', 's2');
    await gate.loadMarkets();
    const viaCcxt = await gate.createOrder('BTC/USDT:USDT-260102-60000-C', 'limit', 'sell', 5, 1300, { iceberg: 2 });
    expect((await call('GET', `/options/orders/${String(viaCcxt.id)}`, { key: B })).body).toMatchObject({ size: -5, iceberg: 2 });
    await expectRejected(sim, () => call('POST', '/options/orders', { body: { contract: CALL, size: 1, price: '1', iceberg: -1 } }), 400, 'INVALID_PARAM_VALUE');
    expect((await call('DELETE', '/options/orders', { key: B })).body).toHaveLength(2);
  });
});

describe('options countdown cancel', () => {
  it('cancels the scope it names when the simulated clock passes the deadline, unless renewed or disarmed', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k2', 's2'));
    await call('POST', '/options/orders', { key: B, body: { contract: CALL, size: -1, price: '2000' } });
    await call('POST', '/options/orders', { key: B, body: { contract: PUT, size: -1, price: '2000' } });
    const task = new GateApi.CountdownCancelAllOptionsTask();
    task.timeout = 10; task.contract = CALL;
    const now = sim.gateway.clock.nowUs() / 1000;
    const armed = (await api.countdownCancelAllOptions(task)).body;
    expect(Number(armed.triggerTime)).toBe(Math.floor(now + 10_000));
    const open = async () => ((await call('GET', '/options/orders', { key: B, query: 'status=open' })).body).map((o) => o.contract).sort();
    await simClock(sim, { advance_ms: 5000 });
    expect(await open()).toEqual([CALL, PUT].sort());
    await simClock(sim, { advance_ms: 6000 });
    expect(await open()).toEqual([PUT]);
    // The underlying's scope, disarmed before it runs out, cancels nothing; armed again, it does.
    expect((await call('POST', '/options/countdown_cancel_all', { key: B, body: { timeout: 5, underlying: 'BTC_USDT' } })).status).toBe(200);
    expect((await call('POST', '/options/countdown_cancel_all', { key: B, body: { timeout: 0, underlying: 'BTC_USDT' } })).body).toEqual({ triggerTime: 0 });
    await simClock(sim, { advance_ms: 6000 });
    expect(await open()).toEqual([PUT]);
    await call('POST', '/options/countdown_cancel_all', { key: B, body: { timeout: 5 } });
    await simClock(sim, { advance_ms: 6000 });
    expect(await open()).toEqual([]);
    const orders = (await call('GET', '/options/orders', { key: B, query: 'status=finished&limit=2' })).body;
    expect(orders[0]).toMatchObject({ finish_as: 'cancelled' });
  });

  it('answers bad input with its label and changes nothing', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k3', 's3'));
    const task = new GateApi.CountdownCancelAllOptionsTask();
    task.timeout = 10;
    expect(await rejection(api.countdownCancelAllOptions(task))).toEqual([400, 'USER_NOT_FOUND']);
    const cases: [unknown, number, string][] = [
      [{}, 400, 'MISSING_REQUIRED_PARAM'],
      [{ timeout: 3 }, 400, 'INVALID_PARAM_VALUE'],
      [{ timeout: 86_401 }, 400, 'INVALID_PARAM_VALUE'],
      [{ timeout: '10' }, 400, 'INVALID_PARAM_VALUE'],
      [{ timeout: 10, contract: 'nope' }, 400, 'CONTRACT_NOT_FOUND'],
      [{ timeout: 10, underlying: 'ETH_USDT' }, 400, 'INVALID_PARAM_VALUE'],
    ];
    for (const [body, status, label] of cases) await expectRejected(sim, () => call('POST', '/options/countdown_cancel_all', { body }), status, label);
  });
});
