// Answers held against real Gate answers (the live responses captured in ccxt's static tests and the comments
// of its gate source, Gate's documentation examples, the gate-api models): fields present, omitted and
// formatted as Gate sends them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator, TEST_CONFIG } from './http-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startTestSimulator({
    currency_pairs: [...TEST_CONFIG.currency_pairs, { id: 'ETH_BTC', base: 'ETH', quote: 'BTC', precision: 5, amount_precision: 4,
      max_base_amount: '1000', max_quote_amount: '50' }],
  });
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

type J = Record<string, unknown>;
const pub = async (path: string): Promise<unknown> => (await plainFetch(port, `/api/v4${path}`)).body;

describe('currency pairs', () => {
  it('omits limits the config leaves unset, as Gate does, and shows those it sets', async () => {
    const pairs = await pub('/spot/currency_pairs') as J[];
    const btc = pairs.find((p) => p.id === 'BTC_USDT')!;
    expect(btc).toMatchObject({ min_base_amount: '0.0001', min_quote_amount: '1' });
    expect(btc).not.toHaveProperty('max_base_amount');
    expect(btc).not.toHaveProperty('max_quote_amount');
    const eth = await pub('/spot/currency_pairs/ETH_BTC') as J;
    expect(eth).toMatchObject({ max_base_amount: '1000', max_quote_amount: '50' });
    expect(eth).not.toHaveProperty('min_base_amount');
    for (const p of pairs) for (const k of ['min_base_amount', 'min_quote_amount', 'max_base_amount', 'max_quote_amount']) expect(p[k]).not.toBe('');
  });
});

describe('trades', () => {
  it('write create_time_ms with six decimals, as Gate\'s live answers do', async () => {
    const order = (side: string, key: string, secret: string) => signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', key, secret,
      body: JSON.stringify({ currency_pair: 'BTC_USDT', side, amount: '0.001', price: '20000' }) });
    expect((await order('sell', 'k2', 's2')).status).toBe(201);
    expect((await order('buy', 'k1', 's1')).status).toBe(201);
    const mine = (await signedFetch(port, { path: '/api/v4/spot/my_trades', query: 'currency_pair=BTC_USDT' })).body as J[];
    const feed = await pub('/spot/trades?currency_pair=BTC_USDT') as J[];
    for (const t of [mine[0]!, feed[0]!]) {
      expect(t.create_time_ms).toMatch(/^[0-9]{13}\.[0-9]{6}$/);
      expect(Math.floor(Number(t.create_time_ms) / 1000)).toBe(Number(t.create_time));
    }
  });
});
