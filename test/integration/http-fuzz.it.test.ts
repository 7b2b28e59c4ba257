// Random bodies, queries and headers to every route: never a 5xx, never a hang, and a rejected request never
// changes the exchange (state hash before and after). Seeded; prints its seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import { FUTURES_CONFIG } from '../api/futures-helpers.js';
import { gateSign } from '../api/http-helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const REQUESTS = 400;
const BUDGET_MS = 20_000;

let sim: Simulator;
// The futures test config: the spot pairs and keys of TEST_CONFIG plus perpetual contracts (usdt, btc) and funded
// futures accounts, so the /futures/{settle}/… routes are reached with real contracts and sizes.
beforeAll(async () => { sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 }); });
afterAll(async () => { await sim.close(); });

const KEYS = ['currency_pair', 'side', 'amount', 'price', 'type', 'time_in_force', 'text', 'account', 'iceberg', 'stp_act',
  'action_mode', 'id', 'order_id', 'timeout', 'uid', 'currency', 'balances', 'perms', 'advance_ms', 'set_ms', 'limit', 'page',
  'status', 'from', 'to', 'with_id', 'interval', 'currency_pairs', 'amend_text', 'chain', '__proto__', 'constructor',
  'contract', 'size', 'tif', 'close', 'reduce_only', 'auto_size', 'change', 'leverage', 'cross_leverage_limit', 'risk_limit',
  'dual_mode', 'dual_side', 'holding', 'offset', 'last_id', 'settle', 'exclude_reduce_only', 'role', 'order', 'contracts'];
const VALUES: unknown[] = ['BTC_USDT', 'ETH_USDT', 'NOPE', '', 'buy', 'sell', 'limit', 'market', 'gtc', 'ioc', 'poc', 'fok',
  '0.01', '60000', '-1', '1e5', '0', '0.0000001', 'NaN', 't-fuzz', 't-' + 'x'.repeat(40), 'spot', 'margin', 'unified', 'ACK',
  'open', 'finished', 'true', 0, -1, 1.5, 3, 1e21, 2 ** 53, null, true, false, [], {}, ['BTC_USDT'], { spot: { USDT: 'x' } },
  '\u0000', '%', '💥', 'usdt', 'btc', 'BTC_USD', 'close_long', 'close_short', 'dual_long', 10, -10, '-10', '5', '2000000', 'bid'];

function pick<T>(r: Prng, xs: readonly T[]): T {
  return xs[r.nextU32() % xs.length]!;
}

function randomObject(r: Prng, depth = 0): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const n = r.nextU32() % 6;
  for (let i = 0; i < n; i++) o[pick(r, KEYS)] = depth < 2 && r.nextU32() % 8 === 0 ? randomObject(r, depth + 1) : pick(r, VALUES);
  return o;
}

function randomBody(r: Prng): string {
  switch (r.nextU32() % 7) {
    case 0: return '';
    case 1: return JSON.stringify(randomObject(r));
    case 2: return JSON.stringify([randomObject(r), randomObject(r)]);
    case 3: return '{"currency_pair":';
    case 4: return JSON.stringify(pick(r, VALUES));
    case 5: return JSON.stringify(Array.from({ length: r.nextU32() % 30 }, () => randomObject(r)));
    default: return String.fromCharCode(...Array.from({ length: r.nextU32() % 40 }, () => r.nextU32() % 256));
  }
}

function randomQuery(r: Prng): string {
  const n = r.nextU32() % 5;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const v = pick(r, VALUES);
    parts.push(`${encodeURIComponent(pick(r, KEYS))}=${typeof v === 'string' ? encodeURIComponent(v) : String(v)}`);
  }
  if (r.nextU32() % 10 === 0) parts.push('%zz=%');
  return parts.join('&');
}

async function stateHash(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/sim/state_hash`);
  return ((await res.json()) as { state_hash: string }).state_hash;
}

describe('HTTP fuzz', () => {
  it(`answers every random request below 500 and leaves state alone when it rejects (seed ${SEED})`, async () => {
    console.log(`http fuzz seed ${SEED}`);
    const r = new Prng(SEED);
    const port = sim.server.port;
    const routes = sim.server.router.routes();
    const started = Date.now();
    let sent = 0;
    for (; sent < REQUESTS && Date.now() - started < BUDGET_MS; sent++) {
      const route = pick(r, routes);
      const method = r.nextU32() % 8 === 0 ? pick(r, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) : route.method;
      const path = route.pattern.replace(/\{[a-z_]+\}/g, () => encodeURIComponent(String(pick(r, ['1', 't-fuzz', '999999999', 'BTC_USDT', 'x', '%', '7', 'USDT', 'usdt', 'btc', 'BTC_USD']))));
      const query = randomQuery(r);
      const body = method === 'GET' ? '' : method === 'DELETE' ? (r.nextU32() % 6 === 0 ? randomBody(r) : '') : randomBody(r);
      const ts = r.nextU32() % 10 === 0 ? pick(r, ['0', 'abc', '1e10', '-5']) : String(Math.floor(Date.now() / 1000));
      const [key, secret] = pick(r, [['k1', 's1'], ['k2', 's2'], ['k3', 's3'], ['ro', 'ros'], ['nobody', 'x'], ['k1', 'wrong']]);
      const headers: Record<string, string> = { KEY: key, Timestamp: ts, SIGN: gateSign(secret, method, path, decodeURIComponent(query.replace(/%zz=%/, '')), body, ts) };
      if (body !== '') headers['Content-Type'] = pick(r, ['application/json', 'application/json', 'text/plain', '']);
      if (r.nextU32() % 5 === 0) headers['X-Gate-Exptime'] = pick(r, ['1', 'x', String(Date.now() + 60_000)]);
      if (r.nextU32() % 10 === 0) delete headers.SIGN;
      const before = await stateHash(port);
      const res = await fetch(`http://127.0.0.1:${port}${path}${query === '' ? '' : `?${query}`}`, {
        method, headers, body: body === '' ? undefined : body, signal: AbortSignal.timeout(5_000),
      });
      const text = await res.text();
      const where = `${method} ${path}?${query} body=${JSON.stringify(body).slice(0, 200)} → ${res.status} ${text.slice(0, 200)}`;
      expect(res.status, where).toBeLessThan(500);
      if (res.status >= 400) {
        // Gate's own RISK_LIMIT_TOO_lOW has a lower-case l.
        expect((JSON.parse(text) as { label: string }).label, where).toMatch(/^[A-Z_]+$|^RISK_LIMIT_TOO_lOW$/);
        expect(await stateHash(port), where).toBe(before);
      }
    }
    expect(sent).toBeGreaterThan(50);
  });
});
