// Order holds (R1), settlement with fees (R2), price improvement, resizes, releases and rejections.
import { beforeEach, describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { BookType } from '../../../src/core/ledger/account-book.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { LedgerCode } from '../../../src/core/ledger/ledger-codes.js';
import { OrderType, Side } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { makeLedger } from '../../support/ledger-fixtures.js';

const T = 1_700_000_000_000_000;
const { Spot } = AccountKind;
const { Buy, Sell } = Side;
const { Limit, Market } = OrderType;
/** Market indices of the fixtures. */
const BTC_USDT = 0;
const GT_ETH = 3;

let l: Ledger;
const text = (uid: number, cur: string): string => {
  const b = l.balanceText(uid, Spot, 0, cur)!;
  return `${b.available}/${b.locked}`;
};

beforeEach(() => {
  l = makeLedger();
  l.credit(T, 1, Spot, 0, 'USDT', 100_000 * 1e8, BookType.Deposit, ''); // 100000 USDT
  l.credit(T, 2, Spot, 0, 'BTC', 10 * 1e8, BookType.Deposit, ''); // 10 BTC
});

describe('holds', () => {
  it('holds price × amount for a limit buy, lots for sells, the budget for a market buy', () => {
    // BTC_USDT: price 2 decimals, amount 4 → notional 6 decimals; USDT and BTC have 8.
    expect(l.holdOrder(T, 1, 1, BTC_USDT, Buy, Limit, 6_000_000, 5000)).toBe(ResultCode.Ok); // 0.5 BTC at 60000
    expect(l.heldFor(1)).toBe(30_000 * 1e8);
    expect(l.holdOrder(T, 2, 1, BTC_USDT, Buy, Market, 0, 1000 * 100 * 10_000)).toBe(ResultCode.Ok); // 1000 USDT budget
    expect(l.heldFor(2)).toBe(1000 * 1e8);
    expect(l.holdOrder(T, 3, 2, BTC_USDT, Sell, Limit, 5_900_000, 5000)).toBe(ResultCode.Ok);
    expect(l.heldFor(3)).toBe(0.5 * 1e8);
    expect(l.holdOrder(T, 4, 2, BTC_USDT, Sell, Market, 0, 1000)).toBe(ResultCode.Ok);
    expect(l.heldFor(4)).toBe(0.1 * 1e8);
    expect(text(1, 'USDT')).toBe('69000/31000');
    expect(text(2, 'BTC')).toBe('9.4/0.6');
    expect(l.holdCount).toBe(4);
    l.assertInvariants();
  });

  it('rejects without changing anything', () => {
    l.holdOrder(T, 1, 1, BTC_USDT, Buy, Limit, 6_000_000, 5000);
    const h = l.stateHash();
    const cases: [number, number][] = [
      [l.holdOrder(T, 2, 1, BTC_USDT, Buy, Limit, 6_000_000, 200_000), LedgerCode.BalanceNotEnough],
      [l.holdOrder(T, 2, 3, BTC_USDT, Sell, Limit, 6_000_000, 1), LedgerCode.BalanceNotEnough],
      [l.holdOrder(T, 2, 99, BTC_USDT, Buy, Limit, 6_000_000, 1), LedgerCode.UserNotFound],
      [l.holdOrder(T, 1, 1, BTC_USDT, Buy, Limit, 6_000_000, 1), LedgerCode.HoldExists],
      [l.holdOrder(T, 2, 1, 9, Buy, Limit, 6_000_000, 1), ResultCode.InvalidMarket],
      [l.holdOrder(T, 2, 1, BTC_USDT, 3, Limit, 6_000_000, 1), ResultCode.InvalidParam],
      [l.holdOrder(T, 2, 1, BTC_USDT, Buy, Limit, 0, 1), ResultCode.InvalidParam],
      [l.holdOrder(T, 0, 1, BTC_USDT, Buy, Limit, 1, 1), ResultCode.InvalidParam],
      [l.holdOrder(T, 2, 1, BTC_USDT, Buy, Limit, 2 ** 40, 2 ** 20), ResultCode.AmountTooMuch],
      [l.holdOrder(T, 2, 2, BTC_USDT, Sell, Market, 0, 2 ** 50), ResultCode.AmountTooMuch],
      [l.releaseOrder(T, 77), LedgerCode.HoldNotFound],
      [l.resizeHold(T, 77, 1), LedgerCode.HoldNotFound],
      [l.resizeHold(T, 1, -1), ResultCode.InvalidParam],
      [l.resizeHold(T, 1, 100_001 * 1e8), LedgerCode.BalanceNotEnough],
      [l.resizeHold(T, 1, 2n ** 60n), ResultCode.AmountTooMuch],
    ];
    for (const [got, want] of cases) expect(got).toBe(want);
    expect(l.stateHash()).toBe(h);
    l.assertInvariants();
  });

  it('resizes a hold up (from available) and down (back to available)', () => {
    l.holdOrder(T, 1, 1, BTC_USDT, Buy, Limit, 6_000_000, 5000);
    expect(l.resizeHold(T, 1, l.holdUnits(BTC_USDT, Buy, Limit, 6_100_000, 5000))).toBe(ResultCode.Ok);
    expect(text(1, 'USDT')).toBe('69500/30500');
    expect(l.resizeHold(T, 1, l.holdUnits(BTC_USDT, Buy, Limit, 6_100_000, 1000))).toBe(ResultCode.Ok);
    expect(text(1, 'USDT')).toBe('93900/6100');
    expect(l.resizeHold(T, 1, 0)).toBe(ResultCode.Ok);
    expect(text(1, 'USDT')).toBe('100000/0');
    expect(l.holdCount).toBe(1);
    l.assertInvariants();
  });
});

describe('settlement', () => {
  it('settles a taker buy below its limit; release returns the price improvement', () => {
    l.holdOrder(T, 10, 1, BTC_USDT, Buy, Limit, 6_000_000, 5000); // 30000 USDT held
    l.holdOrder(T, 11, 2, BTC_USDT, Sell, Limit, 5_900_000, 5000); // 0.5 BTC held
    // 0.3 BTC at 59000: 17700 USDT; taker fee 0.2 %, maker fee 0.1 %.
    expect(l.settleFill(T + 1, BTC_USDT, 10, 11, Buy, 5_900_000, 3000, 2000, 1000)).toBe(ResultCode.Ok);
    expect(text(1, 'USDT')).toBe('70000/12300');
    expect(text(1, 'BTC')).toBe('0.2994/0');
    expect(text(2, 'BTC')).toBe('9.5/0.2');
    expect(text(2, 'USDT')).toBe('17682.3/0');
    expect(text(0, 'BTC')).toBe('0.0006/0');
    expect(text(0, 'USDT')).toBe('17.7/0');
    l.assertInvariants();
    expect(l.releaseOrder(T + 2, 10)).toBe(ResultCode.Ok);
    expect(text(1, 'USDT')).toBe('82300/0'); // 2000 lots × 60000 = 12000 still needed, 300 improvement
    expect(l.releaseOrder(T + 2, 11)).toBe(ResultCode.Ok);
    expect(text(2, 'BTC')).toBe('9.7/0');
    expect(l.holdCount).toBe(0);
    expect(l.accountBook(1).map((e) => [e.currency, e.change, e.balance, e.type, e.text])).toEqual([
      ['BTC', '-0.0006', '0.2994', 'order_fee', '10'],
      ['BTC', '0.3', '0.3', 'order_fill', '10'],
      ['USDT', '-17700', '82300', 'order_fill', '10'],
      ['USDT', '100000', '100000', 'deposit', ''],
    ]);
    expect(l.accountBook(0).map((e) => [e.currency, e.change, e.type])).toEqual([['USDT', '17.7', 'system_fee'], ['BTC', '0.0006', 'system_fee']]);
    l.assertInvariants();
  });

  it('settles a taker sell against a maker buy and rounds fees down', () => {
    l.holdOrder(T, 20, 1, BTC_USDT, Buy, Limit, 6_000_001, 10); // maker buy at 60000.01
    l.holdOrder(T, 21, 2, BTC_USDT, Sell, Market, 0, 10);
    // 1 lot (0.0001 BTC = 10000 sat) at 60000.01 = 6.000001 USDT.
    expect(l.settleFill(T, BTC_USDT, 21, 20, Sell, 6_000_001, 1, 2000, 1234)).toBe(ResultCode.Ok);
    // Seller: 6.000001 × 0.002 = 0.012000002 → 0.012 (floor at 8 decimals). Buyer: 10000 sat × 0.001234 = 12.34 → 12 sat.
    expect(text(2, 'USDT')).toBe('5.988001/0');
    expect(text(1, 'BTC')).toBe('0.00009988/0');
    expect(text(0, 'USDT')).toBe('0.012/0');
    expect(text(0, 'BTC')).toBe('0.00000012/0');
    l.assertInvariants();
  });

  it('settles a market buy against its quote budget and returns the unspent rest', () => {
    l.holdOrder(T, 30, 1, BTC_USDT, Buy, Market, 0, 1000 * 100 * 10_000); // 1000 USDT
    l.holdOrder(T, 31, 2, BTC_USDT, Sell, Limit, 5_900_000, 1000);
    expect(l.settleFill(T, BTC_USDT, 30, 31, Buy, 5_900_000, 100, 0, 0)).toBe(ResultCode.Ok); // 590 USDT
    expect(l.heldFor(30)).toBe(410 * 1e8);
    const h = l.stateHash();
    expect(l.settleFill(T, BTC_USDT, 30, 31, Buy, 5_900_000, 70, 0, 0)).toBe(LedgerCode.HoldExceeded); // 413 > 410
    expect(l.stateHash()).toBe(h);
    expect(l.releaseOrder(T, 30)).toBe(ResultCode.Ok);
    expect(text(1, 'USDT')).toBe('99410/0');
    expect(text(1, 'BTC')).toBe('0.01/0');
    l.assertInvariants();
  });

  it('rejects bad fills without changing anything', () => {
    l.credit(T, 2, Spot, 0, 'USDT', 1000 * 1e8, BookType.Deposit, '');
    l.holdOrder(T, 1, 1, BTC_USDT, Buy, Limit, 6_000_000, 100);
    l.holdOrder(T, 2, 2, BTC_USDT, Sell, Limit, 6_000_000, 100);
    l.holdOrder(T, 3, 2, BTC_USDT, Buy, Limit, 6_000_000, 1);
    const h = l.stateHash();
    const cases: [number, number][] = [
      [l.settleFill(T, BTC_USDT, 1, 9, Buy, 6_000_000, 1, 0, 0), LedgerCode.HoldNotFound],
      [l.settleFill(T, BTC_USDT, 1, 3, Buy, 6_000_000, 1, 0, 0), LedgerCode.HoldMismatch],
      [l.settleFill(T, BTC_USDT, 1, 2, Sell, 6_000_000, 1, 0, 0), LedgerCode.HoldMismatch],
      [l.settleFill(T, 1, 1, 2, Buy, 6_000_000, 1, 0, 0), LedgerCode.HoldMismatch],
      [l.settleFill(T, BTC_USDT, 1, 2, Buy, 6_000_000, 101, 0, 0), LedgerCode.HoldExceeded],
      [l.settleFill(T, BTC_USDT, 1, 2, Buy, 6_000_001, 100, 0, 0), LedgerCode.HoldExceeded],
      [l.settleFill(T, BTC_USDT, 1, 1, Buy, 6_000_000, 1, 0, 0), ResultCode.InvalidParam],
      [l.settleFill(T, BTC_USDT, 1, 2, Buy, 6_000_000, 1, 1_000_001, 0), ResultCode.InvalidParam],
      [l.settleFill(T, BTC_USDT, 1, 2, Buy, 6_000_000, 0, 0, 0), ResultCode.InvalidParam],
      [l.settleFill(T, BTC_USDT, 1, 2, Buy, 2 ** 40, 2 ** 20, 0, 0), ResultCode.AmountTooMuch],
      [l.settleFill(T, 8, 1, 2, Buy, 6_000_000, 1, 0, 0), ResultCode.InvalidMarket],
    ];
    for (const [got, want] of cases) expect(got).toBe(want);
    expect(l.stateHash()).toBe(h);
  });

  it('settles exactly in a wide quote currency (18 decimals)', () => {
    l.credit(T, 3, Spot, 0, 'ETH', 5n * 10n ** 18n, BookType.Deposit, '');
    l.credit(T, 4, Spot, 0, 'GT', 1_000_000, BookType.Deposit, ''); // 10000 GT
    // GT_ETH: price 6 decimals, amount 2 → notional 8 decimals; ETH has 18.
    expect(l.holdOrder(T, 40, 3, GT_ETH, Buy, Limit, 3_001, 123_456)).toBe(ResultCode.Ok); // 1234.56 GT at 0.003001
    expect(l.heldFor(40)).toBe(3_001n * 123_456n * 10n ** 10n);
    expect(l.holdOrder(T, 41, 4, GT_ETH, Sell, Limit, 2_999, 200_000)).toBe(ResultCode.Ok);
    expect(l.settleFill(T, GT_ETH, 41, 40, Sell, 3_001, 123_456, 333, 777)).toBe(ResultCode.Ok);
    // Seller receives 3.704914560000000000 ETH less 333 ppm: fee 0.00123373654848 ETH.
    expect(text(4, 'ETH')).toBe('3.70368082345152/0');
    expect(text(0, 'ETH')).toBe('0.00123373654848/0');
    // Buyer receives 123456 GT cents less 777 ppm = 95.92 → 95 cents.
    expect(text(3, 'GT')).toBe('1233.61/0');
    expect(text(3, 'ETH')).toBe('1.29508544/0');
    expect(l.releaseOrder(T, 41)).toBe(ResultCode.Ok);
    expect(text(4, 'GT')).toBe('8765.44/0');
    l.assertInvariants();
  });
});

describe('conservation', () => {
  it('counts the fee account and the lending pool in every currency\'s total, and names them', () => {
    l.credit(T, 0, AccountKind.Unified, 0, 'USDT', 1_000 * 1e8, BookType.Deposit, ''); // the lending pool's funds
    expect(l.borrow(T, 2, 0, 250n * 10n ** 8n)).toBe(ResultCode.Ok);
    l.holdOrder(T, 10, 1, BTC_USDT, Buy, Limit, 6_000_000, 5000);
    l.holdOrder(T, 11, 2, BTC_USDT, Sell, Limit, 5_900_000, 5000);
    expect(l.settleFill(T + 1, BTC_USDT, 10, 11, Buy, 5_900_000, 3000, 2000, 1000)).toBe(ResultCode.Ok);
    expect(l.debit(T + 2, 1, Spot, 0, 'USDT', 100 * 1e8, BookType.Withdraw, '')).toBe(ResultCode.Ok);
    const byCode = Object.fromEntries(l.conservation().map((c) => [c.currency, c]));
    expect(byCode.USDT).toEqual({ currency: 'USDT', accounts: 100_900 * 1e8, feeAccount: 1_770_000_000, lendingPool: 750 * 1e8,
      insuranceFund: 0, clearing: 0n, credits: 101_000n * 10n ** 8n, debits: 100n * 10n ** 8n });
    expect(byCode.BTC).toEqual({ currency: 'BTC', accounts: 10 * 1e8, feeAccount: 60_000, lendingPool: 0,
      insuranceFund: 0, clearing: 0n, credits: 10n * 10n ** 8n, debits: 0n });
    for (const c of l.conservation()) expect(BigInt(c.accounts) + c.clearing).toBe(c.credits - c.debits);
    l.assertInvariants();
  });
});
