// The options routes over HTTP: public market data (underlyings, expirations, contracts with the model's mark
// price and greeks, tickers, order book, trades, candlesticks of a contract and of the underlying), private
// accounts / positions / orders / trades / account book / position closes, each bad input answered with its Gate label and status
// and no change of state, and the seed 8.1 limits (options placement and cancellation 200 r/s per UID).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { expectRejected, type Call, stateHash } from './futures-helpers.js';
import { plainFetch, signedFetch } from './http-helpers.js';
import { CALL, EXP1, EXP2, OPTIONS_CONFIG, PUT, startIndexed } from './options-helpers.js';

let sim: Simulator;
let call: Call;
const get = async (path: string): Promise<{ status: number; body: unknown }> => plainFetch(sim.server.port, `/api/v4${path}`);

beforeAll(async () => {
  ({ sim, call } = await startIndexed({ ...OPTIONS_CONFIG, rate_limits: true }));
});
afterAll(async () => { await sim.close(); });

describe('public options market data', () => {
  it('lists underlyings, expirations, contracts and tickers with the model figures', async () => {
    expect((await get('/options/underlyings')).body).toEqual([{ name: 'BTC_USDT', index_price: '60000' }]);
    expect((await get('/options/expirations?underlying=BTC_USDT')).body).toEqual([EXP1, EXP2]);
    const contracts = (await get(`/options/contracts?underlying=BTC_USDT&expiration=${EXP1}`)).body as Record<string, unknown>[];
    expect(contracts.map((c) => c.name)).toEqual([
      'BTC_USDT-20260102-55000-C', PUT, 'BTC_USDT-20260102-60000-C', 'BTC_USDT-20260102-60000-P',
      'BTC_USDT-20260102-65000-C', 'BTC_USDT-20260102-65000-P']);
    const atm = (await get(`/options/contracts/${CALL}`)).body as Record<string, unknown>;
    // Black–Scholes, S = K = 60000, σ 0.6, r 0, T = 32 h (0.00365 y): ≈ 0.4 σ √T S ≈ 870
    expect(Number(atm.mark_price)).toBeGreaterThan(860);
    expect(Number(atm.mark_price)).toBeLessThan(880);
    expect(atm).toMatchObject({ is_call: true, strike_price: '60000', expiration_time: EXP1, underlying_price: '60000', multiplier: '0.01' });
    const tickers = (await get('/options/tickers?underlying=BTC_USDT')).body as Record<string, string>[];
    const t = tickers.find((x) => x.name === CALL)!;
    expect(Number(t.delta)).toBeGreaterThan(0.5);
    expect(Number(t.delta)).toBeLessThan(0.53);
    expect(t.mark_iv).toBe('0.6000');
    expect(Number(tickers.find((x) => x.name === 'BTC_USDT-20260102-60000-P')!.delta)).toBeCloseTo(Number(t.delta) - 1, 4);
    expect((await get('/options/underlying/tickers/BTC_USDT')).body).toMatchObject({ index_price: '60000' });
  });

  it('shows the book, trades and candles of a contract, and the underlying candles', async () => {
    expect((await call('POST', '/options/orders', { key: ['k2', 's2'], body: { contract: CALL, size: -2, price: '1500' } })).status).toBe(201);
    expect((await call('POST', '/options/orders', { key: ['k2', 's2'], body: { contract: CALL, size: -3, price: '1600' } })).status).toBe(201);
    expect((await call('POST', '/options/orders', { body: { contract: CALL, size: 1, price: '1500', tif: 'ioc' } })).status).toBe(201);
    const book = (await get(`/options/order_book?contract=${CALL}&limit=5`)).body as { asks: unknown[]; bids: unknown[] };
    expect(book.asks).toEqual([{ p: '1500', s: 1 }, { p: '1600', s: 3 }]);
    expect(book.bids).toEqual([]);
    const trades = (await get(`/options/trades?contract=${CALL}`)).body as Record<string, unknown>[];
    expect(trades[0]).toMatchObject({ contract: CALL, size: 1, price: '1500' });
    expect((await get('/options/trades?type=P')).body).toEqual([]);
    const candles = (await get(`/options/candlesticks?contract=${CALL}&interval=1m&limit=1`)).body as Record<string, unknown>[];
    expect(candles.at(-1)).toMatchObject({ c: '1500', h: '1500', l: '1500', o: '1500', v: 1 });
    const under = (await get('/options/underlying/candlesticks?underlying=BTC_USDT&interval=1m&limit=1')).body as Record<string, unknown>[];
    expect(under.at(-1)).toMatchObject({ c: '60000' });
  });
});

