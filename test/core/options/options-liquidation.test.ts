// Liquidation of options accounts on the inline engine: the account figures (total, position value at the mark,
// equity, initial and maintenance margin) against a big.js oracle computed from the decimal inputs, the trigger
// (equity ≤ maintenance margin with a short open), the takeover of shorts at the mark, longs taken for a deficit
// (rounded up with the fund paying the excess, down when it cannot), the deficit left to the options insurance
// fund, the records it leaves, what it refuses, the liquidator's IOC close through the book, and USDT conserved
// (users + platform fee account + insurance fund + clearing = credits − debits) after every command.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { Command, CommandType } from '../../../src/core/command.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../../../src/core/ledger/futures-funds.js';
import { FinishAs, OrderType, Side, TimeInForce } from '../../../src/core/matching/order-types.js';
import { optionsAccountFigures } from '../../../src/core/options/options-account.js';
import { isOptionsLiquidatable } from '../../../src/core/options/options-liquidation.js';
import { OptionsFlag } from '../../../src/core/options/options-orders.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { InlineEngine } from '../../../src/engine/inline-engine.js';
import { E1, optionName, OptionsDriver, T0 } from './options-driver.js';

const CALL = optionName(E1, '100000', true);
const CALL110 = optionName(E1, '110000', true);
const PUT = optionName(E1, '90000', false);
const USERS = [1, 2, 3, 4];
const SCALE = 8;

/** A driver whose every command is checked: invariants, and USDT held by users, fee account, fund and clearing. */
function checked(): OptionsDriver {
  const d = new OptionsDriver(undefined, new SimClock(T0));
  const submit = d.submit.bind(d);
  d.submit = (c) => {
    const code = submit(c);
    d.ex.assertInvariants();
    const cur = d.ex.currencyIndex('USDT');
    const c0 = d.ex.ledger.conservation()[cur]!;
    let users = 0n;
    for (const uid of USERS) users += d.ex.ledger.options.total(uid, cur);
    const fund = d.ex.ledger.options.insuranceFund(cur);
    expect(users + BigInt(c0.feeAccount) + fund + c0.clearing, `USDT after ${c.type}`).toBe(c0.credits - c0.debits);
    return code;
  };
  return d;
}

const units = (v: bigint): string => new Big(v.toString()).div(new Big(10).pow(SCALE)).toFixed();

/** The oracle: Gate's options account figures from decimal inputs (multiplier 0.01; rates 0.15/0.1 and 0.075/0.05). */
function oracle(total: string, index: string, positions: { strike: string; call: boolean; size: number; mark: string }[]) {
  const I = new Big(index);
  let value = new Big(0);
  let im = new Big(0);
  let mm = new Big(0);
  for (const p of positions) {
    const v = new Big(p.mark).times('0.01').times(p.size);
    value = value.plus(v);
    if (p.size >= 0) continue;
    const K = new Big(p.strike);
    const otm = p.call ? (K.gt(I) ? K.minus(I) : new Big(0)) : (I.gt(K) ? I.minus(K) : new Big(0));
    const margin = (a: string, b: string): Big => {
      const x = I.times(a).minus(otm);
      const y = I.times(b);
      return (x.gt(y) ? x : y).times('0.01').times(-p.size).round(SCALE, Big.roundUp);
    };
    im = im.plus(margin('0.15', '0.1'));
    mm = mm.plus(margin('0.075', '0.05'));
  }
  return { position_value: value.toFixed(), equity: new Big(total).plus(value).toFixed(), init_margin: im.toFixed(), maint_margin: mm.toFixed() };
}

function figures(d: OptionsDriver, uid: number) {
  const f = optionsAccountFigures(d.ex, uid, d.ex.currencyIndex('USDT'));
  return { position_value: units(f.positionValue), equity: units(f.equity), init_margin: units(f.initialMargin), maint_margin: units(f.maintenanceMargin) };
}

/** User 2 sold 10 CALL 100000 at 2000 to user 1 at index 100000 (with `fund` USDT in its account). */
function soldCall(fund: string): OptionsDriver {
  const d = checked();
  d.fund(1, '100000');
  d.fund(2, fund);
  d.fundInsurance('10000');
  d.index(1_000_000);
  expect(d.order(2, CALL, -10, 20_000)).toBe(ResultCode.Ok);
  expect(d.order(1, CALL, 10, 20_000)).toBe(ResultCode.Ok);
  return d;
}

