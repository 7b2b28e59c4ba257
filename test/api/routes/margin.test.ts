// The margin routes that stay current (seed 4.7) over isolated-margin accounts funded by wallet transfers,
// and the retired paths, which answer NOT_FOUND like any unknown path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { startTestSimulator } from '../http-helpers.js';
import { type Caller, caller, expectRejected, type J } from './funds-helpers.js';

let sim: Simulator;
let call: Caller;

beforeAll(async () => {
  sim = await startTestSimulator();
  call = caller(sim);
  const t = await call('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'margin', amount: '250', currency_pair: 'BTC_USDT' });
  expect(t.status).toBe(200);
});
afterAll(async () => { await sim.close(); });

describe('margin routes', () => {
  it('lists isolated accounts in section 2.10\'s shape', async () => {
    const all = (await call('GET', '/margin/accounts')).body as unknown as J[];
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ currency_pair: 'BTC_USDT', locked: false,
      quote: { currency: 'USDT', available: '250', locked: '0', borrowed: '0', interest: '0' }, base: { currency: 'BTC', available: '0' } });
    expect((await call('GET', '/margin/accounts', undefined, 'currency_pair=ETH_USDT')).body).toEqual([]);
    await expectRejected(sim, () => call('GET', '/margin/accounts', undefined, 'currency_pair=XRP_USDT'), 400, 'INVALID_CURRENCY_PAIR');
  });

  it('lists the margin account book', async () => {
    const book = (await call('GET', '/margin/account_book', undefined, 'currency_pair=BTC_USDT')).body as unknown as J[];
    expect(book).toHaveLength(1);
    expect(book[0]).toMatchObject({ currency: 'USDT', currency_pair: 'BTC_USDT', change: '250', balance: '250', type: 'margin_in' });
    expect((await call('GET', '/margin/account_book', undefined, 'currency=BTC')).body).toEqual([]);
    await expectRejected(sim, () => call('GET', '/margin/account_book', undefined, 'type=nope'), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/margin/account_book', undefined, 'currency=XRP'), 400, 'INVALID_CURRENCY');
  });

  it('answers transferable, funding accounts and the auto-repay preference', async () => {
    expect((await call('GET', '/margin/transferable', undefined, 'currency=USDT&currency_pair=BTC_USDT')).body)
      .toEqual({ currency: 'USDT', currency_pair: 'BTC_USDT', amount: '250' });
    await expectRejected(sim, () => call('GET', '/margin/transferable', undefined, 'currency=ETH&currency_pair=BTC_USDT'), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/margin/transferable'), 400, 'MISSING_REQUIRED_PARAM');
    expect((await call('GET', '/margin/funding_accounts')).body).toEqual([]);
    expect((await call('GET', '/margin/auto_repay')).body).toEqual({ status: 'on' });
    expect((await call('POST', '/margin/auto_repay', undefined, 'status=off')).body).toEqual({ status: 'off' });
    expect((await call('GET', '/margin/auto_repay')).body).toEqual({ status: 'off' });
    await expectRejected(sim, () => call('POST', '/margin/auto_repay', undefined, 'status=maybe'), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/margin/accounts', undefined, undefined, ['wallet-only', 'ws']), 403, 'FORBIDDEN');
  });

  it('lists every pair on GET /margin/currency_pairs, and answers NOT_FOUND on the retired paths', async () => {
    const pairs = (await call('GET', '/margin/currency_pairs')).body as unknown as J[];
    expect(pairs.map((p) => [p.id, p.base, p.quote, p.leverage, p.status])).toEqual([['BTC_USDT', 'BTC', 'USDT', 5, 1], ['ETH_USDT', 'ETH', 'USDT', 5, 1]]);
    expect([typeof pairs[0]!.min_base_amount, typeof pairs[0]!.min_quote_amount]).toEqual(['string', 'string']);
    expect(pairs[0]).not.toHaveProperty('max_quote_amount');
    for (const [method, path] of [['GET', '/margin/currency_pairs/BTC_USDT'], ['POST', '/margin/loans'],
      ['GET', '/margin/loans'], ['GET', '/margin/loans/1'], ['POST', '/margin/loans/1/repayment'], ['GET', '/margin/borrowable'],
      ['GET', '/margin/loan_records'], ['GET', '/margin/funding_book'], ['POST', '/margin/merged_loans']] as const) {
      await expectRejected(sim, () => call(method, path), 404, 'NOT_FOUND');
    }
  });
});
