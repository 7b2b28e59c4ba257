// The official gate-api SDK, unchanged, trading against the simulator over HTTP (fractional timestamps,
// Content-Type only with a body, json-bigint parsing, camelCase models).
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { startTestSimulator } from '../api/http-helpers.js';
import { gateApiClient as apiClient, rejection } from '../support/clients.js';

let sim: Simulator;
let spot: GateApi.SpotApi;
let bobSpot: GateApi.SpotApi;
let account: GateApi.AccountApi;
let wallet: GateApi.WalletApi;

function order(fields: Partial<Record<keyof GateApi.Order, unknown>>): GateApi.Order {
  return Object.assign(new GateApi.Order(), fields);
}

beforeAll(async () => {
  sim = await startTestSimulator();
  const c = apiClient(sim.server.port, 'k1', 's1');
  spot = new GateApi.SpotApi(c);
  account = new GateApi.AccountApi(c);
  wallet = new GateApi.WalletApi(c);
  bobSpot = new GateApi.SpotApi(apiClient(sim.server.port, 'k2', 's2'));
});
afterAll(async () => { await sim.close(); });

describe('gate-api against the simulator', () => {
  it('lists currencies, pairs and the server time', async () => {
    const pairs = (await spot.listCurrencyPairs()).body;
    expect(pairs.map((p) => p.id)).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(pairs[0]).toMatchObject({ amountPrecision: 6, precision: 2, minQuoteAmount: '1', tradeStatus: 'tradable' });
    expect((await spot.getCurrencyPair('ETH_USDT')).body.base).toBe('ETH');
    expect((await spot.listCurrencies()).body.map((c) => c.currency)).toContain('USDT');
    expect((await spot.getCurrency('BTC')).body.currency).toBe('BTC');
    expect(Number((await spot.getSystemTime()).body.serverTime)).toBeGreaterThan(0);
  });

  it('reads the account detail, balances and fees', async () => {
    expect((await account.getAccountDetail()).body.key?.mode).toBe(1);
    const accounts = (await spot.listSpotAccounts({ currency: 'BTC' })).body;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ currency: 'BTC', available: '2', locked: '0' });
    expect((await spot.getFee({ currencyPair: 'BTC_USDT' })).body).toMatchObject({ takerFee: '0.002', makerFee: '0.001' });
    expect(Object.keys((await spot.getBatchSpotFee('BTC_USDT,ETH_USDT')).body)).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect((await wallet.getTradeFee({ currencyPair: 'ETH_USDT' })).body.takerFee).toBe('0.002');
  });

  it('creates (201), gets by id and text, amends, lists and cancels an order', async () => {
    const created = await spot.createOrder(order({ currencyPair: 'BTC_USDT', side: 'buy', type: 'limit', amount: '0.01',
      price: '50000', timeInForce: 'gtc', text: 't-gate-1', account: 'spot' }));
    expect(created.response.status).toBe(201);
    const id = created.body.id!;
    expect(created.body).toMatchObject({ status: 'open', finishAs: 'open', left: '0.01', text: 't-gate-1' });
    expect((await spot.getOrder('t-gate-1', 'BTC_USDT')).body.id).toBe(id);
    const amended = await spot.amendOrder(id, Object.assign(new GateApi.OrderPatch(), { price: '49000', amendText: 't-am' }), { currencyPair: 'BTC_USDT' });
    expect(amended.body).toMatchObject({ price: '49000', amendText: 't-am' });
    expect((await spot.getOrder(id, 'BTC_USDT')).body).toMatchObject({ price: '49000', amendText: 't-am' });
    expect((await spot.listOrders('BTC_USDT', 'open')).body.map((o) => o.id)).toContain(id);
    const open = (await spot.listAllOpenOrders()).body;
    expect(open[0]).toMatchObject({ currencyPair: 'BTC_USDT', total: 1 });
    const cancelled = await spot.cancelOrder(id, 'BTC_USDT');
    expect(cancelled.body).toMatchObject({ status: 'cancelled', finishAs: 'cancelled', amendText: 't-am' });
    expect((await spot.listOrders('BTC_USDT', 'finished')).body.map((o) => o.id)).toContain(id);
  });

  it('fills against another user and reports trades, the book and the account book', async () => {
    await bobSpot.createOrder(order({ currencyPair: 'ETH_USDT', side: 'sell', amount: '1', price: '2000' }));
    const book = (await spot.listOrderBook('ETH_USDT', { limit: 5, withId: true })).body;
    expect(book.asks).toEqual([['2000', '1']]);
    expect(book.id).toBeDefined();
    const taken = (await spot.createOrder(order({ currencyPair: 'ETH_USDT', side: 'buy', type: 'market', amount: '1000', timeInForce: 'ioc' }))).body;
    expect(taken).toMatchObject({ status: 'closed', filledAmount: '0.5', avgDealPrice: '2000', feeCurrency: 'ETH', fee: '0.001' });
    const trades = (await spot.listMyTrades({ currencyPair: 'ETH_USDT', orderId: taken.id })).body;
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ role: 'taker', side: 'buy', amount: '0.5', price: '2000' });
    const entries = (await spot.listSpotAccountBook({ currency: 'ETH', limit: 5 })).body;
    expect(entries.length).toBeGreaterThan(0);
    await bobSpot.cancelOrders({ currencyPair: 'ETH_USDT' });
  });

  it('handles batch create, amend and cancel with per-item results', async () => {
    const batch = (await spot.createBatchOrders([
      order({ currencyPair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '40000', text: 't-b1' }),
      order({ currencyPair: 'BTC_USDT', side: 'buy', amount: '999', price: '40000', text: 't-b2' }),
    ])).body;
    expect(batch.map((b) => b.succeeded)).toEqual([true, false]);
    expect(batch[1]!.label).toBe('BALANCE_NOT_ENOUGH');
    const id = batch[0]!.orderId!;
    const amended = (await spot.amendBatchOrders([Object.assign(new GateApi.BatchAmendItem(), { orderId: id, currencyPair: 'BTC_USDT', price: '41000' })])).body;
    expect(amended[0]).toMatchObject({ succeeded: true, price: '41000' });
    const cancelled = (await spot.cancelBatchOrders([
      Object.assign(new GateApi.CancelBatchOrder(), { currencyPair: 'BTC_USDT', id }),
      Object.assign(new GateApi.CancelBatchOrder(), { currencyPair: 'BTC_USDT', id: '424242' }),
    ])).body;
    expect(cancelled.map((c) => c.succeeded)).toEqual([true, false]);
  });

  it('arms and disarms the countdown cancel', async () => {
    const t = (await spot.countdownCancelAllSpot(Object.assign(new GateApi.CountdownCancelAllSpotTask(), { timeout: 30, currencyPair: 'BTC_USDT' }))).body;
    expect(Number(t.triggerTime)).toBeGreaterThan(Date.now());
    const off = (await spot.countdownCancelAllSpot(Object.assign(new GateApi.CountdownCancelAllSpotTask(), { timeout: 0 }))).body;
    expect(Number(off.triggerTime)).toBe(0);
  });

  it('creates, lists, gets and cancels price-triggered orders', async () => {
    const trigger = Object.assign(new GateApi.SpotPriceTrigger(), { price: '90000', rule: GateApi.SpotPriceTrigger.Rule.GreaterThanOrEqualTo, expiration: 3600 });
    const put = Object.assign(new GateApi.SpotPricePutOrder(), { type: 'limit', side: 'buy', price: '50000', amount: '0.001', account: 'normal', timeInForce: 'gtc' });
    const created = await spot.createSpotPriceTriggeredOrder(Object.assign(new GateApi.SpotPriceTriggeredOrder(), { trigger, put, market: 'BTC_USDT' }));
    expect(created.response.status).toBe(201);
    const id = String(created.body.id);
    const got = (await spot.getSpotPriceTriggeredOrder(id)).body;
    expect([got.market, got.status, got.trigger.price, got.put.amount, got.user]).toEqual(['BTC_USDT', 'open', '90000', '0.00100000000000000000', 10001]);
    expect((await spot.listSpotPriceTriggeredOrders('open', { market: 'BTC_USDT' })).body.map((o) => String(o.id))).toEqual([id]);
    const cancelled = (await spot.cancelSpotPriceTriggeredOrderList({ market: 'BTC_USDT', account: 'normal' })).body;
    expect(cancelled.map((o) => [String(o.id), o.status])).toEqual([[id, 'canceled']]);
    expect((await spot.listSpotPriceTriggeredOrders('finished', { limit: 1 })).body.map((o) => String(o.id))).toEqual([id]);
    expect(await rejection(spot.cancelSpotPriceTriggeredOrder(id))).toEqual([400, 'ORDER_CANCELLED']);
  });

  it('rejects with Gate statuses and labels', async () => {
    expect(await rejection(spot.getOrder('123456789', 'BTC_USDT'))).toEqual([404, 'ORDER_NOT_FOUND']);
    expect(await rejection(spot.createOrder(order({ currencyPair: 'NOPE_USDT', side: 'buy', amount: '1', price: '1' })))).toEqual([400, 'INVALID_CURRENCY_PAIR']);
    expect(await rejection(spot.createOrder(order({ currencyPair: 'BTC_USDT', side: 'buy', amount: '0.0000001', price: '1' })))).toEqual([400, 'INVALID_PRECISION']);
    const bad = new GateApi.SpotApi(apiClient(sim.server.port, 'k1', 'nope'));
    expect(await rejection(bad.listSpotAccounts())).toEqual([401, 'INVALID_SIGNATURE']);
  });
});
