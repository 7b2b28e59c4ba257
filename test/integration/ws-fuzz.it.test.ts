// Fuzzing /ws/v4/ and /v4/ws/fx/usdt with malformed frames, subscriptions and order entry: each gets one error
// reply on its own connection, the server stays up, the state does not change and other connections keep their
// pushes; an oversized frame closes only its own connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import { FUTURES_CONFIG, setMark } from '../api/futures-helpers.js';
import { signedFetch, startTestSimulator } from '../api/http-helpers.js';
import { apiRequest, type Frame, isErrorReply as isError, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

let sim: Simulator;
beforeAll(async () => { sim = await startTestSimulator(); });
afterAll(async () => { await sim.close(); });

const CHANNELS = ['spot.trades', 'spot.tickers', 'spot.book_ticker', 'spot.candlesticks', 'spot.obu', 'spot.order_book_update',
  'spot.order_book', 'spot.orders', 'spot.usertrades', 'spot.balances', 'spot.priceorders'];
const API = ['spot.login', 'spot.order_place', 'spot.order_cancel', 'spot.order_amend', 'spot.order_status', 'spot.order_cancel_cp',
  'spot.order_cancel_ids', 'spot.order_list'];

/** One frame that must be rejected, drawn from a family of malformations. */
function badFrame(rng: Prng, i: number): string | Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[rng.nextInt(xs.length)]!;
  const junk = (): unknown => pick([null, 1, -1.5, '', 'x'.repeat(rng.nextInt(200)), [], {}, [[[]]], { a: { b: [1] } }, true, 'BTC_USDT', '!all']);
  const ch = pick(CHANNELS);
  switch (i % 14) {
    case 0: return '{"channel": "spot.trades", "event": "subscribe", "payload": ["BTC_USDT"'.slice(0, rng.nextInt(60));
    case 1: return JSON.stringify(junk() ?? 'null').replace(/^\{\}$/, '[]');
    case 2: return JSON.stringify({ id: i, time: nowS(), event: 'subscribe', payload: ['BTC_USDT'] });
    case 3: return JSON.stringify({ id: i, time: nowS(), channel: `spot.${'z'.repeat(1 + rng.nextInt(20))}`, event: 'subscribe' });
    case 4: return JSON.stringify({ id: i, time: nowS(), channel: ch, event: pick(['sub', 'SUBSCRIBE', '', 'update', 'ping']) });
    case 5: return JSON.stringify({ id: i, time: nowS(), channel: pick(CHANNELS.slice(0, 7)), event: 'subscribe', payload: pick([7, 'BTC_USDT', { p: 1 }, [1, 2], ['NOPE_USDT'], ['ob.BTC_USDT.7'], ['1m', 'NOPE_USDT'], Array(101).fill('BTC_USDT')]) });
    case 6: return JSON.stringify({ id: i, time: nowS(), channel: pick(CHANNELS.slice(7)), event: 'subscribe', payload: ['!all'] });
    case 7: return JSON.stringify({ id: i, time: nowS(), channel: pick(CHANNELS.slice(7)), event: 'subscribe', payload: ['!all'],
      auth: { method: 'api_key', KEY: pick(['k1', 'nokey', '']), SIGN: pick(['00', 'f'.repeat(128), '']) } });
    case 8: return JSON.stringify({ id: i, time: nowS() - 3600, channel: 'spot.orders', event: 'subscribe', payload: ['!all'],
      auth: subAuth('k1', 's1', 'spot.orders', 'subscribe', nowS() - 3600) });
    case 9: return JSON.stringify({ id: `r${i}`, time: nowS(), channel: pick(API), event: 'api', payload: junk() });
    case 10: {
      const f = apiRequest('k1', 'wrong-secret', pick(API), `r${i}`, { currency_pair: 'BTC_USDT', side: 'buy', amount: '1', price: '1' });
      return JSON.stringify(f);
    }
    case 11: return JSON.stringify({ id: i, time: pick([junk(), 'soon']), channel: ch, event: 'subscribe', auth: pick(['x', 1, { KEY: 1 }]) });
    case 12: return Buffer.from(Array.from({ length: 1 + rng.nextInt(64) }, () => rng.nextInt(256)));
    default: return JSON.stringify({ id: i, time: nowS(), channel: 'spot.api_nope', event: 'api', payload: {} });
  }
}

