// Delivery contracts in the futures engine, checked against big.js: the settlement price (mean of the index
// samples of the window, rounded to mark_price_round), each position's profit and settlement fee, the accounts,
// the fee account and the insurance fund (an inverse contract's rounding residue), conservation through expiry,
// the phases (delisting, expired, settled), and the perpetual account beside it left alone.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../../../src/core/ledger/futures-funds.js';
import { TimeInForce } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver } from '../../support/futures-driver.js';
import { at, DINV, DLIN, deliveryDefinition, linearScenario, px, RecordingClock } from './delivery-helpers.js';

/** A decimal string of BigInt units at `scale` decimals. */
const dec = (units: bigint, scale = 8): Big => new Big(units.toString()).div(new Big(10).pow(scale));
const feeAccount = (d: FuturesDriver, code: string): Big => {
  const b = d.ex.ledger.balanceText(0, AccountKind.Spot, 0, code)!;
  return new Big(b.available).plus(b.locked);
};
const fund = (d: FuturesDriver, code: string): Big => dec(d.ex.ledger.futures.insuranceFund(d.ex.currencyIndex(code)));

describe('delivery settlement', () => {
  it('settles every linear position at the mean index of the window, with the settlement fee, nothing created or lost', () => {
    const clock = new RecordingClock();
    const d = new FuturesDriver(deliveryDefinition(), { clock });
    let feesBefore = new Big(0);
    let fundBefore = new Big(0);
    const realDeliver = d.deliver.bind(d);
    d.deliver = (contract) => {
      // Snapshot right before the accepted settlement (the earlier attempts change nothing).
      feesBefore = feeAccount(d, 'USDT');
      fundBefore = fund(d, 'USDT');
      return realDeliver(contract);
    };
    linearScenario(d, clock);
    d.ex.assertInvariants();
    const S = new Big(51000).plus(52000).plus(52500).div(3).round(2, Big.roundHalfUp);
    expect(S.toFixed(2)).toBe('51833.33');
    const q = new Big('0.0001');
    const rate = new Big('0.0015');
    // Entries: 1 long 100 @ 50000, 3 long 40 @ 50010, 2 short 100 @ 50000 + 40 @ 50010.
    const legs: Record<number, { size: number; cost: Big }> = {
      1: { size: 100, cost: q.times(100).times(50000) },
      3: { size: 40, cost: q.times(40).times(50010) },
      2: { size: -140, cost: q.times(100).times(50000).plus(q.times(40).times(50010)) },
    };
    let fees = new Big(0);
    const rows = d.ex.futures.settlements.filter((r) => r.market === d.market[DLIN]);
    expect(rows).toHaveLength(3);
    for (const [uid, leg] of Object.entries(legs)) {
      const value = q.times(Math.abs(leg.size)).times(S);
      const profit = leg.size > 0 ? value.minus(leg.cost) : leg.cost.minus(value);
      const fee = value.times(rate).round(8, Big.roundUp);
      fees = fees.plus(fee);
      expect(d.size(Number(uid), DLIN)).toBe(0);
      expect(dec(d.total(Number(uid), 'USDT', true)).toFixed(8), `user ${uid}`).toBe(new Big(10000).plus(profit).minus(fee).toFixed(8));
      const row = rows.find((r) => r.uid === Number(uid))!;
      expect(row).toMatchObject({ size: leg.size, settlePrice: '51833.33', t: Date.UTC(2026, 0, 9, 8) / 1000 });
      expect(new Big(row.profit).toFixed(8)).toBe(profit.toFixed(8));
      expect(new Big(row.fee).toFixed(8)).toBe(fee.toFixed(8));
    }
    // The fees went to the platform; a linear contract leaves no residue: the insurance fund did not move.
    expect(feeAccount(d, 'USDT').minus(feesBefore).toFixed(8)).toBe(fees.toFixed(8));
    expect(fund(d, 'USDT').toFixed(8)).toBe(fundBefore.toFixed(8));
    // Σ over the three accounts + fees = what was funded.
    const totals = [1, 2, 3].reduce((s, u) => s.plus(dec(d.total(u, 'USDT', true))), new Big(0));
    expect(totals.plus(fees).toFixed(8)).toBe('30000.00000000');
    // The perpetual account beside it never moved.
    expect(dec(d.total(1, 'USDT')).toFixed(8)).toBe('500.00000000');
    // Settled: no orders, no prices, no second settlement; the settlement price stays.
    expect(d.order(1, DLIN, 1, px(52000))).toBe(ResultCode.ContractInDelisting);
    expect(d.prices(DLIN, px(52000))).toBe(ResultCode.NothingDue);
    expect(d.deliver(DLIN)).toBe(ResultCode.NothingDue);
    expect(d.ex.futures.settlePrice[d.ex.futures.contractOf(d.market[DLIN]!)]).toBe(5183333);
    expect(d.ex.orders.openOf(2).length + d.ex.orders.openOf(3).length).toBe(0);
    d.ex.assertInvariants();
  });

  it('an inverse contract: each close rounds its BTC value; the residue is the insurance fund\'s, conservation holds', () => {
    const clock = new RecordingClock();
    const d = new FuturesDriver(deliveryDefinition(), { clock });
    for (const uid of [1, 2, 3]) expect(d.fund(uid, 'BTC', '1', AccountKind.Delivery)).toBe(ResultCode.Ok);
    expect(d.fund(INSURANCE_UID, 'BTC', '1')).toBe(ResultCode.Ok);
    expect(d.prices(DINV, px(50000))).toBe(ResultCode.Ok);
    // Odd sizes and prices, so that the rounded values of the parts do not sum to the rounded whole.
    expect(d.order(1, DINV, 3, px(50000.5))).toBe(ResultCode.Ok);
    expect(d.order(2, DINV, -3, px(50000.5), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    expect(d.order(3, DINV, 4, px(49999.5))).toBe(ResultCode.Ok);
    expect(d.order(2, DINV, -4, px(49999.5), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    at(clock, 30);
    // 30001.37, the only sample: 3 / S and 4 / S round up by less than 7 / S does, so the closes leave 1 satoshi.
    expect(d.prices(DINV, 3000137)).toBe(ResultCode.Ok);
    const totalsBefore = [1, 2, 3].map((u) => dec(d.total(u, 'BTC', true)));
    const fundBefore = fund(d, 'BTC');
    at(clock, 0);
    expect(d.deliver(DINV)).toBe(ResultCode.Ok);
    d.ex.assertInvariants();
    // Inverse: k USD contracts are worth k / P BTC, rounded half up to 8 decimals, per trade and per close.
    const btc = (k: number, p: string): Big => new Big(k).div(p).round(8, Big.roundHalfUp);
    const S = '30001.37';
    const expected: Record<number, Big> = {
      // A long received k / entry when it opened and pays k / S to close.
      1: btc(3, '50000.5').minus(btc(3, S)),
      3: btc(4, '49999.5').minus(btc(4, S)),
      // The short's basis is the two fills' cash; it receives the rounded value of its whole size at S.
      2: btc(7, S).minus(btc(3, '50000.5')).minus(btc(4, '49999.5')),
    };
    let moved = new Big(0);
    [1, 2, 3].forEach((u, i) => {
      const got = dec(d.total(u, 'BTC', true)).minus(totalsBefore[i]!);
      expect(got.toFixed(8), `user ${u}`).toBe(expected[u]!.toFixed(8));
      moved = moved.plus(got);
    });
    // What the users gained in all came out of the fund (the rounding residue: here one satoshi), to the satoshi.
    expect(moved.abs().toFixed(8)).toBe('0.00000001');
    expect(fundBefore.minus(fund(d, 'BTC')).toFixed(8)).toBe(moved.toFixed(8));
    expect(d.ex.futures.unbacked[d.ex.currencyIndex('BTC')]).toBe(0n);
  });

  it('without any sample in the window the last index is the settlement price; a contract with no position settles too', () => {
    const clock = new RecordingClock();
    const d = new FuturesDriver(deliveryDefinition(), { clock });
    expect(d.fund(1, 'USDT', '1000', AccountKind.Delivery)).toBe(ResultCode.Ok);
    expect(d.fund(2, 'USDT', '1000', AccountKind.Delivery)).toBe(ResultCode.Ok);
    expect(d.prices(DLIN, px(50000))).toBe(ResultCode.Ok);
    expect(d.order(1, DLIN, 10, px(50000))).toBe(ResultCode.Ok);
    expect(d.order(2, DLIN, -10, px(50000), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    at(clock, 3600);
    expect(d.prices(DLIN, px(48000.37), px(48000.37))).toBe(ResultCode.Ok);
    at(clock, -60);
    expect(d.deliver(DINV)).toBe(ResultCode.Ok);
    expect(d.deliver(DLIN)).toBe(ResultCode.Ok);
    const rows = d.ex.futures.settlements;
    expect(rows.map((r) => [r.uid, r.settlePrice])).toEqual([[1, '48000.37'], [2, '48000.37']]);
    // 10 × 0.0001 × (48000.37 − 50000), less 0.0015 of 10 × 0.0001 × 48000.37 rounded up.
    const value = new Big('0.001').times('48000.37');
    const long = new Big(1000).plus(value.minus(50)).minus(value.times('0.0015').round(8, Big.roundUp));
    expect(dec(d.total(1, 'USDT', true)).toFixed(8)).toBe(long.toFixed(8));
    d.ex.assertInvariants();
  });

  it('a liquidated delivery position goes to the liquidator, whose leftover is settled at expiry against the insurance fund', () => {
    const clock = new RecordingClock();
    const d = new FuturesDriver(deliveryDefinition(), { clock });
    const free = (u: number): Big => dec(d.total(u, 'USDT', true));
    for (const uid of [1, 2]) expect(d.fund(uid, 'USDT', '1000', AccountKind.Delivery)).toBe(ResultCode.Ok);
    expect(d.fund(INSURANCE_UID, 'USDT', '1000')).toBe(ResultCode.Ok);
    expect(d.prices(DLIN, px(50000))).toBe(ResultCode.Ok);
    expect(d.leverage(1, DLIN, 50)).toBe(ResultCode.Ok);
    expect(d.order(1, DLIN, 100, px(50000))).toBe(ResultCode.Ok);
    expect(d.order(2, DLIN, -100, px(50000), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    // Value 500, margin 10: at 49200 the long is below maintenance; the liquidator takes it over at the
    // bankruptcy price (500 − 10) / 0.01 = 49000, and finds no bid to sell into.
    expect(d.prices(DLIN, px(49200))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, DLIN)).toBe(ResultCode.Ok);
    expect(d.liquidatorOrder(DLIN)).toBe(ResultCode.Ok);
    expect(d.size(INSURANCE_UID, DLIN)).toBe(100);
    expect(free(1).toFixed(8)).toBe('990.00000000');
    const fundBefore = fund(d, 'USDT');
    at(clock, 60);
    expect(d.prices(DLIN, px(49500))).toBe(ResultCode.Ok);
    at(clock, 0);
    expect(d.deliver(DLIN)).toBe(ResultCode.Ok);
    d.ex.assertInvariants();
    // The fund held 100 long from 49000, settled at 49500: + 100 × 0.0001 × 500 = 5, and pays no fee.
    expect(fund(d, 'USDT').minus(fundBefore).toFixed(8)).toBe('5.00000000');
    // The short: 100 × 0.0001 × (50000 − 49500) = 5, less 0.0015 × 495.
    expect(free(2).toFixed(8)).toBe(new Big(1000).plus(5).minus(new Big('495').times('0.0015')).toFixed(8));
    expect(d.ex.futures.settlements.map((r) => r.uid)).toEqual([2, INSURANCE_UID]);
  });

  it('refuses delivery commands on a perpetual and before expiry, and orders by the wrong account kind', () => {
    const d = new FuturesDriver(deliveryDefinition());
    expect(d.deliver('BTC_USDT')).toBe(ResultCode.ContractNotFound);
    expect(d.deliver(DLIN)).toBe(ResultCode.NothingDue);
    // A delivery order needs the Delivery account: a user with only futures funds has none.
    expect(d.fund(4, 'USDT', '1000')).toBe(ResultCode.Ok);
    expect(d.prices(DLIN, px(50000))).toBe(ResultCode.Ok);
    expect(d.order(4, DLIN, 1, px(50000))).toBe(ResultCode.UserNotFound);
  });
});
