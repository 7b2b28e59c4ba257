// Unchanged ccxt (gate class, URLs overridden as in reference A.1) trading against the simulator over HTTP.
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { startTestSimulator } from '../api/http-helpers.js';
import { type CcxtGate, ccxtGate as client } from '../support/clients.js';

let sim: Simulator;
let alice: CcxtGate;
let bob: CcxtGate;

beforeAll(async () => {
  sim = await startTestSimulator();
  alice = client(sim.server.port, 'k1', 's1');
  bob = client(sim.server.port, 'k2', 's2');
  await Promise.all([alice.loadMarkets(), bob.loadMarkets()]);
});
afterAll(async () => { await sim.close(); });

describe('ccxt gate against the simulator', () => {
  it('loads markets with precisions, limits and fees', () => {
    const m = alice.market('BTC/USDT');
    expect(m.id).toBe('BTC_USDT');
    expect(m.precision.price).toBe(0.01);
    expect(m.precision.amount).toBe(0.000001);
    expect(m.limits.amount?.min).toBe(0.0001);
    expect(m.taker).toBe(0.002);
    expect(m.maker).toBe(0.001);
    expect(m.active).toBe(true);
  });

  it('fetches the balance', async () => {
    const b = await alice.fetchBalance();
    expect(b.USDT?.free).toBe(100000);
    expect(b.BTC?.total).toBe(2);
  });

  it('places, fetches, amends and cancels a limit order', async () => {
    const o = await alice.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 50000, { text: 't-ccxt-1' });
    const id = o.id!;
    expect(o.status).toBe('open');
    expect(o.clientOrderId).toBe('t-ccxt-1');
    expect((await alice.fetchOpenOrders('BTC/USDT')).map((x) => x.id)).toContain(id);
    const fetched = await alice.fetchOrder(id, 'BTC/USDT');
    expect(fetched.price).toBe(50000);
    const edited = await alice.editOrder(id, 'BTC/USDT', 'limit', 'buy', 0.02, 49000);
    expect([edited.price, edited.amount]).toEqual([49000, 0.02]);
    const cancelled = await alice.cancelOrder(id, 'BTC/USDT');
    expect(cancelled.status).toBe('canceled');
    expect((await alice.fetchBalance()).USDT?.used ?? 0).toBe(0);
  });

  it('matches a limit against a resting order and reports trades, closed orders and fees', async () => {
    const ask = await bob.createOrder('BTC/USDT', 'limit', 'sell', 0.1, 60000);
    const buy = await alice.createOrder('BTC/USDT', 'limit', 'buy', 0.05, 60100);
    expect(buy.status).toBe('closed');
    expect(buy.average).toBe(60000);
    expect(buy.filled).toBe(0.05);
    const trades = await alice.fetchMyTrades('BTC/USDT');
    expect(trades[0]).toMatchObject({ order: buy.id, price: 60000, amount: 0.05, takerOrMaker: 'taker', side: 'buy' });
    expect(trades[0]!.fee).toMatchObject({ currency: 'BTC', cost: 0.0001 });
    const closed = await alice.fetchClosedOrders('BTC/USDT');
    expect(closed.map((x) => x.id)).toContain(buy.id);
    const book = await alice.fetchOrderBook('BTC/USDT', 5);
    expect(book.asks[0]).toEqual([60000, 0.05]);
    expect(typeof book.timestamp).toBe('number');
    await bob.cancelOrder(ask.id!, 'BTC/USDT');
  });

  it('places market, IOC, FOK and post-only orders', async () => {
    await bob.createOrder('BTC/USDT', 'limit', 'sell', 0.2, 61000);
    const mkt = await alice.createOrder('BTC/USDT', 'market', 'buy', 0.01, 61000);
    expect(mkt.status).toBe('closed');
    const ioc = await alice.createOrder('BTC/USDT', 'limit', 'buy', 0.5, 61000, { timeInForce: 'IOC' });
    expect(ioc.status).toBe('canceled');
    expect(ioc.filled).toBeCloseTo(0.19, 8);
    const fok = await alice.createOrder('BTC/USDT', 'limit', 'buy', 1, 70000, { timeInForce: 'FOK' });
    expect(fok.filled).toBe(0);
    const po = await alice.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 100, { postOnly: true });
    expect(po.postOnly).toBe(true);
    expect(po.status).toBe('open');
    const sell = await alice.createOrder('BTC/USDT', 'market', 'sell', 0.001);
    expect(sell.side).toBe('sell');
    const all = await alice.cancelAllOrders('BTC/USDT');
    expect(all.length).toBeGreaterThanOrEqual(1);
  });

  it('places a batch and cancels it by ids', async () => {
    const orders = await alice.createOrders([
      { symbol: 'ETH/USDT', type: 'limit', side: 'buy', amount: 0.1, price: 1000 },
      { symbol: 'ETH/USDT', type: 'limit', side: 'buy', amount: 0.1, price: 1001 },
    ]);
    expect(orders.map((o) => o.status)).toEqual(['open', 'open']);
    const cancelled = await alice.cancelOrders(orders.map((o) => o.id!), 'ETH/USDT');
    expect(cancelled).toHaveLength(2);
  });

  it('places stop-loss and take-profit orders as price triggers, lists, fetches and cancels them', async () => {
    await alice.createOrder('BTC/USDT', 'limit', 'sell', 0.001, 61000);
    await bob.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 61000);
    const stop = await alice.createOrder('BTC/USDT', 'limit', 'sell', 0.001, 59000, { stopLossPrice: 60000 });
    const take = await alice.createOrder('BTC/USDT', 'limit', 'sell', 0.001, 63000, { takeProfitPrice: 62000 });
    const open = await alice.fetchOpenOrders('BTC/USDT', undefined, undefined, { trigger: true });
    expect(open.map((o) => o.id).sort()).toEqual([stop.id, take.id].sort());
    const fetched = await alice.fetchOrder(stop.id!, 'BTC/USDT', { trigger: true });
    expect([fetched.side, fetched.price, fetched.amount, fetched.status]).toEqual(['sell', 59000, 0.001, 'open']);
    expect(fetched.triggerPrice).toBe(60000);
    await alice.cancelOrder(stop.id!, 'BTC/USDT', { trigger: true });
    await alice.createOrder('BTC/USDT', 'limit', 'sell', 0.001, 62000);
    await bob.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 62000);
    expect(await alice.fetchOpenOrders('BTC/USDT', undefined, undefined, { trigger: true })).toEqual([]);
    const placed = await alice.fetchOpenOrders('BTC/USDT');
    expect(placed.some((o) => o.price === 63000 && o.side === 'sell')).toBe(true);
    await alice.cancelAllOrders('BTC/USDT');
  });

  it('fetches trading fees and the server time', async () => {
    const fee = await alice.fetchTradingFee('BTC/USDT');
    expect([fee.taker, fee.maker]).toEqual([0.002, 0.001]);
    expect(Math.abs((await alice.fetchTime())! - Date.now())).toBeLessThan(60_000);
  });

  it('maps labels to ccxt exceptions', async () => {
    await expect(alice.createOrder('BTC/USDT', 'limit', 'buy', 100, 60000)).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    await expect(alice.fetchOrder('999999', 'BTC/USDT')).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    await expect(alice.createOrder('BTC/USDT', 'limit', 'buy', 0.0001, 10)).rejects.toBeInstanceOf(ccxt.InvalidOrder);
    await expect(alice.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 100, { marginMode: 'cross' })).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    const wrong = client(sim.server.port, 'k1', 'bad-secret');
    await expect(wrong.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
    const ro = client(sim.server.port, 'ro', 'ros');
    await ro.loadMarkets();
    await expect(ro.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 100)).rejects.toBeInstanceOf(ccxt.PermissionDenied);
  });
});
