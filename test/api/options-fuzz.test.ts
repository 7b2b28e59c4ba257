// Near-valid random requests to the private options routes (orders with iceberg, amends, cancels, cancel-all, lists,
// countdown cancel, MMP), mixing good
// and bad fields: never a 5xx, a label on every rejection, and a rejection never changes the exchange (state hash
// before and after); unknown body keys are ignored. Seeded; bounded in count and time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import type { Simulator } from '../../src/main.js';
import { type Call, type J, stateHash } from './futures-helpers.js';
import { CALL, PUT, startIndexed } from './options-helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const REQUESTS = 300;
const BUDGET_MS = 20_000;

let sim: Simulator;
let call: Call;
beforeAll(async () => {
  ({ sim, call } = await startIndexed());
});
afterAll(async () => { await sim.close(); });

const pick = <T>(r: Prng, xs: readonly T[]): T => xs[r.nextU32() % xs.length]!;
const CONTRACTS = [CALL, CALL, PUT, 'BTC_USDT-20260102-60000-X', '', 7, undefined];
const SIZES = [1, -1, 3, -3, '2', '-2', 0, 100_000, 100_001, 1.5, 'x', 2 ** 53, null];
const PRICES = ['800', '799.9', '800.05', '0', '100000', '-1', 'abc', 800, '', undefined];
const TIFS = ['gtc', 'ioc', 'poc', 'fok', 'day', undefined];
const BOOLS = [true, false, 'true', undefined];
const KEYS: [string, string][] = [['k1', 's1'], ['k2', 's2'], ['k3', 's3']];

function orderBody(r: Prng): J {
  const b: J = { contract: pick(r, CONTRACTS), size: pick(r, SIZES), price: pick(r, PRICES), tif: pick(r, TIFS),
    reduce_only: pick(r, BOOLS), close: pick(r, BOOLS), text: pick(r, ['t-ok', 'bad', undefined]), surprise: pick(r, [1, 'x', undefined]),
    iceberg: pick(r, [undefined, undefined, 0, 1, -1, '2', 1.5, 'x']), mmp: pick(r, BOOLS) };
  for (const k of Object.keys(b)) if (b[k] === undefined) delete b[k];
  return b;
}

describe('options routes under near-valid random requests', () => {
  it('label every rejection and change nothing when they reject', async () => {
    const r = new Prng(SEED);
    const start = Date.now();
    let accepted = 0;
    let rejected = 0;
    for (let i = 0; i < REQUESTS && Date.now() - start < BUDGET_MS; i++) {
      const key = pick(r, KEYS);
      const roll = r.nextU32() % 10;
      const before = await stateHash(sim);
      let res;
      if (roll < 5) res = await call('POST', '/options/orders', { key, body: orderBody(r) });
      else if (roll < 6) {
        const body = orderBody(r);
        delete body.tif; delete body.close; delete body.reduce_only;
        res = await call('PUT', `/options/orders/${pick(r, ['1', '2', '3', '4', '5', '999', 'x'])}`, { key, body });
      } else if (roll < 7 && r.nextU32() % 2 === 0) {
        res = await call('POST', '/options/countdown_cancel_all', { key, body: { timeout: pick(r, [0, 5, 4, 10, '10', -1, 86_401, undefined]),
          contract: pick(r, [undefined, CALL, 'nope']), underlying: pick(r, [undefined, 'BTC_USDT', 'ETH_USDT']) } });
      } else if (roll < 7) res = await call('DELETE', `/options/orders/${pick(r, ['1', '2', '3', '999', 'x', '-1'])}`, { key });
      else if (roll < 8) res = await call('DELETE', '/options/orders', { key, query: pick(r, [`contract=${CALL}`, 'side=ask', 'side=x', 'underlying=ETH_USDT', '']) });
      else if (roll < 9) res = await call('GET', '/options/orders', { key, query: pick(r, ['status=open', 'status=finished&limit=0', 'status=x', 'status=open&contract=nope']) });
      else if (r.nextU32() % 4 === 0) res = await call('POST', '/options/mmp/reset', { key, body: { underlying: pick(r, ['BTC_USDT', 'X', undefined]) } });
      else res = await call('POST', '/options/mmp', { key, body: { underlying: pick(r, ['BTC_USDT', 'X', undefined]), window: pick(r, [10, -1, 6000]), frozen_period: 5, qty_limit: pick(r, ['1', '0', 'x', '0.001']), delta_limit: '1' } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      if (res.status >= 400) {
        rejected++;
        expect(typeof res.body.label, JSON.stringify(res.body)).toBe('string');
        expect(await stateHash(sim), `${JSON.stringify(res.body)} changed the state`).toBe(before);
      } else {
        accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(10);
    expect(rejected).toBeGreaterThan(50);
    sim.gateway.exchange.assertInvariants();
  });
});