const FX_CHANNELS = ['futures.trades', 'futures.tickers', 'futures.book_ticker', 'futures.candlesticks', 'futures.order_book',
  'futures.order_book_update', 'futures.obu', 'futures.public_liquidates', 'futures.contract_stats', 'futures.orders', 'futures.usertrades',
  'futures.positions', 'futures.balances', 'futures.liquidates', 'futures.auto_deleverages', 'futures.position_closes', 'futures.autoorders',
  'futures.reduce_risk_limits'];
const FX_PUBLIC = 9;
const FX_API = ['futures.login', 'futures.order_place', 'futures.order_batch_place', 'futures.order_cancel', 'futures.order_cancel_ids',
  'futures.order_cancel_cp', 'futures.order_amend', 'futures.order_status', 'futures.order_list'];

/** One futures frame that must be rejected: bad channels, payloads, signatures, types, and order entry with junk. */
function badFuturesFrame(rng: Prng, i: number): string | Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[rng.nextInt(xs.length)]!;
  const junk = (): unknown => pick([null, 1, -1.5, '', 'x'.repeat(rng.nextInt(200)), [], {}, [[[]]], { a: { b: [1] } }, true, 'BTC_USDT', '!all',
    1e308, -0, '９', '\u0000', 'BTC_USD']);
  const ch = pick(FX_CHANNELS);
  const order = (): unknown => pick([
    { contract: pick(['BTC_USDT', 'BTC_USD', 'NOPE', '', 7]), size: pick([0, 1.5, '1e3', -1e20, 'x', null, 2 ** 60]), price: pick(['-1', 'abc', '1e400', 5, '0.00001']), tif: pick(['gtc', 'nope', 3]) },
    { contract: 'BTC_USDT', size: 1, price: '40000', tif: 'poc', iceberg: -1 },
    { contract: 'BTC_USDT', size: 1, price: '40000', reduce_only: 'yes', close: 1 },
    junk(),
  ]);
  switch (i % 16) {
    case 0: return '{"channel": "futures.trades", "event": "subscribe", "payload": ["BTC_USDT"'.slice(0, rng.nextInt(60));
    case 1: return JSON.stringify({ id: i, time: nowS(), channel: `futures.${'z'.repeat(1 + rng.nextInt(20))}`, event: 'subscribe', payload: ['BTC_USDT'] });
    case 2: return JSON.stringify({ id: i, time: nowS(), channel: pick(['spot.trades', 'spot.orders', 'options.trades', 'futures', '']), event: 'subscribe', payload: ['BTC_USDT'] });
    case 3: return JSON.stringify({ id: i, time: nowS(), channel: ch, event: pick(['sub', 'SUBSCRIBE', '', 'update', 'all', 7]) });
    case 4: return JSON.stringify({ id: i, time: nowS(), channel: pick(FX_CHANNELS.slice(0, FX_PUBLIC)), event: 'subscribe',
      payload: pick([7, 'BTC_USDT', { p: 1 }, [1, 2], ['NOPE_USDT'], ['BTC_USD'], ['ob.BTC_USDT.7'], ['7m', 'BTC_USDT'], ['BTC_USDT', '2m'], [], Array(101).fill('BTC_USDT'), [1, null]]) });
    case 5: return JSON.stringify({ id: i, time: nowS(), channel: pick(FX_CHANNELS.slice(FX_PUBLIC)), event: 'subscribe', payload: ['10001', '!all'] });
    case 6: return JSON.stringify({ id: i, time: nowS(), channel: pick(FX_CHANNELS.slice(FX_PUBLIC)), event: 'subscribe', payload: ['10001', '!all'],
      auth: { method: 'api_key', KEY: pick(['k1', 'nokey', '', 9]), SIGN: pick(['00', 'f'.repeat(128), '', null]) } });
    case 7: {
      const c = pick(FX_CHANNELS.slice(FX_PUBLIC));
      const t = nowS();
      // Signed by k1, but the payload names another user, a bad contract, or nothing.
      return JSON.stringify({ id: i, time: t, channel: c, event: 'subscribe', payload: pick([['10002', '!all'], ['10001', 'NOPE'], [], [10001], ['10001', 'BTC_USD']]),
        auth: subAuth('k1', 's1', c, 'subscribe', t) });
    }
    case 8: return JSON.stringify({ id: i, time: nowS() - 3600, channel: 'futures.orders', event: 'subscribe', payload: ['10001', '!all'],
      auth: subAuth('k1', 's1', 'futures.orders', 'subscribe', nowS() - 3600) });
    case 9: return JSON.stringify({ id: `r${i}`, time: nowS(), channel: pick(FX_API), event: 'api', payload: junk() });
    case 10: return JSON.stringify(apiRequest('k1', 'wrong-secret', pick(FX_API), `r${i}`, order()));
    case 11: return JSON.stringify(apiRequest(pick(['nokey', 'k1 ', '']), 's1', pick(FX_API), `r${i}`, order()));
    case 12: {
      // Correctly signed order entry carrying junk parameters.
      const c = pick(['futures.order_place', 'futures.order_batch_place', 'futures.order_cancel', 'futures.order_amend', 'futures.order_cancel_ids',
        'futures.order_cancel_cp', 'futures.order_list']);
      const param = c === 'futures.order_place' ? order()
        : c === 'futures.order_batch_place' ? pick([[order()], Array(11).fill({ contract: 'BTC_USDT', size: 1, price: '1' }), 'x', [1]])
          : c === 'futures.order_cancel_ids' ? pick([[1, 2], Array(21).fill('1'), 'x', [{}]])
            : c === 'futures.order_cancel_cp' ? pick([{ contract: 'NOPE' }, { contract: 'BTC_USDT', side: 'up' }, {}, [1]])
              : c === 'futures.order_list' ? pick([{}, { status: 'all' }, { status: 'open', limit: -1 }, { status: 'open', contract: 'BTC_USD' }])
                : pick([{}, { order_id: '' }, { order_id: '999999999' }, { order_id: 't-none' }, { order_id: [1] }, 'x']);
      const f = apiRequest('k1', 's1', c, `r${i}`, param);
      if (rng.nextInt(3) === 0) (f.payload as Frame).req_header = pick([{ 'x-gate-exptime': '1' }, { 'x-gate-exptime': 'later' }]);
      return JSON.stringify(f);
    }
    case 13: return JSON.stringify({ id: i, time: pick([junk(), 'soon']), channel: ch, event: 'subscribe', auth: pick(['x', 1, { KEY: 1 }]) });
    case 14: return Buffer.from(Array.from({ length: 1 + rng.nextInt(64) }, () => rng.nextInt(256)));
    default: return JSON.stringify({ id: i, time: nowS(), channel: pick(['futures.api_nope', 'spot.order_place', 'futures.ping_nope']), event: 'api', payload: {} });
  }
}

