// The liquidator of the futures services (src/engine/futures): after a mark move, every position at or below
// maintenance margin is liquidated (isolated and cross), the liquidator closes through the book when it can and
// auto-deleverages the rest; passes are bounded; the state invariants hold throughout.
import { describe, expect, it } from 'vitest';
import { isLiquidatable } from '../../src/core/futures/futures-liquidation.js';
import { assertFuturesInvariants } from '../../src/core/futures/futures-setup.js';
import { INSURANCE_UID } from '../../src/core/ledger/futures-funds.js';
import { ResultCode } from '../../src/core/result-code.js';
import { anyLiquidatable } from '../../src/engine/futures/futures-liquidator.js';
import { FuturesServices, futuresServicesOf } from '../../src/engine/futures/futures-services.js';
import { InlineGateway } from '../../src/engine/gateway.js';
import { FuturesDriver, futuresDefinition } from '../support/futures-driver.js';

const P = 60_000_00; // 60000.00 in BTC_USDT ticks (priceScale 2)

/** A driver, an inline gateway over its engine and the services (no timer: the test drives them). */
function setup(users = 8, options: ConstructorParameters<typeof FuturesServices>[1] = {}) {
  const d = new FuturesDriver(futuresDefinition(users));
  const gw = new InlineGateway(d.ex.definition, d.clock, { engine: d.engine });
  const svc = new FuturesServices(gw, { checkMs: 0, markBasisCap: 0n, ...options });
  for (let u = 1; u <= users; u++) expect(d.fund(u, 'USDT', '10000')).toBe(ResultCode.Ok);
  return { d, gw, svc, ci: d.ex.futures.contractIndex('usdt', 'BTC_USDT') };
}

/** uid `buyer` goes long and `seller` short `n` contracts at `price`. */
function trade(d: FuturesDriver, seller: number, buyer: number, n: number, price = P): void {
  expect(d.order(seller, 'BTC_USDT', -n, price)).toBe(ResultCode.Ok);
  expect(d.order(buyer, 'BTC_USDT', n, price, { tif: 2 })).toBe(ResultCode.Ok);
}

