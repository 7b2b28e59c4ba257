// Unchanged clients in unified mode against the simulator: gate-api's UnifiedApi (mode, accounts, loans,
// records, borrowable, transferable, rates, tiers) and ccxt with `unifiedAccount` (fetchBalance reading
// /unified/accounts, createOrder with account=unified and automatic borrowing).
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import { UNIFIED_CONFIG } from '../api/routes/unified-helpers.js';
import { ccxtGate as ccxtClient, gateApiClient as apiClient, rejection } from '../support/clients.js';

let sim: Simulator;
let unified: GateApi.UnifiedApi;

beforeAll(async () => {
  sim = await startSimulator(UNIFIED_CONFIG, { host: '127.0.0.1', port: 0 });
  unified = new GateApi.UnifiedApi(apiClient(sim.server.port, 'u1', 'us1'));
});
afterAll(async () => { await sim.close(); });

describe('gate-api UnifiedApi', () => {
  it('switches mode and reads the account', async () => {
    expect((await unified.getUnifiedMode()).body.mode).toBe('classic');
    const set = Object.assign(new GateApi.UnifiedModeSet(), { mode: 'multi_currency', settings: Object.assign(new GateApi.UnifiedSettings(), { usdtFutures: true }) });
    expect((await unified.setUnifiedMode(set)).response.status).toBe(204);
    const mode = (await unified.getUnifiedMode()).body;
    expect(mode.mode).toBe('multi_currency');
    expect(mode.settings?.usdtFutures).toBe(true);
    const acct = (await unified.listUnifiedAccounts()).body;
    expect(acct.mode).toBe('multi_currency');
    expect(acct.userId).toBe(10010);
    expect(acct.unifiedAccountTotal).toBe('60000');
    expect(acct.totalMarginBalance).toBe('55000');
    expect(acct.balances?.BTC?.available).toBe('1');
    expect(acct.balances?.USDT?.equity).toBe('10000');
  });

  it('borrows, repays and lists loans, records and limits', async () => {
    expect((await unified.getUnifiedBorrowable('BTC')).body).toMatchObject({ currency: 'BTC', amount: '5.5' });
    expect((await unified.getUnifiedBorrowableList(['BTC', 'USDT'])).body.map((b) => b.amount)).toEqual(['5.5', '200000']);
    expect((await unified.getUnifiedTransferable('USDT')).body.amount).toBe('10000');
    expect((await unified.getUnifiedTransferables('BTC,USDT')).body.map((b) => b.currency)).toEqual(['BTC', 'USDT']);
    const loan = Object.assign(new GateApi.UnifiedLoan(), { currency: 'USDT', type: 'borrow', amount: '2500', text: 'bot-1' });
    const tran = (await unified.createUnifiedLoan(loan)).body;
    expect(Number(tran.tranId)).toBeGreaterThan(0);
    const loans = (await unified.listUnifiedLoans({ currency: 'USDT' })).body;
    expect(loans.map((l) => [l.currency, l.amount, l.type])).toEqual([['USDT', '2500', 'margin']]);
    const repay = Object.assign(new GateApi.UnifiedLoan(), { currency: 'USDT', type: 'repay', amount: '0', repaidAll: true });
    await unified.createUnifiedLoan(repay);
    const records = (await unified.listUnifiedLoanRecords({ currency: 'USDT' })).body;
    expect(records.map((r) => [r.type, r.amount])).toEqual([['repay', '2500'], ['borrow', '2500']]);
    expect((await unified.listUnifiedLoanInterestRecords({})).body).toEqual([]);
    expect((await unified.getUnifiedEstimateRate(['USDT', 'BTC'])).body).toEqual({ USDT: '0.00002', BTC: '0.0001' });
    expect((await unified.listCurrencyDiscountTiers()).body.map((t) => t.currency)).toContain('BTC');
    expect(await rejection(unified.getUnifiedRiskUnits())).toEqual([400, 'INVALID_PARAM_VALUE']);
    const tooMuch = Object.assign(new GateApi.UnifiedLoan(), { currency: 'USDT', type: 'repay', amount: '1' });
    expect(await rejection(unified.createUnifiedLoan(tooMuch))).toEqual([400, 'REPAY_TOO_MUCH']);
  });
});

describe('ccxt in unified mode', () => {
  it('reads balances from /unified/accounts and places account=unified orders that borrow', async () => {
    const gate = ccxtClient(sim.server.port, 'u1', 'us1');
    await gate.loadMarkets();
    expect(await gate.loadUnifiedStatus()).toBe(true);
    const before = await gate.fetchBalance({ unifiedAccount: true });
    expect(before.USDT?.free).toBe(10000);
    expect(before.BTC?.total).toBe(1);
    const order = await gate.createOrder('BTC/USDT', 'limit', 'buy', 0.4, 50000, { unifiedAccount: true });
    expect(order.status).toBe('open');
    const after = await gate.fetchBalance({ unifiedAccount: true });
    expect(after.USDT?.used).toBe(20000);
    expect(after.USDT?.debt ?? Number((after.info as { balances: Record<string, { borrowed: string }> }).balances.USDT!.borrowed)).toBe(10000);
    await gate.cancelOrder(order.id!, 'BTC/USDT', { unifiedAccount: true });
  });
});
