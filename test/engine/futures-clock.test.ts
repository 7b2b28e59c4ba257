// The price clock and funding of the futures services (src/engine/futures): the index follows the spot market,
// the mark smooths the contract's basis within its cap, SetPrices goes out only on a change, funding comes at the
// contract's interval at Gate's rate (premium, interest, cap, or an override), nets to zero across users and the
// insurance fund, and shows in the account book as `fund` entries whose text is the contract.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import { assertFuturesInvariants } from '../../src/core/futures/futures-setup.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { BookType } from '../../src/core/ledger/account-book.js';
import { INSURANCE_UID } from '../../src/core/ledger/futures-funds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';
import { FuturesServices, type FuturesServiceOptions } from '../../src/engine/futures/futures-services.js';
import { InlineGateway } from '../../src/engine/gateway.js';
import { EmbeddedExchange } from '../../src/sim/embedded-exchange.js';
import { FuturesDriver, futuresDefinition } from '../support/futures-driver.js';

const P = 60_000_00; // 60000.00 in BTC_USDT contract ticks (priceScale 2); the spot pair has 1 decimal
const SECOND = 1_000_000;

function setup(options: FuturesServiceOptions = {}) {
  const d = new FuturesDriver(futuresDefinition(8));
  const gw = new InlineGateway(d.ex.definition, d.clock, { engine: d.engine });
  const svc = new FuturesServices(gw, { checkMs: 0, ...options });
  for (let u = 1; u <= 8; u++) expect(d.fund(u, 'USDT', '100000')).toBe(ResultCode.Ok);
  expect(d.fund(INSURANCE_UID, 'USDT', '1000')).toBe(ResultCode.Ok);
  return { d, svc, ci: d.ex.futures.contractIndex('usdt', 'BTC_USDT') };
}

/** A spot BTC_USDT trade of 0.01 BTC at `ticks` (1 decimal) between users 7 and 8. */
function spotTrade(d: FuturesDriver, ticks: number): void {
  const ex = d.ex;
  const c = new Command();
  for (const [uid, code, amount] of [[7, 'USDT', 1_000_000_000_000], [8, 'BTC', 1_000_000]] as const) {
    c.clear();
    c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = ex.currencyIndex(code); c.amount = amount;
    expect(d.submit(c)).toBe(ResultCode.Ok);
  }
  const m = ex.marketIndex('BTC_USDT');
  for (const [uid, side, tif] of [[8, Side.Sell, TimeInForce.Gtc], [7, Side.Buy, TimeInForce.Ioc]] as const) {
    c.clear();
    c.type = CommandType.PlaceOrder; c.uid = uid; c.market = m; c.kind = AccountKind.Spot; c.side = side;
    c.orderType = OrderType.Limit; c.tif = tif; c.price = ticks; c.amount = 100;
    expect(d.submit(c)).toBe(ResultCode.Ok);
  }
}

