// Liquidation scenarios, checked exactly: every account, the insurance fund, the position and order histories.
// A fee-free BTC_USDT (q = 0.0001, prices 0.01 ticks, USDT 8 decimals, maintenance rate 0.005) keeps the numbers
// readable; each expectation is derived in its comment from Gate's formulas, not read back from the engine.
//   value of n at P = n × 0.0001 × P; isolated margin = value / leverage;
//   liquidation price (long) = (|basis| − margin) / (n × q × (1 − mmr)), rounded up to 0.01;
//   bankruptcy price (long) = (|basis| − margin) / (n × q); (short) = (|basis| + margin) / (n × q).
import { describe, expect, it } from 'vitest';
import { FuturesFlag } from '../../../src/core/futures/futures-orders.js';
import { PositionSlot } from '../../../src/core/futures/position-store.js';
import { INSURANCE_UID } from '../../../src/core/ledger/futures-funds.js';
import { FinishAs, TimeInForce } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { FuturesDriver, futuresDefinition, INVERSE, LINEAR } from '../../support/futures-driver.js';

const C = 'BTC_USDT';
/** USDT → units (8 decimals); ticks of a price (2 decimals). */
const usdt = (v: string): bigint => {
  const [i, f = ''] = v.replace('-', '').split('.');
  const u = BigInt(i!) * 100_000_000n + BigInt((f + '00000000').slice(0, 8));
  return v.startsWith('-') ? -u : u;
};
const px = (v: number): number => Math.round(v * 100);

function setup(insurance: string, funds: Record<number, string>): FuturesDriver {
  const def = futuresDefinition(6);
  const free = { ...LINEAR, maker_fee_rate: '0', taker_fee_rate: '0' };
  const d = new FuturesDriver({ ...def, futures: { contracts: [free, def.futures!.contracts[1]!] } });
  for (const [uid, amount] of Object.entries(funds)) expect(d.fund(Number(uid), 'USDT', amount)).toBe(ResultCode.Ok);
  expect(d.fund(INSURANCE_UID, 'USDT', insurance)).toBe(ResultCode.Ok);
  expect(d.prices(C, px(50000))).toBe(ResultCode.Ok);
  return d;
}

