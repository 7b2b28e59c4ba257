// The market maker of a custom config: it quotes every configured pair (prices from index prices, the demo's
// quotes or what other prices imply, else 1; sizes derived), creates and funds the users it trades as when the
// config lacks them, and starts without hidden prerequisites; the demo's maker is what it always was.
import { afterAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { validateConfig } from '../../src/sim/config-file.js';
import { planMarketMaker } from '../../src/sim/market-maker/plan.js';
import { simulatorSetup } from '../../src/sim/simulator-setup.js';
import { deriveCurrencies } from '../../src/sim/sim-config.js';
import { plainFetch } from '../api/http-helpers.js';

const pair = (base: string, quote: string, precision: number, amount_precision: number): SimulatorConfig['currency_pairs'][number] =>
  ({ id: `${base}_${quote}`, base, quote, precision, amount_precision });
const CUSTOM: SimulatorConfig = {
  currency_pairs: [pair('BTC', 'USDT', 1, 6), pair('SOL', 'USDT', 2, 3), pair('SOL', 'BTC', 7, 3), pair('PEPE', 'EUR', 4, 0)],
  users: [{ uid: 10001, keys: [{ key: 'k1', secret: 's1' }], balances: { spot: { USDT: '1000' } } }],
  unified: { currencies: { SOL: { index_price: '150' } } },
  market_maker: true,
  rate_limits: false,
};
const plan = (c: SimulatorConfig) => planMarketMaker(c, deriveCurrencies(c.currency_pairs, c.currencies));

let sim: Simulator | undefined;
afterAll(async () => { await sim?.close(); });

describe('market maker plan', () => {
  it('is the demo maker of before for the demo', () => {
    expect(plan(DEMO_CONFIG)).toEqual({
      config: { uid: 10000, taker_uid: 9999, seed: 1, markets: [
        { market: 'BTC_USDT', price: '60000', size: '0.05' }, { market: 'ETH_USDT', price: '3000', size: '0.5' },
        { market: 'ETH_BTC', price: '0.05', size: '0.5' }],
      // The demo's perpetuals and its two dated BTC_USDT contracts are quoted too; its maker users are funded in
      // futures and delivery by the demo itself.
      contracts: [{ contract: 'BTC_USDT', settle: 'usdt' }, { contract: 'ETH_USDT', settle: 'usdt' }, { contract: 'BTC_USD', settle: 'btc' },
        ...DEMO_CONFIG.futures!.contracts.filter((k) => k.expire_time !== undefined).map((k) => ({ contract: k.name, settle: 'usdt' }))] },
      newUsers: [], funding: [],
    });
  });

  it('quotes every configured pair, deriving prices and sizes', () => {
    const p = plan(CUSTOM)!;
    expect(p.config.markets).toEqual([
      { market: 'BTC_USDT', price: '60000', size: '0.05' },            // the demo's quote
      { market: 'SOL_USDT', price: '150', size: '6.667' },             // the index price; ~1,000 USD
      { market: 'SOL_BTC', price: '0.0025', size: '6.667' },           // 150 / 60,000
      { market: 'PEPE_EUR', price: '1', size: '1000' },                // nothing known: 1, and 1,000 quote units
    ]);
    expect(p.config).toMatchObject({ uid: 10000, taker_uid: 9999, seed: 1 });
  });

  it('creates and funds the users it lacks, and funds only what the config leaves out', () => {
    const p = plan(CUSTOM)!;
    expect(p.newUsers).toEqual([10000, 9999]);
    const of = (uid: number): Record<string, string> => Object.fromEntries(p.funding.filter((f) => f.uid === uid).map((f) => [f.currency, f.amount]));
    // 1,000 ladders of 5 levels: base size × 5,000; quote twice that at the price (BTC: 250 as base of BTC_USDT,
    // 166.675 as quote of SOL_BTC; USDT: 30,000,000 + 10,000,500).
    expect(of(10000)).toEqual({ BTC: '416.675', USDT: '40000500', SOL: '66670', PEPE: '5000000', EUR: '10000000' });
    expect(of(9999)).toEqual(of(10000));
    const own = plan({ ...CUSTOM, market_maker: { uid: 10001, markets: [{ market: 'SOL_USDT', price: '140', size: '1', levels: 2 }] } })!;
    expect(own.newUsers).toEqual([]);
    expect(own.config).toEqual({ uid: 10001, seed: 1, markets: [{ market: 'SOL_USDT', price: '140', size: '1', levels: 2 }] });
    expect(own.funding).toEqual([{ uid: 10001, account: 'spot', currency: 'SOL', amount: '2000' }]);
  });

  it('funds within each currency\'s max supply, after the balances and the lending pool', () => {
    const small: SimulatorConfig = { ...CUSTOM, currencies: [{ code: 'SOL', scale: 3, max_supply: '100000' }],
      users: [{ uid: 10001, balances: { spot: { SOL: '75000' } } }] };
    const { balances } = simulatorSetup(validateConfig(small));
    const sol = balances.filter((b) => b.currency === 'SOL').map((b) => [b.uid, b.amount]);
    // pool: a tenth (10,000); the maker and taker share what is left (15,000), each at most a tenth.
    expect(sol).toEqual([[10001, '75000'], [0, '10000'], [10000, '7500'], [9999, '7500']]);
  });

  it('takes what a given price implies for a currency of unknown value', () => {
    const p = plan({ ...CUSTOM, market_maker: { markets: [{ market: 'PEPE_EUR', price: '0.0001' }, { market: 'SOL_USDT' }] },
      currency_pairs: [...CUSTOM.currency_pairs, pair('EUR', 'USDT', 4, 2)] })!;
    expect(p.config.markets.map((m) => m.price)).toEqual(['0.0001', '150']);
    const eur = plan({ ...CUSTOM, currency_pairs: [...CUSTOM.currency_pairs, pair('EUR', 'USDT', 4, 2)],
      market_maker: { markets: [{ market: 'EUR_USDT', price: '1.08' }, { market: 'PEPE_EUR' }] } })!;
    // A market listed without a size keeps the object form's old meaning: the maker quotes the pair's minimum.
    expect(eur.config.markets[1]).toEqual({ market: 'PEPE_EUR', price: '1' });
    const all = plan({ ...CUSTOM, currency_pairs: [...CUSTOM.currency_pairs, pair('EUR', 'USDT', 4, 2)], market_maker: { seed: 3 },
      unified: { currencies: { EUR: { index_price: '1.08' } } } })!;
    expect(all.config.markets.find((m) => m.market === 'PEPE_EUR')).toEqual({ market: 'PEPE_EUR', price: '1', size: '926' });
  });

  it('starts a custom config with market_maker: true and quotes both sides of every pair', async () => {
    sim = await startSimulator(CUSTOM, { host: '127.0.0.1', port: 0 });
    const port = sim.server.port;
    for (const id of ['BTC_USDT', 'SOL_USDT', 'SOL_BTC', 'PEPE_EUR']) {
      let book = { asks: [] as unknown[], bids: [] as unknown[] };
      for (let i = 0; i < 50 && (book.asks.length === 0 || book.bids.length === 0); i++) {
        book = (await plainFetch(port, `/api/v4/spot/order_book?currency_pair=${id}`)).body as typeof book;
        if (book.asks.length === 0 || book.bids.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(book.asks.length, id).toBeGreaterThan(0);
      expect(book.bids.length, id).toBeGreaterThan(0);
    }
  });
});
