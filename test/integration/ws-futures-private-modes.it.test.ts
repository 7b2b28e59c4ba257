// Private futures channels beyond the linear single-position case: on /v4/ws/fx/btc (the inverse BTC_USD,
// settled in BTC), in dual-position mode (separate long and short rows, each pushed with its mode), and with a
// journal (every private push leaves only once the journal covers the command it shows). Each push is compared
// with what REST answers afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, type J, setMark } from '../api/futures-helpers.js';
import { type Frame, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

const B: [string, string] = ['k2', 's2'];
let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-ws-fx-modes-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const privSub = (s: TestSocket, id: number, channel: string, payload: unknown[], key = 'k1', secret = 's1'): Promise<Frame> => {
  const time = nowS();
  return s.request({ id, time, channel, event: 'subscribe', payload, auth: subAuth(key, secret, channel, 'subscribe', time) });
};
const pushes = (s: TestSocket, channel: string, from = 0): J[] =>
  s.frames.slice(from).filter((f) => f.channel === channel && f.event === 'update').flatMap((f) => f.result as J[]);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function start(journaled = false, runner: 'threaded' | 'inline' = 'threaded'): Promise<{ sim: Simulator; call: Call }> {
  const engine = journaled ? { ...FUTURES_CONFIG.engine, runner, journal: join(dir, `fx-${runner}-${Date.now()}.journal`), fsync: 'batch' as const }
    : FUTURES_CONFIG.engine;
  const sim = await startSimulator({ ...FUTURES_CONFIG, engine }, { host: '127.0.0.1', port: 0 });
  await setMark(sim, 'BTC_USDT', '50000');
  await setMark(sim, 'BTC_USD', '50000');
  return { sim, call: futuresCaller(sim) };
}

describe('futures private channels on the btc endpoint, in dual mode and journaled', () => {
  it('pushes inverse BTC_USD orders, trades, positions and BTC balances on /v4/ws/fx/btc', async () => {
    const { sim, call } = await start();
    const s = await TestSocket.open(sim.server.port, '/v4/ws/fx/btc');
    try {
      for (const [i, [channel, payload]] of ([['futures.orders', ['10001', 'BTC_USD']], ['futures.usertrades', ['10001', '!all']],
        ['futures.positions', ['10001', 'BTC_USD']], ['futures.balances', ['10001']]] as [string, string[]][]).entries()) {
        expect((await privSub(s, i + 1, channel, payload)).result, channel).toEqual({ status: 'success' });
      }
      // A linear contract is not this endpoint's.
      expect((await privSub(s, 9, 'futures.orders', ['10001', 'BTC_USDT'])).error).toMatchObject({ code: 2 });
      const place = async (body: J, key?: [string, string]): Promise<J> => {
        const r = await call('POST', '/futures/btc/orders', { body: { contract: 'BTC_USD', tif: 'gtc', ...body }, key });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body;
      };
      await place({ size: -500, price: '50000' }, B);
      const taker = await place({ size: 500, price: '50000', text: 't-inv' });
      await s.next((f) => f.channel === 'futures.balances' && f.event === 'update');
      await s.next((f) => f.channel === 'futures.positions' && f.event === 'update');
      const order = (await call('GET', `/futures/btc/orders/${String(taker.id)}`)).body;
      const orders = pushes(s, 'futures.orders');
      expect(orders.map((o) => [o.id, o.status, o.contract, o.size, o.left, o.user])).toEqual([[taker.id, 'finished', 'BTC_USD', 500, 0, '10001']]);
      expect(orders[0]).toMatchObject({ fill_price: order.fill_price, finish_as: 'filled', text: 't-inv' });
      const trades = pushes(s, 'futures.usertrades');
      const restTrades = (await call('GET', '/futures/btc/my_trades', { query: 'contract=BTC_USD' })).body;
      expect(trades.map((t) => [t.contract, t.size, t.price, t.role, t.fee])).toEqual(restTrades.map((t) => [t.contract, t.size, t.price, t.role, t.fee]));
      const pos = (await call('GET', '/futures/btc/positions/BTC_USD')).body;
      const lastPos = pushes(s, 'futures.positions').at(-1)!;
      expect(lastPos).toMatchObject({ contract: 'BTC_USD', size: 500, entry_price: pos.entry_price, margin: pos.margin, value: pos.value, user: '10001', mode: 'single' });
      const book = (await call('GET', '/futures/btc/account_book', { query: 'limit=1' })).body[0]!;
      const bal = pushes(s, 'futures.balances');
      expect(bal.map((x) => [x.type, x.change, x.balance, x.currency, x.user])).toEqual([[book.type, Number(book.change), Number(book.balance), 'BTC', '10001']]);
      expect(bal[0]!.change).toBeLessThan(0);
    } finally {
      s.close();
      await sim.close();
    }
  });

  it('pushes the long and the short row of a dual-mode user, each with its mode', async () => {
    const { sim, call } = await start();
    const s = await TestSocket.open(sim.server.port, '/v4/ws/fx/usdt');
    try {
      const dual = await call('POST', '/futures/usdt/dual_mode', { query: 'dual_mode=true' });
      expect(dual.status, JSON.stringify(dual.body)).toBe(200);
      expect((await privSub(s, 1, 'futures.positions', ['10001', '!all'])).result).toEqual({ status: 'success' });
      expect((await privSub(s, 2, 'futures.orders', ['10001', 'BTC_USDT'])).result).toEqual({ status: 'success' });
      const place = async (body: J, key?: [string, string]): Promise<J> => {
        const r = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', tif: 'gtc', ...body }, key });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body;
      };
      // Opens a long of 3, then a short of 2 (dual: the sell opens a short instead of reducing the long).
      await place({ size: -3, price: '50000' }, B);
      await place({ size: 3, price: '50000' });
      await place({ size: 2, price: '50100' }, B);
      const from = s.frames.length;
      await place({ size: -2, price: '50100' });
      await s.next((f) => f.channel === 'futures.positions' && f.event === 'update', 3000, from);
      const [long, short] = (await call('GET', '/futures/usdt/dual_comp/positions/BTC_USDT')).body;
      const rows = pushes(s, 'futures.positions', from);
      const byMode = new Map(rows.map((r) => [r.mode, r]));
      expect([...byMode.keys()].sort()).toEqual(['dual_long', 'dual_short']);
      expect(byMode.get('dual_long')).toMatchObject({ size: 3, entry_price: long!.entry_price, margin: long!.margin, mode: 'dual_long', user: '10001' });
      expect(byMode.get('dual_short')).toMatchObject({ size: -2, entry_price: short!.entry_price, margin: short!.margin, mode: 'dual_short', user: '10001' });
      // Reducing the long (reduce_only) leaves the short: both rows pushed again, the long at 1.
      const from2 = s.frames.length;
      await place({ size: 2, price: '50000' }, B);
      await place({ size: -2, price: '50000', reduce_only: true });
      await s.next((f) => f.channel === 'futures.positions' && f.event === 'update', 3000, from2);
      const after = new Map(pushes(s, 'futures.positions', from2).map((r) => [r.mode, r.size]));
      expect(after).toEqual(new Map([['dual_long', 1], ['dual_short', -2]]));
      const orders = pushes(s, 'futures.orders');
      expect(orders.every((o) => o.user === '10001' && o.contract === 'BTC_USDT')).toBe(true);
    } finally {
      s.close();
      await sim.close();
    }
  });

  it.each(['threaded', 'inline'] as const)('journaled (%s runner): every private push leaves after the journal covers its command', async (runner) => {
    const { sim, call } = await start(true, runner);
    const journal = sim.gateway.journal!;
    expect(journal).toBeDefined();
    const s = await TestSocket.open(sim.server.port, '/v4/ws/fx/usdt');
    // The journal's durable seq when each frame arrived (read in the client's message handler, same process).
    const durableAt: number[] = [];
    s.raw.on('message', () => { durableAt.push(journal.durableSeq); });
    try {
      const channels: [string, string[]][] = [['futures.orders', ['10001', '!all']], ['futures.usertrades', ['10001', 'BTC_USDT']],
        ['futures.positions', ['10001', '!all']], ['futures.balances', ['10001']]];
      for (const [i, [channel, payload]] of channels.entries()) expect((await privSub(s, i + 1, channel, payload)).result).toEqual({ status: 'success' });
      const seqs: number[] = [];
      const place = async (body: J, key?: [string, string]): Promise<void> => {
        const r = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', tif: 'gtc', ...body }, key });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        seqs.push(journal.appendedSeq);
      };
      const from = s.frames.length;
      await place({ size: -2, price: '50000' }, B);
      const takerFrom = s.frames.length;
      await place({ size: 2, price: '50000' });
      await place({ size: 1, price: '49000' });
      await s.next((f) => f.channel === 'futures.orders' && f.event === 'update' && (f.result as J[])[0]!.price === '49000', 3000, from);
      await sleep(50);
      // The taker's command is the second placement: each of its pushes arrived with the journal durable through it.
      const takerSeq = seqs[1]!;
      const idx = s.frames.map((f, i) => [f, i] as const).filter(([f, i]) => i >= takerFrom && f.event === 'update');
      expect(new Set(idx.map(([f]) => f.channel))).toEqual(new Set(['futures.orders', 'futures.usertrades', 'futures.positions', 'futures.balances']));
      for (const [f, i] of idx) {
        const need = (f.result as J[]).some((o) => o.price === '49000') ? seqs[2]! : takerSeq;
        expect(durableAt[i], `${String(f.channel)} frame ${i}`).toBeGreaterThanOrEqual(need);
      }
      expect(pushes(s, 'futures.usertrades').map((t) => [t.size, t.price])).toEqual([[2, '50000']]);
    } finally {
      s.close();
      await sim.close();
    }
  });
});
