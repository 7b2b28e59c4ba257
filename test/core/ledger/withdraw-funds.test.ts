// Withdrawal holds in the ledger and through exchange commands: hold, settle (fee to the platform), release,
// conservation, state hashes and snapshots.
import { describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../../src/core/command.js';
import { Exchange } from '../../../src/core/exchange/exchange.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { makeLedger } from '../../support/ledger-fixtures.js';

const T = 1_700_000_000_000_000;
const { Spot } = AccountKind;

function funded() {
  const l = makeLedger();
  expect(l.credit(T, 1, Spot, 0, 'USDT', 1000_00000000, 1, '')).toBe(ResultCode.Ok);
  expect(l.credit(T, 1, Spot, 0, 'ETH', 5n * 10n ** 18n, 1, '')).toBe(ResultCode.Ok);
  return l;
}

describe('withdrawal holds', () => {
  it('hold locks the amount (fee included); settle sends the rest out and pays the fee to the platform', () => {
    const l = funded();
    const usdt = l.currencyIndex('USDT');
    expect(l.holdWithdrawal(T, 7, 1, usdt, 101_00000000)).toBe(ResultCode.Ok);
    expect(l.balanceText(1, Spot, 0, 'USDT')).toMatchObject({ available: '899', locked: '101' });
    expect(l.heldForWithdrawal(7)).toBe(101_00000000);
    expect(l.heldFor(7)).toBeUndefined(); // order 7 has no hold: the key spaces are apart
    expect(l.withdrawalHoldCount).toBe(1);
    l.assertInvariants();
    expect(l.settleWithdrawal(T, 7, 1, 1_00000000)).toBe(ResultCode.Ok);
    expect(l.balanceText(1, Spot, 0, 'USDT')).toMatchObject({ available: '899', locked: '0' });
    expect(l.balanceText(0, Spot, 0, 'USDT')).toMatchObject({ available: '1' });
    expect(l.supply('USDT')).toBe(900_00000000);
    expect(l.withdrawalHoldCount).toBe(0);
    l.assertInvariants();
    const book = l.accountBook(1, { currency: 'USDT' });
    expect(book.slice(0, 2).map((e) => [e.type, e.change])).toEqual([['withdraw', '-101'], ['deposit', '1000']]);
    expect(l.accountBook(0, { currency: 'USDT' }).map((e) => [e.type, e.change])).toEqual([['system_fee', '1']]);
  });

  it('release returns the whole hold; rejections change nothing', () => {
    const l = funded();
    const usdt = l.currencyIndex('USDT');
    const before = l.stateHash();
    expect(l.holdWithdrawal(T, 1, 1, usdt, 2000_00000000)).toBe(ResultCode.BalanceNotEnough);
    expect(l.holdWithdrawal(T, 1, 99, usdt, 1)).toBe(ResultCode.UserNotFound);
    expect(l.holdWithdrawal(T, 0, 1, usdt, 1)).toBe(ResultCode.InvalidParam);
    expect(l.holdWithdrawal(T, 1, 1, 99, 1)).toBe(ResultCode.CurrencyNotFound);
    expect(l.releaseWithdrawal(T, 1, 1)).toBe(ResultCode.HoldNotFound);
    expect(l.stateHash()).toBe(before);
    expect(l.holdWithdrawal(T, 1, 1, usdt, 10_00000000)).toBe(ResultCode.Ok);
    expect(l.holdWithdrawal(T, 1, 1, usdt, 1)).toBe(ResultCode.HoldExists);
    expect(l.releaseWithdrawal(T, 1, 2)).toBe(ResultCode.HoldNotFound); // another user's
    expect(l.settleWithdrawal(T, 1, 1, 11_00000000)).toBe(ResultCode.HoldExceeded);
    expect(l.releaseWithdrawal(T, 1, 1)).toBe(ResultCode.Ok);
    expect(l.stateHash()).toBe(before);
  });

  it('works on wide currencies and survives export and import', () => {
    const l = funded();
    const eth = l.currencyIndex('ETH');
    expect(l.holdWithdrawal(T, 3, 1, eth, 2n * 10n ** 18n)).toBe(ResultCode.Ok);
    const copy = makeLedger();
    copy.importState(l.exportState());
    expect(copy.stateHash()).toBe(l.stateHash());
    copy.assertInvariants();
    expect(copy.settleWithdrawal(T, 3, 1, 10n ** 16n)).toBe(ResultCode.Ok);
    expect(copy.balanceText(1, Spot, 0, 'ETH')).toMatchObject({ available: '3', locked: '0' });
    expect(copy.balanceText(0, Spot, 0, 'ETH')).toMatchObject({ available: '0.01' });
    copy.assertInvariants();
  });
});

describe('withdrawal commands', () => {
  const def = {
    currencies: [{ code: 'USDT', scale: 6, maxSupply: '1000000000' }, { code: 'BTC', scale: 8, maxSupply: '21000000' }],
    markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4 }],
    users: [{ uid: 1 }, { uid: 2 }],
  };
  const cmd = (type: number, fields: Partial<Command>): Command => Object.assign(new Command(), { type, time: T }, fields);

  it('hold, settle and release through Exchange.pre keep conservation and invariants', () => {
    const ex = new Exchange(def);
    expect(ex.pre(cmd(CommandType.Credit, { uid: 1, kind: Spot, currency: 0, amount: 500_000000 }))).toBe(ResultCode.Ok);
    expect(ex.pre(cmd(CommandType.WithdrawHold, { uid: 1, orderId: 1, currency: 0, amount: 101_000000 }))).toBe(ResultCode.Ok);
    expect(ex.pre(cmd(CommandType.WithdrawHold, { uid: 1, orderId: 2, currency: 0, amount: 50_000000 }))).toBe(ResultCode.Ok);
    ex.assertInvariants();
    expect(ex.pre(cmd(CommandType.WithdrawSettle, { uid: 1, orderId: 1, currency: 0, amount: 1_000000 }))).toBe(ResultCode.Ok);
    expect(ex.pre(cmd(CommandType.WithdrawRelease, { uid: 2, orderId: 2 }))).toBe(ResultCode.HoldNotFound);
    expect(ex.pre(cmd(CommandType.WithdrawRelease, { uid: 1, orderId: 2 }))).toBe(ResultCode.Ok);
    expect(ex.pre(cmd(CommandType.WithdrawSettle, { uid: 1, orderId: 2, currency: 0, amount: 0 }))).toBe(ResultCode.HoldNotFound);
    ex.assertInvariants();
    // deposits in (500) − withdrawals out (100) = balances (399) + fees (1)
    expect(ex.ledger.balanceText(1, Spot, 0, 'USDT')).toMatchObject({ available: '399', locked: '0' });
    expect(ex.ledger.balanceText(0, Spot, 0, 'USDT')).toMatchObject({ available: '1' });
    expect(ex.ledger.supply('USDT')).toBe(400_000000);
  });

  it('the same commands give the same state hash', () => {
    const run = (): string => {
      const ex = new Exchange(def);
      ex.pre(cmd(CommandType.Credit, { uid: 1, kind: Spot, currency: 1, amount: 1_00000000 }));
      ex.pre(cmd(CommandType.WithdrawHold, { uid: 1, orderId: 5, currency: 1, amount: 50000000 }));
      return ex.stateHash([]);
    };
    expect(run()).toBe(run());
  });
});
