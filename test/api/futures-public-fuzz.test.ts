// Random queries to every public futures, delivery and options route of a simulator with contracts: never a
// 5xx, a rejection always carries a Gate label, and nothing ever changes the exchange (state hash). Seeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import type { Simulator } from '../../src/main.js';
import { futuresOrder, setPrices, startFuturesSimulator } from './futures-public-helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const REQUESTS = 300;
const BUDGET_MS = 15_000;

let sim: Simulator;
beforeAll(async () => {
  sim = await startFuturesSimulator();
  expect(await setPrices(sim, 'BTC_USDT', 6_000_000, 6_000_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10002, 'BTC_USDT', -5, 6_000_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10001, 'BTC_USDT', 2, 6_000_000)).toBe(ResultCode.Ok);
});
afterAll(async () => { await sim.close(); });

const KEYS = ['contract', 'limit', 'offset', 'last_id', 'from', 'to', 'interval', 'with_id', 'underlying', 'settle', '__proto__'];
const VALUES = ['BTC_USDT', 'BTC_USD', 'mark_BTC_USDT', 'index_BTC_USD', 'mark_', 'NOPE', '', '0', '1', '-1', '1.5', '1999', '2000',
  '2001', '1e3', 'true', 'false', '5m', '1d', '30d', '3m', '0.1', '0.05', '100', '9999999999999', '1767225600', 'NaN', '%00', '💥'];
const SEGMENTS = ['usdt', 'btc', 'USDT', 'eth', 'BTC_USDT', 'BTC_USD', 'x', '%25', ''];

function pick<T>(r: Prng, xs: readonly T[]): T {
  return xs[r.nextU32() % xs.length]!;
}

async function stateHash(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/sim/state_hash`);
  return ((await res.json()) as { state_hash: string }).state_hash;
}

describe('public futures routes under random queries', () => {
  it(`answer below 500 with labels and change nothing (seed ${SEED})`, async () => {
    const r = new Prng(SEED);
    const port = sim.server.port;
    const routes = sim.server.router.routes().filter((x) => /^\/api\/v4\/(futures|delivery|options)\//.test(x.pattern) && x.access.kind === 'public');
    expect(routes.length).toBeGreaterThan(20);
    const before = await stateHash(port);
    const started = Date.now();
    let sent = 0;
    for (; sent < REQUESTS && Date.now() - started < BUDGET_MS; sent++) {
      const route = pick(r, routes);
      const path = route.pattern.replace(/\{[a-z_]+\}/g, () => encodeURIComponent(pick(r, SEGMENTS)) || 'usdt');
      const n = r.nextU32() % 5;
      const query = Array.from({ length: n }, () => `${pick(r, KEYS)}=${encodeURIComponent(pick(r, VALUES))}`).join('&');
      const res = await fetch(`http://127.0.0.1:${port}${path}${query === '' ? '' : `?${query}`}`, { signal: AbortSignal.timeout(5_000) });
      const text = await res.text();
      const where = `GET ${path}?${query} → ${res.status} ${text.slice(0, 200)}`;
      expect(res.status, where).toBeLessThan(500);
      const body = JSON.parse(text) as unknown;
      if (res.status >= 400) expect((body as { label: string }).label, where).toMatch(/^[A-Z_]+$/);
    }
    expect(await stateHash(port)).toBe(before);
    expect(sent).toBeGreaterThan(50);
  });
});