describe('futures liquidator', () => {
  it('liquidates an isolated long after the mark falls, and only it', async () => {
    const { d, svc, ci } = setup();
    expect(d.fund(INSURANCE_UID, 'USDT', '100000')).toBe(ResultCode.Ok);
    await svc.setIndexPrice(ci, P);
    expect(d.ex.futures.mark[ci]).toBe(P);
    expect(d.leverage(1, 'BTC_USDT', 20)).toBe(ResultCode.Ok);
    trade(d, 2, 1, 1000); // 1000 × 0.0001 BTC = 0.1 BTC = 6000 USDT; user 1 at 20x
    trade(d, 4, 3, 100); // user 3 at the default 10x, a small position
    expect(d.size(1, 'BTC_USDT')).toBe(1000);
    // A 5 % fall: 20x is gone (5 % margin), 10x is not.
    d.sim.advanceBy(1_000_000);
    await svc.setIndexPrice(ci, P * 0.95);
    expect(d.ex.futures.mark[ci]).toBe(P * 0.95);
    expect(d.size(1, 'BTC_USDT')).toBe(0);
    expect(d.size(3, 'BTC_USDT')).toBe(100);
    expect(d.ex.futures.liquidations.map((l) => l.uid)).toEqual([1]);
    expect(svc.stats.liquidations).toBe(1);
    expect(anyLiquidatable(d.ex)).toBe(false);
    assertFuturesInvariants(d.ex);
  });

  it('closes the taken-over position through the book when there are bids', async () => {
    const { d, svc, ci } = setup();
    expect(d.fund(INSURANCE_UID, 'USDT', '100000')).toBe(ResultCode.Ok);
    await svc.setIndexPrice(ci, P);
    expect(d.leverage(1, 'BTC_USDT', 50)).toBe(ResultCode.Ok);
    trade(d, 2, 1, 100);
    // Resting bids of user 5 below the market.
    expect(d.order(5, 'BTC_USDT', 200, P * 0.97)).toBe(ResultCode.Ok);
    const fund = d.ex.ledger.futures.insuranceFund(d.ex.currencyIndex('USDT'));
    d.sim.advanceBy(1_000_000);
    await svc.setIndexPrice(ci, P * 0.975);
    expect(d.size(1, 'BTC_USDT')).toBe(0);
    expect(d.size(5, 'BTC_USDT')).toBe(100);
    expect(d.size(INSURANCE_UID, 'BTC_USDT')).toBe(0);
    expect(svc.stats.bookCloses).toBe(1);
    expect(svc.stats.adl).toBe(0);
    // Bought over at the bankruptcy price (≈ 58800 at 50x) and sold at 58200: the fund paid the gap.
    expect(d.ex.ledger.futures.insuranceFund(d.ex.currencyIndex('USDT'))).toBeLessThan(fund);
    assertFuturesInvariants(d.ex);
  });

  it('auto-deleverages the most profitable opposite positions when the book is empty and the fund is dry', async () => {
    const { d, svc, ci } = setup();
    await svc.setIndexPrice(ci, P);
    expect(d.leverage(1, 'BTC_USDT', 25)).toBe(ResultCode.Ok);
    expect(d.leverage(3, 'BTC_USDT', 25)).toBe(ResultCode.Ok);
    trade(d, 2, 1, 100);
    trade(d, 4, 3, 100);
    d.sim.advanceBy(1_000_000);
    await svc.setIndexPrice(ci, P * 0.9);
    expect(d.size(1, 'BTC_USDT')).toBe(0);
    expect(d.size(3, 'BTC_USDT')).toBe(0);
    expect(d.size(INSURANCE_UID, 'BTC_USDT')).toBe(0);
    // The shorts were deleveraged (both profitable; same leverage, so by uid).
    expect(d.size(2, 'BTC_USDT') + d.size(4, 'BTC_USDT')).toBe(0);
    expect(d.ex.futures.adl.map((a) => a.uid).sort()).toEqual([2, 4]);
    expect(svc.stats.adl).toBe(2);
    assertFuturesInvariants(d.ex);
  });

  it('liquidates a cross account on its margin balance, cancelling its orders first', async () => {
    const { d, svc, ci } = setup();
    expect(d.fund(INSURANCE_UID, 'USDT', '100000')).toBe(ResultCode.Ok);
    await svc.setIndexPrice(ci, P);
    // User 6 (10000 USDT) cross at the 100x limit, 5 BTC short (300000 USDT); user 7 long at 50x.
    expect(d.leverage(6, 'BTC_USDT', 0, 100)).toBe(ResultCode.Ok);
    expect(d.leverage(7, 'BTC_USDT', 50)).toBe(ResultCode.Ok);
    trade(d, 6, 7, 50000);
    // An open order of user 6 that the liquidation must cancel.
    expect(d.order(6, 'BTC_USDT', 10, P * 0.9)).toBe(ResultCode.Ok);
    const order = d.lastOrderId;
    const total = d.total(6, 'USDT');
    expect(total).toBeGreaterThan(0n);
    d.sim.advanceBy(1_000_000);
    await svc.setIndexPrice(ci, P * 1.03); // +3 % on 300000 short: −9000 USDT, leaving less than maintenance
    expect(d.size(6, 'BTC_USDT')).toBe(0);
    expect(d.ex.orders.openOf(6).map((r) => d.ex.orders.id[r])).not.toContain(order);
    expect(d.ex.futures.liquidations.some((l) => l.uid === 6 && l.leverage === 0)).toBe(true);
    expect(anyLiquidatable(d.ex)).toBe(false);
    assertFuturesInvariants(d.ex);
  });

  it('liquidates the under-margined leg of a dual-mode account and leaves the other', async () => {
    const { d, svc, ci } = setup();
    expect(d.fund(INSURANCE_UID, 'USDT', '100000')).toBe(ResultCode.Ok);
    await svc.setIndexPrice(ci, P);
    expect(d.dualMode(1, 'USDT', true)).toBe(ResultCode.Ok);
    expect(d.leverage(1, 'BTC_USDT', 50)).toBe(ResultCode.Ok);
    // Long leg (slot 1) 100 against user 2; short leg (slot 2) 50 against user 3.
    trade(d, 2, 1, 100);
    expect(d.order(3, 'BTC_USDT', 50, P)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USDT', -50, P, { tif: 2 })).toBe(ResultCode.Ok);
    expect([d.size(1, 'BTC_USDT', 1), d.size(1, 'BTC_USDT', 2)]).toEqual([100, -50]);
    // Bids that take the liquidated leg (else auto-deleveraging would pick the most profitable short: the other leg).
    expect(d.order(5, 'BTC_USDT', 100, P * 0.97)).toBe(ResultCode.Ok);
    d.sim.advanceBy(1_000_000);
    await svc.setIndexPrice(ci, P * 0.97);
    expect([d.size(1, 'BTC_USDT', 1), d.size(1, 'BTC_USDT', 2)]).toEqual([0, -50]);
    expect(d.ex.futures.liquidations.map((l) => [l.uid, l.slot])).toEqual([[1, 1]]);
    assertFuturesInvariants(d.ex);
  });

  it('issues at most the budget of liquidations per pass, the rest in the passes that follow', async () => {
    const { d, svc, ci } = setup(12, { liquidationsPerPass: 2 });
    await svc.setIndexPrice(ci, P);
    for (let u = 1; u <= 5; u++) {
      expect(d.leverage(u, 'BTC_USDT', 50)).toBe(ResultCode.Ok);
      trade(d, u + 6, u, 100);
    }
    const passes = svc.stats.passes;
    d.sim.advanceBy(1_000_000);
    await svc.setIndexPrice(ci, P * 0.95);
    expect(d.ex.futures.positions.openRows().filter((r) => d.ex.futures.positions.uid[r]! <= 5).length).toBe(0);
    expect(svc.stats.liquidations).toBe(5);
    expect(svc.stats.passes - passes).toBe(3);
    for (const r of d.ex.futures.positions.openRows()) expect(isLiquidatable(d.ex, ci, r)).toBe(false);
    assertFuturesInvariants(d.ex);
  });

  it('registers itself for the control plane and unregisters on close', () => {
    const { d, svc } = setup(2);
    expect(futuresServicesOf(d.ex)).toBe(svc);
    svc.close();
    expect(futuresServicesOf(d.ex)).toBeUndefined();
  });
});

describe('the liquidator order (core)', () => {
  it('is accepted without a size, as the core documents (it takes the size of the position it holds)', async () => {
    const { d, svc, ci } = setup();
    expect(d.fund(INSURANCE_UID, 'USDT', '100000')).toBe(ResultCode.Ok);
    await svc.setIndexPrice(ci, P);
    expect(d.leverage(1, 'BTC_USDT', 50)).toBe(ResultCode.Ok);
    trade(d, 2, 1, 100);
    d.sim.advanceBy(1_000_000);
    svc.close();
    expect(d.prices('BTC_USDT', P * 0.97)).toBe(ResultCode.Ok);
    expect(d.liquidate(1, 'BTC_USDT')).toBe(ResultCode.Ok);
    expect(d.size(INSURANCE_UID, 'BTC_USDT')).toBe(100);
    expect(d.order(5, 'BTC_USDT', 100, P * 0.97)).toBe(ResultCode.Ok);
    expect(d.liquidatorOrder('BTC_USDT')).toBe(ResultCode.Ok); // the driver sends amount 0
    expect(d.size(INSURANCE_UID, 'BTC_USDT')).toBe(0);
    assertFuturesInvariants(d.ex);
  });
});
