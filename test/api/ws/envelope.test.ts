// Gate's WebSocket envelope and the channel table: frame parsing, replies, and subscription payloads → topics.
import { describe, expect, it } from 'vitest';
import { resolveSubscription, topicOf } from '../../../src/api/ws/channels.js';
import { ackFrame, errorFrame, parseFrame, pongFrame, updateFrame, updateFrameOfJson, WsErrorCode } from '../../../src/api/ws/envelope.js';

const conn = { connId: 'c1' };
const NOW = 1_700_000_000_123_456;
const markets = (p: string): number => ['BTC_USDT', 'ETH_USDT'].indexOf(p);

describe('parseFrame', () => {
  it('accepts Gate requests and keeps id, time, channel, event, payload and auth', () => {
    const r = parseFrame(JSON.stringify({ id: 7, time: 1700000000, channel: 'spot.orders', event: 'subscribe', payload: ['!all'],
      auth: { method: 'api_key', KEY: 'k', SIGN: 'ab' } }));
    expect(r).toEqual({ ok: true, req: { id: 7, time: 1700000000, channel: 'spot.orders', event: 'subscribe', payload: ['!all'],
      auth: { method: 'api_key', KEY: 'k', SIGN: 'ab' } } });
    expect(parseFrame('{"time":1,"channel":"spot.ping"}')).toMatchObject({ ok: true, req: { channel: 'spot.ping', event: '', id: undefined } });
  });

  it.each([
    ['not json', 'request is not valid JSON'],
    ['[1,2]', 'request must be a JSON object'],
    ['null', 'request must be a JSON object'],
    ['{"event":"subscribe"}', 'channel is required'],
    ['{"channel":5}', 'channel is required'],
    ['{"channel":"spot.trades","event":1}', 'event must be a string'],
    ['{"channel":"spot.trades","time":"x"}', 'time must be a number of seconds'],
    ['{"channel":"spot.orders","auth":{"KEY":1}}', 'auth must be {method, KEY, SIGN}'],
    ['{"channel":"sim.user","auth":{"method":"sim_token","token":5}}', 'auth must be {method: "sim_token", token}'],
  ])('rejects %s with code 1', (text, message) => {
    expect(parseFrame(text)).toMatchObject({ ok: false, code: WsErrorCode.BadRequest, message });
  });

  it('takes the control plane\'s token auth ({method: "sim_token", token}) with empty KEY and SIGN', () => {
    expect(parseFrame(JSON.stringify({ channel: 'sim.user', event: 'subscribe', payload: ['1'], auth: { method: 'sim_token', token: 't0k' } })))
      .toMatchObject({ ok: true, req: { auth: { method: 'sim_token', KEY: '', SIGN: '', token: 't0k' } } });
  });

  it('echoes only a sane id', () => {
    const r = parseFrame(JSON.stringify({ id: 'x'.repeat(100), channel: 'c', event: 1 }));
    expect(r).toMatchObject({ ok: false, id: undefined, channel: 'c' });
  });
});

describe('server frames', () => {
  const req = { id: 3, time: 1, channel: 'spot.trades', event: 'subscribe', payload: ['BTC_USDT'], auth: undefined };

  it('acks with result.status success and the echoed request', () => {
    expect(JSON.parse(ackFrame(conn, req, NOW))).toEqual({ time: 1700000000, time_ms: 1700000000123, id: 3, conn_id: 'c1', trace_id: 'c1',
      channel: 'spot.trades', event: 'subscribe', payload: ['BTC_USDT'], result: { status: 'success' } });
  });

  it('fails with error {code, message} and result.status fail', () => {
    expect(JSON.parse(errorFrame(conn, req, WsErrorCode.InvalidArgument, 'unknown currency pair: X', NOW))).toMatchObject({
      id: 3, channel: 'spot.trades', event: 'subscribe', error: { code: 2, message: 'unknown currency pair: X' }, result: { status: 'fail' } });
  });

  it('answers spot.ping with spot.pong and shapes updates', () => {
    expect(JSON.parse(pongFrame(conn, { ...req, channel: 'spot.ping', event: '' }, NOW))).toMatchObject({ channel: 'spot.pong', event: '', result: null });
    expect(JSON.parse(updateFrame('spot.trades', { id: 1 }, NOW))).toEqual({ time: 1700000000, time_ms: 1700000000123, channel: 'spot.trades',
      event: 'update', result: { id: 1 } });
    const result = { uid: 7, spot: { balances: [{ currency: 'USDT', available: '1.5' }] }, note: 'a "quoted" \\ text' };
    expect(updateFrameOfJson('sim.user', JSON.stringify(result), NOW)).toBe(updateFrame('sim.user', result, NOW));
  });
});

