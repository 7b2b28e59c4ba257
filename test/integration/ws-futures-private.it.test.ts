// /v4/ws/fx/usdt private channels over raw sockets: signed subscriptions (bad signature, unknown key and a
// payload naming another user get error 4 / 2 and no pushes), futures.orders, futures.usertrades,
// futures.positions and futures.balances after REST orders, fills, cancels and a transfer, with exact values,
// and only the subscriber's own events (the counterparty's are not pushed to it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, type J, setMark } from '../api/futures-helpers.js';
import { applyFunding } from '../api/futures-public-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { type Frame, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];
const USDT = '/v4/ws/fx/usdt';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  call = futuresCaller(sim);
  await setMark(sim, 'BTC_USDT', '50000');
  await setMark(sim, 'BTC_USD', '50000');
});
afterAll(async () => { await sim.close(); });

const place = async (body: J, key?: [string, string]): Promise<J> => {
  const r = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', tif: 'gtc', ...body }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const privSub = (s: TestSocket, id: number, channel: string, payload: unknown[], key = 'k1', secret = 's1'): Promise<Frame> => {
  const time = nowS();
  return s.request({ id, time, channel, event: 'subscribe', payload, auth: subAuth(key, secret, channel, 'subscribe', time) });
};
const pushes = (s: TestSocket, channel: string, from = 0): Frame[] =>
  s.frames.slice(from).filter((f) => f.channel === channel && f.event === 'update');
const CHANNELS: [string, unknown[]][] = [
  ['futures.orders', ['10001', '!all']], ['futures.usertrades', ['10001', 'BTC_USDT']], ['futures.positions', ['10001', '!all']],
  ['futures.balances', ['10001']],
];