describe('futures price clock', () => {
  it('takes the index from the spot market and sends prices only when they change', async () => {
    const { d, svc, ci } = setup();
    await svc.ready();
    expect(d.ex.futures.index[ci]).toBe(0); // no trade anywhere yet: no prices
    spotTrade(d, 600_000); // 60000.0
    d.sim.advanceBy(SECOND);
    await svc.ready();
    expect(d.ex.futures.index[ci]).toBe(P);
    expect(d.ex.futures.mark[ci]).toBe(P); // no contract book or trade: basis 0
    const updates = svc.stats.priceUpdates;
    d.sim.advanceBy(SECOND);
    await svc.ready();
    expect(svc.stats.priceUpdates).toBe(updates); // nothing moved
    d.sim.advanceBy(SECOND / 2);
    spotTrade(d, 612_345);
    await svc.ready();
    expect(d.ex.futures.index[ci]).toBe(P); // within the price interval: not yet
    d.sim.advanceBy(SECOND / 2);
    await svc.ready();
    expect(d.ex.futures.index[ci]).toBe(61_234_50);
    // The inverse BTC_USD has no spot pair of its own: it follows BTC_USDT.
    const inv = d.ex.futures.contractIndex('btc', 'BTC_USD');
    expect(d.ex.futures.index[inv]).toBe(61_234_50);
  });

  it('smooths the basis of the contract book into the mark, within its cap', async () => {
    const { d, svc, ci } = setup({ markEmaSamples: 3, markBasisCap: 100_000n }); // α = 1/2, cap 0.1 %
    await svc.setIndexPrice(ci, P);
    // A contract book quoted 100.00 above the index (mid): basis samples of +10000 ticks.
    expect(d.order(1, 'BTC_USDT', 10, P + 90_00)).toBe(ResultCode.Ok);
    expect(d.order(2, 'BTC_USDT', -10, P + 110_00)).toBe(ResultCode.Ok);
    d.sim.advanceBy(SECOND);
    await svc.ready();
    // EMA 0 → 5000 → … ; the cap is 0.1 % of 60000 = 60.00 = 6000 ticks.
    expect(d.ex.futures.mark[ci]).toBe(P + 50_00);
    d.sim.advanceBy(SECOND);
    await svc.ready();
    expect(d.ex.futures.mark[ci]).toBe(P + 60_00);
    // An override of the mark wins, rounded to mark_price_round (0.01 = 1 tick here).
    await svc.setMarkPrice(ci, P - 1);
    expect(d.ex.futures.mark[ci]).toBe(P - 1);
  });

  it('applies a mark override on a contract without any index source', async () => {
    const { d, svc } = setup();
    const inv = d.ex.futures.contractIndex('btc', 'BTC_USD'); // mark_price_round 0.01, order_price_round 0.5
    await svc.setMarkPrice(inv, 30_000_00);
    expect(d.ex.futures.mark[inv]).toBe(30_000_00);
    expect(d.ex.futures.index[inv]).toBe(30_000_00);
    await svc.setMarkPrice(inv, null);
    expect(d.ex.futures.mark[inv]).toBe(30_000_00); // nothing to compute from: the last prices stay
  });
});

