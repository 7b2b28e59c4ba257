// Unchanged ccxt.pro (gate class) futures order entry over /v4/ws/fx/usdt with its swap urls override:
// createOrderWs, fetchOrderWs, editOrderWs, cancelOrderWs, fetchOpenOrdersWs and cancelAllOrdersWs on
// BTC/USDT:USDT, checked against REST; once plain, once journaled (every answer waits in the output gate).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, setMark } from '../api/futures-helpers.js';
import { ccxtProGate, type CcxtProGate } from '../support/clients.js';

type Pro = CcxtProGate;
const S = 'BTC/USDT:USDT';

let sim: Simulator;
let call: Call;
let pro: Pro;

const within = <T>(p: Promise<T>, ms: number): Promise<T> => Promise.race([p,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not resolved within ${ms} ms`)), ms))]);

describe.each([['plain', false], ['journaled', true]] as const)('ccxt.pro gate futures order entry over /v4/ws/fx/usdt (%s)', (_name, journaled) => {
  const dir = mkdtempSync(join(tmpdir(), 'ringmatch-ws-fx-api-'));
  beforeAll(async () => {
    const engine = journaled ? { ...FUTURES_CONFIG.engine, journal: join(dir, 'futures.journal'), fsync: 'batch' as const } : FUTURES_CONFIG.engine;
    sim = await startSimulator({ ...FUTURES_CONFIG, engine }, { host: '127.0.0.1', port: 0 });
    call = futuresCaller(sim);
    await setMark(sim, 'BTC_USDT', '50000');
    pro = ccxtProGate(sim.server.port, 'k1', 's1', '10001');
    await pro.loadHttpProxyAgent(); // ccxt needs an HTTP agent for plain ws:// URLs
    await pro.loadMarkets();
  });
  afterAll(async () => {
    await pro.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('createOrderWs, fetchOrderWs, editOrderWs and cancelOrderWs answer as REST', async () => {
    const o = await within(pro.createOrderWs(S, 'limit', 'buy', 2, 40000), 3000);
    expect(o).toMatchObject({ symbol: S, side: 'buy', amount: 2, remaining: 2, price: 40000, status: 'open', type: 'limit' });
    const id = String(o.id);
    const rest = await call('GET', `/futures/usdt/orders/${id}`);
    expect(rest.body).toMatchObject({ contract: 'BTC_USDT', size: 2, price: '40000', status: 'open' });

    const f = await within(pro.fetchOrderWs(id, S), 3000);
    expect(f).toMatchObject({ id: o.id, amount: 2, price: 40000, status: 'open' });

    const e = await within(pro.editOrderWs(id, S, 'limit', 'buy', 3, 41000), 3000);
    expect(e).toMatchObject({ id: o.id, amount: 3, remaining: 3, price: 41000, status: 'open' });
    expect((await call('GET', `/futures/usdt/orders/${id}`)).body).toMatchObject({ size: 3, price: '41000' });

    const c = await within(pro.cancelOrderWs(id, S), 3000);
    expect(c).toMatchObject({ id: o.id, status: 'canceled', remaining: 3 });
    expect((await call('GET', `/futures/usdt/orders/${id}`)).body).toMatchObject({ status: 'finished', finish_as: 'cancelled' });

    await expect(within(pro.cancelOrderWs(id, S), 3000)).rejects.toThrow(/ORDER_NOT_FOUND|OrderNotFound|order/i);
  });

  it('fetchOpenOrdersWs and cancelAllOrdersWs on the swap', async () => {
    const a = await within(pro.createOrderWs(S, 'limit', 'buy', 1, 39000), 3000);
    const b = await within(pro.createOrderWs(S, 'limit', 'sell', 1, 61000), 3000);
    const open = await within(pro.fetchOpenOrdersWs(S), 3000);
    expect(open.map((o) => o.id).sort()).toEqual([a.id, b.id].sort());
    const cancelled = await within(pro.cancelAllOrdersWs(S), 3000);
    expect(cancelled.map((o) => [o.id, o.status]).sort()).toEqual([[a.id, 'canceled'], [b.id, 'canceled']].sort());
    expect((await call('GET', '/futures/usdt/orders', { query: 'status=open' })).body).toEqual([]);
  });
});
