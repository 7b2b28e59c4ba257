// Every result code a book can answer is reached, and every rejection leaves state, size and events untouched.
import { describe, expect, it } from 'vitest';
import { parseLots, parsePrice, parseQuoteBudget } from '../../../src/core/market.js';
import { OrderType, PlaceOrder, StpAct, TimeInForce } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { BookDriver, BOOKS, BOUNDED, BTC_USDT, BUY, type BookFactory, SELL, snapshot, TEST } from '../../support/books.js';

const { Limit, Market } = OrderType;
const { Gtc, Ioc, Poc, Fok } = TimeInForce;
const UNSAFE = 2 ** 53;

/** A book holding a few orders on both sides (one partly filled, one iceberg, one post-only). */
function seeded(create: BookFactory, m = TEST, maxOrders?: number): BookDriver {
  const d = new BookDriver(maxOrders === undefined ? create(m) : create(m, { maxOrders }));
  d.limit(1, 11, BUY, 40, 10);
  d.limit(2, 12, BUY, 39, 10, { iceberg: 3, stpId: 5 });
  d.limit(3, 13, SELL, 45, 10, { tif: Poc });
  d.limit(4, 14, SELL, 40, 4);
  return d;
}

/** A valid limit buy that would rest at 30; `patch` breaks one field. */
function cmdWith(patch: Partial<PlaceOrder>): PlaceOrder {
  return Object.assign(new PlaceOrder().set(100, 21, BUY, Limit, Gtc, 30, 5), patch);
}

/** Runs `act` and asserts it answers `code` without writing events or changing the book. */
function expectRejected(d: BookDriver, code: number, act: (d: BookDriver) => number): void {
  const before = snapshot(d.book);
  d.out.clear();
  expect(act(d)).toBe(code);
  expect(d.out.count).toBe(0);
  expect(snapshot(d.book)).toEqual(before);
  d.book.assertInvariants();
}

const invalidPlaces: ReadonlyArray<readonly [string, Partial<PlaceOrder>]> = [
  ['side 0', { side: 0 }], ['side 3', { side: 3 }], ['side NaN', { side: Number.NaN }],
  ['type 0', { type: 0 }], ['type 3', { type: 3 }],
  ['tif 0', { tif: 0 }], ['tif 5', { tif: 5 }],
  ['stpAct 4', { stpAct: 4, stpId: 1 }], ['stpAct -1', { stpAct: -1, stpId: 1 }],
  ['orderId 0', { orderId: 0 }], ['orderId -1', { orderId: -1 }], ['orderId 1.5', { orderId: 1.5 }],
  ['orderId NaN', { orderId: Number.NaN }], ['orderId Infinity', { orderId: Infinity }], ['orderId 2^53', { orderId: UNSAFE }],
  ['userId 0', { userId: 0 }], ['userId -1', { userId: -1 }], ['userId 1.5', { userId: 1.5 }],
  ['userId 2^31', { userId: 2 ** 31 }], ['userId NaN', { userId: Number.NaN }],
  ['stpId -1', { stpId: -1 }], ['stpId 1.5', { stpId: 1.5 }], ['stpId 2^31', { stpId: 2 ** 31 }],
  ['amount 0', { amount: 0 }], ['amount -5', { amount: -5 }], ['amount 1.5', { amount: 1.5 }],
  ['amount NaN', { amount: Number.NaN }], ['amount Infinity', { amount: Infinity }], ['amount 2^53', { amount: UNSAFE }],
  ['price 0', { price: 0 }], ['price -30', { price: -30 }], ['price 30.5', { price: 30.5 }],
  ['price NaN', { price: Number.NaN }], ['price Infinity', { price: Infinity }], ['price 2^53', { price: UNSAFE }],
  ['iceberg > amount', { iceberg: 6 }], ['iceberg -1', { iceberg: -1 }], ['iceberg 1.5', { iceberg: 1.5 }],
  ['iceberg NaN', { iceberg: Number.NaN }],
  ['market GTC', { type: Market }], ['market POC', { type: Market, tif: Poc }],
  ['market iceberg', { type: Market, tif: Ioc, iceberg: 2 }],
  ['market amount 0', { type: Market, tif: Fok, amount: 0 }],
];

