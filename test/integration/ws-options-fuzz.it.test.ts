// Fuzzing /v4/ws/options/usdt with hostile frames: unknown and foreign channels, bad payloads of every channel (arrays
// and objects), missing, bad, stale and foreign signatures, another user's uid, wrong types, order entry (the options
// socket has none), binary junk. Each gets one error reply on its own connection; the server keeps serving, the state
// hash does not change and another connection's public and private pushes are unaffected; an oversized frame closes
// only its own connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import type { Simulator } from '../../src/main.js';
import type { Call, J } from '../api/futures-helpers.js';
import { CALL, startIndexed } from '../api/options-helpers.js';
import { apiRequest, type Frame, isErrorReply, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';

const PATH = '/v4/ws/options/usdt';
const PUBLIC = ['options.contract_tickers', 'options.ul_tickers', 'options.trades', 'options.ul_trades', 'options.ul_price', 'options.mark_price',
  'options.mark_prices', 'options.settlements', 'options.contracts', 'options.contract_candlesticks', 'options.ul_candlesticks', 'options.order_book',
  'options.book_ticker', 'options.order_book_update'];
const PRIVATE = ['options.orders', 'options.usertrades', 'options.liquidates', 'options.user_settlements', 'options.position_closes',
  'options.balances', 'options.positions'];

let sim: Simulator;
let call: Call;
beforeAll(async () => { ({ sim, call } = await startIndexed()); });
afterAll(async () => { await sim.close(); });

/** One options frame that must be rejected. */
function badFrame(rng: Prng, i: number): string | Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[rng.nextInt(xs.length)]!;
  const junk = (): unknown => pick([null, 1, -1.5, '', 'x'.repeat(rng.nextInt(200)), [], {}, [[[]]], { a: { b: [1] } }, true, CALL, '!all', 1e308,
    '\u0000', 'BTC_USDT']);
  const payload = (): unknown => pick([7, CALL, [1, 2], ['NOPE'], [`${CALL}X`], ['BTC_USDT-20260102-60000'], ['7m', CALL], ['1s', CALL],
    ['1m', `mark_${CALL}`], [CALL, '5', '1'], [CALL, '200', '0'], [CALL, '20ms'], [CALL, '100ms', '7'], [], Array(101).fill(CALL), [1, null],
    ['ETH_USDT'], { underlyings: 'BTC_USDT' }, { underlyings: ['NOPE'] }, { contracts: Array(101).fill(CALL) }, { contracts: [7] }, {},
    { interval: '1m' }, { underlyings: [], contracts: [] }]);
  const ch = pick([...PUBLIC, ...PRIVATE]);
  switch (i % 14) {
    case 0: return '{"channel": "options.trades", "event": "subscribe", "payload": ["BTC_USDT-20260102-60000-C"'.slice(0, rng.nextInt(70));
    case 1: return JSON.stringify({ id: i, time: nowS(), channel: `options.${'z'.repeat(1 + rng.nextInt(20))}`, event: 'subscribe', payload: [CALL] });
    case 2: return JSON.stringify({ id: i, time: nowS(), channel: pick(['spot.trades', 'futures.trades', 'futures.orders', 'options.tickers', 'options', '']),
      event: 'subscribe', payload: [CALL] });
    case 3: return JSON.stringify({ id: i, time: nowS(), channel: ch, event: pick(['sub', 'SUBSCRIBE', '', 'update', 'all', 7]) });
    case 4: return JSON.stringify({ id: i, time: nowS(), channel: pick(PUBLIC), event: 'subscribe', payload: payload() });
    case 5: return JSON.stringify({ id: i, time: nowS(), channel: pick(PRIVATE), event: 'subscribe', payload: ['10001', '!all'] });
    case 6: return JSON.stringify({ id: i, time: nowS(), channel: pick(PRIVATE), event: 'subscribe', payload: ['10001', '!all'],
      auth: { method: 'api_key', KEY: pick(['k1', 'nokey', '', 9]), SIGN: pick(['00', 'f'.repeat(128), '', null]) } });
    case 7: {
      const c = pick(PRIVATE);
      const t = nowS();
      // Signed by k1, but the payload names another user, a bad contract, nothing, or a bad object.
      const p = c === 'options.balances' ? pick([['10002'], ['10001', CALL], [], [10001], { contracts: [CALL] }])
        : pick([['10002', '!all'], ['10001', 'NOPE'], [], [10001], ['10001'], { underlyings: ['NOPE'] }, {}, 'x']);
      return JSON.stringify({ id: i, time: t, channel: c, event: 'subscribe', payload: p, auth: subAuth('k1', 's1', c, 'subscribe', t) });
    }
    case 8: return JSON.stringify({ id: i, time: nowS() - 3600, channel: 'options.orders', event: 'subscribe', payload: ['10001', '!all'],
      auth: subAuth('k1', 's1', 'options.orders', 'subscribe', nowS() - 3600) });
    case 9: return JSON.stringify({ id: `r${i}`, time: nowS(), channel: pick(['options.order_place', 'options.login', 'options.order_cancel']), event: 'api',
      payload: junk() });
    case 10: return JSON.stringify(apiRequest('k1', 's1', pick(['options.order_place', 'options.login', 'futures.order_place', 'spot.order_place']), `r${i}`,
      { contract: CALL, size: 1, price: '2000' }));
    case 11: return JSON.stringify({ id: i, time: pick([junk(), 'soon']), channel: ch, event: 'subscribe', auth: pick(['x', 1, { KEY: 1 }]) });
    case 12: return Buffer.from(Array.from({ length: 1 + rng.nextInt(64) }, () => rng.nextInt(256)));
    default: return JSON.stringify({ id: i, time: nowS(), channel: pick(['options.ul_tickers', 'options.ul_price', 'options.ul_trades']), event: 'subscribe',
      payload: pick([{ underlyings: ['BTC_USDT'] }, [CALL], ['NOPE_USDT'], []]) });
  }
}

