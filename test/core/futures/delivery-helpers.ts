// Shared by the delivery tests: dated linear and inverse contracts beside the perpetual ones of futures-driver.ts,
// a clock that records the times it gave (so another runner can be given the same ones), and a scenario that
// trades, delists, samples the index and settles, driven through a FuturesDriver.
import { expect } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import { SimClock } from '../../../src/core/clock.js';
import type { ExchangeDefinition } from '../../../src/core/exchange/exchange-definition.js';
import type { ContractConfig } from '../../../src/core/futures/contract.js';
import { FuturesFlag } from '../../../src/core/futures/futures-orders.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { INSURANCE_UID } from '../../../src/core/ledger/futures-funds.js';
import { TimeInForce } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import type { FuturesDriver} from '../../support/futures-driver.js';
import { futuresDefinition, INVERSE, LINEAR, T0 } from '../../support/futures-driver.js';

/** Expiry of the dated contracts: Friday 2026-01-09 08:00 UTC, seconds. */
export const EXPIRE = Date.UTC(2026, 0, 9, 8) / 1000;
export const DLIN = 'BTC_USDT_20260109';
export const DINV = 'BTC_USD_20260109';

export const DELIVERY_LINEAR: ContractConfig = {
  ...LINEAR, name: DLIN, maker_fee_rate: '0', taker_fee_rate: '0', expire_time: EXPIRE, cycle: 'WEEKLY',
  settle_price_duration: 600, delisting_duration: 600, settle_fee_rate: '0.0015', index_source: 'BTC_USDT',
};
export const DELIVERY_INVERSE: ContractConfig = {
  ...INVERSE, name: DINV, maker_fee_rate: '0', taker_fee_rate: '0', expire_time: EXPIRE, cycle: 'WEEKLY',
  settle_price_duration: 600, delisting_duration: 600, settle_fee_rate: '0', index_source: 'BTC_USDT',
};

/** futures-driver's definition with the two dated contracts after the perpetual ones. */
export function deliveryDefinition(users = 6): ExchangeDefinition {
  const def = futuresDefinition(users);
  return { ...def, futures: { contracts: [...def.futures!.contracts, DELIVERY_LINEAR, DELIVERY_INVERSE] } };
}

/** A SimClock that remembers every time it gave. */
export class RecordingClock implements Clock {
  readonly inner = new SimClock(T0);
  readonly given: number[] = [];
  nowUs(): number {
    const t = this.inner.nowUs();
    this.given.push(t);
    return t;
  }
}

/** A clock that gives back recorded times in order (then the last one). */
export class ListClock implements Clock {
  #i = 0;
  constructor(readonly times: readonly number[]) {}
  nowUs(): number {
    return this.times[Math.min(this.#i++, this.times.length - 1)]!;
  }
}

/** Ticks of a BTC_USDT price (0.01) and of a BTC_USD price (0.01). */
export const px = (v: number): number => Math.round(v * 100);
export const at = (clock: RecordingClock, secondsBeforeExpiry: number): void => clock.inner.advanceTo((EXPIRE - secondsBeforeExpiry) * 1e6);

/**
 * The linear scenario: users 1 and 3 long, 2 short on DLIN (user 1 also holds a perpetual account that must not
 * move), an open order and a reduce-only order left at expiry, index samples before and in the window, then
 * the settlement after the cancels. Returns the driver after it; every code is checked on the way.
 */
export function linearScenario(d: FuturesDriver, clock: RecordingClock): void {
  for (const uid of [1, 2, 3]) expect(d.fund(uid, 'USDT', '10000', AccountKind.Delivery)).toBe(ResultCode.Ok);
  expect(d.fund(1, 'USDT', '500')).toBe(ResultCode.Ok);
  expect(d.fund(INSURANCE_UID, 'USDT', '1000')).toBe(ResultCode.Ok);
  expect(d.prices(DLIN, px(50000))).toBe(ResultCode.Ok);
  expect(d.order(1, DLIN, 100, px(50000))).toBe(ResultCode.Ok);
  expect(d.order(2, DLIN, -100, px(50000), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
  expect(d.order(3, DLIN, 40, px(50010))).toBe(ResultCode.Ok);
  expect(d.order(2, DLIN, -40, px(50010), { tif: TimeInForce.Ioc })).toBe(ResultCode.Ok);
  expect(d.order(3, DLIN, 5, px(49000))).toBe(ResultCode.Ok); // left open at expiry
  // Before the window: not a sample.
  at(clock, 700);
  expect(d.prices(DLIN, px(45000))).toBe(ResultCode.Ok);
  // Delisting (the last 600 s): opening orders refused, reduce-only ones accepted.
  at(clock, 599);
  expect(d.order(1, DLIN, 1, px(45000))).toBe(ResultCode.ContractInDelisting);
  expect(d.order(2, DLIN, 10, px(44000), { flags: FuturesFlag.ReduceOnly })).toBe(ResultCode.Ok);
  // Samples in [E − 600, E): 51000, 52000, 52500.
  expect(d.prices(DLIN, px(51000))).toBe(ResultCode.Ok);
  at(clock, 300);
  expect(d.prices(DLIN, px(52000))).toBe(ResultCode.Ok);
  at(clock, 1);
  expect(d.prices(DLIN, px(52500))).toBe(ResultCode.Ok);
  expect(d.deliver(DLIN)).toBe(ResultCode.NothingDue);
  at(clock, 0);
  expect(d.order(2, DLIN, 1, px(52000), { flags: FuturesFlag.ReduceOnly })).toBe(ResultCode.ContractInDelisting);
  expect(d.deliver(DLIN)).toBe(ResultCode.OrderPending);
  expect(d.cancelAll(3, DLIN)).toBe(ResultCode.Ok);
  expect(d.cancelAll(2, DLIN)).toBe(ResultCode.Ok);
  expect(d.deliver(DLIN)).toBe(ResultCode.Ok);
}
