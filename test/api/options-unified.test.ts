// A unified account in portfolio mode counts its options: `options_order_loss` in GET /unified/accounts is what
// its open options orders would lose against the mark if filled at their limits, and GET /unified/risk_units adds
// its option positions' greeks to the unit of the underlying's base currency (display figures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { modelOf } from '../../src/gate/options-shapes.js';
import { type Call } from './futures-helpers.js';
import { CALL, OPTIONS_CONFIG, startIndexed } from './options-helpers.js';

let sim: Simulator;
let call: Call;

beforeAll(async () => {
  ({ sim, call } = await startIndexed({
    ...OPTIONS_CONFIG,
    unified: { currencies: { USDT: { lendable: '100000' }, BTC: { lendable: '10' } } },
  }));
});
afterAll(async () => { await sim.close(); });

describe('options in portfolio mode', () => {
  it('reports options_order_loss and the options greeks in the risk units', async () => {
    const ex = sim.gateway.exchange;
    const ci = ex.options.contractIndex(CALL);
    expect((await call('PUT', '/unified/unified_mode', { body: { mode: 'portfolio' } })).status).toBe(204);
    expect((await call('GET', '/unified/accounts')).body).toMatchObject({ mode: 'portfolio', options_order_loss: '0' });
    type Units = { risk_units: Record<string, string>[] };
    const btcUnit = async (): Promise<Record<string, string>> =>
      ((await call('GET', '/unified/risk_units')).body as unknown as Units).risk_units.find((u) => u.symbol === 'BTC')!;
    const spot = await btcUnit();
    expect(spot).toMatchObject({ gamma: '0', vega: '0' });
    expect((await call('POST', '/options/orders', { key: ['k2', 's2'], body: { contract: CALL, size: -2, price: '800' } })).status).toBe(201);
    expect((await call('POST', '/options/orders', { body: { contract: CALL, size: 2, price: '800' } })).status).toBe(201);
    const mark = modelOf(ex, ci, sim.gateway.clock.nowUs()).markTicks / 10;
    // A resting buy 100 above the mark: filled at once it would lose 100 × 0.01 × 3 against the mark.
    const limit = mark + 100;
    expect((await call('POST', '/options/orders', { body: { contract: CALL, size: 3, price: String(limit) } })).status).toBe(201);
    const account = (await call('GET', '/unified/accounts')).body;
    expect(Number(account.options_order_loss)).toBeCloseTo(3, 6);
    const btc = await btcUnit();
    const m = modelOf(ex, ci, sim.gateway.clock.nowUs());
    // the spot BTC equity plus 2 calls × 0.01 BTC × delta
    expect(Number(btc.delta)).toBeCloseTo(Number(spot.delta) + 0.02 * m.delta, 7);
    expect(Number(btc.gamma)).toBeCloseTo(0.02 * m.gamma, 8);
    expect(Number(btc.vega)).toBeGreaterThan(0);
  });
});