describe('futures websocket private channels', () => {
  it('rejects bad auth, another user\'s id and unknown contracts, and pushes nothing there', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    try {
      let id = 1;
      for (const [channel, payload] of CHANNELS) {
        const time = nowS();
        const badSign = await s.request({ id: id++, time, channel, event: 'subscribe', payload, auth: subAuth('k1', 'wrong', channel, 'subscribe', time) });
        expect(badSign.error).toMatchObject({ code: 4 });
        expect(String((badSign.error as J).message)).toContain('INVALID_SIGNATURE');
        const noKey = await s.request({ id: id++, time, channel, event: 'subscribe', payload, auth: subAuth('nokey', 's1', channel, 'subscribe', time) });
        expect(String((noKey.error as J).message)).toContain('INVALID_KEY');
        const noAuth = await s.request({ id: id++, time, channel, event: 'subscribe', payload });
        expect(noAuth.error).toMatchObject({ code: 4 });
        // k2's signature with 10001 in the payload: not its user.
        const other = await privSub(s, id++, channel, payload, 'k2', 's2');
        expect(other.error).toMatchObject({ code: 2 });
      }
      const unknown = await privSub(s, id++, 'futures.orders', ['10001', 'ETH_USDT']);
      expect(unknown.error).toMatchObject({ code: 2 });
      const inverse = await privSub(s, id++, 'futures.orders', ['10001', 'BTC_USD']);
      expect(String((inverse.error as J).message)).toContain('unknown contract');
      const from = s.frames.length;
      const o = await place({ size: 1, price: '40000' });
      await call('DELETE', `/futures/usdt/orders/${String(o.id)}`);
      await sleep(150);
      expect(s.frames.slice(from).filter((f) => f.event === 'update')).toEqual([]);
    } finally {
      s.close();
    }
  });

  it('pushes the subscriber\'s orders, trades, positions and balances, exactly, and not the counterparty\'s', async () => {
    const a = await TestSocket.open(sim.server.port, USDT);
    const b = await TestSocket.open(sim.server.port, USDT);
    try {
      let id = 1;
      for (const [channel, payload] of CHANNELS) {
        const ack = await privSub(a, id++, channel, payload);
        expect(ack).toMatchObject({ channel, event: 'subscribe', result: { status: 'success' } });
      }
      // B watches only its own orders on !all.
      expect((await privSub(b, 1, 'futures.orders', ['10002', '!all'], 'k2', 's2')).result).toEqual({ status: 'success' });
      const maker = await place({ size: -2, price: '50100', text: 't-maker' }, B);
      const taker = await place({ size: 2, price: '50100', text: 't-taker' });
      const rest = await place({ size: 1, price: '49900' });
      await call('DELETE', `/futures/usdt/orders/${String(rest.id)}`);
      await a.next((f) => f.channel === 'futures.orders' && f.event === 'update' && (f.result as J[]).some((o) => o.id === rest.id && o.status === 'finished'));
      await a.next((f) => f.channel === 'futures.balances' && f.event === 'update');
      const orders = pushes(a, 'futures.orders').flatMap((f) => f.result as J[]);
      expect(orders.map((o) => [o.id, o.status, o.finish_as, o.left, o.size])).toEqual([
        [taker.id, 'finished', 'filled', 0, 2],
        [rest.id, 'open', '_new', 1, 1],
        [rest.id, 'finished', 'cancelled', 1, 1],
      ]);
      expect(orders[0]).toMatchObject({ contract: 'BTC_USDT', price: '50100', fill_price: '50100', text: 't-taker', user: '10001', tif: 'gtc', is_liq: false });
      expect(orders[0]!.create_time_ms).toBe(Math.round((taker.create_time as number) * 1000));
      expect(orders.some((o) => o.id === maker.id)).toBe(false);
      const bOrders = pushes(b, 'futures.orders').flatMap((f) => f.result as J[]);
      expect(bOrders.map((o) => [o.id, o.status])).toEqual([[maker.id, 'open'], [maker.id, 'finished']]);
      expect(bOrders.every((o) => o.user === '10002')).toBe(true);

      const trades = pushes(a, 'futures.usertrades').flatMap((f) => f.result as J[]);
      expect(trades).toHaveLength(1);
      expect(trades[0]).toMatchObject({ contract: 'BTC_USDT', order_id: String(taker.id), size: 2, price: '50100', role: 'taker', text: 't-taker', fee: '0.007515' });

      const positions = pushes(a, 'futures.positions').flatMap((f) => f.result as J[]);
      const last = positions[positions.length - 1]!;
      expect(last).toMatchObject({ contract: 'BTC_USDT', user: '10001', size: 2, entry_price: '50100', mode: 'single' });
      expect(typeof last.time_ms).toBe('number');

      const balances = pushes(a, 'futures.balances').flatMap((f) => f.result as J[]);
      expect(balances.map((x) => [x.type, x.change, x.balance, x.currency, x.user])).toEqual([['fee', -0.007515, 9999.992485, 'USDT', '10001']]);
      expect(balances[0]!.text).toBe(`BTC_USDT:${String(taker.id)}`);

      // A transfer into the futures account: a dnw entry.
      const from = a.frames.length;
      const t = await call('POST', '/wallet/transfers', { body: { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '5' } });
      expect(t.status, JSON.stringify(t.body)).toBeLessThan(300);
      const dnw = await a.next((f) => f.channel === 'futures.balances', 3000, from);
      expect((dnw.result as J[]).map((x) => [x.type, x.change, x.balance])).toEqual([['dnw', 5, 10004.992485]]);
    } finally {
      a.close();
      b.close();
    }
  });

  it('pushes positions on a leverage change and positions and a fund balance entry on funding', async () => {
    const sim2 = await startSimulator({ ...FUTURES_CONFIG, clock: { type: 'sim', start_ms: Date.UTC(2026, 0, 1) } }, { host: '127.0.0.1', port: 0 });
    const call2 = futuresCaller(sim2);
    const a = await TestSocket.open(sim2.server.port, USDT);
    try {
      await setMark(sim2, 'BTC_USDT', '50000');
      for (const [i, [channel, payload]] of CHANNELS.slice(2).entries()) {
        expect((await privSub(a, i + 1, channel, payload)).result).toEqual({ status: 'success' });
      }
      const sell = await call2('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: -2, price: '50000', tif: 'gtc' }, key: B });
      expect(sell.status).toBe(201);
      const buy = await call2('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 2, price: '50000', tif: 'gtc' } });
      expect(buy.status).toBe(201);
      let from = a.frames.length;
      const lev = await call2('POST', '/futures/usdt/positions/BTC_USDT/leverage', { query: 'leverage=10' });
      expect(lev.status, JSON.stringify(lev.body)).toBe(200);
      const levPush = await a.next((f) => f.channel === 'futures.positions' && f.event === 'update', 3000, from);
      expect((levPush.result as J[])[0]).toMatchObject({ contract: 'BTC_USDT', size: 2, leverage: '10', user: '10001' });
      const moved = await plainFetch(sim2.server.port, '/sim/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 8 * 3600_000 }),
        headers: { 'Content-Type': 'application/json' } });
      expect(moved.status).toBe(200);
      from = a.frames.length;
      expect(await applyFunding(sim2, 'BTC_USDT', 50_000)).toBe(ResultCode.Ok);
      const fund = await a.next((f) => f.channel === 'futures.balances' && f.event === 'update', 3000, from);
      // 2 contracts × 0.0001 BTC × mark 50000 × 0.0005: the long pays 0.005 USDT.
      expect((fund.result as J[]).map((x) => [x.type, x.change, x.text, x.user])).toEqual([['fund', -0.005, 'BTC_USDT', '10001']]);
      const pos = await a.next((f) => f.channel === 'futures.positions' && f.event === 'update', 3000, from);
      expect((pos.result as J[])[0]).toMatchObject({ contract: 'BTC_USDT', size: 2, pnl_fund: '-0.005' });
    } finally {
      a.close();
      await sim2.close();
    }
  });

  it('pushes position closes and liquidations to their owner only', async () => {
    const K6: [string, string] = ['k6', 's6'];
    const a = await TestSocket.open(sim.server.port, USDT);
    const l = await TestSocket.open(sim.server.port, USDT);
    try {
      expect((await privSub(a, 1, 'futures.position_closes', ['10001', 'BTC_USDT'])).result).toEqual({ status: 'success' });
      expect((await privSub(a, 2, 'futures.liquidates', ['10001', '!all'])).result).toEqual({ status: 'success' });
      expect((await privSub(l, 1, 'futures.liquidates', ['10006', '!all'], 'k6', 's6')).result).toEqual({ status: 'success' });
      expect((await privSub(l, 2, 'futures.position_closes', ['10006', '!all'], 'k6', 's6')).result).toEqual({ status: 'success' });
      await setMark(sim, 'BTC_USDT', '50000');
      // A's long of 2 (from the earlier test) closed at 50200: a close row for A.
      await place({ size: 2, price: '50200' }, B);
      await place({ size: -2, price: '50200', reduce_only: true });
      const close = await a.next((f) => f.channel === 'futures.position_closes' && f.event === 'update');
      expect((close.result as J[])[0]).toMatchObject({ contract: 'BTC_USDT', side: 'long', text: 'close', user: '10001' });
      expect(typeof (close.result as J[])[0]!.time_ms).toBe('number');
      // 10006 (50 USDT) opens a long of 10 at 100x isolated; the mark falls 2 %: the liquidation is pushed to 10006 alone.
      const lev = await call('POST', '/futures/usdt/positions/BTC_USDT/leverage', { query: 'leverage=100', key: K6 });
      expect(lev.status, JSON.stringify(lev.body)).toBe(200);
      await place({ size: -10, price: '50000' }, B);
      await place({ size: 10, price: '50000' }, K6);
      await setMark(sim, 'BTC_USDT', '49000');
      const c = new Command();
      c.type = CommandType.FuturesLiquidate; c.uid = 10006; c.market = sim.gateway.exchange.futures.marketOf[0]!; c.sub = 0;
      const code = await new Promise<ResultCode>((resolve) => { sim.gateway.submit(c, resolve); });
      expect(code).toBe(ResultCode.Ok);
      const liq = await l.next((f) => f.channel === 'futures.liquidates' && f.event === 'update');
      expect((liq.result as J[])[0]).toMatchObject({ contract: 'BTC_USDT', size: 10, leverage: '100', mark_price: '49000', user: '10006', left: 0 });
      await sleep(100);
      expect(pushes(a, 'futures.liquidates')).toEqual([]);
      expect(pushes(l, 'futures.position_closes').flatMap((f) => f.result as J[]).map((x) => x.text)).toEqual(['liquidated']);
      // With no bid to close into, the liquidator's long is auto-deleveraged against B's short: pushed to B.
      const bs = await TestSocket.open(sim.server.port, USDT);
      try {
        expect((await privSub(bs, 1, 'futures.auto_deleverages', ['10002', 'BTC_USDT'], 'k2', 's2')).result).toEqual({ status: 'success' });
        const d = new Command();
        d.type = CommandType.FuturesDeleverage; d.market = sim.gateway.exchange.futures.marketOf[0]!;
        expect(await new Promise<ResultCode>((resolve) => { sim.gateway.submit(d, resolve); })).toBe(ResultCode.Ok);
        const adl = await bs.next((f) => f.channel === 'futures.auto_deleverages' && f.event === 'update');
        expect((adl.result as J[])[0]).toMatchObject({ contract: 'BTC_USDT', user: '10002', trade_size: 10 });
      } finally {
        bs.close();
      }
    } finally {
      a.close();
      l.close();
      await setMark(sim, 'BTC_USDT', '50000');
    }
  });
});
