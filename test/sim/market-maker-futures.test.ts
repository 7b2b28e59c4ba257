// The market maker on perpetual contracts: a two-sided ladder of futures orders in whole contracts on the order
// tick, around the spot reference until a mark exists and around the mark (inside its price band) after;
// taker trades that build positions the maker keeps within max_position; determinism for a seed; config errors
// by field; and the demo opening with live futures books.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/core/command.js';
import { ConfigError } from '../../src/core/invariant.js';
import { Side } from '../../src/core/matching/order-types.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { DEMO_CONFIG, DEMO_MARKET_MAKER_UID } from '../../src/sim/demo.js';
import { MarketMaker, type MarketMakerConfig } from '../../src/sim/market-maker.js';
import { FuturesDriver } from '../support/futures-driver.js';

const MAKER = 1;
const TAKER = 2;
const MM: MarketMakerConfig = {
  uid: MAKER, taker_uid: TAKER, seed: 7, requote_ms: 1000, take_probability: 0.6,
  markets: [{ market: 'BTC_USDT', price: '60000', size: '0.01' }],
  contracts: [
    { contract: 'BTC_USDT', levels: 4, spread_bps: 10, step_bps: 5, size: 20, max_position: 200 },
    { contract: 'BTC_USD', price: '60000', levels: 3 },
  ],
};

/** A futures exchange with funded maker and taker, and a maker over it ticking every second. */
function setup(config: MarketMakerConfig = MM): { d: FuturesDriver; mm: MarketMaker; codes: number[] } {
  const d = new FuturesDriver();
  for (const uid of [MAKER, TAKER]) {
    expect(d.fund(uid, 'USDT', '1000000')).toBe(0);
    expect(d.fund(uid, 'BTC', '50')).toBe(0);
  }
  const codes: number[] = [];
  const mm = new MarketMaker(d.ex, config, (c: Command) => { const code = d.submit(c); codes.push(code); return code; });
  return { d, mm, codes };
}

function tickFor(s: { d: FuturesDriver; mm: MarketMaker }, seconds: number, each?: () => void): void {
  for (let i = 0; i < seconds; i++) {
    s.d.sim.advanceTo(s.d.clock.nowUs() + 1_000_000);
    s.mm.tick(s.d.clock.nowUs());
    each?.();
  }
}

/** The maker's open orders on a contract: [side, price ticks, contracts left]. */
function quotes(d: FuturesDriver, contract: string): { bids: number[]; asks: number[]; sizes: number[] } {
  const O = d.ex.orders;
  const rows = O.openOf(MAKER, d.market[contract]);
  return {
    bids: rows.filter((r) => O.side[r] === Side.Buy).map((r) => O.price[r]!).sort((a, b) => b - a),
    asks: rows.filter((r) => O.side[r] === Side.Sell).map((r) => O.price[r]!).sort((a, b) => a - b),
    sizes: rows.map((r) => O.left[r]!),
  };
}

