// The /sim/futures control plane with the futures services running (the default whenever contracts exist):
// a price set there is an override of the price clock that survives its later steps until cleared with null;
// a mark move that leaves a position underwater is liquidated by the services before the switch answers; the
// funding-rate override becomes the indicative rate and is what a clock move past the funding time applies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from '../../src/core/command.js';
import type { ResultCode } from '../../src/core/result-code.js';
import { futuresServicesOf } from '../../src/engine/futures/futures-services.js';
import { futuresPlaceCommand } from '../../src/gate/futures-price-order-request.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from './http-helpers.js';
import { ALICE, BOB, FUTURES_TEST_CONFIG } from './futures-price-orders-config.js';

let sim: Simulator;
type J = Record<string, unknown>;

const post = async (path: string, body: unknown) =>
  (await plainFetch(sim.server.port, path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })) as { status: number; body: J };
const get = async (path: string) => (await plainFetch(sim.server.port, path)) as { status: number; body: J & J[] };
const ex = () => sim.gateway.exchange;
const market = () => ex().futures.marketOf[0]!;
const submit = (c: Command): Promise<ResultCode> => new Promise((resolve) => sim.gateway.submit(c, (code) => resolve(code)));
const order = (uid: number, size: number, price: string, tif: 'gtc' | 'ioc' = 'gtc'): Promise<ResultCode> => {
  const c = new Command();
  futuresPlaceCommand(ex(), uid, market(), { contract: 'BTC_USDT', size, price, close: false, tif, text: '', reduce_only: false, auto_size: '' }, c);
  return submit(c);
};
const size = (uid: number): number => {
  const r = ex().futures.positions.find(uid, market(), 0);
  return r < 0 ? 0 : ex().futures.positions.size[r]!;
};
const moveClock = (ms: number) => post('/sim/clock', { advance_ms: ms });

beforeAll(async () => {
  sim = await startTestSimulator(FUTURES_TEST_CONFIG);
});
afterAll(async () => { await sim.close(); });

describe('/sim/futures with the price clock running', () => {
  it('a price set is an override: the clock keeps it until it is cleared with null', async () => {
    const services = futuresServicesOf(ex())!;
    expect(services).toBeDefined();
    expect((await post('/sim/futures/prices', { contract: 'BTC_USDT', mark: '60000', index: '60000' })).body)
      .toMatchObject({ mark_price: '60000', index_price: '60000' });
    expect((await moveClock(10_000)).status).toBe(200);
    expect([ex().futures.mark[0], ex().futures.index[0]]).toEqual([6_000_000, 6_000_000]);
    expect(services.overrides(0)).toMatchObject({ mark: 6_000_000, index: 6_000_000 });
    expect((await post('/sim/futures/prices', { contract: 'BTC_USDT', mark: null })).status).toBe(200);
    expect(services.overrides(0)).toMatchObject({ mark: undefined, index: 6_000_000 });
    expect((await post('/sim/futures/prices', { contract: 'BTC_USDT', mark: '60000' })).status).toBe(200);
  });

  it('the funding-rate override is the indicative rate and what the clock applies at the funding time', async () => {
    expect(await order(BOB, -10, '60000')).toBe(0);
    expect(await order(ALICE, 10, '60000', 'ioc')).toBe(0);
    expect((await post('/sim/futures/funding_rate', { contract: 'BTC_USDT', rate: '0.001' })).body.funding_rate_override).toBe('0.001');
    const [summary] = (await get('/sim/futures/positions?contract=BTC_USDT')).body as J[];
    expect(summary).toMatchObject({ funding_rate: '0.001', funding_rate_override: '0.001' });
    const usdt = ex().currencyIndex('USDT');
    const [a0, b0] = [ex().ledger.futures.total(ALICE, usdt), ex().ledger.futures.total(BOB, usdt)];
    const next = ex().futures.nextFunding[0]!;
    await post('/sim/clock', { set_ms: next * 1000 });
    expect(ex().futures.nextFunding[0]).toBeGreaterThan(next);
    // 10 contracts × 0.0001 BTC × 60000 × 0.001 = 0.06 USDT, paid by the long to the short.
    const unit = 10n ** BigInt(ex().definition.currencies[usdt]!.scale);
    expect(a0 - ex().ledger.futures.total(ALICE, usdt)).toBe(6n * unit / 100n);
    expect(ex().ledger.futures.total(BOB, usdt) - b0).toBe(6n * unit / 100n);
    expect((await post('/sim/futures/funding_rate', { contract: 'BTC_USDT', rate: null })).body.funding_rate_override).toBeNull();
  });

  it('a mark move that leaves a position underwater is liquidated before the switch answers', async () => {
    expect([size(ALICE), size(BOB)]).toEqual([10, -10]);
    expect((await post('/sim/futures/prices', { contract: 'BTC_USDT', mark: '40000', index: '40000' })).status).toBe(200);
    expect(size(ALICE)).toBe(0);
    expect(ex().futures.liquidations.length).toBe(1);
    // Nothing left to do for an explicit pass.
    expect((await post('/sim/futures/liquidate', {})).body).toEqual({ liquidated: [], deleveraged: [] });
    // The owner reads its liquidation; with no bid to close into, the short was auto-deleveraged and reads that.
    const liq = await signedFetch(sim.server.port, { path: '/api/v4/futures/usdt/liquidates', query: 'contract=BTC_USDT', key: 'k1', secret: 's1' });
    expect(liq.status).toBe(200);
    expect(liq.body).toEqual([expect.objectContaining({ contract: 'BTC_USDT', size: 10, leverage: expect.any(String) as unknown })]);
    const adl = await signedFetch(sim.server.port, { path: '/api/v4/futures/usdt/auto_deleverages', key: 'k2', secret: 's2' });
    expect(adl.status).toBe(200);
    expect(adl.body).toEqual([expect.objectContaining({ contract: 'BTC_USDT', user: BOB, entry_price: '60000', position_size: 0, trade_size: 10 })]);
    expect((await signedFetch(sim.server.port, { path: '/api/v4/futures/usdt/auto_deleverages', key: 'k1', secret: 's1' })).body).toEqual([]);
  });
});