describe('options account figures', () => {
  it('match the big.js oracle for shorts and longs across index and mark moves', () => {
    const d = soldCall('5000');
    d.fund(3, '50000');
    expect(d.order(3, PUT, -4, 1_500)).toBe(ResultCode.Ok); // put 90000 at 150
    expect(d.order(2, PUT, 4, 1_500)).toBe(ResultCode.Ok);
    for (const [index, markCall, markPut] of [[1_000_000, 20_000, 1_500], [1_087_650, 61_234, 215], [912_340, 4_321, 13_877]] as const) {
      d.index(index);
      d.mark(CALL, markCall);
      d.mark(PUT, markPut);
      const I = new Big(index).div(10).toFixed();
      const mc = new Big(markCall).div(10).toFixed();
      const mp = new Big(markPut).div(10).toFixed();
      const total = units(d.account(2)[1]);
      expect(figures(d, 2)).toEqual(oracle(total, I, [{ strike: '100000', call: true, size: -10, mark: mc }, { strike: '90000', call: false, size: 4, mark: mp }]));
      expect(figures(d, 3)).toEqual(oracle(units(d.account(3)[1]), I, [{ strike: '90000', call: false, size: -4, mark: mp }]));
      expect(figures(d, 1)).toEqual(oracle(units(d.account(1)[1]), I, [{ strike: '100000', call: true, size: 10, mark: mc }]));
    }
  });
});