describe('market maker on contracts', () => {
  it('quotes a two-sided ladder in contracts on the tick, around the spot reference before any mark', () => {
    const s = setup();
    tickFor(s, 1);
    const k = s.d.ex.futures.contracts[0]!;
    const q = quotes(s.d, 'BTC_USDT');
    expect([q.bids.length, q.asks.length]).toEqual([4, 4]);
    expect(q.bids[0]!).toBeLessThan(q.asks[0]!);
    expect([...q.bids, ...q.asks].every((p) => p % k.tick === 0)).toBe(true);
    expect(q.sizes.every((n) => n === 20)).toBe(true);
    const mid = (q.bids[0]! + q.asks[0]!) / 2 / 10 ** k.priceScale;
    expect(Math.abs(mid - 60000)).toBeLessThan(60000 * 0.01);
    const inv = quotes(s.d, 'BTC_USD');
    expect([inv.bids.length, inv.asks.length]).toEqual([3, 3]);
    expect(inv.sizes.every((n) => n === 1000)).toBe(true); // about 1,000 USD: 1,000 one-dollar contracts
  });

  it('follows the mark, inside the price band, and refuses nothing', () => {
    const s = setup({ ...MM, take_probability: 0 }); // no positions: nothing for the engine to refuse
    tickFor(s, 2);
    expect(s.d.prices('BTC_USDT', 5_000_000)).toBe(0); // mark 50,000
    tickFor(s, 2);
    const q = quotes(s.d, 'BTC_USDT');
    const mid = (q.bids[0]! + q.asks[0]!) / 2;
    expect(Math.abs(mid - 5_000_000)).toBeLessThan(5_000_000 * 0.002);
    expect(s.mm.contractReference(s.d.market.BTC_USDT!)).toBe(5_000_000);
    expect(s.codes.every((c) => c === 0), JSON.stringify(s.codes.filter((c) => c !== 0))).toBe(true);
  });

  it('trades with the taker and keeps its position within max_position', () => {
    const s = setup();
    const m = s.d.market.BTC_USDT!;
    let worst = 0;
    tickFor(s, 300, () => { worst = Math.max(worst, Math.abs(s.d.size(MAKER, 'BTC_USDT'))); });
    const T = s.d.ex.trades;
    expect(T.newest((slot) => T.market[slot] === m, 1000).length).toBeGreaterThan(20);
    expect(s.d.size(MAKER, 'BTC_USDT')).toBe(-s.d.size(TAKER, 'BTC_USDT'));
    // One re-quote may add a level and the taker take up to two before the cap applies.
    expect(worst).toBeLessThanOrEqual(200 + 4 * 20);
    const q = quotes(s.d, 'BTC_USDT');
    expect(q.bids.length + q.asks.length).toBeGreaterThan(0);
    if (q.bids.length > 0 && q.asks.length > 0) expect(q.bids[0]!).toBeLessThan(q.asks[0]!);
  });

  it('replays identically for a seed and tick times', () => {
    const a = setup();
    const b = setup();
    tickFor(a, 60);
    tickFor(b, 60);
    expect(a.d.engine.stateHash()).toBe(b.d.engine.stateHash());
    expect(a.codes).toEqual(b.codes);
  });

  it('names a bad contract entry', () => {
    const d = new FuturesDriver();
    const bad = (contracts: unknown): MarketMakerConfig => ({ ...MM, contracts } as unknown as MarketMakerConfig);
    expect(() => new MarketMaker(d.ex, bad([{ contract: 'NOPE' }]), () => 0)).toThrow(/contracts\[0\]\.contract/);
    expect(() => new MarketMaker(d.ex, bad([{ contract: 'BTC_USDT', size: 1.5 }]), () => 0)).toThrow(ConfigError);
    expect(() => new MarketMaker(d.ex, bad([{ contract: 'BTC_USDT', colour: 1 }]), () => 0)).toThrow(/contracts\[0\]\.colour/);
  });
});

describe('the demo', () => {
  it('opens with live two-sided books on every contract', async () => {
    const sim: Simulator = await startSimulator({ ...DEMO_CONFIG, rate_limits: false, clock: { type: 'sim', start_ms: Date.UTC(2026, 5, 1) } },
      { host: '127.0.0.1', port: 0 });
    try {
      const ex = sim.gateway.exchange;
      const O = ex.orders;
      for (const [ci, k] of ex.futures.contracts.entries()) {
        const rows = O.openOf(DEMO_MARKET_MAKER_UID, ex.futures.marketOf[ci]);
        expect(rows.filter((r) => O.side[r] === Side.Buy).length, k.name).toBeGreaterThan(0);
        expect(rows.filter((r) => O.side[r] === Side.Sell).length, k.name).toBeGreaterThan(0);
      }
    } finally {
      await sim.close();
    }
  });
});
