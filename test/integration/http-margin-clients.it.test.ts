// Unchanged clients borrowing on isolated margin against the simulator: gate-api's MarginUniApi (pairs,
// borrowable, borrow, loans, records, repay) and MarginApi (accounts), and ccxt's borrowIsolatedMargin /
// repayIsolatedMargin (POST /margin/uni/loans with currency_pair).
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import { UNIFIED_CONFIG } from '../api/routes/unified-helpers.js';
import { ccxtGate as ccxtClient, gateApiClient as apiClient, rejection } from '../support/clients.js';

let sim: Simulator;
let uni: GateApi.MarginUniApi;
let margin: GateApi.MarginApi;

beforeAll(async () => {
  sim = await startSimulator(UNIFIED_CONFIG, { host: '127.0.0.1', port: 0 });
  const api = apiClient(sim.server.port, 'k1', 's1');
  uni = new GateApi.MarginUniApi(api);
  margin = new GateApi.MarginApi(api);
  const wallet = new GateApi.WalletApi(api);
  const t = new GateApi.Transfer();
  Object.assign(t, { currency: 'USDT', from: 'spot', to: 'margin', amount: '1000', currencyPair: 'BTC_USDT' });
  await wallet.transfer(t);
});
afterAll(async () => { await sim.close(); });

describe('gate-api MarginUniApi', () => {
  it('lists pairs, borrows, lists loans and records, and repays', async () => {
    const pair = (await uni.getUniCurrencyPair('BTC_USDT')).body;
    expect(pair).toMatchObject({ currencyPair: 'BTC_USDT', baseMinBorrowAmount: '0.0001', quoteMinBorrowAmount: '1', leverage: '5' });
    expect((await uni.listUniCurrencyPairs()).body.length).toBe(sim.gateway.exchange.markets.length);
    expect((await uni.getUniBorrowable('USDT', 'BTC_USDT')).body).toMatchObject({ currency: 'USDT', currencyPair: 'BTC_USDT', borrowable: '4000' });
    const req = new GateApi.CreateUniLoan();
    Object.assign(req, { currency: 'USDT', currencyPair: 'BTC_USDT', type: 'borrow', amount: '3000' });
    expect((await uni.createUniLoan(req)).response.status).toBe(204);
    const loans = (await uni.listUniLoans({ currencyPair: 'BTC_USDT' })).body;
    expect(loans).toHaveLength(1);
    expect(loans[0]).toMatchObject({ currency: 'USDT', currencyPair: 'BTC_USDT', amount: '3000', type: 'platform' });
    expect((await uni.listUniLoanRecords({ type: 'borrow' })).body[0]).toMatchObject({ type: 'borrow', currency: 'USDT', amount: '3000' });
    expect((await uni.listUniLoanInterestRecords({ currencyPair: 'BTC_USDT' })).body).toEqual([]);
    const acct = (await margin.listMarginAccounts({ currencyPair: 'BTC_USDT' })).body[0]!;
    expect(acct).toMatchObject({ currencyPair: 'BTC_USDT', risk: '1.33333333', locked: false, leverage: '5' });
    expect(acct.quote).toMatchObject({ available: '4000', borrowed: '3000' });
    Object.assign(req, { type: 'borrow', amount: '2000' });
    expect(await rejection(uni.createUniLoan(req))).toEqual([400, 'MARGIN_BALANCE_NOT_ENOUGH']);
    Object.assign(req, { type: 'repay', amount: '0', repaidAll: true });
    expect((await uni.createUniLoan(req)).response.status).toBe(204);
    expect((await uni.listUniLoans()).body).toEqual([]);
  });
});

describe('ccxt isolated margin loans', () => {
  it('borrows and repays with borrowIsolatedMargin / repayIsolatedMargin', async () => {
    const ex = ccxtClient(sim.server.port, 'k1', 's1');
    await ex.borrowIsolatedMargin('BTC/USDT', 'USDT', 500);
    const quote = (await margin.listMarginAccounts({ currencyPair: 'BTC_USDT' })).body[0]!.quote!;
    expect(quote).toMatchObject({ borrowed: '500', available: '1500' });
    await ex.repayIsolatedMargin('BTC/USDT', 'USDT', 500);
    expect((await margin.listMarginAccounts({ currencyPair: 'BTC_USDT' })).body[0]!.quote).toMatchObject({ borrowed: '0', available: '1000' });
  });
});
