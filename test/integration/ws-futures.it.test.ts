// /v4/ws/fx/{settle} over raw sockets: per public channel, subscribe (ack, first push), an update after REST
// orders and trades, unsubscribe (no more pushes), and bad input (error objects, no subscription made).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, type J, setMark } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { type Frame, nowS, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];
const USDT = '/v4/ws/fx/usdt';

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
const sub = (s: TestSocket, id: number, channel: string, payload: unknown[], event = 'subscribe'): Promise<Frame> =>
  s.request({ id, time: nowS(), channel, event, payload });
const updates = (s: TestSocket, channel: string, from: number): Frame[] =>
  s.frames.slice(from).filter((f) => f.channel === channel && (f.event === 'update' || f.event === 'all'));

/** Subscribes, checks the ack, lets `act` move the market, expects an update matching `check`, then unsubscribes and checks silence. */
async function lifecycle(channel: string, payload: unknown[], act: () => Promise<void>, check: (f: Frame) => boolean): Promise<Frame> {
  const s = await TestSocket.open(sim.server.port, USDT);
  try {
    const ack = await sub(s, 1, channel, payload);
    expect(ack).toMatchObject({ id: 1, channel, event: 'subscribe', payload, result: { status: 'success' } });
    const from = s.frames.length;
    await act();
    const push = await s.next((f) => f.channel === channel && f.event !== 'subscribe' && check(f), 3000, from);
    const un = await sub(s, 2, channel, payload, 'unsubscribe');
    expect(un.result).toEqual({ status: 'success' });
    const after = s.frames.length;
    await act();
    const pong = await s.request({ id: 3, time: nowS(), channel: 'futures.ping' });
    expect(pong).toMatchObject({ channel: 'futures.pong', event: '', result: null });
    expect(updates(s, channel, after)).toEqual([]);
    return push;
  } finally {
    s.close();
  }
}

const trade = async (): Promise<void> => {
  await place({ size: -2, price: '50100' }, B);
  await place({ size: 2, price: '50100' });
};