describe('options websocket fuzz', () => {
  it('answers every hostile frame with one error, keeps serving and changes nothing', async () => {
    const victim = await TestSocket.open(sim.server.port, PATH);
    await victim.request({ id: 1, time: nowS(), channel: 'options.trades', event: 'subscribe', payload: [CALL] });
    const t = nowS();
    const subbed = await victim.request({ id: 2, time: t, channel: 'options.orders', event: 'subscribe', payload: ['10002', '!all'],
      auth: subAuth('k2', 's2', 'options.orders', 'subscribe', t) });
    expect(subbed.result).toEqual({ status: 'success' });
    const hashBefore = await sim.gateway.stateHash();
    const attacker = await TestSocket.open(sim.server.port, PATH);
    const rng = new Prng(11);
    const N = 700;
    const sent: string[] = [];
    for (let i = 0; i < N; i++) {
      const f = badFrame(rng, i);
      sent.push(typeof f === 'string' ? f.slice(0, 200) : '<binary>');
      attacker.send(f);
    }
    attacker.send({ id: 'last', time: nowS(), channel: 'options.ping' });
    await attacker.next((f) => f.channel === 'options.pong' && f.id === 'last', 15_000);
    const replies = attacker.frames.filter((f) => f.channel !== 'options.pong');
    expect(replies.filter((f) => !isErrorReply(f)).map((f) => JSON.stringify(f).slice(0, 300))).toEqual([]);
    expect(replies.length, sent.slice(0, 3).join('\n')).toBe(N);
    const codes = new Set(replies.map((f) => (f.error as { code?: number }).code));
    expect([...codes].sort()).toEqual([1, 2, 4]);
    const labels = new Set(replies.filter((f) => (f.error as { code: number }).code === 4)
      .map((f) => (JSON.parse((f.error as { message: string }).message) as { label: string }).label));
    expect([...labels]).toEqual(expect.arrayContaining(['MISSING_REQUIRED_HEADER', 'INVALID_KEY', 'INVALID_SIGNATURE', 'REQUEST_EXPIRED']));
    expect(attacker.closed).toBeUndefined();
    expect(await sim.gateway.stateHash()).toBe(hashBefore);

    // An oversized frame (over 64 KiB) closes its own connection; the others keep working.
    const big = await TestSocket.open(sim.server.port, PATH);
    big.send(JSON.stringify({ id: 1, time: nowS(), channel: 'options.trades', event: 'subscribe', payload: ['x'.repeat(70_000)] }));
    for (let k = 0; k < 100 && big.closed === undefined; k++) await new Promise((r) => setTimeout(r, 20));
    expect([1006, 1009]).toContain(big.closed?.code);
    const pong = await attacker.request({ id: 'again', time: nowS(), channel: 'options.ping' });
    expect(pong.channel).toBe('options.pong');
    expect(await sim.gateway.stateHash()).toBe(hashBefore);

    const from = victim.frames.length;
    const sell = await call('POST', '/options/orders', { body: { contract: CALL, size: -1, price: '2500', tif: 'gtc' }, key: ['k2', 's2'] });
    expect(sell.status).toBe(201);
    expect((await call('POST', '/options/orders', { body: { contract: CALL, size: 1, price: '2500', tif: 'gtc' } })).status).toBe(201);
    const pushed = await victim.next((f) => f.channel === 'options.trades' && f.event === 'update', 3000, from);
    expect((pushed.result as Frame[])[0]).toMatchObject({ contract: CALL, price: 2500, size: 1 });
    const mine = await victim.next((f) => f.channel === 'options.orders' && f.event === 'update', 3000, from);
    expect((mine.result as J[])[0]).toMatchObject({ size: -1, user: '10002' });
    attacker.close();
    victim.close();
  }, 30_000);
});
