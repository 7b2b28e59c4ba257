// Private options channels over raw sockets on /v4/ws/options/usdt: signatures, the options permission and the
// payload's uid are checked (errors, no pushes); orders, user trades, positions and balances after a trade, a cancel
// and a transfer, each equal to what REST answers afterwards and none of the counterparty's; user settlements,
// position closes and emptied positions at expiry; options.liquidates subscribed (test/api/options-liquidation.test.ts pushes one); the
// object payload for the signer; and, journaled on either runner, every private push leaves only once the journal
// covers the command it shows.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import type { Call, J } from '../api/futures-helpers.js';
import { CALL, EXP1, OPTIONS_CONFIG, simClock, spotTrade, startIndexed } from '../api/options-helpers.js';
import { type Frame, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

const B: [string, string] = ['k2', 's2'];
const PATH = '/v4/ws/options/usdt';
const CONFIG: SimulatorConfig = {
  ...OPTIONS_CONFIG,
  users: OPTIONS_CONFIG.users!.map((u) => (u.uid === 10001 ? { ...u, keys: [...u.keys!, { key: 'spotonly', secret: 'sp', perms: [{ name: 'spot' }] }] } : u)),
};

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-ws-op-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

let id = 0;
const privSub = (s: TestSocket, channel: string, payload: unknown, key = 'k1', secret = 's1', event = 'subscribe'): Promise<Frame> => {
  const time = nowS();
  return s.request({ id: ++id, time, channel, event, payload, auth: subAuth(key, secret, channel, event, time) });
};
const ok = async (s: TestSocket, channel: string, payload: unknown, key = 'k1', secret = 's1'): Promise<void> => {
  const r = await privSub(s, channel, payload, key, secret);
  expect(r.result, JSON.stringify(r)).toEqual({ status: 'success' });
};
const pushes = (s: TestSocket, channel: string, from = 0): J[] =>
  s.frames.slice(from).filter((f) => f.channel === channel && f.event === 'update').flatMap((f) => f.result as J[]);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const place = async (call: Call, body: J, key?: [string, string]): Promise<J> => {
  const r = await call('POST', '/options/orders', { body: { contract: CALL, tif: 'gtc', ...body }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};

describe('options private channels', () => {
  let sim: Simulator;
  let call: Call;
  beforeAll(async () => { ({ sim, call } = await startIndexed(CONFIG)); });
  afterAll(async () => { await sim.close(); });

  it('refuses a missing or bad signature, another user\'s uid and a key without the options permission', async () => {
    const s = await TestSocket.open(sim.server.port, PATH);
    try {
      const time = nowS();
      const none = await s.request({ id: ++id, time, channel: 'options.orders', event: 'subscribe', payload: ['10001', '!all'] });
      expect(none.error).toMatchObject({ code: 4 });
      const bad = await s.request({ id: ++id, time, channel: 'options.orders', event: 'subscribe', payload: ['10001', '!all'],
        auth: subAuth('k1', 'wrong', 'options.orders', 'subscribe', time) });
      expect(JSON.parse((bad.error as J).message as string)).toMatchObject({ label: 'INVALID_SIGNATURE' });
      const unknown = await privSub(s, 'options.orders', ['10001', '!all'], 'nokey', 'x');
      expect(JSON.parse((unknown.error as J).message as string)).toMatchObject({ label: 'INVALID_KEY' });
      const perm = await privSub(s, 'options.positions', ['10001', '!all'], 'spotonly', 'sp');
      expect(JSON.parse((perm.error as J).message as string)).toMatchObject({ label: 'FORBIDDEN' });
      const other = await privSub(s, 'options.orders', ['10002', '!all']);
      expect(other.error).toMatchObject({ code: 2 });
      expect((await privSub(s, 'options.balances', ['10001', CALL])).error).toMatchObject({ code: 2 });
      expect((await privSub(s, 'options.usertrades', ['10001', 'BTC_USDT'])).error).toMatchObject({ code: 2 });
      await place(call, { size: -1, price: '3000' }, B);
      await place(call, { size: 1, price: '3000' });
      await sleep(100);
      expect(s.frames.filter((f) => f.event === 'update')).toEqual([]);
    } finally {
      s.close();
    }
  });

  it('orders, user trades, positions and balances after a trade, a cancel and a transfer equal REST; none of the counterparty\'s', async () => {
    const a = await TestSocket.open(sim.server.port, PATH);
    const b = await TestSocket.open(sim.server.port, PATH);
    try {
      await ok(a, 'options.orders', ['10001', '!all']);
      await ok(a, 'options.usertrades', ['10001', CALL]);
      await ok(a, 'options.positions', ['10001', '!all']);
      await ok(a, 'options.balances', ['10001']);
      await ok(b, 'options.orders', { contracts: [CALL] }, 'k2', 's2');
      const from = a.frames.length;
      const maker = await place(call, { size: -3, price: '2500', text: 't-ask' }, B);
      const taker = await place(call, { size: 2, price: '2500', tif: 'ioc', text: 't-bid' });
      await a.next(() => pushes(a, 'options.balances', from).length >= 2 && pushes(a, 'options.positions', from).length >= 1);
      const restOrder = (await call('GET', `/options/orders/${String(taker.id)}`)).body;
      const orders = pushes(a, 'options.orders', from);
      expect(orders.map((o) => o.id)).toEqual([taker.id]);
      expect(orders[0]).toEqual({
        contract: CALL, create_time: Math.floor(restOrder.create_time as number), fill_price: 2500, finish_as: 'filled', iceberg: 0,
        id: taker.id, is_close: false, is_liq: false, is_reduce_only: false, left: 0, mkfr: 0.0003, price: 2500, refr: 0, refu: 0, size: 2,
        status: 'finished', text: 't-bid', tif: 'ioc', tkfr: 0.0003, underlying: 'BTC_USDT', user: '10001',
        time: expect.any(Number) as unknown, time_ms: expect.any(Number) as unknown,
      });
      expect(restOrder).toMatchObject({ finish_as: 'filled', left: 0, size: 2, fill_price: '2500' });
      const trades = pushes(a, 'options.usertrades', from);
      const restTrade = (await call('GET', '/options/my_trades', { query: `contract=${CALL}` })).body[0]!;
      const book = (await call('GET', '/options/account_book')).body;
      const fee = book.find((e) => e.type === 'fee')!;
      expect(trades).toEqual([{ id: String(restTrade.id), underlying: 'BTC_USDT', order: String(taker.id), contract: CALL,
        create_time: Math.floor(restTrade.create_time as number), create_time_ms: Math.floor((restTrade.create_time as number) * 1000), price: '2500',
        role: 'taker', size: 2, fee: (fee.change as string).replace('-', ''), text: 't-bid' }]);
      const position = pushes(a, 'options.positions', from).at(-1)!;
      const restPosition = (await call('GET', `/options/positions/${CALL}`)).body;
      expect(position).toMatchObject({ contract: CALL, size: restPosition.size, entry_price: Number(restPosition.entry_price),
        realised_pnl: Number(restPosition.realised_pnl), user: '10001' });
      // The balance entries of the fill, oldest first, as the account book (newest first) lists them.
      const balances = pushes(a, 'options.balances', from);
      const restBook = book.slice(0, balances.length).reverse();
      expect(balances.map((e) => [e.type, e.change, e.balance, e.text])).toEqual(restBook.map((e) => [e.type, Number(e.change), Number(e.balance), e.text]));
      expect(balances.every((e) => e.user === '10001')).toBe(true);
      // The maker's order reached its owner only, by the object payload.
      await b.next(() => pushes(b, 'options.orders').filter((o) => o.id === maker.id).length === 2);
      expect(pushes(b, 'options.orders').every((o) => o.user === '10002')).toBe(true);
      // Placed (3 left), then filled for 2 by the taker.
      expect(pushes(b, 'options.orders').filter((o) => o.id === maker.id).map((o) => [o.left, o.status, o.text]))
        .toEqual([[-3, 'open', 't-ask'], [-1, 'open', 't-ask']]);
      const bFrom = b.frames.length;
      const cancel = await call('DELETE', `/options/orders/${String(maker.id)}`, { key: B });
      expect(cancel.status).toBe(200);
      await b.next(() => pushes(b, 'options.orders', bFrom).length > 0);
      expect(pushes(b, 'options.orders', bFrom)).toEqual([expect.objectContaining({ id: maker.id, status: 'finished', finish_as: 'cancelled', left: -1 })]);
      // A transfer into the options account: a dnw entry.
      const tFrom = a.frames.length;
      expect((await call('POST', '/wallet/transfers', { body: { currency: 'USDT', from: 'spot', to: 'options', amount: '100' } })).status).toBe(200);
      await a.next(() => pushes(a, 'options.balances', tFrom).length > 0);
      const total = (await call('GET', '/options/accounts')).body.total;
      expect(pushes(a, 'options.balances', tFrom)).toEqual([expect.objectContaining({ type: 'dnw', change: 100, balance: Number(total), user: '10001' })]);
      await sleep(50);
      expect(pushes(a, 'options.orders', tFrom)).toEqual([]);
    } finally {
      a.close();
      b.close();
    }
  });

  it('at expiry: user settlements, position closes (as REST lists them) and the emptied position; options.liquidates pushes nothing', async () => {
    const s = await TestSocket.open(sim.server.port, PATH);
    try {
      await ok(s, 'options.user_settlements', ['10001', '!all']);
      await ok(s, 'options.position_closes', ['10001', CALL]);
      await ok(s, 'options.positions', { contracts: [CALL] });
      await ok(s, 'options.liquidates', ['10001', '!all']);
      await spotTrade(call, '62000');
      await simClock(sim, { advance_ms: 2000 });
      const from = s.frames.length;
      await simClock(sim, { set_ms: (EXP1 + 5) * 1000 });
      await s.next(() => pushes(s, 'options.position_closes', from).length > 0 && pushes(s, 'options.positions', from).length > 0);
      const mine = (await call('GET', '/options/my_settlements', { query: `contract=${CALL}` })).body[0]!;
      expect(pushes(s, 'options.user_settlements', from)).toEqual([{
        contract: CALL, realised_pnl: Number(mine.realised_pnl), settle_price: 62000, settle_profit: Number(mine.settle_profit), size: 3,
        strike_price: 60000, underlying: 'BTC_USDT', user: '10001', time: mine.time, time_ms: (mine.time as number) * 1000,
      }]);
      // Long 3 (1 from the first test, 2 from the second) of the 60000 call settled at 62000: 3 × 0.01 × 2000.
      expect(mine.settle_profit).toBe('60');
      const close = (await call('GET', '/options/position_close', { query: `contract=${CALL}` })).body[0]!;
      expect(close.text).toBe('settled');
      expect(pushes(s, 'options.position_closes', from)).toEqual([{ contract: CALL, pnl: Number(close.pnl), settle_size: 3, side: 'long', text: 'settled',
        underlying: 'BTC_USDT', user: '10001', time: close.time, time_ms: (close.time as number) * 1000 }]);
      expect(pushes(s, 'options.positions', from).at(-1)).toMatchObject({ contract: CALL, size: 0, user: '10001' });
      expect(pushes(s, 'options.liquidates')).toEqual([]);
    } finally {
      s.close();
    }
  });
});

describe('options private channels, journaled', () => {
  it.each(['threaded', 'inline'] as const)('(%s runner) every private push leaves after the journal covers its command', async (runner) => {
    const config: SimulatorConfig = { ...CONFIG, engine: { runner, journal: join(dir, `op-${runner}.journal`), fsync: 'batch' } };
    const { sim, call } = await startIndexed(config);
    const journal = sim.gateway.journal!;
    expect(journal).toBeDefined();
    const s = await TestSocket.open(sim.server.port, PATH);
    const durableAt: number[] = [];
    s.raw.on('message', () => { durableAt.push(journal.durableSeq); });
    try {
      for (const [channel, payload] of [['options.orders', ['10001', '!all']], ['options.usertrades', ['10001', CALL]],
        ['options.positions', ['10001', '!all']], ['options.balances', ['10001']]] as const) await ok(s, channel, payload);
      const seqs: number[] = [];
      const from = s.frames.length;
      await place(call, { size: -2, price: '2500' }, B);
      seqs.push(journal.appendedSeq);
      const takerFrom = s.frames.length;
      await place(call, { size: 2, price: '2500' });
      seqs.push(journal.appendedSeq);
      await s.next(() => pushes(s, 'options.positions', from).length > 0 && pushes(s, 'options.usertrades', from).length > 0
        && pushes(s, 'options.balances', from).length >= 2);
      await sleep(50);
      const frames = s.frames.map((f, i) => [f, i] as const).filter(([f, i]) => i >= takerFrom && f.event === 'update');
      expect(new Set(frames.map(([f]) => f.channel))).toEqual(new Set(['options.orders', 'options.usertrades', 'options.positions', 'options.balances']));
      for (const [f, i] of frames) expect(durableAt[i], `${String(f.channel)} frame ${i}`).toBeGreaterThanOrEqual(seqs[1]!);
    } finally {
      s.close();
      await sim.close();
    }
  });
});