describe('OptionsLiquidate', () => {
  it('takes a seller at or below maintenance margin over at the mark and leaves its records', () => {
    const d = soldCall('2000');
    const cur = d.ex.currencyIndex('USDT');
    // total 2000 − fee 3 + premium 200 = 2197
    expect(d.account(2)[1]).toBe(219_700_000_000n);
    d.mark(CALL, 20_000);
    expect(figures(d, 2)).toEqual(oracle('2197', '100000', [{ strike: '100000', call: true, size: -10, mark: '2000' }]));
    const hash = d.engine.stateHash();
    expect(d.liquidate(2)).toBe(ResultCode.NotLiquidatable); // equity 1997 > maintenance 750
    expect(d.engine.stateHash()).toBe(hash);
    d.index(1_200_000);
    d.mark(CALL, 210_000); // equity 2197 − 2100 = 97 ≤ maintenance 900
    expect(figures(d, 2)).toEqual({ position_value: '-2100', equity: '97', init_margin: '1800', maint_margin: '900' });
    expect(isOptionsLiquidatable(d.ex, 2, cur)).toBe(true);
    expect(isOptionsLiquidatable(d.ex, 1, cur)).toBe(false); // longs only
    d.order(2, PUT, 1, 10); // an open order: cancelled first
    expect(d.liquidate(2)).toBe(ResultCode.OrderPending);
    d.cancelAll(2, PUT);
    const fundBefore = d.ex.ledger.options.insuranceFund(cur);
    expect(d.liquidate(2)).toBe(ResultCode.Ok);
    expect(d.account(2)).toEqual([9_700_000_000n, 9_700_000_000n]); // 97 left: paid 2100 for the short at the mark
    expect(d.ex.ledger.options.insuranceFund(cur) - fundBefore).toBe(210_000_000_000n);
    expect(d.position(2, CALL)).toMatchObject({ size: 0, cost: 0n, pnl: -190_300_000_000n });
    expect(d.position(INSURANCE_UID, CALL)).toMatchObject({ size: -10, cost: -210_000_000_000n });
    const S = d.ex.options;
    expect(S.closes.at(-1)).toMatchObject({ uid: 2, size: -10, pnl: '-190300000000', text: 'liquidated' });
    const liq = S.liquidations.at(-1)!;
    expect(liq).toMatchObject({ uid: 2, size: -10, price: 210_000, equity: '9700000000', maintenance: '90000000000' });
    const O = d.ex.orders;
    const r = O.find(liq.orderId);
    expect([O.uid[r], O.side[r], O.filledLots[r], O.price[r], O.finishAs[r], O.text[r]]).toEqual([2, Side.Buy, 10, 210_000, FinishAs.Liquidated, 'liquidation']);
    expect(S.insurance.at(-1)).toMatchObject({ cur, balance: d.ex.ledger.options.insuranceFund(cur).toString() });
    expect(d.liquidate(2)).toBe(ResultCode.NotLiquidatable);
  });

  it('takes longs for a deficit in whole contracts, the fund paying the owner the excess', () => {
    const d = checked();
    d.fund(1, '100000');
    d.fund(3, '5000');
    d.fundInsurance('50');
    d.index(1_000_000);
    // User 3: short 20 CALL 100000 at 2000 (margin 3000 + premium 400), long 10 CALL 110000 at 50 from user 1.
    expect(d.order(3, CALL, -20, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL, 20, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL110, -10, 500)).toBe(ResultCode.Ok);
    expect(d.order(3, CALL110, 10, 500)).toBe(ResultCode.Ok);
    const total = d.account(3)[1];
    // 5000 + 400 − 6 (fee of the sale) − 5 (premium) − 0.625 (fee cap 12.5 % of 5) = 5388.375
    expect(total).toBe(538_837_500_000n);
    d.index(1_300_000);
    d.mark(CALL, 302_000); // short value 20 × 0.01 × 30200 = 6040
    d.mark(CALL110, 201_500); // long unit 0.01 × 20150 = 201.5
    // deficit 6040 − 5388.375 = 651.625: ⌈651.625 / 201.5⌉ = 4 contracts (806), an excess of 154.375 the fund
    // (50 + the 5388.375 it just received) pays back to the owner.
    expect(d.liquidate(3)).toBe(ResultCode.Ok);
    expect(d.position(3, CALL)?.size).toBe(0);
    expect(d.position(3, CALL110)?.size).toBe(6);
    expect(d.account(3)).toEqual([15_437_500_000n, 15_437_500_000n]);
    expect(d.position(INSURANCE_UID, CALL110)?.size).toBe(4);
    expect(d.ex.options.liquidations.slice(-2).map((l) => [l.uid, l.size, l.price])).toEqual([[3, -20, 302_000], [3, 4, 201_500]]);
  });

  it('takes every long when the deficit needs them, and leaves what they do not cover to the fund', () => {
    const d = checked();
    d.fund(1, '100000');
    d.fund(3, '3012'); // the margin 3000, the sale's fee 6, and the buy's 5 + 0.625 fee cap held
    d.index(1_000_000);
    expect(d.order(3, CALL, -20, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL, 20, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL110, -10, 500)).toBe(ResultCode.Ok);
    expect(d.order(3, CALL110, 10, 500)).toBe(ResultCode.Ok);
    const cur = d.ex.currencyIndex('USDT');
    expect(d.account(3)[1]).toBe(340_037_500_000n); // 3012 + 400 − 6 − 5 − 0.625 = 3400.375
    d.index(1_300_000);
    d.mark(CALL, 302_000); // 6040 owed: deficit 2639.625
    d.mark(CALL110, 201_500); // 10 × 201.5 = 2015 < the deficit: all 10 taken, 624.625 left to the fund
    expect(d.liquidate(3)).toBe(ResultCode.Ok);
    expect(d.account(3)).toEqual([0n, 0n]);
    expect(d.position(3, CALL110)?.size).toBe(0);
    // The fund (empty before): 3400.375 in cash and a long worth 2015, for a short worth 6040.
    expect(d.ex.ledger.options.insuranceFund(cur)).toBe(340_037_500_000n);
    expect(d.ex.options.closes.slice(-2).map((r) => [r.uid, r.ci, r.text])).toEqual([
      [3, d.ex.options.contractIndex(CALL), 'liquidated'], [3, d.ex.options.contractIndex(CALL110), 'liquidated']]);
  });

  it('takes fewer longs when the fund cannot pay the excess of one more', () => {
    const d = checked();
    d.fund(1, '100000');
    d.fund(3, '200');
    d.index(1_000_000);
    expect(d.order(3, CALL, -1, 20_000)).toBe(ResultCode.Ok); // margin 150, premium 20, fee 0.3
    expect(d.order(1, CALL, 1, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL110, -1, 10)).toBe(ResultCode.Ok);
    expect(d.order(3, CALL110, 1, 10)).toBe(ResultCode.Ok); // premium 0.01, fee 0.00125
    expect(d.account(3)[1]).toBe(21_968_875_000n); // 219.68875
    d.index(3_000_000); // maintenance 0.075 × 300000 × 0.01 = 225
    d.mark(CALL, 250_000); // owes 250: deficit 30.31125
    d.mark(CALL110, 260_000); // a unit of 260: equity 219.68875 + 260 − 250 = 229.69 … above 225
    const cur = d.ex.currencyIndex('USDT');
    expect(isOptionsLiquidatable(d.ex, 3, cur)).toBe(false);
    d.mark(CALL110, 254_000); // equity 223.69 ≤ 225; one contract would leave an excess of 223.68875 > the fund's 219.68875
    expect(isOptionsLiquidatable(d.ex, 3, cur)).toBe(true);
    expect(d.liquidate(3)).toBe(ResultCode.Ok);
    expect(d.position(3, CALL110)?.size).toBe(1); // ⌊30.31 / 254⌋ = 0 taken
    expect(d.account(3)).toEqual([0n, 0n]);
    expect(d.ex.ledger.options.insuranceFund(cur)).toBe(21_968_875_000n);
  });

  it('refuses a bad command and changes nothing', () => {
    const d = soldCall('2000');
    const hash = d.engine.stateHash();
    const c = new Command();
    c.type = CommandType.OptionsLiquidate; c.uid = 2; c.currency = d.ex.currencyIndex('BTC');
    expect(d.submit(c)).toBe(ResultCode.InvalidParam);
    expect(d.liquidate(3)).toBe(ResultCode.UserNotFound);
    expect(d.liquidate(INSURANCE_UID)).toBe(ResultCode.NotLiquidatable);
    expect(d.liquidate(1)).toBe(ResultCode.NotLiquidatable);
    const m = new Command();
    m.type = CommandType.OptionsSetMark; m.market = 0; m.price = 10;
    expect(d.submit(m)).toBe(ResultCode.InvalidParam); // a spot market
    expect(d.mark(CALL, 0)).toBe(ResultCode.InvalidParam);
    expect(d.engine.stateHash()).toBe(hash);
  });
});

