// /v4/ws/options/{settle} over raw sockets, public channels: per channel the acknowledgement, the first push
// (equal to the REST route's answer at the same engine time: the clock is simulated and still), the pushes a trade,
// a book change, a new index or an expiry makes (equal to REST after them), unsubscribe, the object payload by
// underlying, the settle check and bad input (error 2, nothing subscribed); options.ping; no order entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import type { Call, J } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { CALL, EXP1, PUT, simClock, spotTrade, startIndexed } from '../api/options-helpers.js';
import { apiRequest, type Frame, nowS, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];
const PATH = '/v4/ws/options/usdt';
const CALL7 = 'BTC_USDT-20260108-60000-C';

beforeAll(async () => {
  ({ sim, call } = await startIndexed());
});
afterAll(async () => { await sim.close(); });

const rest = async (path: string): Promise<J & J[]> => (await plainFetch(sim.server.port, `/api/v4${path}`)).body as J & J[];
const order = async (body: J, key?: [string, string]): Promise<J> => {
  const r = await call('POST', '/options/orders', { body: { tif: 'gtc', ...body }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
let id = 0;
const sub = (s: TestSocket, channel: string, payload: unknown, event = 'subscribe'): Promise<Frame> =>
  s.request({ id: ++id, time: nowS(), channel, event, payload });
const pushes = (s: TestSocket, channel: string, from = 0): Frame[] =>
  s.frames.slice(from).filter((f) => f.channel === channel && (f.event === 'update' || f.event === 'all'));
/** The first push (event update or all) of `channel` matching `pred`, at or after frame `from`. */
const next = (s: TestSocket, channel: string, pred: (r: J) => boolean = () => true, from = 0): Promise<Frame> =>
  s.next((f) => f.channel === channel && (f.event === 'update' || f.event === 'all') && pred(f.result as J), 3000, from);
const open = (path = PATH): Promise<TestSocket> => TestSocket.open(sim.server.port, path);
const ok = async (s: TestSocket, channel: string, payload: unknown): Promise<void> => {
  const ack = await sub(s, channel, payload);
  expect(ack, JSON.stringify(ack)).toMatchObject({ channel, event: 'subscribe', result: { status: 'success' } });
};
const refused = async (s: TestSocket, channel: string, payload: unknown, message: RegExp): Promise<void> => {
  const r = await sub(s, channel, payload);
  expect(r, JSON.stringify(r)).toMatchObject({ channel, result: { status: 'fail' }, error: { code: 2 } });
  expect((r.error as J).message).toMatch(message);
};

describe('options websocket: first pushes equal REST', () => {
  it('contract_tickers, ul_tickers, ul_price, mark_price(s), contracts, order_book, book_ticker, order_book_update', async () => {
    await order({ contract: CALL, size: 3, price: '2400' });
    await order({ contract: CALL, size: -2, price: '2600' }, B);
    const s = await open();
    try {
      await ok(s, 'options.contract_tickers', [CALL]);
      const ticker = await s.next((f) => f.channel === 'options.contract_tickers' && f.event === 'update');
      const restTicker = (await rest('/options/tickers?underlying=BTC_USDT')).find((t) => t.name === CALL);
      expect(ticker.result).toEqual(restTicker);
      expect(ticker.result).toMatchObject({ name: CALL, bid1_price: '2400', bid1_size: 3, ask1_price: '2600', ask1_size: -2, index_price: '60000' });

      await ok(s, 'options.ul_tickers', ['BTC_USDT']);
      const ul = await next(s, 'options.ul_tickers');
      expect(ul.result).toEqual({ ...(await rest('/options/underlying/tickers/BTC_USDT')), name: 'BTC_USDT' });

      await ok(s, 'options.ul_price', ['BTC_USDT']);
      const price = await next(s, 'options.ul_price');
      expect(price.result).toMatchObject({ underlying: 'BTC_USDT', price: 60000 });
      expect((price.result as J).time_ms).toBe(Math.floor((price.result as J).time as number) * 1000);

      const contract = await rest(`/options/contracts/${CALL}`);
      for (const channel of ['options.mark_price', 'options.mark_prices']) {
        await ok(s, channel, [CALL]);
        const mark = await next(s, channel);
        expect(mark.result).toMatchObject({ contract: CALL, price: Number(contract.mark_price) });
      }

      await ok(s, 'options.contracts', [CALL]);
      const terms = await next(s, 'options.contracts');
      expect(terms.result).toMatchObject({
        contract: CALL, is_call: true, underlying: 'BTC_USDT', expiration_time: EXP1, strike_price: 60000, multiplier: 0.01,
        order_price_round: 0.1, order_size_min: 1, order_size_max: 100000, init_margin_high: 0.15, init_margin_low: 0.1,
        maint_margin_base: 0.075, maker_fee_rate: 0.0003, taker_fee_rate: 0.0003, tag: contract.tag,
      });

      const book = await rest(`/options/order_book?contract=${CALL}&limit=5&with_id=true`);
      await ok(s, 'options.order_book', [CALL, '5', '0']);
      const snap = await next(s, 'options.order_book');
      expect(snap.event).toBe('all');
      expect(snap.result).toMatchObject({ contract: CALL, id: book.id, asks: book.asks, bids: book.bids });

      await ok(s, 'options.book_ticker', [CALL]);
      const top = await next(s, 'options.book_ticker');
      expect(top.result).toMatchObject({ s: CALL, u: book.id, b: '2400', B: 3, a: '2600', A: 2 });

      await ok(s, 'options.order_book_update', [CALL, '100ms', '20']);
      const full = await next(s, 'options.order_book_update');
      expect(full.result).toMatchObject({ s: CALL, full: true, U: book.id, u: book.id, b: book.bids, a: book.asks });
      // An empty side and an unsettled contract of the second expiration.
      await ok(s, 'options.book_ticker', [CALL7]);
      expect((await next(s, 'options.book_ticker', (r) => r.s === CALL7)).result)
        .toMatchObject({ b: '', B: 0, a: '', A: 0 });
    } finally {
      s.close();
    }
  });

  it('the object payload subscribes every listed contract of an underlying, plus named ones, once', async () => {
    const s = await open();
    try {
      const from = s.frames.length;
      await ok(s, 'options.contract_tickers', { underlyings: ['BTC_USDT'], contracts: [CALL] });
      await s.next(() => pushes(s, 'options.contract_tickers', from).length === 12);
      const names = pushes(s, 'options.contract_tickers', from).map((f) => (f.result as J).name);
      expect(new Set(names)).toEqual(new Set((await rest('/options/contracts?underlying=BTC_USDT')).map((c) => c.name)));
      const un = await sub(s, 'options.contract_tickers', { underlyings: ['BTC_USDT'] }, 'unsubscribe');
      expect(un.result).toEqual({ status: 'success' });
      await ok(s, 'options.contract_candlesticks', { interval: '1m', contracts: [PUT] });
      await refused(s, 'options.contract_candlesticks', { contracts: [PUT] }, /interval/);
      await refused(s, 'options.trades', { underlyings: ['ETH_USDT'] }, /unknown underlying/);
      await refused(s, 'options.trades', { contracts: Array.from({ length: 101 }, () => CALL) }, /too many/);
      await refused(s, 'options.trades', {}, /underlyings or contracts/);
      await refused(s, 'options.ul_tickers', { underlyings: ['BTC_USDT'] }, /array/);
    } finally {
      s.close();
    }
  });
});

describe('options websocket: pushes after trades, book changes, a new index and an expiry', () => {
  it('trades, ul_trades, candles, tickers and the book channels follow a trade; unsubscribe stops them', async () => {
    const s = await open();
    try {
      await ok(s, 'options.trades', [PUT]);
      await ok(s, 'options.ul_trades', ['BTC_USDT']);
      await ok(s, 'options.contract_candlesticks', ['1m', PUT]);
      await ok(s, 'options.contract_tickers', [PUT]);
      await ok(s, 'options.ul_tickers', ['BTC_USDT']);
      await ok(s, 'options.order_book_update', [PUT, '1000ms', '5']);
      await ok(s, 'options.book_ticker', [PUT]);
      await ok(s, 'options.order_book', [PUT, '1', '0']);
      // Nothing traded PUT yet: no candle on subscribe.
      expect(pushes(s, 'options.contract_candlesticks')).toEqual([]);
      const from = s.frames.length;
      await order({ contract: PUT, size: -4, price: '150' }, B);
      await order({ contract: PUT, size: 3, price: '150', tif: 'ioc' });
      const trades = await next(s, 'options.trades', undefined, from);
      const restTrade = (await rest(`/options/trades?contract=${PUT}`))[0]!;
      expect(trades.result).toEqual([{ contract: PUT, create_time: Math.floor(restTrade.create_time as number), create_time_ms: restTrade.create_time_ms,
        id: restTrade.id, price: 150, size: 3, underlying: 'BTC_USDT' }]);
      const ulTrades = await next(s, 'options.ul_trades', undefined, from);
      expect(ulTrades.result).toEqual([{ ...(trades.result as J[])[0], is_call: false }]);
      const candle = await next(s, 'options.contract_candlesticks', undefined, from);
      const restCandle = (await rest(`/options/candlesticks?contract=${PUT}&interval=1m&limit=1`))[0]!;
      expect(candle.result).toEqual([{ ...restCandle, n: `1m_${PUT}`, a: '4.5' }]); // 3 × 150 × 0.01
      const ticker = pushes(s, 'options.contract_tickers', from).at(-1)!;
      expect(ticker.result).toEqual((await rest('/options/tickers?underlying=BTC_USDT')).find((t) => t.name === PUT));
      expect((ticker.result as J).last_price).toBe('150');
      expect(pushes(s, 'options.ul_tickers', from).at(-1)!.result).toMatchObject({ name: 'BTC_USDT', trade_put: 3 });
      const book = await rest(`/options/order_book?contract=${PUT}&limit=5&with_id=true`);
      const inc = pushes(s, 'options.order_book_update', from);
      expect(inc.at(-1)!.result).toMatchObject({ s: PUT, u: book.id, a: [{ p: '150', s: 1 }] });
      expect(pushes(s, 'options.book_ticker', from).at(-1)!.result).toMatchObject({ s: PUT, u: book.id, b: '', a: '150', A: 1 });
      expect(pushes(s, 'options.order_book', from).at(-1)!.result).toMatchObject({ contract: PUT, id: book.id, asks: [{ p: '150', s: 1 }], bids: [] });
      for (const [channel, payload] of [['options.trades', [PUT]], ['options.ul_trades', ['BTC_USDT']], ['options.contract_tickers', [PUT]],
        ['options.order_book_update', [PUT, '1000ms', '5']]] as const) {
        expect((await sub(s, channel, payload, 'unsubscribe')).result).toEqual({ status: 'success' });
      }
      const after = s.frames.length;
      await order({ contract: PUT, size: 1, price: '150', tif: 'ioc' });
      await next(s, 'options.contract_candlesticks', undefined, after);
      for (const channel of ['options.trades', 'options.ul_trades', 'options.contract_tickers', 'options.order_book_update']) {
        expect(pushes(s, channel, after)).toEqual([]);
      }
    } finally {
      s.close();
    }
  });

  it('a new index pushes ul_price, the marks that moved and the tickers; ul_candlesticks follow the index source', async () => {
    const s = await open();
    try {
      await ok(s, 'options.ul_price', ['BTC_USDT']);
      await ok(s, 'options.mark_price', [CALL7]);
      await ok(s, 'options.contract_tickers', [CALL7]);
      await ok(s, 'options.ul_candlesticks', ['1m', 'BTC_USDT']);
      const first = await next(s, 'options.ul_candlesticks');
      const spot = (await rest('/options/underlying/candlesticks?underlying=BTC_USDT&interval=1m&limit=1'))[0]!;
      expect(first.result).toEqual([{ ...spot, n: '1m_BTC_USDT', a: '60' }]); // 0.001 × 60000
      const from = s.frames.length;
      await spotTrade(call, '61000');
      await next(s, 'options.ul_candlesticks', undefined, from);
      await simClock(sim, { advance_ms: 2000 });
      const price = await next(s, 'options.ul_price', undefined, from);
      expect(price.result).toMatchObject({ underlying: 'BTC_USDT', price: 61000 });
      const mark = await next(s, 'options.mark_price', undefined, from);
      const contract = await rest(`/options/contracts/${CALL7}`);
      expect(mark.result).toMatchObject({ contract: CALL7, price: Number(contract.mark_price) });
      // Tickers follow the index, then the mark set right after it: the one with both equals REST.
      const ticker = await next(s, 'options.contract_tickers', (r) => r.index_price === '61000' && r.mark_price === contract.mark_price, from);
      expect(ticker.result).toEqual((await rest('/options/tickers?underlying=BTC_USDT')).find((t) => t.name === CALL7));
    } finally {
      s.close();
    }
  });
});

describe('options websocket: bad input, settles, ping and order entry', () => {
  it('answers error 2 for unknown names, levels, intervals and payloads, and knows only its settle\'s contracts', async () => {
    const s = await open();
    try {
      await refused(s, 'options.trades', ['BTC_USDT-20260102-61000-C'], /unknown contract/);
      await refused(s, 'options.trades', [], /at least one/);
      await refused(s, 'options.trades', 'BTC', /array/);
      await refused(s, 'options.trades', [1], /strings/);
      await refused(s, 'options.ul_price', ['ETH_USDT'], /unknown underlying/);
      await refused(s, 'options.order_book', [CALL, '100', '0'], /level/);
      await refused(s, 'options.order_book', [CALL, '5', '0.1'], /accuracy/);
      await refused(s, 'options.order_book_update', [CALL, '20ms'], /interval/);
      await refused(s, 'options.order_book_update', [CALL, '100ms', '100'], /level/);
      await refused(s, 'options.contract_candlesticks', ['1s', CALL], /interval/);
      await refused(s, 'options.contract_candlesticks', ['1m', `mark_${CALL}`], /unknown contract/);
      await refused(s, 'options.ul_candlesticks', ['1m'], /payload/);
      const unknown = await sub(s, 'options.tickers', [CALL]);
      expect(unknown.error).toMatchObject({ code: 1 });
      const pong = await s.request({ id: ++id, time: nowS(), channel: 'options.ping' });
      expect(pong).toMatchObject({ channel: 'options.pong', event: '', result: null });
      // Gate's options socket takes no orders: an "api" request is an unknown api channel.
      const place = await s.request(apiRequest('k1', 's1', 'options.order_place', 'r1', { contract: CALL, size: 1, price: '2000' }));
      expect(place.error).toMatchObject({ code: 1 });
      expect(pushes(s, 'options.trades')).toEqual([]);
    } finally {
      s.close();
    }
    const btc = await open('/v4/ws/options/btc');
    try {
      await refused(btc, 'options.trades', [CALL], /unknown contract/);
      await refused(btc, 'options.ul_tickers', ['BTC_USDT'], /unknown underlying/);
    } finally {
      btc.close();
    }
    const alias = await open('/v4/ws/op-ws/usdt');
    try {
      await ok(alias, 'options.ul_price', ['BTC_USDT']);
      await next(alias, 'options.ul_price');
    } finally {
      alias.close();
    }
  });

  it('options.settlements: the expiry settles the first expiration\'s contracts', async () => {
    const s = await open();
    try {
      await ok(s, 'options.settlements', [CALL, PUT]);
      expect(pushes(s, 'options.settlements')).toEqual([]);
      const before = await rest(`/options/contracts/${CALL}`);
      await simClock(sim, { set_ms: (EXP1 + 5) * 1000 });
      const got = await next(s, 'options.settlements', (r) => r.contract === CALL);
      const row = (await rest('/options/settlements?underlying=BTC_USDT')).find((r) => r.contract === CALL)!;
      const X = Number(row.settle_price);
      // A long call settles max(0, X − 60000) × 0.01 per contract.
      expect(got.result).toMatchObject({ contract: CALL, settle_price: X, strike_price: 60000, underlying: 'BTC_USDT', time: row.time,
        profit: Math.max(0, X - 60000) * 0.01, trade_size: before.trade_size });
      const put = await next(s, 'options.settlements', (r) => r.contract === PUT);
      // PUT: 3 + 1 contracts bought by 10001 in the test above, all still long.
      expect(put.result).toMatchObject({ contract: PUT, position_size: 4, profit: Math.max(0, 55000 - X) * 0.01 });
    } finally {
      s.close();
    }
  });
});
