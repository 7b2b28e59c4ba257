// Unchanged ccxt.pro (gate class) on a USDT perpetual over /v4/ws/fx/usdt: its swap urls override
// (`urls.api.swap = {usdt, btc}`), watchOrderBook (futures.order_book_update + the REST book with_id) equal to the
// REST book after trades and cancels, watchTrades and watchTicker, each resolving within a second of subscribing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, INVERSE, type J, LINEAR, setMark } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { ccxtProGate, type CcxtProGate } from '../support/clients.js';

type Pro = CcxtProGate;
const S = 'BTC/USDT:USDT';
const B: [string, string] = ['k2', 's2'];

let sim: Simulator;
let call: Call;
let pro: Pro;
const clients: Pro[] = [];

function proClient(port: number): Pro {
  const c = ccxtProGate(port, 'k1', 's1');
  clients.push(c);
  return c;
}

const place = async (body: J, key?: [string, string]): Promise<J> => {
  const r = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', tif: 'gtc', ...body }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const cancel = async (id: unknown, key?: [string, string]): Promise<void> => {
  const r = await call('DELETE', `/futures/usdt/orders/${String(id)}`, { key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};
const restBook = async (): Promise<{ id: number; bids: number[][]; asks: number[][] }> => {
  const r = await plainFetch(sim.server.port, '/api/v4/futures/usdt/order_book?contract=BTC_USDT&limit=100&with_id=true');
  const b = r.body as { id: number; bids: { p: string; s: number }[]; asks: { p: string; s: number }[] };
  const side = (l: { p: string; s: number }[]): number[][] => l.map((x) => [Number(x.p), x.s]);
  return { id: b.id, bids: side(b.bids), asks: side(b.asks) };
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** `p`, or a rejection after `ms` (so a watch that never resolves fails the test at once). */
const within = <T>(p: Promise<T>, ms: number): Promise<T> => Promise.race([p,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not resolved within ${ms} ms`)), ms))]);

/** Waits until `c`'s watched book has the REST book's id, then expects the two equal level for level. */
async function expectSynced(c: Pro, where = ''): Promise<{ id: number; bids: number[][]; asks: number[][] }> {
  const rest = await restBook();
  // The book watchOrderBook maintains (a further watchOrderBook call would wait for the next change).
  const book = (): { nonce?: number; bids: number[][]; asks: number[][] } => c.orderbooks[S] as never;
  for (let deadline = Date.now() + 3000; book().nonce !== rest.id && Date.now() < deadline;) await sleep(20);
  expect(book().nonce, where).toBe(rest.id);
  expect(book().bids.map(([p, a]) => [p, a]), where).toEqual(rest.bids);
  expect(book().asks.map(([p, a]) => [p, a]), where).toEqual(rest.asks);
  return rest;
}

// Once plain, once with a journal: then every frame waits in the output gate until the journal covers it.
describe.each([['plain', false], ['journaled', true]] as const)('ccxt.pro gate on a perpetual over /v4/ws/fx/usdt (%s)', (_name, journaled) => {
  const dir = mkdtempSync(join(tmpdir(), 'ringmatch-ws-fx-'));
  beforeAll(async () => {
    // Room for deep books: 500 open orders per user (the helpers' contract allows 8).
    const config = { ...FUTURES_CONFIG, futures: { ...FUTURES_CONFIG.futures, contracts: [{ ...LINEAR, orders_limit: 500 }, INVERSE] } };
    const engine = journaled ? { ...config.engine, journal: join(dir, 'futures.journal'), fsync: 'batch' as const } : config.engine;
    sim = await startSimulator({ ...config, engine }, { host: '127.0.0.1', port: 0 });
    call = futuresCaller(sim);
    await setMark(sim, 'BTC_USDT', '50000');
    await setMark(sim, 'BTC_USD', '50000');
    pro = proClient(sim.server.port);
    await pro.loadHttpProxyAgent(); // ccxt needs an HTTP agent for plain ws:// URLs
    await pro.loadMarkets();
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) await c.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('watchOrderBook resolves within a second on a quiet market and stays equal to the REST book', async () => {
    expect(pro.market(S)).toMatchObject({ swap: true, id: 'BTC_USDT' });
    await place({ size: 3, price: '49500' });
    const t0 = Date.now();
    const first = await within(pro.watchOrderBook(S), 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(first.bids[0]).toEqual([49500, 3]);
    // Trades and cancels, each followed by a push the client applies.
    const resting: J[] = [];
    for (let i = 0; i < 6; i++) {
      resting.push(await place({ size: -(i + 1), price: String(50200 + 100 * i) }, B));
      resting.push(await place({ size: i + 1, price: String(49800 - 100 * i) }));
    }
    await place({ size: 4, price: '50300' }); // takes the best asks
    await place({ size: -2, price: '49800' }, B); // and a bid
    await cancel(resting[4]!.id, B);
    await cancel(resting[7]!.id);
    const rest = await expectSynced(pro);
    expect(rest.bids.length * rest.asks.length).toBeGreaterThan(0);
  });

  it('watchTrades resolves with the trade made within a second of subscribing (size signed by the taker)', async () => {
    const t0 = Date.now();
    const p = pro.watchTrades(S);
    await sleep(100);
    await place({ size: -2, price: '50050' }, B);
    await place({ size: 2, price: '50050' });
    const trades = await within(p, 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(trades[trades.length - 1]).toMatchObject({ symbol: S, side: 'buy', price: 50050, amount: 2 });
  });

  it('watchTicker resolves within a second with the REST ticker', async () => {
    const t0 = Date.now();
    const ticker = await within(pro.watchTicker(S), 1000);
    expect(Date.now() - t0).toBeLessThan(1000);
    const rest = (await plainFetch(sim.server.port, '/api/v4/futures/usdt/tickers?contract=BTC_USDT')).body as J[];
    expect(ticker).toMatchObject({ symbol: S, last: Number(rest[0]!.last) });
    expect(ticker.last).toBe(50050);
  });

  it('keeps watched books equal to the REST book through 400 random orders, trades and cancels, a late subscriber and a reconnect', async () => {
    const rng = new Prng(15);
    const open: { id: unknown; key: [string, string] }[] = [];
    let late: Pro | undefined;
    let placed = 0;
    const labels: Record<string, number> = {};
    const tradesBefore = sim.gateway.exchange.trades.count;
    for (let step = 1; step <= 400; step++) {
      const r = rng.nextInt(10);
      if (r < 3 && open.length > 0) {
        const [o] = open.splice(rng.nextInt(open.length), 1);
        await call('DELETE', `/futures/usdt/orders/${String(o!.id)}`, { key: o!.key });
      } else {
        const buy = rng.chance(0.5);
        const key: [string, string] = rng.chance(0.5) ? ['k1', 's1'] : B;
        // Mostly resting orders around 50000, sometimes crossing (a trade).
        const offset = (rng.nextInt(30) - (r === 9 ? 25 : 5)) * 10;
        const price = String(buy ? 49990 - offset : 50010 + offset);
        const res = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', tif: 'gtc', size: (buy ? 1 : -1) * (1 + rng.nextInt(5)), price }, key });
        if (res.status === 201) placed++;
        else labels[String(res.body.label)] = (labels[String(res.body.label)] ?? 0) + 1;
        if (res.status === 201 && res.body.status === 'open') open.push({ id: res.body.id, key });
      }
      if (step === 150) {
        late = proClient(sim.server.port);
        await late.loadHttpProxyAgent();
        await late.loadMarkets();
        const t0 = Date.now();
        await within(late.watchOrderBook(S), 1000);
        expect(Date.now() - t0).toBeLessThan(1000);
      }
      if (step === 300 && late !== undefined) {
        await late.close(); // a reconnect: a fresh client subscribes again on the same server
        late = proClient(sim.server.port);
        await late.loadHttpProxyAgent();
        await late.loadMarkets();
        await within(late.watchOrderBook(S), 1000);
      }
      if (step % 50 === 0) {
        await expectSynced(pro, `step ${step}`);
        if (late !== undefined) await expectSynced(late, `late client, step ${step}`);
      }
    }
    expect(placed).toBeGreaterThan(200);
    expect(sim.gateway.exchange.trades.count - tradesBefore).toBeGreaterThan(20);
    expect(Object.keys(labels).filter((l) => l !== 'LIQUIDATE_IMMEDIATELY'), JSON.stringify(labels)).toEqual([]);
  }, 30_000);
});