describe('private options routes', () => {
  it('reads the account, its book, positions, orders and trades', async () => {
    const account = (await call('GET', '/options/accounts')).body;
    // 20000 − 15 premium − fee min(0.0003 × 0.01 × 60000, 12.5 % × 15) = 0.18
    expect(account).toMatchObject({ user: 10001, currency: 'USDT', total: '19984.82', available: '19984.82', init_margin: '0' });
    const seller = (await call('GET', '/options/accounts', { key: ['k2', 's2'] })).body;
    // holds: 2 sold at a fill-time margin max(0.15 × 60000 − 0, 0.1 × 60000) × 0.01 = 90 each, for the 1 sold
    // (90 + 15 premium), and 90 × 4 for the resting 1 + 3
    expect(seller).toMatchObject({ init_margin: '90', order_margin: '360' });
    const book = (await call('GET', '/options/account_book', { query: 'type=prem' })).body;
    expect(book[0]).toMatchObject({ change: '-15', type: 'prem' });
    expect(String(book[0]!.text)).toMatch(new RegExp(`^${CALL}:[0-9]+$`));
    expect((await call('GET', '/options/positions')).body).toEqual([expect.objectContaining({ contract: CALL, size: 1, entry_price: '1500' })]);
    expect((await call('GET', `/options/positions/${CALL}`)).body).toMatchObject({ size: 1, underlying: 'BTC_USDT' });
    const hash = await stateHash(sim);
    expect((await call('GET', `/options/positions/${PUT}`)).body).toMatchObject({ size: 0, contract: PUT, realised_pnl: '0' });
    expect(await stateHash(sim)).toBe(hash);
    const open = (await call('GET', '/options/orders', { key: ['k2', 's2'], query: 'status=open&underlying=BTC_USDT' })).body;
    expect(open.map((o) => o.left)).toEqual([-3, -1]);
    const mine = (await call('GET', '/options/my_trades', { query: `contract=${CALL}` })).body;
    expect(mine[0]).toMatchObject({ contract: CALL, size: 1, price: '1500', role: 'taker' });
    const cancelled = (await call('DELETE', '/options/orders', { key: ['k2', 's2'], query: `contract=${CALL}&side=ask` })).body;
    expect(cancelled.map((o) => o.finish_as)).toEqual(['cancelled', 'cancelled']);
    expect((await call('GET', '/options/accounts', { key: ['k2', 's2'] })).body).toMatchObject({ order_margin: '0' });
  });

  it('lists a position closed by a trade in position_close', async () => {
    expect((await call('POST', '/options/orders', { key: ['k2', 's2'], body: { contract: CALL, size: 1, price: '1400' } })).status).toBe(201);
    expect((await call('POST', '/options/orders', { body: { contract: CALL, size: -1, price: '1400' } })).status).toBe(201);
    // bought at 1500 and sold at 1400: (14 − 15) less the fees 0.18 of each side
    expect((await call('GET', '/options/position_close', { query: `underlying=BTC_USDT&contract=${CALL}` })).body).toEqual([
      { time: expect.any(Number) as number, contract: CALL, side: 'long', pnl: '-1.36', text: 'close', settle_size: '1' }]);
    expect((await call('GET', '/options/positions')).body).toEqual([]);
  });

  it('answers each bad input with its label and changes nothing', async () => {
    const cases: [string, string, { body?: unknown; query?: string; key?: [string, string] }, number, string][] = [
      ['POST', '/options/orders', { body: { contract: 'BTC_USDT-20990101-1-C', size: 1, price: '1' } }, 400, 'CONTRACT_NOT_FOUND'],
      ['POST', '/options/orders', { body: { size: 1, price: '1' } }, 400, 'MISSING_REQUIRED_PARAM'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 1 } }, 400, 'MISSING_REQUIRED_PARAM'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 1, price: '0', tif: 'gtc' } }, 400, 'INVALID_PARAM_VALUE'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 1, price: '1.05' } }, 400, 'INVALID_PARAM_VALUE'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 1.5, price: '1' } }, 400, 'INVALID_PARAM_VALUE'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 0, price: '1' } }, 400, 'SIZE_TOO_SMALL'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 1, price: '1', tif: 'day' } }, 400, 'INVALID_PARAM_VALUE'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 100000, price: '100000' } }, 400, 'INSUFFICIENT_AVAILABLE'],
      ['POST', '/options/orders', { body: { contract: PUT, size: 1, price: '1', reduce_only: true } }, 400, 'REDUCE_EXCEEDED'],
      ['POST', '/options/orders', { body: { contract: CALL, size: 1, price: '1' }, key: ['k3', 's3'] }, 400, 'USER_NOT_FOUND'],
      ['GET', '/options/orders', { query: 'status=closed' }, 400, 'INVALID_PARAM_VALUE'],
      ['GET', '/options/orders', {}, 400, 'MISSING_REQUIRED_PARAM'],
      ['GET', '/options/orders/123456789', {}, 404, 'ORDER_NOT_FOUND'],
      ['DELETE', '/options/orders/123456789', {}, 404, 'ORDER_NOT_FOUND'],
      ['GET', '/options/positions', { query: 'underlying=ETH_USDT' }, 400, 'INVALID_PARAM_VALUE'],
      ['GET', '/options/accounts', { key: ['k3', 's3'] }, 400, 'USER_NOT_FOUND'],
    ];
    for (const [method, path, opts, status, label] of cases) await expectRejected(sim, () => call(method, path, opts), status, label);
    const pub: [string, number, string][] = [
      ['/options/order_book', 400, 'MISSING_REQUIRED_PARAM'],
      ['/options/order_book?contract=nope', 400, 'CONTRACT_NOT_FOUND'],
      [`/options/order_book?contract=${CALL}&limit=0`, 400, 'INVALID_PARAM_VALUE'],
      ['/options/contracts', 400, 'MISSING_REQUIRED_PARAM'],
      ['/options/contracts/nope', 400, 'CONTRACT_NOT_FOUND'],
      [`/options/candlesticks?contract=${CALL}&interval=7s`, 400, 'INVALID_PARAM_VALUE'],
      ['/options/underlying/tickers/ETH_USDT', 400, 'INVALID_PARAM_VALUE'],
      ['/options/trades?type=X', 400, 'INVALID_PARAM_VALUE'],
    ];
    for (const [path, status, label] of pub) {
      await expectRejected(sim, async () => { const r = await get(path); return { status: r.status, body: r.body as never }; }, status, label);
    }
  });
});

