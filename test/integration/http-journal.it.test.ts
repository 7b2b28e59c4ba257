// The simulator with a journal: a restart (threaded or inline runner) rebuilds the same state, book and balances
// from it, users added at run time included, and keeps appending; `npm run replay`'s journal replay of the file
// ends at the live state hash; a journal of another exchange definition is refused at start-up.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch, signedFetch, startTestSimulator, TEST_CONFIG } from '../api/http-helpers.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-server-journal-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const CLOCK = { type: 'sim', start_ms: Date.UTC(2026, 3, 1) } as const;
type J = Record<string, unknown>;

const stateHash = async (s: Simulator): Promise<string> => ((await plainFetch(s.server.port, '/sim/state_hash')).body as J).state_hash as string;
const book = async (s: Simulator): Promise<unknown> => {
  const b = (await plainFetch(s.server.port, '/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=50')).body as J;
  return [b.asks, b.bids];
};
const order = (s: Simulator, body: J, key = 'k1', secret = 's1') =>
  signedFetch(s.server.port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify({ currency_pair: 'BTC_USDT', ...body }), key, secret });

describe('a journaled simulator', () => {
  it('restarts where it stopped, on either runner, and its journal replays to the live hash', async () => {
    const path = join(dir, 'a.journal');
    const config: Partial<SimulatorConfig> = { clock: CLOCK, engine: { journal: path, fsync: 'batch' } };
    const first = await startTestSimulator(config);
    expect((await order(first, { side: 'sell', amount: '0.01', price: '60000' })).status).toBe(201);
    expect((await order(first, { side: 'buy', amount: '0.004', price: '60000' }, 'k2', 's2')).status).toBe(201);
    expect((await order(first, { side: 'buy', amount: '0.02', price: '59000', iceberg: '0.005' }, 'k2', 's2')).status).toBe(201);
    const user = (await plainFetch(first.server.port, '/sim/users', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ balances: { spot: { USDT: '1000' } } }) })).body as { uid: number; key: string; secret: string };
    expect((await order(first, { side: 'buy', amount: '0.001', price: '58000' }, user.key, user.secret)).status).toBe(201);
    const [hash, depth] = [await stateHash(first), await book(first)];
    await first.close();

    const again = await startTestSimulator(config);
    expect(await stateHash(again)).toBe(hash);
    expect(await book(again)).toEqual(depth);
    expect(again.gateway.exchange.ledger.mainOf(user.uid)).toBe(0);
    const alice = (await signedFetch(again.server.port, { path: '/api/v4/spot/accounts', query: 'currency=BTC' })).body as J[];
    expect(alice[0]).toMatchObject({ currency: 'BTC', available: '1.99', locked: '0.006' });
    expect((await order(again, { side: 'sell', amount: '0.001', price: '61000' })).status).toBe(201);
    const continued = await stateHash(again);
    expect(continued).not.toBe(hash);
    await again.close();

    const inline = await startTestSimulator({ ...config, engine: { runner: 'inline', journal: path } });
    expect(await stateHash(inline)).toBe(continued);
    await inline.close();
    expect((await replayJournal(path)).report.state_hash).toBe(continued);
  });

  it('refuses a journal written for another exchange definition', async () => {
    const path = join(dir, 'b.journal');
    const first = await startTestSimulator({ clock: CLOCK, engine: { journal: path } });
    await first.close();
    const pairs = [...TEST_CONFIG.currency_pairs, { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 6, amount_precision: 4 }];
    await expect(startTestSimulator({ clock: CLOCK, currency_pairs: pairs, engine: { journal: path } })).rejects.toThrow(/another exchange definition/);
    await expect(startTestSimulator({ clock: CLOCK, currency_pairs: pairs, engine: { runner: 'inline', journal: path } })).rejects.toThrow(/another exchange definition/);
  });
});
