// The /sim/futures control plane over HTTP with the futures services off (`futures.clock.enabled: false`: the
// switches issue the core commands themselves): labels on bad input with nothing changed, setting mark and
// index, the funding-rate override and funding at its time (payers pay what receivers get), a liquidator pass
// that takes an underwater position over, and the insurance and positions reads. sim-futures-services.test.ts
// drives the same switches with the services running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from '../../src/core/command.js';
import type { ResultCode } from '../../src/core/result-code.js';
import { INSURANCE_UID } from '../../src/core/ledger/futures-funds.js';
import { futuresPlaceCommand } from '../../src/gate/futures-price-order-request.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, startTestSimulator } from './http-helpers.js';
import { ALICE, BOB, FUTURES_TEST_CONFIG } from './futures-price-orders-config.js';

let sim: Simulator;
type J = Record<string, unknown>;

const post = async (path: string, body: unknown) =>
  (await plainFetch(sim.server.port, `/sim/futures/${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })) as { status: number; body: J };
const get = async (path: string) => (await plainFetch(sim.server.port, `/sim/futures/${path}`)) as { status: number; body: J & J[] };
const hash = async (): Promise<string> => ((await plainFetch(sim.server.port, '/sim/state_hash')).body as J).state_hash as string;
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
const usdt = () => ex().currencyIndex('USDT');
const total = (uid: number): bigint => ex().ledger.futures.total(uid, usdt());

beforeAll(async () => {
  sim = await startTestSimulator({ ...FUTURES_TEST_CONFIG, futures: { ...FUTURES_TEST_CONFIG.futures!, clock: { enabled: false } } });
});
afterAll(async () => { await sim.close(); });

describe('/sim/futures', () => {
  it('refuses bad input with labels and changes nothing', async () => {
    const before = await hash();
    const cases: [string, J, string][] = [
      ['prices', { mark: '1' }, 'MISSING_REQUIRED_PARAM'],
      ['prices', { contract: 'NOPE', mark: '1' }, 'CONTRACT_NOT_FOUND'],
      ['prices', { contract: 'BTC_USDT', settle: 'btc', mark: '1' }, 'CONTRACT_NOT_FOUND'],
      ['prices', { contract: 'BTC_USDT' }, 'MISSING_REQUIRED_PARAM'],
      ['prices', { contract: 'BTC_USDT', mark: '60000.001' }, 'INVALID_PRECISION'],
      ['prices', { contract: 'BTC_USDT', mark: '0' }, 'INVALID_PARAM_VALUE'],
      ['prices', { contract: 'BTC_USDT', index: 'abc' }, 'INVALID_PARAM_VALUE'],
      ['funding_rate', { contract: 'BTC_USDT' }, 'MISSING_REQUIRED_PARAM'],
      ['funding_rate', { contract: 'BTC_USDT', rate: 0.001 }, 'INVALID_PARAM_VALUE'],
      ['funding_rate', { contract: 'BTC_USDT', rate: '0.000000001' }, 'INVALID_PARAM_VALUE'],
      ['funding_rate', { contract: 'BTC_USDT', rate: '0.5' }, 'INVALID_PARAM_VALUE'],
      ['funding', { contract: 'BTC_USDT' }, 'INVALID_PARAM_VALUE'], // no mark yet: nothing due
      ['liquidate', { contract: 'NOPE' }, 'CONTRACT_NOT_FOUND'],
    ];
    for (const [path, body, label] of cases) {
      const r = await post(path, body);
      expect([r.status, r.body.label], `${path} ${JSON.stringify(body)}`).toEqual([400, label]);
    }
    expect((await get('positions?contract=NOPE')).body.label).toBe('CONTRACT_NOT_FOUND');
    expect(await hash()).toBe(before);
  });

  it('sets mark and index, keeping the other when one is given', async () => {
    expect((await post('prices', { contract: 'BTC_USDT', mark: '60000', index: '59990.5' })).body)
      .toEqual({ contract: 'BTC_USDT', settle: 'usdt', mark_price: '60000', index_price: '59990.5' });
    expect((await post('prices', { contract: 'BTC_USDT', index: '60001' })).body).toMatchObject({ mark_price: '60000', index_price: '60001' });
    const ci = 0;
    expect([ex().futures.mark[ci], ex().futures.index[ci]]).toEqual([6_000_000, 6_000_100]);
    const [summary] = (await get('positions?contract=BTC_USDT')).body as J[];
    expect(summary).toMatchObject({ contract: 'BTC_USDT', mark_price: '60000', index_price: '60001', funding_rate_override: null });
  });

  it('applies funding at the override once due: the long pays what the short receives', async () => {
    expect(await order(BOB, -10, '60000')).toBe(0);
    expect(await order(ALICE, 10, '60000', 'ioc')).toBe(0);
    expect([size(ALICE), size(BOB)]).toEqual([10, -10]);
    expect((await post('funding_rate', { contract: 'BTC_USDT', rate: '0.001' })).body.funding_rate_override).toBe('0.001');
    expect((await post('funding', { contract: 'BTC_USDT' })).body.label).toBe('INVALID_PARAM_VALUE'); // not due yet
    const next = ex().futures.nextFunding[0]!;
    await plainFetch(sim.server.port, '/sim/clock', { method: 'POST', body: JSON.stringify({ set_ms: next * 1000 }), headers: { 'Content-Type': 'application/json' } });
    const [a0, b0, fund0] = [total(ALICE), total(BOB), ex().ledger.futures.insuranceFund(usdt())];
    const r = await post('funding', { contract: 'BTC_USDT' });
    expect(r.body).toMatchObject({ contract: 'BTC_USDT', rate: '0.001' });
    expect(r.body.funding_next_apply).toBeGreaterThan(next);
    // 10 contracts × 0.0001 BTC × 60000 × 0.001 = 0.06 USDT.
    const unit = 10n ** BigInt(ex().definition.currencies[usdt()]!.scale);
    expect(a0 - total(ALICE)).toBe(6n * unit / 100n);
    expect(total(BOB) - b0).toBe(6n * unit / 100n);
    expect(ex().ledger.futures.insuranceFund(usdt())).toBe(fund0);
    expect((await post('funding_rate', { contract: 'BTC_USDT', rate: null })).body.funding_rate_override).toBeNull();
  });

  it('liquidates an underwater position in one pass and reports it', async () => {
    const fund0 = (await get('insurance')).body.USDT as string;
    expect(Number(fund0)).toBeGreaterThan(0);
    await post('prices', { contract: 'BTC_USDT', mark: '40000' }); // alice long 10 at 60000: a third lost
    const [summary] = (await get('positions?contract=BTC_USDT')).body as J[];
    const rows = summary!.positions as J[];
    expect(rows.find((p) => p.uid === ALICE)).toMatchObject({ size: 10, liquidatable: true });
    expect(rows.find((p) => p.uid === BOB)).toMatchObject({ size: -10, liquidatable: false });
    expect(summary).toMatchObject({ long_size: 10, short_size: 10 });
    const pass = (await post('liquidate', {})).body;
    expect(pass.liquidated).toEqual([{ uid: ALICE, contract: 'BTC_USDT', slot: 0, size: 10 }]);
    expect(size(ALICE)).toBe(0);
    // No bid to close into: the liquidator's position went to the most profitable short by ADL.
    expect(pass.deleveraged).toEqual(['BTC_USDT']);
    expect([size(BOB), size(INSURANCE_UID)]).toEqual([0, 0]);
    expect((await post('liquidate', {})).body).toEqual({ liquidated: [], deleveraged: [] });
    expect(ex().futures.liquidations.length).toBe(1);
  });
});
