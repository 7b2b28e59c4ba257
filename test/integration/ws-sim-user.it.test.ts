// The control plane's socket /ws/sim over raw sockets, on the demo with a control-plane token (simulated clock, so
// nothing moves but what the test does): a sim.user subscription needs the token in its auth (none, a wrong one, a
// key signature: error 4 with FORBIDDEN; nothing pushed); with it, the first push is what GET /sim/users/{uid}
// answers, and a resting order, a trade, a wallet transfer and a confirmed deposit each push the user's view again,
// equal to what GET /sim/users/{uid} answers afterwards; another user's page gets nothing; after unsubscribing,
// nothing more. Without a token, loopback callers only (behind a trusted proxy, the address X-Forwarded-For names).
// Journaled (both runners), every push leaves only once the journal covers the command it shows.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type SimulatorConfig, validateConfig } from '../../src/sim/config-file.js';
import { plainFetch, signedFetch } from '../api/http-helpers.js';
import { type Frame, nowS, subAuth, TestSocket, WS } from '../api/ws/ws-client.js';

const TOKEN = 'sim-socket-token';
const PATH = '/ws/sim';
const ALICE = ['demo-alice-key', 'demo-alice-secret'] as const;
type J = Record<string, unknown>;
interface View { uid: number; spot: { balances: J[]; open_orders: J[] }; futures: J[]; delivery: { settle: string; account: J }[]; options: J[] }

const config = (engine: SimulatorConfig['engine']): SimulatorConfig =>
  validateConfig({ extends: 'demo', clock: { type: 'sim' }, engine, admin_token: TOKEN });

let id = 0;
/** A sim.user (un)subscription with `auth` (default: the token; null: none). */
const subscribe = (s: TestSocket, payload: unknown, auth: unknown = { method: 'sim_token', token: TOKEN }, event = 'subscribe'): Promise<Frame> =>
  s.request({ id: ++id, time: nowS(), channel: 'sim.user', event, payload, ...(auth === null ? {} : { auth }) });
const updates = (s: TestSocket, from = 0): View[] => s.frames.slice(from).filter((f) => f.channel === 'sim.user' && f.event === 'update').map((f) => f.result as View);
const label = (f: Frame): string => (JSON.parse((f.error as { message: string }).message) as { label: string }).label;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The user's view as the control plane answers it over HTTP. */
async function restView(sim: Simulator, uid: number): Promise<View> {
  const r = await plainFetch(sim.server.port, `/sim/users/${uid}`, { headers: { 'X-Sim-Token': TOKEN } });
  expect(r.status).toBe(200);
  return r.body as View;
}

async function alice(sim: Simulator, method: string, path: string, body?: unknown): Promise<J> {
  const r = await signedFetch(sim.server.port, { method, path: `/api/v4${path}`, key: ALICE[0], secret: ALICE[1], body: body === undefined ? '' : JSON.stringify(body) });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body as J;
}

