// The market-data replay's models on hand-made situations: queue position (conservative, probabilistic),
// liquidity consumption (maker and taker sides), crossing books, time in force, fees and the ledger.
import { describe, expect, it } from 'vitest';
import { buildSim } from '../../src/backtest/md-replay.js';
import { LIQUIDITY_UID, type MarketSim, type OrderNote, type PlaceRequest } from '../../src/backtest/market-sim.js';
import { LatencyModel } from '../../src/backtest/models/latency.js';
import type { ReplayConfig } from '../../src/backtest/replay-config.js';
import { SimClock } from '../../src/core/clock.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { FinishAs, OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';

const U = 10001;
const BID = Side.Buy;
const ASK = Side.Sell;

function setup(cfg: ReplayConfig = {}): { sim: MarketSim; notes: OrderNote[] } {
  const notes: OrderNote[] = [];
  const base: ReplayConfig = { users: [{ uid: U, balances: { USDT: '1000000', BTC: '100' } }], market: { fee: '0.2', maker_fee_rate: '0.1' }, ...cfg };
  const { sim } = buildSim(base, 1, 3, new SimClock(1_000), (n) => notes.push(n));
  return { sim, notes };
}

let ref = 0;
const limit = (side: number, price: number, amount: number, tif: number = TimeInForce.Gtc): PlaceRequest =>
  ({ ref: ++ref, uid: U, side, type: OrderType.Limit, tif, price, amount, text: '' });
const filled = (notes: readonly OrderNote[]): number[] => notes.filter((n) => n.kind === 'fill').map((n) => n.lots);
const finished = (notes: readonly OrderNote[]): number[] => notes.filter((n) => n.kind === 'finished').map((n) => n.code);

describe('queue position', () => {
  it('conservative: trades eat the queue ahead; a trade and its depth update count once', () => {
    const { sim, notes } = setup();
    sim.depth(BID, 1000, 10_000); sim.depth(ASK, 1010, 10_000);
    sim.place(limit(BID, 1000, 5_000));
    expect([...sim.own.byId.values()][0]!.ahead).toBe(10_000);
    sim.trade(ASK, 1000, 6_000);
    expect(filled(notes)).toEqual([]);
    sim.depth(BID, 1000, 4_000);
    expect([...sim.own.byId.values()][0]!.ahead).toBe(4_000);
    sim.trade(ASK, 1000, 6_000);
    expect(filled(notes)).toEqual([2_000]);
    const fill = notes.find((n) => n.kind === 'fill')!;
    expect(fill).toMatchObject({ price: 1000, role: 'maker', side: BID });
    sim.engine.assertInvariants();
  });

  it('probabilistic: cancellations are split between front and back of the queue', () => {
    for (const model of ['conservative', 'probabilistic'] as const) {
      const { sim, notes } = setup({ queue: { model, power: 3 } });
      sim.depth(BID, 1000, 10_000); sim.depth(ASK, 1010, 10_000);
      sim.place(limit(BID, 1000, 5_000));
      sim.depth(BID, 1000, 20_000);
      sim.depth(BID, 1000, 14_000);
      const ahead = [...sim.own.byId.values()][0]!.ahead;
      sim.trade(ASK, 1000, 8_000);
      if (model === 'conservative') { expect(ahead).toBe(10_000); expect(filled(notes)).toEqual([]); }
      else { expect(ahead).toBe(7_000); expect(filled(notes)).toEqual([1_000]); }
    }
  });

  it('a trade through our price fills regardless of the queue', () => {
    const { sim, notes } = setup();
    sim.depth(BID, 1000, 10_000); sim.depth(ASK, 1010, 10_000);
    sim.place(limit(BID, 1000, 5_000));
    sim.trade(ASK, 999, 7_000);
    expect(filled(notes)).toEqual([5_000]);
    expect(finished(notes)).toEqual([FinishAs.Filled]);
  });
});

describe('liquidity consumption', () => {
  it('maker side: one public trade cannot fill two of our orders beyond its size (unless turned off)', () => {
    for (const consume of [true, false]) {
      const { sim, notes } = setup({ liquidity_consumption: consume });
      sim.depth(BID, 990, 10_000); sim.depth(ASK, 1010, 10_000);
      sim.place(limit(BID, 1000, 3_000));
      sim.place(limit(BID, 1000, 3_000));
      sim.trade(ASK, 1000, 4_000);
      expect(filled(notes).reduce((a, b) => a + b, 0)).toBe(consume ? 4_000 : 6_000);
    }
  });

  it('taker side: displayed size we took is gone for our next order until the data shows it taken', () => {
    for (const consume of [true, false]) {
      const { sim, notes } = setup({ liquidity_consumption: consume });
      sim.depth(BID, 990, 10_000); sim.depth(ASK, 1010, 5_000); sim.depth(ASK, 1020, 5_000);
      sim.place(limit(BID, 1010, 4_000, TimeInForce.Ioc));
      sim.place(limit(BID, 1010, 4_000, TimeInForce.Ioc));
      expect(filled(notes)).toEqual(consume ? [4_000, 1_000] : [4_000, 4_000]);
      expect(sim.engine.books[0]!.size).toBe(0);
      if (consume) {
        // The data shows 3 of the 5 lots at 1010 gone: those count as the ones we took, 2 stay consumed;
        // size added later is fresh and available.
        sim.depth(ASK, 1010, 2_000);
        expect(sim.consumed.get(ASK, 1010)).toBe(2_000);
        sim.depth(ASK, 1010, 4_000);
        expect(sim.consumed.get(ASK, 1010)).toBe(2_000);
      }
    }
  });
});

