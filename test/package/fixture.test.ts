// The bot-test fixture used as a bot author would (docs/testing.md): `startExchange()` in a beforeAll, unchanged
// ccxt and gate-api given the returned options, the control-plane helpers, `stop()` in an afterAll.
import ccxt from 'ccxt';
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExchangeFixture, fixtureConfig, SimRequestError, startExchange } from '../../src/testing/index.js';

let ex: ExchangeFixture;
beforeAll(async () => { ex = await startExchange(); });
afterAll(async () => { await ex.stop(); });

describe('startExchange() with the demo', () => {
  it('listens on a free loopback port and gives the demo keys', () => {
    expect(ex.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    expect(ex.port).toBeGreaterThan(0);
    expect(ex.key).toEqual({ uid: 10001, key: 'demo-alice-key', secret: 'demo-alice-secret' });
    expect(ex.keys.map((k) => k.key)).toEqual(['demo-alice-key', 'demo-alice-readonly', 'demo-bob-key', 'demo-carol-key']);
  });

  it('unchanged ccxt with the returned options places an order and reads it back', async () => {
    const gate = new ccxt.gate(ex.ccxt());
    const placed = await gate.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 50_000);
    const id = placed.id!;
    const read = await gate.fetchOrder(id, 'BTC/USDT');
    expect(read).toMatchObject({ id, status: 'open', side: 'buy', price: 50_000, amount: 0.01, remaining: 0.01 });
    const open = await gate.fetchOpenOrders('BTC/USDT');
    expect(open.map((o) => o.id)).toContain(id);
    await gate.cancelOrder(id, 'BTC/USDT');
  });

  it('unchanged ccxt.pro with the returned options watches the book and the user\'s orders', async () => {
    const pro = new ccxt.pro.gate(ex.ccxtPro());
    try {
      const book = await pro.watchOrderBook('BTC/USDT');
      expect(book.bids.length).toBeGreaterThan(0);
      const watching = pro.watchOrders('BTC/USDT');
      await new Promise((r) => setTimeout(r, 100));
      const placed = await pro.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 40_000);
      const pushed = await watching;
      expect(pushed.map((o) => o.id)).toContain(placed.id);
      await pro.cancelOrder(placed.id!, 'BTC/USDT');
    } finally {
      await pro.close();
    }
  });

  it('gate-api with the returned options reads the balances', async () => {
    const o = ex.gateApi(ex.keys[2]);
    const client = new GateApi.ApiClient(o.basePath);
    client.setApiKeySecret(o.key, o.secret);
    const { body } = await new GateApi.SpotApi(client).listSpotAccounts({ currency: 'USDT' });
    expect(body[0]).toMatchObject({ currency: 'USDT', available: '50000' });
  });

  it('makes a user, deposits to it (confirmed on the simulated clock) and ccxt sees the balance', async () => {
    const user = await ex.createUser({ USDT: '10' });
    const d = await ex.deposit(user.uid, 'USDT', '25.5');
    expect(d.id).toMatch(/^d/);
    const gate = new ccxt.gate(ex.ccxt(user));
    const balance = await gate.fetchBalance();
    expect(balance.USDT).toMatchObject({ free: 35.5, used: 0, total: 35.5 });
  });

  it('moves the clock, which Gate\'s server time follows', async () => {
    const before = (await (await fetch(`${ex.restUrl}/spot/time`)).json() as { server_time: number }).server_time;
    const now = await ex.advanceClock(60_000);
    expect(now).toBe(before + 60_000);
    const after = (await (await fetch(`${ex.restUrl}/spot/time`)).json() as { server_time: number }).server_time;
    expect(after).toBe(now);
    await expect(ex.setClock(before)).rejects.toBeInstanceOf(SimRequestError);
  });

  it('sets a perpetual\'s index price, which the contract then shows', async () => {
    const r = await ex.setIndexPrice('BTC_USDT', '61234.5', { settle: 'usdt' });
    expect(r.index_price).toBe('61234.5');
    const c = await (await fetch(`${ex.restUrl}/futures/usdt/contracts/BTC_USDT`)).json() as { index_price: string };
    expect(c.index_price).toBe('61234.5');
  });

  it('applies what a clock move made due before it resolves: nothing changes afterwards on a wall-clock timer', async () => {
    // The demo's market maker and options quoter re-quote on the engine clock; a minute's move makes both due.
    await ex.advanceClock(60_000);
    const h = await ex.stateHash();
    await new Promise((r) => setTimeout(r, 400)); // four of the maker's wall-clock timer periods
    expect(await ex.stateHash()).toBe(h);
  });

  it('reads the state hash, which a command changes', async () => {
    const h1 = await ex.stateHash();
    expect(h1).toMatch(/^[0-9a-f]+$/);
    expect(await ex.stateHash()).toBe(h1);
    await ex.createUser({ USDT: '1' });
    expect(await ex.stateHash()).not.toBe(h1);
  });
});

describe('startExchange(config)', () => {
  it('runs the given config (validated like --config), with the test defaults under it', async () => {
    const own = await startExchange({
      currency_pairs: [{ id: 'DOGE_USDT', base: 'DOGE', quote: 'USDT', precision: 5, amount_precision: 0 }],
      users: [{ uid: 7, keys: [{ key: 'k7', secret: 's7' }], balances: { spot: { USDT: '100' } } }],
    });
    try {
      expect(own.key).toEqual({ uid: 7, key: 'k7', secret: 's7' });
      const gate = new ccxt.gate({ ...own.ccxt(), options: { fetchMarkets: { types: ['spot'] } } });
      const o = await gate.createOrder('DOGE/USDT', 'limit', 'buy', 100, 0.1);
      expect(o.status).toBe('open');
      expect(own.simulator.simClock).toBeDefined();
    } finally {
      await own.stop();
    }
    await expect(startExchange({ currency_pairs: [{ id: 'X_Y' }] })).rejects.toThrow(/config: currency_pairs\[0\]/);
  });

  it('keeps the test defaults over a base the config extends, and yields to the fields it sets', () => {
    expect(fixtureConfig({ extends: 'demo' })).toMatchObject({ rate_limits: false, clock: { type: 'sim' }, engine: { runner: 'inline' } });
    expect(fixtureConfig()).toMatchObject({ rate_limits: false, clock: { type: 'sim' }, market_maker: true });
    const own = fixtureConfig({ extends: 'demo', rate_limits: true, clock: { type: 'wall' }, engine: { runner: 'threaded', shards: 2 } });
    expect(own).toMatchObject({ rate_limits: true, clock: { type: 'wall' }, engine: { runner: 'threaded', shards: 2 } });
  });
});