for (const [name, create] of BOOKS) {
  describe(`${name} rejections`, () => {
    describe('InvalidParam on place', () => {
      it.each(invalidPlaces)('rejects %s', (_label, patch) => {
        const d = seeded(create);
        expectRejected(d, ResultCode.InvalidParam, (x) => x.book.place(cmdWith(patch), x.out));
      });

      it('accepts the unmodified base command (the patches above are what breaks it)', () => {
        const d = seeded(create);
        expect(d.place(cmdWith({})).code).toBe(ResultCode.Ok);
      });
    });

    it('rejects stpAct without a group as StpWithoutGroup', () => {
      const d = seeded(create);
      for (const stpAct of [StpAct.CancelNew, StpAct.CancelOld, StpAct.CancelBoth]) {
        expectRejected(d, ResultCode.StpWithoutGroup, (x) => x.book.place(cmdWith({ stpAct }), x.out));
      }
    });

    it('rejects a limit order below the minimum lots as AmountTooLittle', () => {
      const d = seeded(create, BOUNDED);
      expectRejected(d, ResultCode.AmountTooLittle, (x) => x.book.place(cmdWith({ amount: 1, price: 20 }), x.out));
    });

    it('rejects a limit order above the maximum lots as AmountTooMuch', () => {
      const d = seeded(create, BOUNDED);
      expectRejected(d, ResultCode.AmountTooMuch, (x) => x.book.place(cmdWith({ amount: 101, price: 1 }), x.out));
    });

    it('rejects a limit order below the minimum notional as AmountTooLittle', () => {
      const d = seeded(create, BOUNDED);
      expectRejected(d, ResultCode.AmountTooLittle, (x) => x.book.place(cmdWith({ amount: 2, price: 4 }), x.out));
    });

    it('rejects a limit order above the maximum notional as AmountTooMuch', () => {
      const d = seeded(create, BOUNDED);
      expectRejected(d, ResultCode.AmountTooMuch, (x) => x.book.place(cmdWith({ amount: 100, price: 11 }), x.out));
    });

    it('checks a market buy budget against the notional bounds only', () => {
      const d = seeded(create, BOUNDED);
      const buy = (amount: number): Partial<PlaceOrder> => ({ type: Market, tif: Ioc, amount });
      expectRejected(d, ResultCode.AmountTooLittle, (x) => x.book.place(cmdWith(buy(9)), x.out));
      expectRejected(d, ResultCode.AmountTooMuch, (x) => x.book.place(cmdWith(buy(1001)), x.out));
      expect(d.place(cmdWith(buy(200))).code).toBe(ResultCode.Ok);
    });

    it('checks a market sell amount against the lot bounds', () => {
      const d = seeded(create, BOUNDED);
      const sell = (amount: number): Partial<PlaceOrder> => ({ type: Market, tif: Ioc, side: SELL, amount });
      expectRejected(d, ResultCode.AmountTooLittle, (x) => x.book.place(cmdWith(sell(1)), x.out));
      expectRejected(d, ResultCode.AmountTooMuch, (x) => x.book.place(cmdWith(sell(101)), x.out));
    });

    it('rejects a place whose id rests as DuplicateOrderId', () => {
      const d = seeded(create);
      expectRejected(d, ResultCode.DuplicateOrderId, (x) => x.book.place(cmdWith({ orderId: 2 }), x.out));
      expectRejected(d, ResultCode.DuplicateOrderId, (x) => x.book.place(cmdWith({ orderId: 3, side: SELL, price: 50 }), x.out));
    });

    it('rejects a place into a full book as BookFull', () => {
      const d = seeded(create, TEST, 3);
      expect(d.book.size).toBe(3);
      expectRejected(d, ResultCode.BookFull, (x) => x.book.place(cmdWith({}), x.out));
    });

    it('rejects cancel of an unknown order as OrderNotFound', () => {
      const d = seeded(create);
      expectRejected(d, ResultCode.OrderNotFound, (x) => x.book.cancel(4, x.out));
      expectRejected(d, ResultCode.OrderNotFound, (x) => x.book.cancel(77, x.out));
    });

    it('rejects amend of an unknown order as OrderNotFound', () => {
      const d = seeded(create);
      expectRejected(d, ResultCode.OrderNotFound, (x) => x.book.amend(77, 41, 0, x.out));
    });

    it('rejects malformed amend arguments as InvalidParam', () => {
      const d = seeded(create);
      for (const [p, a] of [[-1, 0], [0, -1], [40.5, 0], [0, 2.5], [Number.NaN, 0], [0, Number.NaN], [Infinity, 0], [0, UNSAFE]]) {
        expectRejected(d, ResultCode.InvalidParam, (x) => x.book.amend(1, p!, a!, x.out));
      }
    });

    it('rejects an amend that changes nothing as NoChange', () => {
      const d = seeded(create);
      expectRejected(d, ResultCode.NoChange, (x) => x.book.amend(1, 0, 0, x.out));
      expectRejected(d, ResultCode.NoChange, (x) => x.book.amend(1, 40, 10, x.out));
    });

    it('rejects an amend at or below the filled amount as AmendBelowFilled', () => {
      const d = seeded(create);
      // Order 1 (bid 10 @40) filled 4 against ask 4.
      expectRejected(d, ResultCode.AmendBelowFilled, (x) => x.book.amend(1, 0, 4, x.out));
      expectRejected(d, ResultCode.AmendBelowFilled, (x) => x.book.amend(1, 41, 3, x.out));
    });

    it('rejects an amend outside the bounds as AmountTooLittle / AmountTooMuch', () => {
      const d = seeded(create, BOUNDED);
      // Order 2 (bid 10 @39, nothing filled) in lots [2, 100], notional [10, 1000].
      expectRejected(d, ResultCode.AmountTooLittle, (x) => x.book.amend(2, 0, 1, x.out));
      expectRejected(d, ResultCode.AmountTooLittle, (x) => x.book.amend(1, 1, 5, x.out));
      expectRejected(d, ResultCode.AmountTooMuch, (x) => x.book.amend(2, 0, 101, x.out));
      expectRejected(d, ResultCode.AmountTooMuch, (x) => x.book.amend(2, 0, 30, x.out));
    });

    it('rejects moving a post-only order to a crossing price as PocWouldTake', () => {
      const d = seeded(create);
      expectRejected(d, ResultCode.PocWouldTake, (x) => x.book.amend(3, 40, 0, x.out));
      expectRejected(d, ResultCode.PocWouldTake, (x) => x.book.amend(3, 1, 0, x.out));
    });
  });
}