const simPost = (sim: Simulator, path: string, body: unknown) => plainFetch(sim.server.port, path,
  { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Sim-Token': TOKEN }, body: JSON.stringify(body) });

/** A BTC_USDT buy far below the best bid (it rests); returns its id. */
async function restingBid(sim: Simulator): Promise<string> {
  const book = (await (await fetch(`http://127.0.0.1:${sim.server.port}/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=1`)).json()) as { bids: string[][] };
  const price = String(Math.floor(Number(book.bids[0]![0]) * 0.9));
  return String((await alice(sim, 'POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price })).id);
}

describe('/ws/sim: sim.user', () => {
  let sim: Simulator;
  beforeAll(async () => { sim = await startSimulator(config({ runner: 'inline' }), { host: '127.0.0.1', port: 0 }); });
  afterAll(async () => { await sim?.close(); });

  it('refuses a subscription without the token, with a wrong one or a key signature (FORBIDDEN), and bad payloads; pushes nothing', async () => {
    const s = await TestSocket.open(sim.server.port, PATH);
    try {
      for (const auth of [null, { method: 'sim_token', token: 'wrong' }, { method: 'sim_token', token: TOKEN.replace(/.$/, 'x') },
        { method: 'sim_token', token: '' }, subAuth(ALICE[0], ALICE[1], 'sim.user', 'subscribe', nowS())]) {
        const r = await subscribe(s, ['10001'], auth);
        expect(r.error, JSON.stringify(auth)).toMatchObject({ code: 4 });
        expect(label(r)).toBe('FORBIDDEN');
        // The frame echoes the payload, never the token.
        expect(JSON.stringify(r)).not.toContain(TOKEN);
      }
      expect((await subscribe(s, ['10001'], { method: 'sim_token' })).error).toMatchObject({ code: 1 });
      for (const payload of [['424242'], ['0'], ['abc'], [], '10001', [['10001']]]) {
        expect((await subscribe(s, payload)).error, JSON.stringify(payload)).toMatchObject({ code: 2 });
      }
      expect((await s.request({ id: ++id, time: nowS(), channel: 'spot.trades', event: 'subscribe', payload: ['BTC_USDT'] })).error).toMatchObject({ code: 1 });
      expect((await s.request({ id: ++id, time: nowS(), channel: 'sim.ping' })).channel).toBe('sim.pong');
      await restingBid(sim);
      await sleep(100);
      expect(s.frames.filter((f) => f.event === 'update')).toEqual([]);
    } finally {
      s.close();
    }
  });

  it('pushes the view on subscribe and after a resting order, a trade, a transfer and a deposit, as REST answers it; nothing to another user\'s page', async () => {
    const a = await TestSocket.open(sim.server.port, PATH);
    const c = await TestSocket.open(sim.server.port, PATH);
    try {
      expect((await subscribe(a, ['10001'])).result).toEqual({ status: 'success' });
      expect((await subscribe(c, ['10003'])).result).toEqual({ status: 'success' });
      const first = await a.next((f) => f.event === 'update');
      expect(first.result).toEqual(await restView(sim, 10001));
      expect((first.result as View).delivery.map((d) => d.settle)).toEqual(['usdt']);
      expect((first.result as View).options).toHaveLength(1);
      await c.next((f) => f.event === 'update');
      const carolFrames = c.frames.length;

      /** Waits for a push after `from` whose view passes `ok`, then checks it equals REST's. */
      const pushed = async (from: number, ok: (v: View) => boolean, what: string): Promise<View> => {
        const f = await a.next((x) => x.event === 'update' && ok(x.result as View), 3000, from).catch((e: unknown) => {
          throw new Error(`${what}: ${String(e)}`);
        });
        await sleep(30);
        // The latest push is the current view.
        const last = updates(a).at(-1)!;
        expect(last, what).toEqual(await restView(sim, 10001));
        return f.result as View;
      };

      let from = a.frames.length;
      const oid = await restingBid(sim);
      await pushed(from, (v) => v.spot.open_orders.some((o) => o.id === oid), 'the resting order');

      from = a.frames.length;
      const usdt = (v: View): string => v.spot.balances.find((b) => b.currency === 'USDT')!.available as string;
      const before = usdt(updates(a).at(-1)!);
      const book = (await (await fetch(`http://127.0.0.1:${sim.server.port}/api/v4/spot/order_book?currency_pair=ETH_USDT&limit=1`)).json()) as { asks: string[][] };
      const trade = await alice(sim, 'POST', '/spot/orders', { currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price: book.asks[0]![0], time_in_force: 'ioc' });
      expect(trade.finish_as).toBe('filled');
      await pushed(from, (v) => v.spot.balances.some((b) => b.currency === 'ETH') && usdt(v) !== before, 'the trade');

      from = a.frames.length;
      const delivery = (v: View): number => Number(v.delivery[0]!.account.total);
      const d0 = delivery(updates(a).at(-1)!);
      await alice(sim, 'POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'delivery', amount: '125', settle: 'usdt' });
      await pushed(from, (v) => delivery(v) === d0 + 125, 'the transfer to delivery');

      from = a.frames.length;
      const u0 = Number(usdt(updates(a).at(-1)!));
      const dep = await simPost(sim, '/sim/deposits', { uid: 10001, currency: 'USDT', amount: '50' });
      expect(dep.status, JSON.stringify(dep.body)).toBe(200);
      expect((await simPost(sim, '/sim/clock', { advance_ms: 60_000 })).status).toBe(200);
      await pushed(from, (v) => Number(usdt(v)) === u0 + 50, 'the credited deposit');

      // Carol's page: her first push only.
      await sleep(50);
      expect(updates(c, carolFrames)).toEqual([]);

      // Unsubscribed: nothing more.
      expect((await subscribe(a, ['10001'], null, 'unsubscribe')).error).toMatchObject({ code: 4 });
      expect((await subscribe(a, ['10001'], { method: 'sim_token', token: TOKEN }, 'unsubscribe')).result).toEqual({ status: 'success' });
      from = a.frames.length;
      await restingBid(sim);
      await sleep(100);
      expect(updates(a, from)).toEqual([]);
    } finally {
      a.close();
      c.close();
    }
  });
});

describe('/ws/sim without a token', () => {
  it('admits loopback callers only: behind a trusted proxy, the address X-Forwarded-For names', async () => {
    const sim = await startSimulator(validateConfig({ extends: 'demo', clock: { type: 'sim' }, engine: { runner: 'inline' }, trust_proxy: true }),
      { host: '127.0.0.1', port: 0 });
    /** The reply to a sim.user subscription (no auth) on a socket opened with `headers`. */
    const reply = (headers: Record<string, string>): Promise<Frame> => new Promise((resolve, reject) => {
      const ws = new WS(`ws://127.0.0.1:${sim.server.port}${PATH}`, { headers });
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ id: 1, time: nowS(), channel: 'sim.user', event: 'subscribe', payload: ['10001'] })));
      ws.on('message', (data) => {
        const f = JSON.parse(data.toString('utf8')) as Frame;
        if (f.id !== 1) return;
        ws.close();
        resolve(f);
      });
    });
    try {
      expect((await reply({})).result).toEqual({ status: 'success' });
      expect((await reply({ 'X-Forwarded-For': '127.0.0.1' })).result).toEqual({ status: 'success' });
      const remote = await reply({ 'X-Forwarded-For': '203.0.113.9, 127.0.0.1' });
      expect(remote.error).toMatchObject({ code: 4 });
      expect(label(remote)).toBe('FORBIDDEN');
      // The same caller over HTTP.
      expect((await plainFetch(sim.server.port, '/sim/users/10001', { headers: { 'X-Forwarded-For': '203.0.113.9' } })).status).toBe(403);
    } finally {
      await sim.close();
    }
  });
});

describe('/ws/sim, journaled', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-ws-sim-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it.each(['threaded', 'inline'] as const)('(%s runner) every push leaves after the journal covers its command', async (runner) => {
    const sim = await startSimulator(config({ runner, journal: join(dir, `${runner}.journal`), fsync: 'batch' }), { host: '127.0.0.1', port: 0 });
    const journal = sim.gateway.journal!;
    expect(journal).toBeDefined();
    const s = await TestSocket.open(sim.server.port, PATH);
    const durableAt: number[] = [];
    s.raw.on('message', () => { durableAt.push(journal.durableSeq); });
    try {
      expect((await subscribe(s, ['10001'])).result).toEqual({ status: 'success' });
      await s.next((f) => f.event === 'update');
      const seqs: number[] = [];
      const froms: number[] = [];
      for (let i = 0; i < 3; i++) {
        froms.push(s.frames.length);
        await restingBid(sim);
        seqs.push(journal.appendedSeq);
        await s.next((f) => f.event === 'update', 3000, froms[i]);
      }
      froms.forEach((from, i) => {
        const at = s.frames.findIndex((f, j) => j >= from && f.event === 'update');
        expect(durableAt[at], `push ${i}`).toBeGreaterThanOrEqual(seqs[i]!);
      });
    } finally {
      s.close();
      await sim.close();
    }
  });
});