describe('resolveSubscription', () => {
  const ok = (channel: Parameters<typeof resolveSubscription>[0], payload: unknown, uid = 0) => {
    const r = resolveSubscription(channel, payload, markets, uid);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };
  const fail = (channel: Parameters<typeof resolveSubscription>[0], payload: unknown) => {
    const r = resolveSubscription(channel, payload, markets, 0);
    return r.ok ? undefined : [r.code, r.message];
  };

  it('names one topic per pair for the public pair channels', () => {
    expect(ok('spot.trades', ['BTC_USDT', 'ETH_USDT']).topics).toEqual(['spot.trades|BTC_USDT', 'spot.trades|ETH_USDT']);
    expect(ok('spot.book_ticker', ['ETH_USDT'])).toEqual({ topics: [topicOf('spot.book_ticker', 'ETH_USDT')],
      targets: [{ market: 1, depth: 0, intervalMs: 0, interval: '' }] });
    expect(ok('spot.tickers', ['ETH_USDT', 'BTC_USDT']).targets.map((t) => t.market)).toEqual([1, 0]);
    expect(fail('spot.tickers', ['BTC_USDT', 'DOGE_USDT'])).toEqual([2, 'unknown currency pair: DOGE_USDT']);
    expect(fail('spot.tickers', [])?.[0]).toBe(2);
    expect(fail('spot.tickers', 'BTC_USDT')).toEqual([2, 'payload must be an array']);
    expect(fail('spot.tickers', [1])).toEqual([2, 'payload entries must be strings']);
    expect(fail('spot.trades', Array(101).fill('BTC_USDT'))?.[0]).toBe(2);
  });

  it('maps candlesticks, obu, legacy updates and snapshots with their parameters', () => {
    expect(ok('spot.candlesticks', ['1m', 'BTC_USDT'])).toEqual({ topics: ['spot.candlesticks|1m_BTC_USDT'],
      targets: [{ market: 0, depth: 0, intervalMs: 0, interval: '1m' }] });
    expect(fail('spot.candlesticks', ['2m', 'BTC_USDT'])?.[0]).toBe(2);
    expect(ok('spot.obu', ['ob.ETH_USDT.400'])).toEqual({ topics: ['spot.obu|ob.ETH_USDT.400'], targets: [{ market: 1, depth: 400, intervalMs: 0, interval: '' }] });
    expect(fail('spot.obu', ['ob.ETH_USDT.100'])?.[0]).toBe(2);
    expect(fail('spot.obu', ['ob.NOPE.50'])).toEqual([2, 'unknown currency pair: NOPE']);
    expect(ok('spot.order_book_update', ['BTC_USDT', '100ms'])).toEqual({ topics: ['spot.order_book_update|BTC_USDT.100ms'], targets: [{ market: 0, depth: 100, intervalMs: 0, interval: '' }] });
    expect(ok('spot.order_book_update', ['BTC_USDT', '20ms']).targets[0]!.depth).toBe(20);
    expect(ok('spot.order_book', ['BTC_USDT', '5', '1000ms'])).toEqual({ topics: ['spot.order_book|BTC_USDT.5.1000ms'], targets: [{ market: 0, depth: 5, intervalMs: 1000, interval: '' }] });
    expect(fail('spot.order_book', ['BTC_USDT', '7', '100ms'])?.[0]).toBe(2);
    expect(fail('spot.order_book', ['BTC_USDT', '5', '1s'])?.[0]).toBe(2);
  });

  it('puts the user in private topics', () => {
    expect(ok('spot.orders', ['!all'], 42)).toEqual({ topics: ['spot.orders|42.!all'], targets: [] });
    expect(ok('spot.usertrades', ['BTC_USDT'], 42).topics).toEqual(['spot.usertrades|42.BTC_USDT']);
    expect(ok('spot.balances', undefined, 42).topics).toEqual(['spot.balances|42']);
    expect(ok('spot.priceorders', ['!all'], 42).topics).toEqual(['spot.priceorders|42.!all']);
    expect(fail('spot.orders', ['NOPE'])?.[0]).toBe(2);
  });
});
