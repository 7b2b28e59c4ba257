// POST/GET /unified/loans, loan and interest records over HTTP: borrow and repay within the limits, the labels
// of each refusal (nothing changed), hourly interest in the simulated clock's time, mode switches refused with
// liabilities or open orders, conservation across every account, and the 15 per 10 s limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { plainFetch } from '../http-helpers.js';
import { type Caller, caller, expectConserved, expectRejected, type J } from './funds-helpers.js';
import { U1, UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;
const UIDS = [10001, 10002, 10003, 10010, 10011, 10012];

beforeAll(async () => {
  sim = await startSimulator({ ...UNIFIED_CONFIG, clock: { type: 'sim' } }, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
});
afterAll(async () => { await sim.close(); });

const loan = (body: J): Promise<{ status: number; body: J }> => call('POST', '/unified/loans', body, undefined, U1);

describe('unified loans', () => {
  it('refuses borrowing in classic mode and bad bodies', async () => {
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'borrow', amount: '100' }), 400, 'INVALID_PARAM_VALUE');
    expect((await call('PUT', '/unified/unified_mode', { mode: 'multi_currency' }, undefined, U1)).status).toBe(204);
    await expectRejected(sim, () => loan({ type: 'borrow', amount: '100' }), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'lend', amount: '100' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => loan({ currency: 'XRP', type: 'borrow', amount: '100' }), 400, 'INVALID_CURRENCY');
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'borrow', amount: '-1' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'borrow', amount: '1.000000000001' }), 400, 'INVALID_PRECISION'); // USDT has 11 decimals
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'borrow', amount: '0.5' }), 400, 'AMOUNT_TOO_LITTLE');
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'borrow', amount: '200001' }), 400, 'BORROW_TOO_LARGE');
    await expectRejected(sim, () => loan({ currency: 'BTC', type: 'borrow', amount: '5.6' }), 400, 'MARGIN_BALANCE_NOT_ENOUGH');
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'repay', amount: '1' }), 400, 'REPAY_TOO_MUCH');
    await expectRejected(sim, () => loan({ currency: 'USDT', type: 'borrow', amount: '10', text: 'bad text!' }), 400, 'INVALID_PARAM_VALUE');
  });

  it('borrows and repays, lists loans and records, and conserves every currency', async () => {
    const b = await loan({ currency: 'USDT', type: 'borrow', amount: '1000', text: 'first' });
    expect(b.status).toBe(200);
    expect(typeof b.body.tran_id).toBe('number');
    const acct = (await call('GET', '/unified/accounts', undefined, 'currency=USDT', U1)).body;
    expect((acct.balances as Record<string, J>).USDT).toMatchObject({ available: '11000', borrowed: '1000', equity: '10000', total_liab: '1000' });
    expect(acct.total_initial_margin).toBe('200');
    expect(acct.unified_account_total_liab).toBe('1000');
    expect(acct.borrowed).toBe('1000');
    const loans = (await call('GET', '/unified/loans', undefined, undefined, U1)).body as unknown as J[];
    expect(loans).toHaveLength(1);
    expect(loans[0]).toMatchObject({ currency: 'USDT', currency_pair: '', amount: '1000', type: 'margin' });
    expect((await call('GET', '/unified/loans', undefined, 'type=platform', U1)).body).toEqual([]);
    expect((await loan({ currency: 'USDT', type: 'repay', amount: '400' })).status).toBe(200);
    const records = (await call('GET', '/unified/loan_records', undefined, undefined, U1)).body as unknown as J[];
    expect(records.map((r) => [r.type, r.amount, r.repayment_type, r.borrow_type])).toEqual([
      ['repay', '400', 'manual_repay', undefined], ['borrow', '1000', 'none', 'manual_borrow']]);
    expect(records[1]!.id).toBe(b.body.tran_id);
    const borrows = (await call('GET', '/unified/loan_records', undefined, 'type=borrow&limit=1', U1)).body as unknown as J[];
    expect(borrows).toHaveLength(1);
    await expectRejected(sim, () => call('GET', '/unified/loan_records', undefined, 'limit=101', U1), 400, 'INVALID_PARAM_VALUE');
    expectConserved(sim, UIDS);
  });

  it('refuses mode switches while owing or with open orders', async () => {
    await expectRejected(sim, () => call('PUT', '/unified/unified_mode', { mode: 'classic' }, undefined, U1), 400, 'USER_LIAB');
    await expectRejected(sim, () => call('PUT', '/unified/unified_mode', { mode: 'single_currency' }, undefined, U1), 400, 'USER_LIAB');
    const order = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.1', price: '90000' }, undefined, U1);
    expect(order.status).toBe(201);
    await expectRejected(sim, () => call('PUT', '/unified/unified_mode', { mode: 'portfolio' }, undefined, U1), 400, 'USER_PENDING_ORDERS');
    expect((await call('DELETE', `/spot/orders/${order.body.id as string}`, undefined, 'currency_pair=BTC_USDT', U1)).status).toBe(200);
  });

  it('charges interest every hour of the simulated clock', async () => {
    const adv = await plainFetch(sim.server.port, '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance_ms: 2 * 3_600_000 }) });
    expect(adv.status).toBe(200);
    const recs = (await call('GET', '/unified/interest_records', undefined, undefined, U1)).body as unknown as J[];
    expect(recs.length).toBeGreaterThanOrEqual(1);
    const total = recs.reduce((s, r) => s + Number(r.interest), 0);
    // 600 USDT owed × 0.00002 per hour, for the two (or, across an hour boundary, three) hours that passed.
    expect([0.024, 0.036]).toContain(Math.round(total * 1e6) / 1e6);
    expect(recs[0]).toMatchObject({ currency: 'USDT', currency_pair: '', actual_rate: '0.00002', status: 1, type: 'margin' });
    expect((await call('GET', '/unified/interest_records', undefined, 'type=platform', U1)).body).toEqual([]);
    expect((await call('GET', '/unified/interest_records', undefined, 'currency=BTC', U1)).body).toEqual([]);
    const all = await loan({ currency: 'USDT', type: 'repay', amount: '0', repaid_all: true });
    expect(all.status).toBe(200);
    expect((await call('GET', '/unified/loans', undefined, undefined, U1)).body).toEqual([]);
    expect((await call('PUT', '/unified/unified_mode', { mode: 'classic' }, undefined, U1)).status).toBe(204);
    expectConserved(sim, UIDS);
  });
});

describe('POST /unified/loans rate', () => {
  it('allows 15 per 10 s', async () => {
    const limited = await startSimulator({ ...UNIFIED_CONFIG, rate_limits: true }, { host: '127.0.0.1', port: 0 });
    try {
      const c = caller(limited);
      const labels: string[] = [];
      for (let i = 0; i < 16; i++) labels.push(String((await c('POST', '/unified/loans', { currency: 'USDT', type: 'repay', amount: '1' }, undefined, U1)).body.label));
      expect(labels.slice(0, 15).every((l) => l === 'REPAY_TOO_MUCH')).toBe(true);
      expect(labels[15]).toBe('TOO_MANY_REQUESTS');
    } finally {
      await limited.close();
    }
  });
});
