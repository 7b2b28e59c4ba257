// The demo opens with traded markets: before the server answers its first request, the market maker has quoted
// every demo pair and opened it with one trade (a last price, a 24 h volume, a candle), through ordinary
// commands that the journal keeps like any other.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { plainFetch } from '../api/http-helpers.js';

type Trade = { id: string; price: string; amount: string; side: string };

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-demo-open-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const start = (journal: string): Promise<Simulator> => startSimulator({ ...DEMO_CONFIG, rate_limits: false,
  clock: { type: 'sim', start_ms: Date.UTC(2026, 5, 1) }, engine: { journal, fsync: 'batch' } },
{ host: '127.0.0.1', port: 0 });
const get = async <T>(s: Simulator, path: string): Promise<T> => (await plainFetch(s.server.port, `/api/v4${path}`)).body as T;

describe('the demo at start-up', () => {
  it('serves every pair traded from the first request, and a restart from its journal keeps that opening trade', async () => {
    const journal = join(dir, 'demo.journal');
    const sim = await start(journal);
    const opening: Record<string, Trade[]> = {};
    try {
      for (const pair of ['BTC_USDT', 'ETH_USDT', 'ETH_BTC']) {
        const [ticker] = await get<Record<string, string>[]>(sim, `/spot/tickers?currency_pair=${pair}`);
        expect(Number(ticker!.last), pair).toBeGreaterThan(0);
        expect(Number(ticker!.base_volume), pair).toBeGreaterThan(0);
        expect(Number(ticker!.highest_bid)).toBeLessThan(Number(ticker!.lowest_ask));
        expect(await get<string[][]>(sim, `/spot/candlesticks?currency_pair=${pair}&interval=1m&limit=1`)).toHaveLength(1);
        opening[pair] = await get<Trade[]>(sim, `/spot/trades?currency_pair=${pair}`);
        expect(opening[pair]).toEqual([expect.objectContaining({ side: 'buy', price: ticker!.last })]);
      }
    } finally {
      await sim.close();
    }
    const again = await start(journal);
    try {
      for (const [pair, trades] of Object.entries(opening)) {
        const now = await get<Trade[]>(again, `/spot/trades?currency_pair=${pair}&limit=1000`);
        expect(now.slice(-trades.length), pair).toEqual(trades);
      }
    } finally {
      await again.close();
    }
  }, 30_000);
});