describe('websocket fuzz', () => {
  it('answers every malformed frame with one error and affects nothing else', async () => {
    const victim = await TestSocket.open(sim.server.port);
    await victim.request({ id: 1, time: nowS(), channel: 'spot.trades', event: 'subscribe', payload: ['BTC_USDT'] });
    const t = nowS();
    await victim.request({ id: 2, time: t, channel: 'spot.orders', event: 'subscribe', payload: ['!all'], auth: subAuth('k2', 's2', 'spot.orders', 'subscribe', t) });
    const hashBefore = await sim.gateway.stateHash();
    const attacker = await TestSocket.open(sim.server.port);
    const rng = new Prng(42);
    const N = 700;
    for (let i = 0; i < N; i++) attacker.send(badFrame(rng, i));
    attacker.send({ id: 'last', time: nowS(), channel: 'spot.ping' });
    await attacker.next((f) => f.channel === 'spot.pong' && f.id === 'last', 10_000);
    const replies = attacker.frames.filter((f) => f.channel !== 'spot.pong');
    expect(replies.length).toBe(N);
    const notErrors = replies.filter((f) => !isError(f));
    expect(notErrors).toEqual([]);
    const codes = new Set(replies.map((f) => (f.error as { code?: number } | undefined)?.code ?? (f.data as { errs: { label: string } }).errs.label));
    expect([...codes].sort()).toEqual(expect.arrayContaining([1, 2, 4, 'INVALID_SIGNATURE', 'INVALID_REQUEST_BODY']));
    expect(attacker.closed).toBeUndefined();
    expect(await sim.gateway.stateHash()).toBe(hashBefore);

    const from = victim.frames.length;
    const ask = await signedFetch(sim.server.port, { method: 'POST', path: '/api/v4/spot/orders', key: 'k2', secret: 's2',
      body: JSON.stringify({ currency_pair: 'BTC_USDT', side: 'sell', amount: '0.001', price: '60000' }) });
    expect(ask.status).toBe(201);
    await signedFetch(sim.server.port, { method: 'POST', path: '/api/v4/spot/orders',
      body: JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: '60000' }) });
    const pushed = await victim.next((f) => f.channel === 'spot.trades' && f.event === 'update', 3000, from);
    expect(pushed.result).toMatchObject({ currency_pair: 'BTC_USDT', price: '60000', amount: '0.001', side: 'buy' });
    const mine = await victim.next((f) => f.channel === 'spot.orders' && f.event === 'update', 3000, from);
    expect((mine.result as Frame[])[0]).toMatchObject({ side: 'sell', event: 'put', user: 10002 });
    attacker.close();
    victim.close();
  }, 30_000);

  it('answers every hostile futures frame with one error, keeps serving and changes nothing', async () => {
    const fx = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
    try {
      await setMark(fx, 'BTC_USDT', '50000');
      const USDT = '/v4/ws/fx/usdt';
      const victim = await TestSocket.open(fx.server.port, USDT);
      await victim.request({ id: 1, time: nowS(), channel: 'futures.trades', event: 'subscribe', payload: ['BTC_USDT'] });
      const t = nowS();
      await victim.request({ id: 2, time: t, channel: 'futures.orders', event: 'subscribe', payload: ['10002', '!all'], auth: subAuth('k2', 's2', 'futures.orders', 'subscribe', t) });
      const hashBefore = await fx.gateway.stateHash();
      const attacker = await TestSocket.open(fx.server.port, USDT);
      const rng = new Prng(7);
      const N = 800;
      for (let i = 0; i < N; i++) attacker.send(badFuturesFrame(rng, i));
      attacker.send({ id: 'last', time: nowS(), channel: 'futures.ping' });
      await attacker.next((f) => f.channel === 'futures.pong' && f.id === 'last', 15_000);
      // Order-entry requests answer after the engine: wait until every request has its one error reply.
      const replies = (): Frame[] => attacker.frames.filter((f) => f.channel !== 'futures.pong' && f.ack !== true);
      for (let k = 0; k < 100 && replies().length < N; k++) await new Promise((r) => setTimeout(r, 20));
      expect(replies().filter((f) => !isError(f)).map((f) => JSON.stringify(f).slice(0, 400))).toEqual([]);
      expect(replies().length).toBe(N);
      const codes = new Set(replies().map((f) => (f.error as { code?: number } | undefined)?.code ?? (f.data as { errs?: { label: string } }).errs?.label ?? 'batch'));
      expect([...codes]).toEqual(expect.arrayContaining([1, 2, 4, 'INVALID_SIGNATURE', 'INVALID_KEY', 'INVALID_REQUEST_BODY', 'REQUEST_EXPIRED', 'CONTRACT_NOT_FOUND']));
      expect(attacker.closed).toBeUndefined();
      expect(await fx.gateway.stateHash()).toBe(hashBefore);

      // An oversized frame (over 64 KiB) closes its own connection; the others keep working.
      const big = await TestSocket.open(fx.server.port, USDT);
      big.send(JSON.stringify({ id: 1, time: nowS(), channel: 'futures.trades', event: 'subscribe', payload: ['x'.repeat(70_000)] }));
      for (let k = 0; k < 100 && big.closed === undefined; k++) await new Promise((r) => setTimeout(r, 20));
      // uWebSockets.js drops the connection (1006 at the client) rather than sending a 1009 close frame.
      expect([1006, 1009]).toContain(big.closed?.code);
      const pong = await attacker.request({ id: 'again', time: nowS(), channel: 'futures.ping' });
      expect(pong.channel).toBe('futures.pong');
      expect(await fx.gateway.stateHash()).toBe(hashBefore);

      const from = victim.frames.length;
      const sell = await signedFetch(fx.server.port, { method: 'POST', path: '/api/v4/futures/usdt/orders', key: 'k2', secret: 's2',
        body: JSON.stringify({ contract: 'BTC_USDT', size: -1, price: '50000', tif: 'gtc' }) });
      expect(sell.status).toBe(201);
      await signedFetch(fx.server.port, { method: 'POST', path: '/api/v4/futures/usdt/orders',
        body: JSON.stringify({ contract: 'BTC_USDT', size: 1, price: '50000', tif: 'gtc' }) });
      const pushed = await victim.next((f) => f.channel === 'futures.trades' && f.event === 'update', 3000, from);
      expect((pushed.result as Frame[])[0]).toMatchObject({ contract: 'BTC_USDT', price: '50000', size: 1 });
      const mine = await victim.next((f) => f.channel === 'futures.orders' && f.event === 'update', 3000, from);
      expect((mine.result as Frame[])[0]).toMatchObject({ size: -1, user: '10002' });
      attacker.close();
      victim.close();
    } finally {
      await fx.close();
    }
  }, 30_000);
});
