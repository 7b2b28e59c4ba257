// Unchanged ccxt.pro (gate class; REST and WebSocket URLs overridden) against the simulator's /ws/v4/.
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from '../../src/core/command.js';
import { CommandType } from '../../src/core/command.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { parseCreateOrder } from '../../src/gate/spot-order-request.js';
import type { Simulator } from '../../src/main.js';
import { startTestSimulator } from '../api/http-helpers.js';

type Pro = InstanceType<typeof ccxt.pro.gate>;

let sim: Simulator;
let alice: Pro;
let bob: Pro;
const clients: Pro[] = [];

/** `wsQuery` "?gateeu" makes ccxt take its legacy path (spot.order_book_update + a REST snapshot). */
function client(port: number, apiKey: string, secret: string, wsQuery = ''): Pro {
  const B = `http://127.0.0.1:${port}/api/v4`;
  const pub = ['wallet', 'futures', 'margin', 'delivery', 'spot', 'options', 'sub_accounts', 'earn', 'unified', 'flash_swap', 'loan'];
  const priv = ['withdrawals', 'wallet', 'futures', 'margin', 'delivery', 'spot', 'options', 'subAccounts', 'unified', 'rebate', 'earn', 'account', 'loan', 'otc', 'flash_swap'];
  const c = new ccxt.pro.gate({
    apiKey, secret, enableRateLimit: false, timeout: 5000,
    urls: { api: {
      public: Object.fromEntries(pub.map((k) => [k, B])), private: Object.fromEntries(priv.map((k) => [k, B])),
      spot: `ws://127.0.0.1:${port}/ws/v4/${wsQuery}`,
    } },
    options: { fetchMarkets: { types: ['spot'] } },
  });
  clients.push(c);
  return c;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `act` every 100 ms until `p` settles (the subscription is live by then), at most `tries` times. */
async function whileWaiting<T>(p: Promise<T>, act: () => Promise<unknown>, tries = 40): Promise<T> {
  let settled = false;
  p.then(() => { settled = true; }, () => { settled = true; });
  for (let i = 0; i < tries && !settled; i++) {
    await act();
    await sleep(100);
  }
  return p;
}

/** One trade at `price`: bob sells 0.001 BTC, alice buys it. */
async function trade(price: number): Promise<void> {
  await bob.createOrder('BTC/USDT', 'limit', 'sell', 0.001, price);
  await alice.createOrder('BTC/USDT', 'limit', 'buy', 0.001, price);
}

beforeAll(async () => {
  sim = await startTestSimulator();
  alice = client(sim.server.port, 'k1', 's1');
  bob = client(sim.server.port, 'k2', 's2');
  // ccxt needs an HTTP agent for plain ws:// URLs (its documented loadHttpProxyAgent step).
  await Promise.all([alice.loadHttpProxyAgent(), bob.loadHttpProxyAgent()]);
  await Promise.all([alice.loadMarkets(), bob.loadMarkets()]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
});

describe('ccxt.pro gate against /ws/v4/', () => {
  it('watchTrades receives public trades', async () => {
    const trades = await whileWaiting(alice.watchTrades('BTC/USDT'), () => trade(60000));
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]).toMatchObject({ symbol: 'BTC/USDT', price: 60000, amount: 0.001, side: 'buy' });
    expect(typeof trades[0]!.timestamp).toBe('number');
  });

  it('watchTicker and watchOHLCV follow trades', async () => {
    const first = await whileWaiting(alice.watchTicker('BTC/USDT'), () => trade(60010));
    expect(first.symbol).toBe('BTC/USDT');
    // The resting sell moves the best ask first (a push of its own); the trade's push follows.
    for (let i = 0; i < 30 && alice.tickers['BTC/USDT']?.last !== 60010; i++) await sleep(100);
    const ticker = alice.tickers['BTC/USDT']!;
    expect(ticker.last).toBe(60010);
    expect(typeof ticker.baseVolume).toBe('number');
    const candles = await whileWaiting(alice.watchOHLCV('BTC/USDT', '1m'), () => trade(60020));
    const last = candles[candles.length - 1]!;
    expect(last[4]).toBe(60020);
    expect(last[2]).toBeGreaterThanOrEqual(60020);
  });

  it('watchOrders sees put and finish, watchMyTrades and watchBalance see the fill', async () => {
    const placed: string[] = [];
    const orders = await whileWaiting(alice.watchOrders('BTC/USDT'), async () => {
      placed.push((await alice.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000)).id!);
    });
    expect(placed).toContain(orders[orders.length - 1]!.id!);
    expect(orders[orders.length - 1]!.status).toBe('open');
    const cancelled = alice.watchOrders('BTC/USDT');
    for (const id of placed) await alice.cancelOrder(id, 'BTC/USDT');
    const after = await cancelled;
    expect(after.find((o) => placed.includes(o.id!) && o.status === 'canceled')).toBeDefined();

    const mine = await whileWaiting(alice.watchMyTrades('BTC/USDT'), () => trade(60030));
    expect(mine[mine.length - 1]).toMatchObject({ symbol: 'BTC/USDT', price: 60030, amount: 0.001, side: 'buy', takerOrMaker: 'taker' });

    const balance = await whileWaiting(alice.watchBalance(), () => trade(60040));
    await sleep(200);
    const rest = await alice.fetchBalance();
    expect(balance.BTC?.total).toBe(rest.BTC?.total);
    expect(balance.USDT?.free).toBe(rest.USDT?.free);
  });

  it('createOrderWs, editOrderWs, fetchOrderWs and cancelOrderWs', async () => {
    const o = await alice.createOrderWs('BTC/USDT', 'limit', 'buy', 0.002, 51000);
    expect(o).toMatchObject({ symbol: 'BTC/USDT', status: 'open', price: 51000, amount: 0.002 });
    const edited = await alice.editOrderWs(o.id!, 'BTC/USDT', 'limit', 'buy', 0.001, 51000);
    expect(edited.amount).toBe(0.001);
    const fetched = await alice.fetchOrderWs(o.id!, 'BTC/USDT');
    expect(fetched.id).toBe(o.id);
    const c = await alice.cancelOrderWs(o.id!, 'BTC/USDT');
    expect(c.status).toBe('canceled');
    await expect(alice.cancelOrderWs(o.id!, 'BTC/USDT')).rejects.toThrow();
    await expect(alice.createOrderWs('BTC/USDT', 'limit', 'buy', 1000, 60000)).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
  });

  it('watchOrderBook (spot.obu 50 and 400, legacy order_book_update) stays equal to the REST book through random updates', async () => {
    const deep = client(sim.server.port, 'k1', 's1');
    const legacy = client(sim.server.port, 'k1', 's1', '?gateeu');
    for (const c of [deep, legacy]) {
      await c.loadHttpProxyAgent();
      await c.loadMarkets();
    }
    const first = await alice.watchOrderBook('ETH/USDT');
    await deep.watchOrderBook('ETH/USDT', 400);
    const legacyFirst = legacy.watchOrderBook('ETH/USDT');
    expect(first.bids).toEqual([]);
    const rng = new Prng(8);
    const gw = sim.gateway;
    const cmd = new Command();
    const open: number[] = [];
    const done = (code: ResultCode, c: Command): void => {
      if (code === ResultCode.Ok && c.type === CommandType.PlaceOrder) open.push(c.orderId);
    };
    const randomUpdates = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const uid = rng.nextInt(2) === 0 ? 10001 : 10002;
        if (open.length > 0 && rng.nextInt(10) < 4) {
          const id = open.splice(rng.nextInt(open.length), 1)[0]!;
          const r = gw.exchange.orders.find(id);
          if (r < 0 || gw.exchange.orders.finishAs[r] !== 0) continue;
          cmd.clear();
          cmd.type = CommandType.CancelOrder;
          cmd.uid = gw.exchange.orders.uid[r]!; cmd.market = gw.exchange.orders.market[r]!; cmd.orderId = id;
          gw.submit(cmd, () => undefined);
          continue;
        }
        const side = rng.nextInt(2) === 0 ? 'buy' : 'sell';
        const price = (side === 'buy' ? 1990 : 2000) + rng.nextInt(300) / 10 - (side === 'buy' ? 25 : 5);
        const body = { currency_pair: 'ETH_USDT', side, amount: (0.001 * (1 + rng.nextInt(50))).toFixed(3), price: price.toFixed(2) };
        if (parseCreateOrder(gw.exchange, uid, body, cmd) !== ResultCode.Ok) continue;
        gw.submit(cmd, done);
        if (i % 500 === 0) await sleep(1);
      }
    };
    // ccxt's legacy path waits for 10 increments before it loads the REST snapshot.
    await whileWaiting(legacyFirst, () => randomUpdates(20));
    await randomUpdates(3000);
    const rest = await alice.fetchOrderBook('ETH/USDT', 400);
    expect(rest.bids.length + rest.asks.length).toBeGreaterThan(20);
    const same = (ob: { bids: number[][]; asks: number[][] }, n: number): boolean =>
      JSON.stringify([ob.bids.slice(0, n), ob.asks.slice(0, n)]) === JSON.stringify([rest.bids.slice(0, n), rest.asks.slice(0, n)]);
    const synced = (): boolean => same(alice.orderbooks['ETH/USDT']!, 50) && same(deep.orderbooks['ETH/USDT']!, 400)
      && same(legacy.orderbooks['ETH/USDT']!, 100);
    for (let i = 0; i < 50 && !synced(); i++) await sleep(100);
    const obLegacy = legacy.orderbooks['ETH/USDT']!;
    expect([obLegacy.bids.slice(0, 100), obLegacy.asks.slice(0, 100)]).toEqual([rest.bids.slice(0, 100), rest.asks.slice(0, 100)]);
    const ob50 = alice.orderbooks['ETH/USDT']!;
    const ob400 = deep.orderbooks['ETH/USDT']!;
    expect([ob50.bids.slice(0, 50), ob50.asks.slice(0, 50)]).toEqual([rest.bids.slice(0, 50), rest.asks.slice(0, 50)]);
    expect([ob400.bids.slice(0, 400), ob400.asks.slice(0, 400)]).toEqual([rest.bids.slice(0, 400), rest.asks.slice(0, 400)]);
    expect(ob50.bids.length).toBeLessThanOrEqual(50);
    expect(ob50.nonce).toBeLessThanOrEqual(rest.nonce!);
  }, 30_000);
});