describe('futures websocket public channels', () => {
  it('futures.trades: one array per command, size signed by the taker side', async () => {
    const push = await lifecycle('futures.trades', ['BTC_USDT'], trade, () => true);
    const [t] = push.result as J[];
    expect(t).toMatchObject({ contract: 'BTC_USDT', size: 2, price: '50100' });
    expect(Number.isInteger(t!.create_time) && Number.isInteger(t!.create_time_ms) && typeof t!.id === 'number').toBe(true);
    const rest = await plainFetch(sim.server.port, '/api/v4/futures/usdt/trades?contract=BTC_USDT&limit=1');
    expect((rest.body as J[])[0]!.id).toBeGreaterThanOrEqual(t!.id as number);
  });

  it('futures.tickers: the REST ticker on subscribe and after a trade', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    await sub(s, 1, 'futures.tickers', ['BTC_USDT']);
    const first = await s.next((f) => f.channel === 'futures.tickers' && f.event === 'update', 1000);
    const tk = (first.result as J[])[0]!;
    expect(tk.contract).toBe('BTC_USDT');
    expect([typeof tk.mark_price, typeof tk.funding_rate, typeof tk.index_price]).toEqual(['string', 'string', 'string']);
    s.close();
    const push = await lifecycle('futures.tickers', ['BTC_USDT'], trade, (f) => (f.result as J[])[0]!.last === '50100');
    expect((push.result as J[])[0]).toMatchObject({ contract: 'BTC_USDT', last: '50100' });
  });

  it('futures.book_ticker: best levels with integer sizes', async () => {
    const push = await lifecycle('futures.book_ticker', ['BTC_USDT'], async () => { await place({ size: -3, price: '50900' }, B); },
      (f) => (f.result as J).a !== '' && f.event === 'update');
    const r = push.result as J;
    expect(r).toMatchObject({ s: 'BTC_USDT', a: '50900', b: '' });
    expect([typeof r.t, typeof r.u, typeof r.A, typeof r.B]).toEqual(['number', 'number', 'number', 'number']);
  });

  it('futures.order_book: full snapshots (event all) on subscribe and after a change', async () => {
    const push = await lifecycle('futures.order_book', ['BTC_USDT', '20', '0'], async () => { await place({ size: 1, price: '49000' }); },
      (f) => (f.result as { bids: J[] }).bids.some((l) => l.p === '49000'));
    expect(push).toMatchObject({ event: 'all', result: { contract: 'BTC_USDT' } });
    expect(typeof (push.result as J).id).toBe('number');
  });

  it('futures.order_book_update: a full window first, then increments that chain onto the REST book (with_id)', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    await sub(s, 1, 'futures.order_book_update', ['BTC_USDT', '100ms', '100']);
    const first = await s.next((f) => f.channel === 'futures.order_book_update' && f.event === 'update', 1000);
    const rest = await plainFetch(sim.server.port, '/api/v4/futures/usdt/order_book?contract=BTC_USDT&limit=100&with_id=true');
    const book = rest.body as { id: number; bids: { p: string; s: number }[]; asks: { p: string; s: number }[] };
    expect(first.result).toMatchObject({ full: true, s: 'BTC_USDT', U: book.id, u: book.id, b: book.bids, a: book.asks });
    const from = s.frames.length;
    await place({ size: 4, price: '49200' });
    const inc = await s.next((f) => f.channel === 'futures.order_book_update' && f.event === 'update', 3000, from);
    expect(inc.result).toMatchObject({ U: book.id + 1, b: [{ p: '49200', s: 4 }], a: [] });
    s.close();
  });

  it('futures.obu: a full snapshot, then increments whose application gives the REST book\'s best 50 levels', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    await sub(s, 1, 'futures.obu', ['ob.BTC_USDT.50']);
    const first = await s.next((f) => f.channel === 'futures.obu' && f.event === 'update', 1000);
    const snap = first.result as { full: boolean; s: string; u: number; b: [string, string][]; a: [string, string][] };
    expect([snap.full, snap.s]).toEqual([true, 'ob.BTC_USDT.50']);
    const book = { b: new Map(snap.b), a: new Map(snap.a) };
    let u = snap.u;
    const from = s.frames.length;
    const ids: unknown[] = [];
    for (let i = 0; i < 5; i++) ids.push((await place({ size: i + 1, price: String(49300 + 10 * i) })).id);
    await place({ size: -3, price: '49340' }, B); // a trade against the best bids
    await call('DELETE', `/futures/usdt/orders/${String(ids[0])}`);
    const rest = await plainFetch(sim.server.port, '/api/v4/futures/usdt/order_book?contract=BTC_USDT&limit=50&with_id=true');
    const want = rest.body as { id: number; bids: { p: string; s: number }[]; asks: { p: string; s: number }[] };
    await s.next((f) => f.channel === 'futures.obu' && (f.result as { u: number }).u >= want.id, 3000, from);
    for (const f of s.frames.slice(from).filter((x) => x.channel === 'futures.obu')) {
      const r = f.result as { U: number; u: number; b: [string, string][]; a: [string, string][] };
      expect(r.U).toBe(u + 1);
      u = r.u;
      for (const [side, levels] of [['b', r.b], ['a', r.a]] as const) {
        for (const [p, size] of levels) if (size === '0') book[side].delete(p); else book[side].set(p, size);
      }
    }
    const sorted = (m: Map<string, string>, desc: boolean): { p: string; s: number }[] =>
      [...m].map(([p, size]) => ({ p, s: Number(size) })).sort((x, y) => (desc ? Number(y.p) - Number(x.p) : Number(x.p) - Number(y.p)));
    expect(want.bids.length).toBeGreaterThan(3);
    expect(sorted(book.b, true)).toEqual(want.bids);
    expect(sorted(book.a, false)).toEqual(want.asks);
    s.close();
  });

  it('futures.candlesticks: trade candles, and mark_ candles after a price update', async () => {
    const push = await lifecycle('futures.candlesticks', ['1m', 'BTC_USDT'], trade, (f) => (f.result as J[])[0]!.c === '50100');
    const k = (push.result as J[])[0]!;
    expect(k.n).toBe('1m_BTC_USDT');
    expect([typeof k.t, typeof k.v, typeof k.a]).toEqual(['number', 'number', 'string']);
    const mark = await lifecycle('futures.candlesticks', ['1m', 'mark_BTC_USDT'], () => setMark(sim, 'BTC_USDT', '50500'),
      (f) => (f.result as J[])[0]!.c === '50500');
    expect((mark.result as J[])[0]).toMatchObject({ n: '1m_mark_BTC_USDT' });
  });

  it('serves the inverse contract on /v4/ws/fx/btc only', async () => {
    const s = await TestSocket.open(sim.server.port, '/v4/ws/fx/btc');
    expect((await sub(s, 1, 'futures.tickers', ['BTC_USD'])).result).toEqual({ status: 'success' });
    expect((await sub(s, 2, 'futures.tickers', ['BTC_USDT'])).error).toMatchObject({ code: 2 });
    s.close();
  });

  it('answers bad input with error objects and subscribes nothing', async () => {
    const s = await TestSocket.open(sim.server.port, USDT);
    const cases: [string, unknown, number][] = [
      ['futures.trades', ['NOPE_USDT'], 2], ['futures.trades', [], 2], ['futures.trades', 'BTC_USDT', 2], ['futures.tickers', [1], 2],
      ['futures.book_ticker', ['BTC_USD'], 2], ['futures.candlesticks', ['7m', 'BTC_USDT'], 2], ['futures.candlesticks', ['1m'], 2],
      ['futures.order_book', ['BTC_USDT', '7', '0'], 2], ['futures.order_book', ['BTC_USDT', '20', '100ms'], 2],
      ['futures.order_book_update', ['BTC_USDT', '20ms', '100'], 2], ['futures.order_book_update', ['BTC_USDT', '1s'], 2],
      ['futures.obu', ['ob.BTC_USDT.20'], 2], ['futures.obu', ['BTC_USDT'], 2], ['futures.obu', ['ob.NOPE.50'], 2],
      ['futures.nope', ['BTC_USDT'], 1], ['spot.trades', ['BTC_USDT'], 1], ['futures.autoorders', ['BTC_USDT'], 4], ['futures.orders', ['BTC_USDT'], 4],
    ];
    let id = 10;
    for (const [channel, payload, code] of cases) {
      const r = await s.request({ id: ++id, time: nowS(), channel, event: 'subscribe', payload });
      expect(r, `${channel} ${JSON.stringify(payload)}`).toMatchObject({ channel, result: { status: 'fail' }, error: { code } });
    }
    const ev = await s.request({ id: 99, time: nowS(), channel: 'futures.trades', event: 'listen', payload: ['BTC_USDT'] });
    expect(ev.error).toMatchObject({ code: 1 });
    s.send('not json');
    await s.next((f) => (f.error as J | undefined)?.code === 1 && f.id === undefined, 1000);
    const from = s.frames.length;
    await trade();
    await s.request({ id: 100, time: nowS(), channel: 'futures.ping' });
    expect(s.frames.slice(from).filter((f) => f.event === 'update' || f.event === 'all')).toEqual([]);
    s.close();
  });
});
