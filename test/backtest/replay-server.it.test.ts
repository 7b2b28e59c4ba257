// `npm start -- --replay`: the replayed public book is served over HTTP, and a signed client order trades
// against it through the real engine.
import { afterEach, describe, expect, it } from 'vitest';
import { inputs } from './md-helpers.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { parseServeArgs, serveReplay } from '../../src/backtest/replay-server.js';
import { plainFetch, signedFetch } from '../api/http-helpers.js';

const FIX = { trades: 'test/backtest/fixtures/tardis-trades.csv', book: 'test/backtest/fixtures/tardis-book.csv' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => { await Promise.all(closers.splice(0).map((c) => c())); });

describe('replay server', () => {
  it('parses its flags and refuses order-flow formats', () => {
    const a = parseServeArgs(['--replay', '--format', 'tardis', '--trades', FIX.trades, '--book', FIX.book, '--speed', '0', '--port', '0']);
    expect(a).toMatchObject({ speed: 0, port: 0, replay: { format: 'tardis' } });
    expect(() => parseServeArgs(['--replay', '--format', 'journal', '--journal', 'x'])).toThrow(/market data/);
    expect(() => parseServeArgs(['--replay', '--format', 'tardis', '--trades', 'a', '--book', 'b', '--speed', 'fast'])).toThrow(/--speed/);
  });

  it('serves the replayed book and fills a signed client order against it', async () => {
    const served = await serveReplay(parseServeArgs(['--replay', '--format', 'tardis', '--trades', FIX.trades, '--book', FIX.book, '--speed', '0', '--host', '127.0.0.1', '--port', '0']));
    closers.push(() => served.sim.close());
    const stats = await served.finished;
    expect(stats.rows).toBe(5439 + 455);
    const port = served.sim.server.port;
    const offline = await runMarketReplay(await inputs(FIX), {}, undefined);
    const top = offline.report.result.public as { top: { bids: [string, string][]; asks: [string, string][] } };
    const book = (await plainFetch(port, '/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=5')).body as { bids: [string, string][]; asks: [string, string][] };
    expect(book.asks).toEqual(top.top.asks);
    expect(book.bids).toEqual(top.top.bids);
    const [bestAsk, askSize] = book.asks[0]!;
    const body = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.1', price: bestAsk, time_in_force: 'ioc' });
    const res = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body, key: 'demo-alice-key', secret: 'demo-alice-secret' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'closed', filled_amount: '0.1', avg_deal_price: bestAsk, fee: '0.0002', fee_currency: 'BTC' });
    // A small taker fill pays its fee too (0.2 % of 0.01 BTC): the base currency has the fee's decimals.
    const small = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: bestAsk, time_in_force: 'ioc' });
    const res2 = await signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: small, key: 'demo-alice-key', secret: 'demo-alice-secret' });
    expect(res2.body).toMatchObject({ status: 'closed', filled_amount: '0.01', fee: '0.00002', fee_currency: 'BTC' });
    const btc = (await signedFetch(port, { method: 'GET', path: '/api/v4/spot/accounts', query: 'currency=BTC', key: 'demo-alice-key', secret: 'demo-alice-secret' })).body;
    expect((btc as { available: string }[])[0]).toMatchObject({ currency: 'BTC', available: '10.10978', locked: '0' });
    const after = (await plainFetch(port, '/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=5')).body as { asks: [string, string][] };
    expect(Number(after.asks[0]![1])).toBeCloseTo(Number(askSize) - 0.11, 6);
  });
});
