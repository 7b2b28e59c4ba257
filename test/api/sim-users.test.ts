// GET /sim/users and /sim/users/{uid}: the control plane's read of users (what the dashboard shows). The answer of
// /sim/users/{uid} is compared with the user's own signed Gate reads (spot accounts, open orders, futures accounts,
// positions and open orders; on the demo, delivery and options accounts, positions and open orders too) after real
// trading; access follows the control plane's rule (a token when one is set); bad uids answer their labels and
// change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { type Call, expectRejected, FUTURES_CONFIG, futuresCaller, type J, type Res, setMark } from './futures-helpers.js';
import { plainFetch, signedFetch } from './http-helpers.js';

let sim: Simulator;
let call: Call;
const BOB: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  call = futuresCaller(sim);
  await setMark(sim, 'BTC_USDT', '50000');
  // 10001: a resting spot bid, a long of 10 contracts against bob, and a resting futures bid.
  const ok = (r: Res): J => { expect(r.status, JSON.stringify(r.body)).toBe(201); return r.body; };
  ok(await call('POST', '/spot/orders', { body: { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '40000' } }));
  ok(await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: -10, price: '50000' }, key: BOB }));
  expect(ok(await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 10, price: '0', tif: 'ioc' } })).finish_as).toBe('filled');
  ok(await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 3, price: '48000' } }));
});
afterAll(async () => { await sim.close(); });

const sim_ = (path: string, headers: Record<string, string> = {}) => plainFetch(sim.server.port, path, { headers });

describe('GET /sim/users', () => {
  it('lists every user with its main account, the platform left out', async () => {
    const r = await sim_('/sim/users');
    expect(r.status).toBe(200);
    const users = r.body as { uid: number; main_uid: number }[];
    expect(users.map((u) => u.uid)).toEqual(expect.arrayContaining([10001, 10002, 10003, 10006, 20001]));
    expect(users.find((u) => u.uid === 20001)).toEqual({ uid: 20001, main_uid: 10001 });
    expect(users.find((u) => u.uid === 10001)).toEqual({ uid: 10001, main_uid: 0 });
    expect(users.some((u) => u.uid === 0)).toBe(false);
  });
});

describe('GET /sim/users/{uid}', () => {
  it('answers what the user\'s own signed reads answer, in the same shapes', async () => {
    const r = await sim_('/sim/users/10001');
    expect(r.status).toBe(200);
    const v = r.body as { uid: number; main_uid: number; spot: { balances: J[]; open_orders: J[] }; futures: { settle: string; account: J; positions: J[]; open_orders: J[] }[] };
    expect(v.uid).toBe(10001);
    expect(v.main_uid).toBe(0);
    const accounts = (await call('GET', '/spot/accounts')).body as J[];
    expect(v.spot.balances).toEqual(accounts.map(({ currency, available, locked }) => ({ currency, available, locked })));
    expect(v.spot.balances.find((b) => b.currency === 'USDT')?.locked).toBe('400');
    const open = (await call('GET', '/spot/open_orders')).body as unknown as { orders: J[] }[];
    expect(v.spot.open_orders).toEqual(open.flatMap((g) => g.orders));
    expect(v.spot.open_orders).toHaveLength(1);
    expect(v.futures.map((f) => f.settle)).toEqual(['usdt', 'btc']);
    const usdt = v.futures[0]!;
    expect(usdt.account).toEqual((await call('GET', '/futures/usdt/accounts')).body);
    expect(usdt.positions).toEqual((await call('GET', '/futures/usdt/positions', { query: 'holding=true' })).body);
    expect(usdt.positions).toHaveLength(1);
    expect(usdt.positions[0]).toMatchObject({ contract: 'BTC_USDT', size: 10, entry_price: '50000' });
    expect(usdt.open_orders).toEqual((await call('GET', '/futures/usdt/orders', { query: 'status=open' })).body);
    expect(usdt.open_orders[0]).toMatchObject({ contract: 'BTC_USDT', size: 3, price: '48000' });
    expect(v.futures[1]).toMatchObject({ settle: 'btc', positions: [], open_orders: [] });
  });

  it('lists only the futures accounts a user has, and a sub-account with its main', async () => {
    const carol = (await sim_('/sim/users/10003')).body as { futures: unknown[]; spot: { balances: J[] } };
    expect(carol.futures).toEqual([]);
    expect(carol.spot.balances).toEqual([{ currency: 'USDT', available: '1000', locked: '0' }]);
    expect(((await sim_('/sim/users/20001')).body as { main_uid: number }).main_uid).toBe(10001);
  });

  it('answers USER_NOT_FOUND and INVALID_PARAM_VALUE for bad uids, changing nothing', async () => {
    for (const [path, status, label] of [
      ['/sim/users/424242', 400, 'USER_NOT_FOUND'], ['/sim/users/0', 400, 'INVALID_PARAM_VALUE'], ['/sim/users/-1', 400, 'INVALID_PARAM_VALUE'],
      ['/sim/users/1e3', 400, 'INVALID_PARAM_VALUE'], ['/sim/users/2147483648', 400, 'INVALID_PARAM_VALUE'], ['/sim/users/%20', 400, 'INVALID_PARAM_VALUE'],
    ] as const) {
      await expectRejected(sim, async () => { const r = await sim_(path); return { status: r.status, body: r.body as J & J[] }; }, status, label);
    }
  });
});