describe('codes from parsing decimal fields (the boundary before the book)', () => {
  it('answers InvalidPrecision for more decimals than the market allows', () => {
    expect(parsePrice(BTC_USDT, '1.001')).toBe(ResultCode.InvalidPrecision);
    expect(parseLots(BTC_USDT, '0.00001')).toBe(ResultCode.InvalidPrecision);
    expect(parseQuoteBudget(BTC_USDT, '5.555')).toBe(ResultCode.InvalidPrecision);
  });

  it('answers AmountTooMuch for values beyond exact integers', () => {
    expect(parsePrice(BTC_USDT, '99999999999999999')).toBe(ResultCode.AmountTooMuch);
    expect(parseLots(BTC_USDT, '9007199254740.9924')).toBe(ResultCode.AmountTooMuch);
    // Fits as quote units (10^-2) but not as notional units (10^-6).
    expect(parseQuoteBudget(BTC_USDT, '90071992547409')).toBe(ResultCode.AmountTooMuch);
  });

  it('answers InvalidParam for malformed, zero or negative values', () => {
    for (const text of ['', '0', '0.00', '-1', 'abc', '1e3', '.5', '5.', ' 1', undefined, 12]) {
      expect(parsePrice(BTC_USDT, text)).toBe(ResultCode.InvalidParam);
    }
  });
});
