// Near-valid random requests to the private futures routes (orders, amends, cancels, batches, position settings,
// dual mode), mixing good and bad fields: never a 5xx, a label on every rejection, and a rejection never changes
// the exchange (state hash before and after). Seeded; bounded in count and time. The broad HTTP fuzz
// (test/integration/http-fuzz.it.test.ts) covers the same routes with arbitrary bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { FUTURES_CONFIG, futuresCaller, type Call, type J, setMark, stateHash } from './futures-helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const REQUESTS = 300;
const BUDGET_MS = 20_000;

let sim: Simulator;
let call: Call;
beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  call = futuresCaller(sim);
  await setMark(sim, 'BTC_USDT', '50000');
  await setMark(sim, 'BTC_USD', '50000');
});
afterAll(async () => { await sim.close(); });

const pick = <T>(r: Prng, xs: readonly T[]): T => xs[r.nextU32() % xs.length]!;
const CONTRACTS = ['BTC_USDT', 'BTC_USDT', 'BTC_USD', 'ETH_USDT', '', 7];
const SIZES = [1, -1, 3, -3, '2', '-2', 0, 100_000, 100_001, 1.5, 'x', 2 ** 53, null];
const PRICES = ['50000', '49990', '50010.5', '0', '90000', '-1', '50000.05', 'abc', 50000, ''];
const TIFS = ['gtc', 'ioc', 'poc', 'fok', 'day', undefined];
const BOOLS = [true, false, 'true', undefined];

function order(r: Prng): J {
  const o: J = { contract: pick(r, CONTRACTS), size: pick(r, SIZES), price: pick(r, PRICES) };
  if (r.nextU32() % 2 === 0) o.tif = pick(r, TIFS);
  if (r.nextU32() % 5 === 0) o.reduce_only = pick(r, BOOLS);
  if (r.nextU32() % 6 === 0) o.close = pick(r, BOOLS);
  if (r.nextU32() % 8 === 0) o.auto_size = pick(r, ['close_long', 'close_short', 'x']);
  if (r.nextU32() % 6 === 0) o.text = pick(r, ['t-f', 'bad', `t-${'y'.repeat(40)}`]);
  if (r.nextU32() % 8 === 0) o.iceberg = pick(r, [0, 1, -1, '1']);
  if (r.nextU32() % 8 === 0) o.stp_act = pick(r, ['cn', 'co', 'cb', '-', 'zz']);
  return o;
}

describe('futures routes fuzz', () => {
  it(`answers near-valid random requests below 500 and leaves state alone on rejection (seed ${SEED})`, async () => {
    const r = new Prng(SEED);
    const ids: string[] = [];
    const started = Date.now();
    let sent = 0;
    let accepted = 0;
    for (; sent < REQUESTS && Date.now() - started < BUDGET_MS; sent++) {
      const key = pick(r, [['k1', 's1'], ['k2', 's2'], ['k6', 's6'], ['k3', 's3']] as [string, string][]);
      const settle = pick(r, ['usdt', 'usdt', 'btc', 'eth']);
      const id = ids.length > 0 && r.nextU32() % 4 !== 0 ? pick(r, ids) : pick(r, ['1', 't-f', '999999', 'x']);
      const contract = String(pick(r, CONTRACTS));
      const requests: (() => Promise<{ status: number; body: J & J[] }>)[] = [
        () => call('POST', `/futures/${settle}/orders`, { body: order(r), key, decimal: r.nextU32() % 2 === 0 }),
        () => call('POST', `/futures/${settle}/orders`, { body: order(r), key }),
        () => call('PUT', `/futures/${settle}/orders/${id}`, { body: { size: pick(r, SIZES), price: pick(r, PRICES) }, key }),
        () => call('DELETE', `/futures/${settle}/orders/${id}`, { key }),
        () => call('DELETE', `/futures/${settle}/orders`, { query: `contract=${contract}&side=${pick(r, ['ask', 'bid', '', 'x'])}`, key }),
        () => call('POST', `/futures/${settle}/batch_orders`, { body: [order(r), order(r)], key }),
        () => call('POST', `/futures/${settle}/batch_cancel_orders`, { body: [id, 'x'], key }),
        () => call('POST', `/futures/${settle}/positions/${contract}/leverage`, { query: `leverage=${String(pick(r, [0, 5, 10, 150, 'x', -1]))}&cross_leverage_limit=${String(pick(r, [0, 20, 200]))}`, key }),
        () => call('POST', `/futures/${settle}/positions/${contract}/margin`, { query: `change=${String(pick(r, ['1', '-1', '-1000', '0', 'x']))}`, key }),
        () => call('POST', `/futures/${settle}/positions/${contract}/risk_limit`, { query: `risk_limit=${String(pick(r, ['1000000', '2000000', '1500000', '9000000', '0']))}`, key }),
        () => call('POST', `/futures/${settle}/dual_mode`, { query: `dual_mode=${String(pick(r, ['true', 'false', 'x']))}`, key }),
        () => call('POST', `/futures/${settle}/dual_comp/positions/${contract}/leverage`, { query: 'leverage=5', key }),
      ];
      const before = await stateHash(sim);
      const res = await pick(r, requests)();
      const where = `#${sent} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      expect(res.status, where).toBeLessThan(500);
      if (res.status >= 400) {
        expect(res.body.label, where).toMatch(/^[A-Z_]+$|^RISK_LIMIT_TOO_lOW$/);
        expect(await stateHash(sim), where).toBe(before);
      } else {
        accepted++;
        const b = res.body as unknown as J;
        if (!Array.isArray(b) && typeof b.id === 'number' && b.status === 'open') ids.push(String(b.id));
      }
    }
    console.log(`futures fuzz seed ${SEED}: ${sent} requests, ${accepted} accepted`);
    expect(sent).toBeGreaterThan(50);
    expect(accepted).toBeGreaterThan(5);
  });
});