describe('matching against the replayed book', () => {
  it('IOC fills what is displayed and cancels the rest; FOK kills; POC never takes', () => {
    const { sim, notes } = setup();
    sim.depth(BID, 990, 10_000); sim.depth(ASK, 1010, 5_000);
    sim.place(limit(BID, 1020, 6_000, TimeInForce.Fok));
    expect(filled(notes)).toEqual([]);
    expect(finished(notes)).toEqual([FinishAs.Fok]);
    sim.place(limit(BID, 1010, 1_000, TimeInForce.Poc));
    expect(finished(notes)).toEqual([FinishAs.Fok, FinishAs.Poc]);
    sim.place(limit(BID, 1020, 6_000, TimeInForce.Ioc));
    expect(filled(notes)).toEqual([5_000]);
    expect(finished(notes)).toEqual([FinishAs.Fok, FinishAs.Poc, FinishAs.Ioc]);
    expect(notes.filter((n) => n.kind === 'finished').at(-1)!.lots).toBe(1_000);
    expect(sim.engine.books[0]!.size).toBe(0);
    sim.engine.assertInvariants();
  });

  it('a GTC crossing order takes, then rests its remainder with the queue behind what is displayed', () => {
    const { sim, notes } = setup();
    sim.depth(BID, 1010, 7_000); sim.depth(ASK, 1020, 5_000);
    sim.place(limit(BID, 1020, 8_000));
    expect(filled(notes)).toEqual([5_000]);
    const r = [...sim.own.byId.values()][0]!;
    expect(r).toMatchObject({ price: 1020, left: 3_000, ahead: 0 });
  });

  it('a resting order fills at its own price when the book crosses it', () => {
    const { sim, notes } = setup();
    sim.depth(BID, 990, 10_000); sim.depth(ASK, 1010, 5_000);
    sim.place(limit(BID, 1000, 3_000));
    sim.depth(ASK, 995, 2_000);
    sim.cross();
    const f = notes.filter((n) => n.kind === 'fill');
    expect(f.map((n) => [n.price, n.lots, n.role])).toEqual([[1000, 2_000, 'maker']]);
  });

  it('every fill reaches the ledger with the live fees', () => {
    const { sim } = setup();
    sim.depth(BID, 990, 10_000); sim.depth(ASK, 1010, 5_000);
    sim.place(limit(BID, 1010, 4_000, TimeInForce.Ioc));
    const L = sim.engine.exchange.ledger;
    // 4.000 BTC at 101.0: 404 USDT paid; taker fee 0.2 % of 4.000 BTC = 0.008 BTC.
    expect(L.balanceText(U, AccountKind.Spot, 0, 'USDT')!.available).toBe('999596');
    expect(L.balanceText(U, AccountKind.Spot, 0, 'BTC')!.available).toBe('103.992');
    expect(sim.engine.exchange.trades.count).toBe(1);
    expect(sim.engine.exchange.trades.takerUid[0]).toBe(U);
    expect(sim.engine.exchange.trades.makerUid[0]).toBe(LIQUIDITY_UID);
  });
});

describe('latency', () => {
  it('draws the same sequence for the same seed and leg, and another for another seed', () => {
    const spec = { type: 'normal', mean_us: 500, std_us: 100, min_us: 0 } as const;
    const a = new LatencyModel(spec, 'entry', 7);
    const b = new LatencyModel(spec, 'entry', 7);
    const c = new LatencyModel(spec, 'entry', 8);
    const d = new LatencyModel(spec, 'ack', 7);
    const da = Array.from({ length: 20 }, () => a.draw());
    expect(Array.from({ length: 20 }, () => b.draw())).toEqual(da);
    expect(Array.from({ length: 20 }, () => c.draw())).not.toEqual(da);
    expect(Array.from({ length: 20 }, () => d.draw())).not.toEqual(da);
    expect(da.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
    expect(new LatencyModel({ type: 'constant', us: 250 }, 'cancel', 1).draw()).toBe(250);
    expect(() => new LatencyModel({ type: 'recorded' }, 'entry', 1)).toThrow(/feed leg only/);
    expect(new LatencyModel({ type: 'recorded' }, 'feed', 1).draw(1234)).toBe(1234);
    expect(() => new LatencyModel({ type: 'normal', mean_us: 5, std_us: 1, us: 3 } as never, 'entry', 1)).toThrow(/latency\.entry\.us does not apply to type normal/);
  });
});
