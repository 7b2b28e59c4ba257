// Ledger configuration, users, funds movements, the account book and wide-currency arithmetic.
import { describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { BookType } from '../../../src/core/ledger/account-book.js';
import { feeOf } from '../../../src/core/ledger/amount.js';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { LedgerCode } from '../../../src/core/ledger/ledger-codes.js';
import { ConfigError } from '../../../src/core/invariant.js';
import { defineMarket } from '../../../src/core/market.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { makeLedger } from '../../support/ledger-fixtures.js';

const T = 1_700_000_000_000_000;
const { Spot, Margin, Futures } = AccountKind;

describe('currencies and markets', () => {
  it('classifies currencies as narrow or wide by max supply × 10^scale', () => {
    const l = makeLedger();
    expect(l.isWide('USDT')).toBe(false);
    expect(l.isWide('BTC')).toBe(false);
    expect(l.isWide('GT')).toBe(false);
    expect(l.isWide('ETH')).toBe(true);
    const m = new Ledger();
    m.registerCurrency({ code: 'USDC', scale: 6 }); // 10^11 × 10^6 > 2^53
    expect(m.isWide('USDC')).toBe(true);
  });

  it('rejects bad currency specs', () => {
    const l = new Ledger();
    l.registerCurrency({ code: 'BTC', scale: 8, maxSupply: '21000000' });
    expect(() => l.registerCurrency({ code: 'BTC', scale: 8 })).toThrow(ConfigError);
    expect(() => l.registerCurrency({ code: 'X', scale: 19 })).toThrow(ConfigError);
    expect(() => l.registerCurrency({ code: 'Y', scale: 2, maxSupply: '0' })).toThrow(ConfigError);
    expect(() => l.registerCurrency({ code: 'Z', scale: 2, maxSupply: '1.001' })).toThrow(ConfigError);
  });

  it('checks that lots and notional convert exactly into base and quote units', () => {
    const l = new Ledger();
    l.registerCurrency({ code: 'AAA', scale: 3 });
    l.registerCurrency({ code: 'QQQ', scale: 4 });
    const ok = defineMarket({ id: 'AAA_QQQ', base: 'AAA', quote: 'QQQ', precision: 2, amount_precision: 2 });
    expect(l.registerMarket(ok, 'AAA', 'QQQ')).toBe(0);
    expect(() => l.registerMarket(ok, 'AAA', 'QQQ')).toThrow(ConfigError);
    const fineLots = defineMarket({ id: 'AAA_QQQ', base: 'AAA', quote: 'QQQ', precision: 0, amount_precision: 4 });
    expect(() => new Ledger().registerMarket(fineLots, 'AAA', 'QQQ')).toThrow(ConfigError);
    const l2 = new Ledger();
    l2.registerCurrency({ code: 'AAA', scale: 3 });
    l2.registerCurrency({ code: 'QQQ', scale: 4 });
    expect(() => l2.registerMarket(fineLots, 'AAA', 'QQQ')).toThrow(/amount precision/);
    const fineNotional = defineMarket({ id: 'AAA_QQQ', base: 'AAA', quote: 'QQQ', precision: 3, amount_precision: 2 });
    expect(() => l2.registerMarket(fineNotional, 'AAA', 'QQQ')).toThrow(/price \+ amount precision/);
    expect(() => l2.registerMarket(ok, 'AAA', 'NOPE')).toThrow(ConfigError);
    expect(() => l2.registerMarket(ok, 'AAA', 'AAA')).toThrow(ConfigError);
  });
});

describe('users and sub-accounts', () => {
  it('adds main and sub accounts and refuses duplicates, unknown mains and nesting', () => {
    const l = makeLedger();
    expect(l.mainOf(6)).toBe(1);
    expect(l.mainOf(1)).toBe(0);
    expect(l.mainOf(42)).toBe(-1);
    const h = l.stateHash();
    expect(l.addUser(1)).toBe(LedgerCode.UserExists);
    expect(l.addUser(20, 99)).toBe(LedgerCode.MainUserNotFound);
    expect(l.addUser(20, 6)).toBe(LedgerCode.NestedSubAccount);
    expect(l.addUser(0)).toBe(ResultCode.InvalidParam);
    expect(l.addUser(2 ** 31)).toBe(ResultCode.InvalidParam);
    expect(l.stateHash()).toBe(h);
    expect(l.addUser(20, 3)).toBe(ResultCode.Ok);
    expect(l.mainOf(20)).toBe(3);
  });
});

describe('credit, debit, transfer', () => {
  it('credits and debits available funds and records external totals', () => {
    const l = makeLedger();
    expect(l.credit(T, 1, Spot, 0, 'USDT', 150_000_000, BookType.Deposit, 'd1')).toBe(ResultCode.Ok);
    expect(l.debit(T + 1, 1, Spot, 0, 'USDT', 50_000_000, BookType.Withdraw, 'w1')).toBe(ResultCode.Ok);
    expect(l.balanceText(1, Spot, 0, 'USDT')).toEqual({ currency: 'USDT', available: '1', locked: '0', borrowed: '0', interest: '0' });
    expect(l.supply('USDT')).toBe(100_000_000);
    const h = l.stateHash();
    expect(l.debit(T, 1, Spot, 0, 'USDT', 100_000_001, BookType.Withdraw, '')).toBe(LedgerCode.BalanceNotEnough);
    expect(l.debit(T, 2, Spot, 0, 'USDT', 1, BookType.Withdraw, '')).toBe(LedgerCode.BalanceNotEnough);
    expect(l.credit(T, 99, Spot, 0, 'USDT', 1, BookType.Deposit, '')).toBe(LedgerCode.UserNotFound);
    expect(l.credit(T, 1, Spot, 0, 'DOGE', 1, BookType.Deposit, '')).toBe(LedgerCode.CurrencyNotFound);
    expect(l.credit(T, 1, Spot, 0, 'USDT', 0, BookType.Deposit, '')).toBe(ResultCode.InvalidParam);
    expect(l.credit(T, 1, Spot, 0, 'USDT', 1.5, BookType.Deposit, '')).toBe(ResultCode.InvalidParam);
    expect(l.credit(T, 1, Spot, 3, 'USDT', 1, BookType.Deposit, '')).toBe(ResultCode.InvalidParam);
    expect(l.credit(T, 1, Margin, 4, 'USDT', 1, BookType.Deposit, '')).toBe(ResultCode.InvalidParam);
    expect(l.credit(T, 1, Spot, 0, 'USDT', 1, 99, '')).toBe(ResultCode.InvalidParam);
    expect(l.credit(-1, 1, Spot, 0, 'USDT', 1, BookType.Deposit, '')).toBe(ResultCode.InvalidParam);
    expect(l.stateHash()).toBe(h);
  });

  it('refuses credits beyond max supply (AmountTooMuch), which keeps narrow sums exact', () => {
    const l = makeLedger();
    const max = 21_000_000 * 1e8; // BTC max supply in satoshi
    expect(l.credit(T, 1, Spot, 0, 'BTC', max - 1, BookType.Deposit, '')).toBe(ResultCode.Ok);
    const h = l.stateHash();
    expect(l.credit(T, 2, Spot, 0, 'BTC', 2, BookType.Deposit, '')).toBe(ResultCode.AmountTooMuch);
    expect(l.credit(T, 2, Spot, 0, 'BTC', 2n ** 60n, BookType.Deposit, '')).toBe(ResultCode.AmountTooMuch);
    expect(l.stateHash()).toBe(h);
    expect(l.credit(T, 2, Spot, 0, 'BTC', 1, BookType.Deposit, '')).toBe(ResultCode.Ok);
    l.assertInvariants();
  });

  it('transfers between accounts of one user and between users', () => {
    const l = makeLedger();
    l.credit(T, 1, Spot, 0, 'BTC', 1000, BookType.Deposit, '');
    expect(l.transfer(T, 1, Spot, 0, 1, Margin, 0, 'BTC', 300, 'to margin')).toBe(ResultCode.Ok);
    expect(l.transfer(T, 1, Spot, 0, 6, Futures, 1, 'BTC', 200, 'to sub')).toBe(ResultCode.Ok);
    expect(l.balance(1, Spot, 0, 'BTC')?.available).toBe(500);
    expect(l.balance(1, Margin, 0, 'BTC')?.available).toBe(300);
    expect(l.balance(6, Futures, 1, 'BTC')?.available).toBe(200);
    const h = l.stateHash();
    expect(l.transfer(T, 1, Spot, 0, 1, Spot, 0, 'BTC', 1, '')).toBe(ResultCode.InvalidParam);
    expect(l.transfer(T, 1, Spot, 0, 2, Spot, 0, 'BTC', 501, '')).toBe(LedgerCode.BalanceNotEnough);
    expect(l.transfer(T, 1, Spot, 0, 77, Spot, 0, 'BTC', 1, '')).toBe(LedgerCode.UserNotFound);
    expect(l.stateHash()).toBe(h);
    expect(l.balances(1, Spot, 0).map((b) => b.currency)).toEqual(['BTC']);
    l.assertInvariants();
  });
});

describe('wide currencies', () => {
  it('keeps 18-decimal amounts exact far beyond 2^53 units', () => {
    const l = makeLedger();
    const huge = 12_345_678_901n * 10n ** 18n + 123_456_789_012_345_678n; // 12345678901.123456789012345678 ETH
    expect(l.credit(T, 1, Spot, 0, 'ETH', huge, BookType.Deposit, '')).toBe(ResultCode.Ok);
    expect(l.credit(T, 1, Spot, 0, 'ETH', 1, BookType.Deposit, '')).toBe(ResultCode.Ok);
    expect(l.debit(T, 1, Spot, 0, 'ETH', 10n ** 27n, BookType.Withdraw, '')).toBe(ResultCode.Ok);
    expect(l.balanceText(1, Spot, 0, 'ETH')?.available).toBe('11345678901.123456789012345679');
    expect(l.parse('ETH', '0.000000000000000001')).toBe(1n);
    expect(l.parse('ETH', '100000000000.5')).toBe(100_000_000_000_500_000_000_000_000_000n);
    expect(l.format('ETH', 10n ** 29n)).toBe('100000000000');
    expect(l.credit(T, 2, Spot, 0, 'ETH', 10n ** 29n, BookType.Deposit, '')).toBe(ResultCode.AmountTooMuch);
    l.assertInvariants();
  });

  it('computes fees exactly without overflow, narrow and wide', () => {
    expect(feeOf(Number.MAX_SAFE_INTEGER, 999_999)).toBe(Number((BigInt(Number.MAX_SAFE_INTEGER) * 999_999n) / 1_000_000n));
    expect(feeOf(999, 2000)).toBe(1);
    expect(feeOf(499, 2000)).toBe(0);
    expect(feeOf(10n ** 30n + 7n, 1)).toBe(10n ** 24n);
    expect(feeOf(123_456_789, 1_000_000)).toBe(123_456_789);
  });
});

describe('account book', () => {
  it('records changes with the total after each, newest first, with filters', () => {
    const l = makeLedger();
    l.credit(T, 1, Spot, 0, 'USDT', 250_000_000, BookType.Deposit, 'dep');
    l.credit(T + 5, 1, Spot, 0, 'BTC', 7, BookType.Deposit, 'dep');
    l.debit(T + 10, 1, Spot, 0, 'USDT', 50_000_000, BookType.Withdraw, 'wd');
    const all = l.accountBook(1);
    expect(all.map((e) => [e.id, e.currency, e.change, e.balance, e.type, e.text])).toEqual([
      [3, 'USDT', '-0.5', '2', 'withdraw', 'wd'],
      [2, 'BTC', '0.00000007', '0.00000007', 'deposit', 'dep'],
      [1, 'USDT', '2.5', '2.5', 'deposit', 'dep'],
    ]);
    expect(l.accountBook(1, { currency: 'USDT', limit: 1 }).map((e) => e.id)).toEqual([3]);
    expect(l.accountBook(1, { from: T + 1, to: T + 5 }).map((e) => e.id)).toEqual([2]);
    expect(l.accountBook(1, { type: BookType.Deposit }).length).toBe(2);
    expect(l.accountBook(2)).toEqual([]);
  });

  it('keeps only the newest accountBookCapacity entries', () => {
    const l = makeLedger({ accountBookCapacity: 3 });
    for (let i = 1; i <= 5; i++) l.credit(T + i, 1, Spot, 0, 'GT', i, BookType.Deposit, `n${i}`);
    expect(l.accountBook(1).map((e) => [e.id, e.text, e.balance])).toEqual([[5, 'n5', '0.15'], [4, 'n4', '0.1'], [3, 'n3', '0.06']]);
    const none = makeLedger({ accountBookCapacity: 0 });
    expect(none.credit(T, 1, Spot, 0, 'GT', 1, BookType.Deposit, '')).toBe(ResultCode.Ok);
    expect(none.accountBook(1)).toEqual([]);
  });
});