describe("the liquidator's close through the book", () => {
  function place(d: OptionsDriver, uid: number, name: string, flags: number): ResultCode {
    const c = new Command();
    c.type = CommandType.PlaceOrder; c.uid = uid; c.market = d.market(name); c.kind = AccountKind.Options;
    c.orderType = OrderType.Market; c.tif = TimeInForce.Ioc; c.toKind = flags; c.side = Side.Buy;
    return d.submit(c);
  }

  it('buys a taken-over short back within the band of the mark, the fund paying, and only the liquidator may', () => {
    const d = soldCall('2000');
    d.index(1_200_000);
    d.mark(CALL, 210_000);
    expect(d.liquidate(2)).toBe(ResultCode.Ok);
    const cur = d.ex.currencyIndex('USDT');
    expect(place(d, 1, CALL, OptionsFlag.Liquidation)).toBe(ResultCode.InvalidParam); // a user cannot
    expect(place(d, INSURANCE_UID, CALL, 0)).toBe(ResultCode.InvalidParam); // the liquidator must flag it
    // Asks: 4 at 22000 (within 10 % of 21000), 6 at 23200 (beyond 23100).
    expect(d.order(1, CALL, -4, 220_000)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL, -6, 232_000)).toBe(ResultCode.Ok);
    const fund = d.ex.ledger.options.insuranceFund(cur);
    expect(place(d, INSURANCE_UID, CALL, OptionsFlag.Liquidation)).toBe(ResultCode.Ok);
    expect(d.position(INSURANCE_UID, CALL)?.size).toBe(-6);
    const O = d.ex.orders;
    const r = O.find(d.ex.lastOrderId);
    expect([O.uid[r], O.filledLots[r], O.text[r], O.finishAs[r]]).toEqual([INSURANCE_UID, 4, 'liquidation', FinishAs.Ioc]);
    // 4 × 0.01 × 22000 = 880 premium, taker fee min(0.0003 × 4 × 0.01 × 120000, 12.5 % × 880) = 1.44
    expect(fund - d.ex.ledger.options.insuranceFund(cur)).toBe(88_144_000_000n);
    expect(d.ex.options.insurance.at(-1)!.balance).toBe(d.ex.ledger.options.insuranceFund(cur).toString());
  });

  it('replays to the same state hash', () => {
    const d = soldCall('2000');
    d.index(1_200_000);
    d.mark(CALL, 210_000);
    d.liquidate(2);
    d.order(1, CALL, -4, 220_000);
    place(d, INSURANCE_UID, CALL, OptionsFlag.Liquidation);
    const e = new InlineEngine(d.engine.exchange.definition, { clock: new SimClock(T0) });
    for (const c of d.sent) e.submit(new Command().copyFrom(c));
    expect(e.stateHash()).toBe(d.engine.stateHash());
    expect(e.exchange.options.exportData()).toEqual(d.ex.options.exportData());
  });
});