describe('futures funding', () => {
  /** Users 1, 2 long and 3 short; the prices set; the clock at the contract's first funding time. */
  async function positioned(options: FuturesServiceOptions = {}) {
    const s = setup(options);
    const { d, svc, ci } = s;
    await svc.setIndexPrice(ci, P);
    expect(d.order(3, 'BTC_USDT', -300, P)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USDT', 100, P, { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    expect(d.order(2, 'BTC_USDT', 200, P, { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    const next = d.ex.futures.nextFunding[ci]!;
    expect(next).toBeGreaterThan(0);
    return { ...s, next };
  }
  const usdt = (d: FuturesDriver): bigint[] => [1, 2, 3, INSURANCE_UID].map((u) => d.total(u, 'USDT'));

  it('pays at the interval at the interest rate when the book has no premium, netting to zero', async () => {
    const { d, svc, ci, next } = await positioned();
    const k = d.ex.futures.contracts[ci]!;
    const before = usdt(d);
    d.sim.advanceTo(next * SECOND - 1);
    await svc.ready();
    expect(svc.stats.fundings).toBe(0);
    d.sim.advanceTo(next * SECOND);
    await svc.ready();
    expect(svc.stats.fundings).toBe(1);
    expect(d.ex.futures.nextFunding[ci]).toBe(next + k.fundingInterval);
    expect(d.ex.futures.funding.at(-1)).toMatchObject({ t: next, rate: '10000' }); // 0.0001: interest, premium 0
    const after = usdt(d);
    const delta = after.map((v, i) => v - before[i]!);
    // 100 contracts = 0.01 BTC = 600 USDT; × 0.0001 = 0.06 USDT = 6,000,000 units of 10^-8.
    expect(delta.slice(0, 3)).toEqual([-6_000_000n, -12_000_000n, 18_000_000n]);
    expect(delta.reduce((a, b) => a + b, 0n)).toBe(0n);
    const book = d.ex.ledger.accountBook(3, { kind: AccountKind.Futures, type: BookType.FuturesFund });
    expect(book[0]).toMatchObject({ type: 'fund', text: 'BTC_USDT', change: '0.18' });
    assertFuturesInvariants(d.ex);
    // Nothing more until the next interval.
    d.sim.advanceBy(SECOND);
    await svc.ready();
    expect(svc.stats.fundings).toBe(1);
  });

  it('takes the rate from the premium of the impact prices, capped; an override replaces it', async () => {
    const { d, svc, ci, next } = await positioned();
    // Bids of 6 BTC·(0.0001 × 60300 ≈ 6.03 USDT each) × 1000 = 6030 USDT ≥ the 5000 impact value, 0.5 % above the index.
    expect(d.order(4, 'BTC_USDT', 1000, P + 300_00)).toBe(ResultCode.Ok);
    d.sim.advanceBy(SECOND);
    await svc.ready();
    // Premium samples since the last funding: 0 (no book at the first price) and 0.005, mean P = 0.0025 →
    // F = P + clamp(0.0001 − P, ±0.0005) = 0.002.
    expect(d.ex.futures.indicativeRate[ci]).toBe(200_000n);
    d.sim.advanceBy(SECOND);
    await svc.ready();
    // Mean 0.005 × 2/3 → F = 0.00333… − 0.0005, still below the cap; an override is capped at 0.003.
    expect(d.ex.futures.indicativeRate[ci]).toBe(283_333n);
    await svc.setFundingRate(ci, 1_000_000n);
    expect(d.ex.futures.fundingRate[ci]).toBe(300_000n);
    await svc.setFundingRate(ci, -12_345n);
    expect(d.ex.futures.fundingRate[ci]).toBe(-12_345n);
    const before = usdt(d);
    d.sim.advanceTo(next * SECOND);
    await svc.ready();
    expect(d.ex.futures.funding.at(-1)?.rate).toBe('-12345');
    const delta = usdt(d).map((v, i) => v - before[i]!);
    expect(delta[0]).toBeGreaterThan(0n); // longs receive at a negative rate
    expect(delta[2]).toBeLessThan(0n);
    expect(delta.reduce((a, b) => a + b, 0n)).toBe(0n);
    assertFuturesInvariants(d.ex);
  });
});

describe('futures services on a stopped gateway', () => {
  it('retry a refused funding a price interval later instead of looping', async () => {
    const d = new FuturesDriver(futuresDefinition(2));
    const gw = new InlineGateway(d.ex.definition, d.clock, { engine: d.engine });
    const svc = new FuturesServices(gw, { checkMs: 0 });
    await svc.setIndexPrice(0, P);
    const next = d.ex.futures.nextFunding[0]!;
    gw.stop(ResultCode.EngineStopped, 'test');
    d.sim.advanceTo(next * SECOND);
    const issued = svc.stats.commands;
    await svc.ready();
    expect(svc.stats.fundings).toBe(0);
    expect(svc.stats.commands - issued).toBe(1);
    await svc.ready();
    expect(svc.stats.commands - issued).toBe(1);
    d.sim.advanceBy(SECOND);
    await svc.ready();
    expect(svc.stats.commands - issued).toBe(2);
  });
});

describe('futures services in the embedded exchange', () => {
  it('prices follow the spot pair and funding comes when the clock passes the interval', () => {
    const clock = new SimClock(Date.UTC(2026, 0, 1) * 1000);
    const ex = EmbeddedExchange.create({
      currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
      users: [
        { uid: 1, balances: { spot: { USDT: '100000' } } },
        { uid: 2, balances: { spot: { BTC: '1' } } },
      ],
      futures: {
        contracts: [{ name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
          funding_interval: 3600 }],
      },
    }, { clock });
    expect(ex.futures).toBeDefined();
    ex.createOrder(2, { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.01', price: '60000' });
    ex.createOrder(1, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '60000' });
    clock.advanceBy(SECOND);
    ex.spotAccounts(1); // a read submits nothing
    ex.deposit(1, 'USDT', '1'); // a call that submits runs what is due first
    expect(ex.exchange.futures.index[0]).toBe(P);
    expect(ex.exchange.futures.mark[0]).toBe(P);
    const next = ex.exchange.futures.nextFunding[0]!;
    clock.advanceTo(next * SECOND);
    ex.futures!.poll();
    expect(ex.exchange.futures.funding.map((f) => f.t)).toEqual([next]);
    expect(ex.exchange.futures.nextFunding[0]).toBe(next + 3600);
  });
});