/** `long` rests a bid of k at `price`, `short` sells into it (both at `price`). */
function open(d: FuturesDriver, long: number, short: number, k: number, price: number): void {
  expect(d.order(long, C, k, px(price))).toBe(ResultCode.Ok);
  expect(d.order(short, C, -k, px(price), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
}

const fund = (d: FuturesDriver): bigint => d.ex.ledger.futures.insuranceFund(d.ex.currencyIndex('USDT'));
const unbacked = (d: FuturesDriver): bigint => d.ex.futures.unbacked[d.ex.currencyIndex('USDT')]!;
const finishOf = (d: FuturesDriver, id: number): number => d.ex.orders.finishAs[d.ex.orders.find(id)]!;
const lastLiquidation = (d: FuturesDriver) => d.ex.futures.liquidations[d.ex.futures.liquidations.length - 1]!;
const closesOf = (d: FuturesDriver, uid: number) => d.ex.futures.closes.filter((r) => r.uid === uid);

describe('liquidation scenarios', () => {
  it('isolated, single mode: taken over at the bankruptcy price, traded out above it: the surplus goes to the fund', () => {
    const d = setup('1000', { 1: '1000', 2: '1000', 3: '1000' });
    expect(d.leverage(1, C, 50)).toBe(ResultCode.Ok);
    open(d, 1, 2, 100, 50000); // value 500, user 1's margin 500 / 50 = 10
    expect(d.liquidate(1, C)).toBe(ResultCode.NotLiquidatable);
    // Liquidation price (500 − 10) / (0.01 × 0.995) = 49246.2311… → 49246.24; at 49246.25 it is still safe.
    expect(d.prices(C, px(49246.25))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, C)).toBe(ResultCode.NotLiquidatable);
    expect(d.prices(C, px(49200))).toBe(ResultCode.Ok);
    expect(d.order(3, C, 100, px(49100))).toBe(ResultCode.Ok); // the bid the liquidator sells into
    // An open order of the position blocks the takeover (the liquidator cancels it first).
    expect(d.order(1, C, -10, px(49500), { flags: FuturesFlag.ReduceOnly })).toBe(ResultCode.Ok);
    const pending = d.lastOrderId;
    expect(d.liquidate(1, C)).toBe(ResultCode.OrderPending);
    expect(d.cancel(1, C, pending)).toBe(ResultCode.Ok);
    expect(d.liquidate(1, C)).toBe(ResultCode.Ok);
    // Bankruptcy price (500 − 10) / 0.01 = 49000: the owner realises −10, exactly its margin.
    const liq = lastLiquidation(d);
    expect(liq).toMatchObject({ uid: 1, slot: 0, size: 100, leverage: 50, margin: '10', entryPrice: '50000', liqPrice: '49246.24',
      markPrice: '49200', orderPrice: '49000' });
    expect(finishOf(d, liq.orderId)).toBe(FinishAs.Liquidated);
    expect(d.size(1, C)).toBe(0);
    expect(d.total(1, 'USDT')).toBe(usdt('990'));
    expect(d.available(1, 'USDT')).toBe(usdt('990'));
    expect(closesOf(d, 1)).toMatchObject([{ side: 'long', text: 'liquidated', pnl: '-10', pnlPnl: '-10', entryPrice: '50000', closePrice: '49000' }]);
    expect(d.size(INSURANCE_UID, C)).toBe(100);
    expect(fund(d)).toBe(usdt('1000'));
    // The liquidator sells 100 at the bid, 49100: 491 − 490 = +1 to the fund.
    expect(d.liquidatorOrder(C)).toBe(ResultCode.Ok);
    expect(d.size(INSURANCE_UID, C)).toBe(0);
    expect(d.size(3, C)).toBe(100);
    expect(fund(d)).toBe(usdt('1001'));
    expect(unbacked(d)).toBe(0n);
    expect(d.total(2, 'USDT')).toBe(usdt('1000'));
    expect(d.total(3, 'USDT')).toBe(usdt('1000'));
    d.ex.assertInvariants();
  });

  it('isolated: what the bankruptcy price leaves of the margin (rounding) goes to the fund, and counts as the owner\'s loss', () => {
    const d = setup('1000', { 1: '1000', 2: '1000', 3: '1000' });
    expect(d.leverage(1, C, 50)).toBe(ResultCode.Ok);
    open(d, 1, 2, 100, 50000);
    expect(d.margin(1, C, 1000n)).toBe(ResultCode.Ok); // margin 10.00001
    expect(d.prices(C, px(49200))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, C)).toBe(ResultCode.Ok);
    // Bankruptcy (500 − 10.00001) / 0.01 = 48999.999, up to 49000.00: the takeover realises −10 and the
    // 0.00001 left of the margin goes to the fund; the owner has lost its whole margin, 10.00001.
    expect(lastLiquidation(d)).toMatchObject({ margin: '10.00001', orderPrice: '49000' });
    expect(d.total(1, 'USDT')).toBe(usdt('989.99999'));
    expect(fund(d)).toBe(usdt('1000.00001'));
    expect(closesOf(d, 1)).toMatchObject([{ text: 'liquidated', pnl: '-10.00001', pnlPnl: '-10.00001' }]);
    const row = d.row(1, C);
    const P = d.ex.futures.positions;
    expect([P.pnlPnl[row], P.pnlFee[row], P.pnlFund[row]]).toEqual([0n, 0n, 0n]);
    expect(P.historyPnl[row]).toBe(-usdt('10.00001'));
    expect(P.lastClosePnl[row]).toBe(-usdt('10.00001'));
    expect(d.ex.futures.account(1, d.ex.currencyIndex('USDT')).pnl).toBe(-usdt('10.00001'));
    d.ex.assertInvariants();
  });

  it('isolated, inverse: taken over at the bankruptcy price 1000 / (0.0004 + 0.02), rounded up', () => {
    const def = futuresDefinition(6);
    const inv = { ...INVERSE, maker_fee_rate: '0', taker_fee_rate: '0' };
    const d = new FuturesDriver({ ...def, futures: { contracts: [def.futures!.contracts[0]!, inv] } });
    const I = 'BTC_USD';
    for (const uid of [1, 2, 3]) expect(d.fund(uid, 'BTC', '1')).toBe(ResultCode.Ok);
    expect(d.fund(INSURANCE_UID, 'BTC', '1')).toBe(ResultCode.Ok);
    expect(d.prices(I, px(50000))).toBe(ResultCode.Ok);
    expect(d.leverage(1, I, 50)).toBe(ResultCode.Ok);
    // 1000 USD contracts at 50000: value 0.02 BTC, margin 0.0004.
    expect(d.order(1, I, 1000, px(50000))).toBe(ResultCode.Ok);
    expect(d.order(2, I, -1000, px(50000), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
    // The base risk limit 100 with step 50 is tier ⌈100 / 50⌉ = 2 (ccxt's emulated tiers): mmr 0.01.
    // Liquidation price 1000 × 1.01 / 0.0204 = 49509.8039… → 49509.81. The trigger compares settle units (the
    // value rounded half up, the maintenance margin up), so it fires up to a few ticks above the exact price: at
    // 49509.84 the equity 0.00020199 meets ⌈0.02019801 × 0.01⌉ = 0.00020199; at 49509.85 it does not.
    expect(d.prices(I, px(49509.85))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, I)).toBe(ResultCode.NotLiquidatable);
    expect(d.prices(I, px(49509.84))).toBe(ResultCode.Ok);
    expect(d.order(3, I, 1000, px(49500))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, I)).toBe(ResultCode.Ok);
    // Bankruptcy 1000 / 0.0204 = 49019.6078… → 49019.61; closing there moves round(1000 / 49019.61) = 0.0204 BTC.
    expect(lastLiquidation(d)).toMatchObject({ uid: 1, margin: '0.0004', liqPrice: '49509.81', orderPrice: '49019.61', markPrice: '49509.84' });
    expect(d.total(1, 'BTC')).toBe(99_960_000n);
    // The liquidator sells into the 49500 bid, paying 1000 / 49500 = 0.02020202 BTC of the 0.0204 it took over with: +0.00019798.
    expect(d.liquidatorOrder(I)).toBe(ResultCode.Ok);
    expect(d.size(INSURANCE_UID, I)).toBe(0);
    expect(d.ex.ledger.futures.insuranceFund(d.ex.currencyIndex('BTC'))).toBe(100_000_000n + 19_798n);
    d.ex.assertInvariants();
  });

  it('isolated: a deficit is covered by the insurance fund', () => {
    const d = setup('1000', { 1: '1000', 2: '1000', 3: '1000' });
    expect(d.leverage(1, C, 50)).toBe(ResultCode.Ok);
    open(d, 1, 2, 100, 50000);
    expect(d.prices(C, px(48950))).toBe(ResultCode.Ok);
    expect(d.order(3, C, 100, px(48900))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, C)).toBe(ResultCode.Ok);
    expect(d.total(1, 'USDT')).toBe(usdt('990'));
    // Sold at 48900 against the 49000 taken over: 489 − 490 = −1, paid by the fund.
    expect(d.liquidatorOrder(C)).toBe(ResultCode.Ok);
    expect(d.size(INSURANCE_UID, C)).toBe(0);
    expect(fund(d)).toBe(usdt('999'));
    expect(unbacked(d)).toBe(0n);
    expect(d.ex.futures.closes.filter((r) => r.uid === INSURANCE_UID)).toMatchObject([{ side: 'long', text: 'liquidated', pnl: '-1' }]);
    d.ex.assertInvariants();
  });

  it('cross: the whole account backs the position and is used up', () => {
    const d = setup('1000', { 1: '20', 2: '1000', 3: '1000' });
    expect(d.leverage(1, C, 0, 50)).toBe(ResultCode.Ok);
    open(d, 1, 2, 100, 50000); // cross margin 500 / 50 = 10, available 10
    // Cross: total 20 + 0.01 × (M − 50000) ≤ 0.01 × M × 0.005 ⇔ M ≤ 480 / 0.00995 = 48241.2…
    expect(d.prices(C, px(48300))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, C)).toBe(ResultCode.NotLiquidatable);
    expect(d.prices(C, px(48200))).toBe(ResultCode.Ok);
    expect(d.order(3, C, 100, px(48100))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, C)).toBe(ResultCode.Ok);
    // Bankruptcy with margin 10 + available 10: (500 − 20) / 0.01 = 48000; the owner's account is emptied.
    expect(lastLiquidation(d)).toMatchObject({ uid: 1, leverage: 0, margin: '10', orderPrice: '48000' });
    expect(d.total(1, 'USDT')).toBe(0n);
    expect(closesOf(d, 1)).toMatchObject([{ text: 'liquidated', pnl: '-20' }]);
    // Sold at 48100: 481 − 480 = +1.
    expect(d.liquidatorOrder(C)).toBe(ResultCode.Ok);
    expect(fund(d)).toBe(usdt('1001'));
    d.ex.assertInvariants();
  });

  it('dual mode: the long leg and then the short leg are liquidated on their own', () => {
    const d = setup('1000', { 1: '1000', 2: '1000', 3: '1000' });
    expect(d.dualMode(1, 'USDT', true)).toBe(ResultCode.Ok);
    expect(d.leverage(1, C, 50)).toBe(ResultCode.Ok);
    open(d, 1, 2, 100, 50000); // long leg: 100, margin 10
    expect(d.order(3, C, 40, px(50000))).toBe(ResultCode.Ok);
    expect(d.order(1, C, -40, px(50000), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok); // short leg: 40, margin 200 / 50 = 4
    expect(d.size(1, C, PositionSlot.DualLong)).toBe(100);
    expect(d.size(1, C, PositionSlot.DualShort)).toBe(-40);
    expect(d.prices(C, px(49200))).toBe(ResultCode.Ok);
    expect(d.order(3, C, 100, px(49100))).toBe(ResultCode.Ok);
    expect(d.liquidate(1, C, PositionSlot.DualShort)).toBe(ResultCode.NotLiquidatable);
    expect(d.liquidate(1, C, PositionSlot.DualLong)).toBe(ResultCode.Ok);
    expect(lastLiquidation(d)).toMatchObject({ uid: 1, slot: PositionSlot.DualLong, size: 100, orderPrice: '49000' });
    expect(d.size(1, C, PositionSlot.DualLong)).toBe(0);
    expect(d.size(1, C, PositionSlot.DualShort)).toBe(-40);
    expect(d.liquidatorOrder(C)).toBe(ResultCode.Ok); // +1 at 49100
    expect(fund(d)).toBe(usdt('1001'));
    // Short leg: liquidation price (200 + 4) / (0.004 × 1.005) = 50746.26…, down to 50746.26; bankruptcy 204 / 0.004 = 51000.
    expect(d.prices(C, px(50746.27))).toBe(ResultCode.Ok);
    expect(d.order(3, C, -40, px(50800))).toBe(ResultCode.Ok); // the ask the liquidator buys from
    expect(d.liquidate(1, C, PositionSlot.DualShort)).toBe(ResultCode.Ok);
    expect(lastLiquidation(d)).toMatchObject({ uid: 1, slot: PositionSlot.DualShort, size: -40, liqPrice: '50746.26', orderPrice: '51000' });
    expect(d.size(1, C, PositionSlot.DualShort)).toBe(0);
    expect(d.size(INSURANCE_UID, C)).toBe(-40);
    // Liquidation order: bought back at 50800 against 51000 taken over: 204 − 203.2 = +0.8.
    expect(d.liquidatorOrder(C)).toBe(ResultCode.Ok);
    expect(d.size(INSURANCE_UID, C)).toBe(0);
    expect(fund(d)).toBe(usdt('1001.8'));
    expect(d.total(1, 'USDT')).toBe(usdt('986')); // −10 on the long leg, −4 on the short
    expect(closesOf(d, 1)).toMatchObject([{ side: 'long', text: 'liquidated', pnl: '-10' }, { side: 'short', text: 'liquidated', pnl: '-4' }]);
    d.ex.assertInvariants();
  });

  it('a cascade drains the insurance fund and auto-deleverages the most profitable shorts first', () => {
    const d = setup('1.5', { 1: '1000', 2: '1000', 3: '1000', 4: '1000', 5: '1000', 6: '1000' });
    expect(d.leverage(1, C, 50)).toBe(ResultCode.Ok);
    expect(d.leverage(5, C, 50)).toBe(ResultCode.Ok);
    expect(d.leverage(4, C, 20)).toBe(ResultCode.Ok);
    expect(d.leverage(6, C, 5)).toBe(ResultCode.Ok);
    // Longs: user 1 100, user 5 20 (margins 10 and 2); shorts: user 2 60 (leverage 10), user 4 40 (20), user 6 20 (5).
    open(d, 1, 2, 60, 50000);
    open(d, 1, 4, 40, 50000);
    open(d, 5, 6, 20, 50000);
    expect(d.prices(C, px(48000))).toBe(ResultCode.Ok);
    expect(d.order(3, C, 20, px(48300))).toBe(ResultCode.Ok);
    // User 5 first: taken over at (100 − 2) / 0.002 = 49000; the liquidator's bound is the price where the fund
    // (1.5) is used up, (98 − 1.5) / 0.002 = 48250, so it sells its 20 at the 48300 bid: 96.6 − 98 = −1.4.
    expect(d.liquidate(5, C)).toBe(ResultCode.Ok);
    expect(d.liquidatorOrder(C)).toBe(ResultCode.Ok);
    expect(fund(d)).toBe(usdt('0.1'));
    expect(d.size(INSURANCE_UID, C)).toBe(0);
    // User 1: taken over at 49000; the bound (490 − 0.1) / 0.01 = 48990 finds no bid: the liquidator keeps 100.
    expect(d.liquidate(1, C)).toBe(ResultCode.Ok);
    expect(d.liquidatorOrder(C)).toBe(ResultCode.Ok);
    expect(d.size(INSURANCE_UID, C)).toBe(100);
    expect(fund(d)).toBe(usdt('0.1'));
    // ADL ranking at 48000: uPnL × leverage / value = 0.2 n × L / 4.8 n, so user 4 (20) before user 2 (10) before 6 (5).
    const firstAdl = d.ex.futures.adl.length;
    const before = { 2: d.total(2, 'USDT'), 4: d.total(4, 'USDT'), 6: d.total(6, 'USDT') };
    expect(d.deleverage(C)).toBe(ResultCode.Ok);
    const rows = d.ex.futures.adl.slice(firstAdl);
    expect(rows).toMatchObject([
      { uid: 4, tradeSize: 40, positionSize: 0, fillPrice: '49000', leverage: 20, entryPrice: '50000' },
      { uid: 2, tradeSize: 60, positionSize: 0, fillPrice: '49000', leverage: 10, entryPrice: '50000' },
    ]);
    for (const r of rows) expect(finishOf(d, r.orderId)).toBe(FinishAs.AutoDeleveraged);
    // Closed at the liquidator's entry, 49000: user 4 realises 40 × 0.0001 × 1000 = 4, user 2 6; user 6 keeps its short.
    expect(d.total(4, 'USDT') - before[4]).toBe(usdt('4'));
    expect(d.total(2, 'USDT') - before[2]).toBe(usdt('6'));
    expect(d.total(6, 'USDT')).toBe(before[6]);
    expect(d.size(6, C)).toBe(-20);
    expect(d.size(INSURANCE_UID, C)).toBe(0);
    expect(fund(d)).toBe(usdt('0.1')); // the liquidator realises exactly 0 on ADL
    expect(unbacked(d)).toBe(0n);
    expect(closesOf(d, 4)).toMatchObject([{ side: 'short', text: 'adl', pnl: '4', pnlPnl: '4', entryPrice: '50000', closePrice: '49000' }]);
    expect(closesOf(d, 2)).toMatchObject([{ side: 'short', text: 'adl', pnl: '6' }]);
    // An emptied position starts afresh: no realised PnL left on the row.
    expect(d.ex.futures.positions.pnlPnl[d.row(4, C)]).toBe(0n);
    expect(d.deleverage(C)).toBe(ResultCode.NothingDue);
    d.ex.assertInvariants();
  });
});
