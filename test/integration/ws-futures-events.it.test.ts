// /v4/ws/fx/usdt channels fed by positions, triggers and risk limits: futures.public_liquidates (a liquidation
// pushed to every subscriber, no user), futures.contract_stats (first point, a point after a trade, periodic
// points), futures.autoorders (a trigger's put, cancel and fire) and futures.reduce_risk_limits (pushed when
// the user's risk limit goes down, not when it goes up). Each push is compared with the REST answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, type J, setMark } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { type Frame, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];
const K6: [string, string] = ['k6', 's6'];
const USDT = '/v4/ws/fx/usdt';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0, websocket: { contractStatsMs: 300 } });
  call = futuresCaller(sim);
  await setMark(sim, 'BTC_USDT', '50000');
});
afterAll(async () => { await sim.close(); });

const place = async (body: J, key?: [string, string]): Promise<J> => {
  const r = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', tif: 'gtc', ...body }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const sub = (s: TestSocket, id: number, channel: string, payload: unknown[]): Promise<Frame> =>
  s.request({ id, time: nowS(), channel, event: 'subscribe', payload });
const privSub = (s: TestSocket, id: number, channel: string, payload: unknown[], key = 'k1', secret = 's1'): Promise<Frame> => {
  const time = nowS();
  return s.request({ id, time, channel, event: 'subscribe', payload, auth: subAuth(key, secret, channel, 'subscribe', time) });
};
const updates = (s: TestSocket, channel: string, from = 0): Frame[] => s.frames.slice(from).filter((f) => f.channel === channel && f.event === 'update');
const prices = async (mark: string): Promise<void> => {
  const r = await plainFetch(sim.server.port, '/sim/futures/prices', { method: 'POST', body: JSON.stringify({ contract: 'BTC_USDT', mark, index: mark }),
    headers: { 'Content-Type': 'application/json' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

describe('futures websocket liquidation, stats, trigger and risk-limit channels', () => {
  it('rejects malformed subscriptions of the new channels', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    try {
      for (const [channel, payload] of [['futures.public_liquidates', []], ['futures.public_liquidates', ['ETH_USDT']], ['futures.public_liquidates', ['BTC_USD']],
        ['futures.contract_stats', ['BTC_USDT']], ['futures.contract_stats', ['BTC_USDT', '2m']], ['futures.contract_stats', ['BTC_USD', '1m']]] as [string, unknown[]][]) {
        expect((await sub(s, 1, channel, payload)).error, `${channel} ${JSON.stringify(payload)}`).toMatchObject({ code: 2 });
      }
      // Private: unsigned, and another user's id.
      expect((await sub(s, 2, 'futures.autoorders', ['10001', '!all'])).error).toMatchObject({ code: 4 });
      expect((await privSub(s, 3, 'futures.reduce_risk_limits', ['10002', '!all'])).error).toMatchObject({ code: 2 });
    } finally {
      s.close();
    }
  });

  it('pushes contract stats on subscribe, after a trade and periodically, as REST contract_stats', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    try {
      const from = s.frames.length;
      expect((await sub(s, 1, 'futures.contract_stats', ['BTC_USDT', '1m'])).result).toEqual({ status: 'success' });
      const first = await s.next((f) => f.channel === 'futures.contract_stats' && f.event === 'update', 2000, from);
      const rest = (await call('GET', '/futures/usdt/contract_stats', { query: 'contract=BTC_USDT&interval=1m' })).body[0]!;
      const p0 = (first.result as J[])[0]!;
      expect(p0).toMatchObject({ contract: 'BTC_USDT', time: rest.time, open_interest: rest.open_interest, mark_price: rest.mark_price,
        lsr_account: Number(rest.lsr_account), open_interest_usd: Number(rest.open_interest_usd), lsr_taker: 0 });
      const mark = s.frames.length;
      await place({ size: -3, price: '50000' }, B);
      await place({ size: 3, price: '50000' });
      const after = await s.next((f) => f.channel === 'futures.contract_stats' && (f.result as J[])[0]!.open_interest === (p0.open_interest as number) + 3, 2000, mark);
      expect((after.result as J[])[0]).toMatchObject({ contract: 'BTC_USDT', open_interest: (p0.open_interest as number) + 3 });
      // Periodic restatements (300 ms here) while nothing happens.
      const quiet = s.frames.length;
      await sleep(800);
      expect(updates(s, 'futures.contract_stats', quiet).length).toBeGreaterThanOrEqual(2);
    } finally {
      s.close();
    }
  });

  it('pushes a liquidation on futures.public_liquidates to anyone, as REST liq_orders', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    const all = await TestSocket.open(sim.server.port, USDT);
    try {
      expect((await sub(s, 1, 'futures.public_liquidates', ['BTC_USDT'])).result).toEqual({ status: 'success' });
      expect((await sub(all, 1, 'futures.public_liquidates', ['!all'])).result).toEqual({ status: 'success' });
      // 10006 (50 USDT) opens a long of 10 at 100x isolated; the mark falls 2 %.
      const lev = await call('POST', '/futures/usdt/positions/BTC_USDT/leverage', { query: 'leverage=100', key: K6 });
      expect(lev.status, JSON.stringify(lev.body)).toBe(200);
      await place({ size: -10, price: '50000' }, B);
      await place({ size: 10, price: '50000' }, K6);
      await sleep(50);
      expect(updates(s, 'futures.public_liquidates')).toEqual([]);
      await setMark(sim, 'BTC_USDT', '49000');
      const c = new Command();
      c.type = CommandType.FuturesLiquidate; c.uid = 10006; c.market = sim.gateway.exchange.futures.marketOf[0]!; c.sub = 0;
      expect(await new Promise<ResultCode>((resolve) => { sim.gateway.submit(c, resolve); })).toBe(ResultCode.Ok);
      const push = await s.next((f) => f.channel === 'futures.public_liquidates' && f.event === 'update');
      const viaAll = await all.next((f) => f.channel === 'futures.public_liquidates' && f.event === 'update');
      const rest = (await call('GET', '/futures/usdt/liq_orders', { query: 'contract=BTC_USDT' })).body[0]!;
      const row = (push.result as J[])[0]!;
      expect(row).toEqual({ contract: 'BTC_USDT', size: 10, price: Number(rest.order_price), time_ms: row.time_ms });
      expect(Math.floor((row.time_ms as number) / 1000)).toBe(rest.time);
      expect(viaAll.result).toEqual(push.result);
      expect(JSON.stringify(push)).not.toContain('10006');
    } finally {
      s.close();
      all.close();
      await setMark(sim, 'BTC_USDT', '50000');
    }
  });

  it('pushes a trigger order on futures.autoorders when created, cancelled and fired', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    const other = await TestSocket.open(sim.server.port, USDT);
    try {
      expect((await privSub(s, 1, 'futures.autoorders', ['10001', 'BTC_USDT'])).result).toEqual({ status: 'success' });
      expect((await privSub(other, 1, 'futures.autoorders', ['10002', '!all'], 'k2', 's2')).result).toEqual({ status: 'success' });
      await prices('50000');
      const body = { initial: { contract: 'BTC_USDT', size: 1, price: '49000' }, trigger: { price_type: 1, rule: 1, price: '50500', expiration: 3600 } };
      const created = await call('POST', '/futures/usdt/price_orders', { body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id as number;
      const put = await s.next((f) => f.channel === 'futures.autoorders' && f.event === 'update');
      const rest = (await call('GET', `/futures/usdt/price_orders/${id}`)).body;
      const pushed = (row: J, event: string): J => ({ ...row, me_order_id: String(row.me_order_id), name: 'price_autoorders', event });
      expect((put.result as J[])).toEqual([pushed(rest, 'put')]);
      const from = s.frames.length;
      expect((await call('DELETE', `/futures/usdt/price_orders/${id}`)).status).toBe(200);
      const fin = await s.next((f) => f.channel === 'futures.autoorders', 3000, from);
      expect((fin.result as J[])[0]).toMatchObject({ id, event: 'finish', status: 'finished', finish_as: 'cancelled' });
      // A second trigger fires when the mark reaches 50500: its finish push names the placed order.
      const second = await call('POST', '/futures/usdt/price_orders', { body });
      const id2 = second.body.id as number;
      await s.next((f) => f.channel === 'futures.autoorders' && f.event === 'update' && (f.result as J[])[0]!.id === id2);
      const from2 = s.frames.length;
      await prices('50500');
      const fired = await s.next((f) => f.channel === 'futures.autoorders', 3000, from2);
      const row = (fired.result as J[])[0]!;
      expect(row).toMatchObject({ id: id2, event: 'finish', status: 'finished', finish_as: 'succeeded', user: 10001 });
      expect(row.trade_id).toBeGreaterThan(0);
      expect(row).toEqual(pushed((await call('GET', `/futures/usdt/price_orders/${id2}`)).body, 'finish'));
      await call('DELETE', `/futures/usdt/orders/${String(row.trade_id)}`);
      await sleep(100);
      expect(updates(other, 'futures.autoorders')).toEqual([]);
    } finally {
      s.close();
      other.close();
      await prices('50000');
    }
  });

  it('pushes futures.reduce_risk_limits when the risk limit goes down, not up', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    try {
      expect((await privSub(s, 1, 'futures.reduce_risk_limits', ['10001', '!all'])).result).toEqual({ status: 'success' });
      const up = await call('POST', '/futures/usdt/positions/BTC_USDT/risk_limit', { query: 'risk_limit=3000000' });
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      await sleep(100);
      expect(updates(s, 'futures.reduce_risk_limits')).toEqual([]);
      const down = await call('POST', '/futures/usdt/positions/BTC_USDT/risk_limit', { query: 'risk_limit=2000000' });
      expect(down.status, JSON.stringify(down.body)).toBe(200);
      const push = await s.next((f) => f.channel === 'futures.reduce_risk_limits' && f.event === 'update');
      const pos = (await call('GET', '/futures/usdt/positions/BTC_USDT')).body;
      const row = (push.result as J[])[0]!;
      expect(push.result).toHaveLength(1);
      expect(row).toMatchObject({ cancel_orders: 0, contract: 'BTC_USDT', user: '10001', risk_limit: 2000000,
        leverage_max: Number(pos.leverage_max), maintenance_rate: Number(pos.maintenance_rate), liq_price: Number(pos.liq_price) });
      expect(row.time).toBe(Math.floor((row.time_ms as number) / 1000));
      // A refused lower limit (not a multiple of the step) pushes nothing.
      const from = s.frames.length;
      const bad = await call('POST', '/futures/usdt/positions/BTC_USDT/risk_limit', { query: 'risk_limit=1500000' });
      expect(bad.status).toBe(400);
      await sleep(100);
      expect(updates(s, 'futures.reduce_risk_limits', from)).toEqual([]);
    } finally {
      s.close();
    }
  });
});
