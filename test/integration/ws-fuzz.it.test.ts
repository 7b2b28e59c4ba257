// Fuzzing /ws/v4/ with malformed frames and subscriptions: each gets one error reply on its own connection,
// the server stays up, the state does not change and other connections keep their pushes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import type { Simulator } from '../../src/main.js';
import { signedFetch, startTestSimulator } from '../api/http-helpers.js';
import { apiRequest, type Frame, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

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

const isError = (f: Frame): boolean => {
  if (f.error !== undefined) return (f.result as { status?: string } | undefined)?.status === 'fail';
  const data = f.data as { errs?: { label?: string } } | undefined;
  return typeof data?.errs?.label === 'string' && f.ack === false;
};

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
});
