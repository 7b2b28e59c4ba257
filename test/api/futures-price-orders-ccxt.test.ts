// Unchanged ccxt `gate` on futures trigger orders: createOrder with stopLossPrice / takeProfitPrice on a swap,
// fetchOpenOrders / fetchClosedOrders and cancelOrder with {stop: true}; ccxt loads its markets as it does by
// default (defaultType swap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { ccxtGate } from '../support/clients.js';
import { FUTURES_TEST_CONFIG } from './futures-price-orders-config.js';
import { plainFetch, startTestSimulator } from './http-helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startTestSimulator(FUTURES_TEST_CONFIG);
  await plainFetch(sim.server.port, '/sim/futures/prices', { method: 'POST', body: JSON.stringify({ contract: 'BTC_USDT', mark: '60000' }),
    headers: { 'Content-Type': 'application/json' } });
});
afterAll(async () => { await sim.close(); });

const SYMBOL = 'BTC/USDT:USDT';

async function client(): Promise<ReturnType<typeof ccxtGate>> {
  const g = ccxtGate(sim.server.port, 'k1', 's1', { defaultType: 'swap' });
  await g.loadMarkets();
  return g;
}

describe('ccxt gate: futures trigger orders', () => {
  it('creates a stop-loss and a take-profit, lists them, cancels one', async () => {
    const g = await client();
    const sl = await g.createOrder(SYMBOL, 'limit', 'sell', 2, 58000, { stopLossPrice: 59000 });
    const tp = await g.createOrder(SYMBOL, 'market', 'sell', 1, undefined, { takeProfitPrice: 65000, reduceOnly: true });
    const open = await g.fetchOpenOrders(SYMBOL, undefined, undefined, { stop: true });
    expect(open.map((o) => [o.id, o.status, o.side, o.type, o.amount, o.price, o.triggerPrice, o.reduceOnly])).toEqual([
      [sl.id, 'open', 'sell', 'limit', 2, 58000, 59000, false],
      [tp.id, 'open', 'sell', 'market', 1, undefined, 65000, true], // ccxt leaves a market order's price out
    ]);
    // What ccxt sent: a stop-loss sell is rule 2 (≤), a take-profit sell rule 1 (≥), on the last price.
    const raw = open.map((o) => (o.info as { trigger: { rule: number; price_type: number }; initial: { size: number } }));
    expect(raw.map((r) => [r.trigger.rule, r.trigger.price_type, r.initial.size])).toEqual([[2, 0, -2], [1, 0, -1]]);
    const cancelled = await g.cancelOrder(sl.id!, SYMBOL, { stop: true });
    expect([cancelled.id, cancelled.status]).toEqual([sl.id, 'canceled']);
    const closed = await g.fetchClosedOrders(SYMBOL, undefined, undefined, { stop: true });
    expect(closed.map((o) => [o.id, o.status])).toEqual([[sl.id, 'canceled']]);
    expect((await g.fetchOpenOrders(SYMBOL, undefined, undefined, { stop: true })).map((o) => o.id)).toEqual([tp.id]);
  });
});
