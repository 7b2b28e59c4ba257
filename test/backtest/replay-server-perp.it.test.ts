// `npm start -- --replay … --ticker FILE`: a replayed perpetual served over REST and /v4/ws/fx/usdt. Unchanged ccxt
// (default options, the urls overridden as the other integration tests do) loads the swap, reads its book and
// ticker (the recorded mark, index and funding), trades against the mirrored book and reads its position;
// ccxt.pro watches the same book over the WebSocket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tardisInputs } from '../../src/backtest/md-inputs.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { configOf } from '../../src/backtest/replay-command.js';
import { parseServeArgs, type ServeStats, serveReplay } from '../../src/backtest/replay-server.js';
import type { Simulator } from '../../src/main.js';
import { type CcxtGate, ccxtGate, ccxtProGate, type CcxtProGate } from '../support/clients.js';

const FIX = 'test/backtest/fixtures';
const ARGS = ['--replay', '--format', 'tardis', '--trades', `${FIX}/perp-trades.csv`, '--book', `${FIX}/perp-book.csv`,
  '--ticker', `${FIX}/perp-ticker.csv`, '--config', `${FIX}/perp-config.json`, '--speed', '0', '--host', '127.0.0.1', '--port', '0'];
const S = 'BTC/USDT:USDT';
const within = <T>(p: Promise<T>, ms: number): Promise<T> => Promise.race([p,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not resolved within ${ms} ms`)), ms))]);

describe('replay server on a perpetual', () => {
  let sim: Simulator;
  let stats: ServeStats;
  let bot: CcxtGate;
  let pro: CcxtProGate | undefined;
  /** The offline replay of the same files (no strategy): the public book and prices the server must show. */
  let offline: { top: { bids: [string, string][]; asks: [string, string][] }; mark: string; index: string; rates: string[] };

  beforeAll(async () => {
    const served = await serveReplay(parseServeArgs(ARGS));
    sim = served.sim;
    stats = await served.finished;
    const a = parseServeArgs(ARGS).replay;
    const cfg = { ...configOf(a), strategy: undefined };
    const r = await runMarketReplay(await tardisInputs(a.trades!, a.book!, cfg, undefined, a.ticker), cfg, undefined);
    const pub = r.report.result.public as { top: { bids: [string, string][]; asks: [string, string][] } };
    const perp = r.report.result.perpetual as { prices: { mark: string; index: string }; funding: { events: { rate: string }[] } };
    offline = { top: pub.top, mark: perp.prices.mark, index: perp.prices.index, rates: perp.funding.events.map((e) => e.rate) };
    bot = ccxtGate(sim.server.port, 'demo-alice-key', 'demo-alice-secret');
  });
  afterAll(async () => {
    await pro?.close();
    await sim.close();
  });

  it('replays the data with the recorded prices and funding', () => {
    expect(stats.rows).toBe(5465 + 458 + 302);
    const perp = stats.perpetual as { funding: { applied: number; refused: number }; prices: { mark: string } };
    expect([perp.funding.applied, perp.funding.refused]).toEqual([5, 0]);
    expect(perp.prices.mark).toBe(offline.mark);
  });

  it('ccxt loads the swap and reads its book, ticker and funding history', async () => {
    await bot.loadMarkets();
    expect(bot.market(S)).toMatchObject({ swap: true, linear: true, settle: 'USDT', contractSize: 0.001, id: 'BTC_USDT' });
    expect(Object.keys(bot.markets ?? {})).toContain('BTC/USDT');
    const book = await bot.fetchOrderBook(S, 5);
    expect(book.asks.map(([p, a]) => [p, a])).toEqual(offline.top.asks.map(([p, a]) => [Number(p), Number(a)]));
    expect(book.bids.map(([p, a]) => [p, a])).toEqual(offline.top.bids.map(([p, a]) => [Number(p), Number(a)]));
    const t = await bot.fetchTicker(S);
    expect(t.symbol).toBe(S);
    expect([t.ask, t.bid]).toEqual([book.asks[0]![0], book.bids[0]![0]]);
    expect(t.info).toMatchObject({ mark_price: offline.mark, index_price: offline.index });
    const history = await bot.fetchFundingRateHistory(S);
    expect(history.map((h) => h.fundingRate)).toEqual(offline.rates.map(Number));
  });

  it('ccxt trades the swap against the mirrored book and reads its position', async () => {
    const best = (await bot.fetchOrderBook(S, 1)).asks[0]![0]!;
    const order = await bot.createOrder(S, 'limit', 'buy', 10, best);
    expect(order).toMatchObject({ symbol: S, side: 'buy', amount: 10, filled: 10, status: 'closed' });
    const sold = await bot.createOrder(S, 'market', 'sell', 4);
    expect(sold).toMatchObject({ symbol: S, side: 'sell', filled: 4 });
    const positions = await bot.fetchPositions([S]);
    expect(positions.map((p) => [p.symbol, p.side, p.contracts])).toEqual([[S, 'long', 6]]);
    expect(positions[0]!.entryPrice).toBe(best);
    expect(positions[0]!.markPrice).toBe(Number(offline.mark));
    // The buy took 10 contracts from the best ask: the REST book shows them gone.
    const after = await bot.fetchOrderBook(S, 1);
    const [askPrice, askSize] = offline.top.asks[0]!;
    expect(Number(askSize)).toBeGreaterThan(10);
    expect(after.asks[0]).toEqual([Number(askPrice), Number(askSize) - 10]);
  });

  it('ccxt.pro watches the swap book over /v4/ws/fx/usdt', async () => {
    pro = ccxtProGate(sim.server.port, 'demo-alice-key', 'demo-alice-secret');
    await pro.loadHttpProxyAgent(); // ccxt needs an HTTP agent for plain ws:// URLs
    await pro.loadMarkets();
    const watched = await within(pro.watchOrderBook(S), 2000);
    const rest = await bot.fetchOrderBook(S, 5);
    expect(watched.asks.slice(0, 5).map(([p, a]) => [p, a])).toEqual(rest.asks.map(([p, a]) => [p, a]));
    expect(watched.bids.slice(0, 5).map(([p, a]) => [p, a])).toEqual(rest.bids.map(([p, a]) => [p, a]));
  });
});