describe('options rate limits (seed 8.1)', () => {
  it('counts placements and cancellations in their own 200 r/s windows per UID', async () => {
    await new Promise((r) => setTimeout(r, 1050));
    const placed = await call('POST', '/options/orders', { key: ['k2', 's2'], body: { contract: PUT, size: 1, price: '10' } });
    expect(placed.status).toBe(201);
    const headers = async (m: string, p: string, q?: string): Promise<[number, number]> => {
      const r = await fetchSigned(m, p, q);
      return [Number(r.get('x-gate-ratelimit-limit')), Number(r.get('x-gate-ratelimit-requests-remain'))];
    };
    const fetchSigned = async (m: string, p: string, q?: string): Promise<Headers> => {
      const r = await signedFetch(sim.server.port, { method: m, path: `/api/v4${p}`, query: q ?? '', body: m === 'POST' ? JSON.stringify({ contract: PUT, size: 1, price: '10' }) : '', key: 'k2', secret: 's2' });
      return r.headers;
    };
    expect(await headers('POST', '/options/orders')).toEqual([200, 198]);
    expect(await headers('DELETE', '/options/orders', `contract=${PUT}`)).toEqual([200, 199]);
    expect(await headers('DELETE', `/options/orders/${String((placed.body as unknown as { id: number }).id)}`)).toEqual([200, 198]);
    let limited = 0;
    for (let i = 0; i < 210 && limited === 0; i++) {
      const r = await call('DELETE', '/options/orders/1', { key: ['k2', 's2'] });
      if (r.status === 429) limited = i;
    }
    expect(limited).toBeGreaterThan(150);
  });
});