describe('access', () => {
  it('needs the token when one is configured, as every control-plane route', async () => {
    const guarded = await startSimulator({ ...FUTURES_CONFIG, admin_token: 'op-secret' }, { host: '127.0.0.1', port: 0 });
    try {
      for (const path of ['/sim/users', '/sim/users/10001']) {
        const none = await plainFetch(guarded.server.port, path);
        expect(none.status).toBe(403);
        expect((none.body as J).label).toBe('FORBIDDEN');
        expect((await plainFetch(guarded.server.port, path, { headers: { 'X-Sim-Token': 'op-secreT' } })).status).toBe(403);
        expect((await plainFetch(guarded.server.port, path, { headers: { 'X-Sim-Token': 'op-secret' } })).status).toBe(200);
      }
    } finally {
      await guarded.close();
    }
  });
});

describe('GET /sim/users/{uid} on the demo: delivery and options', () => {
  it('answers the delivery and options accounts, positions and open orders the user\'s own reads answer', async () => {
    const demo = await startSimulator(validateConfig({ extends: 'demo', clock: { type: 'sim' }, engine: { runner: 'inline' } }), { host: '127.0.0.1', port: 0 });
    try {
      const port = demo.server.port;
      const alice = async (method: string, path: string, body?: unknown, query = ''): Promise<{ status: number; body: unknown }> =>
        signedFetch(port, { method, path: `/api/v4${path}`, query, key: 'demo-alice-key', secret: 'demo-alice-secret', body: body === undefined ? '' : JSON.stringify(body) });
      const pub = async <T>(path: string): Promise<T> => (await plainFetch(port, `/api/v4${path}`)).body as T;
      const contract = (await pub<{ name: string }[]>('/delivery/usdt/contracts'))[0]!.name;
      const dbook = await pub<{ asks: { p: string }[]; bids: { p: string }[] }>(`/delivery/usdt/order_book?contract=${contract}&limit=1`);
      const placed = (r: { status: number; body: unknown }): J => { expect(r.status, JSON.stringify(r.body)).toBe(201); return r.body as J; };
      expect(placed(await alice('POST', '/delivery/usdt/orders', { contract, size: 2, price: dbook.asks[0]!.p, tif: 'ioc' })).finish_as).toBe('filled');
      placed(await alice('POST', '/delivery/usdt/orders', { contract, size: 1, price: String(Math.floor(Number(dbook.bids[0]!.p) * 0.98)) }));
      const option = (await pub<{ name: string }[]>('/options/contracts?underlying=BTC_USDT'))[0]!.name;
      const obook = await pub<{ asks: { p: string }[]; bids: { p: string }[] }>(`/options/order_book?contract=${option}&limit=1`);
      expect(placed(await alice('POST', '/options/orders', { contract: option, size: 1, price: obook.asks[0]!.p, tif: 'ioc' })).finish_as).toBe('filled');
      placed(await alice('POST', '/options/orders', { contract: option, size: 1, price: String(Math.max(0.1, Math.floor(Number(obook.bids[0]!.p) * 0.5))) }));

      const v = (await plainFetch(port, '/sim/users/10001')).body as { delivery: { settle: string; account: J; positions: J[]; open_orders: J[] }[];
        options: { settle: string; account: J; positions: J[]; open_orders: J[] }[] };
      expect(v.delivery.map((d) => d.settle)).toEqual(['usdt']);
      const d = v.delivery[0]!;
      expect(d.account).toEqual((await alice('GET', '/delivery/usdt/accounts')).body);
      expect(d.positions).toEqual(((await alice('GET', '/delivery/usdt/positions')).body as J[]).filter((p) => p.size !== 0));
      expect(d.positions).toHaveLength(1);
      expect(d.positions[0]).toMatchObject({ contract, size: 2 });
      expect(d.open_orders).toEqual((await alice('GET', '/delivery/usdt/orders', undefined, 'status=open')).body);
      expect(d.open_orders).toHaveLength(1);
      expect(v.options.map((o) => o.settle)).toEqual(['usdt']);
      const o = v.options[0]!;
      expect(o.account).toEqual((await alice('GET', '/options/accounts')).body);
      expect(o.positions).toEqual((await alice('GET', '/options/positions')).body);
      expect(o.positions).toHaveLength(1);
      expect(o.positions[0]).toMatchObject({ contract: option, size: 1 });
      expect(o.open_orders).toEqual((await alice('GET', '/options/orders', undefined, 'status=open')).body);
      expect(o.open_orders).toHaveLength(1);
      // Carol has no delivery or options account.
      expect((await plainFetch(port, '/sim/users/10003')).body).toMatchObject({ delivery: [], options: [] });
    } finally {
      await demo.close();
    }
  });
});
