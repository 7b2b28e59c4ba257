// GET/PUT /unified/unified_mode, GET /unified/accounts and the borrowable/transferable/rate/risk queries over
// HTTP: shapes, figures from the ledger and the configured prices and tiers, labels, and nothing changed by a
// rejection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/main.js';
import { startSimulator } from '../../../src/main.js';
import { type Caller, caller, expectRejected, type J } from './funds-helpers.js';
import { U1, U_SUB, UNIFIED_CONFIG } from './unified-helpers.js';

let sim: Simulator;
let call: Caller;

beforeAll(async () => {
  sim = await startSimulator(UNIFIED_CONFIG, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
});
afterAll(async () => { await sim.close(); });

describe('unified mode', () => {
  it('starts classic, switches with 204, and keeps settings per mode', async () => {
    expect((await call('GET', '/unified/unified_mode', undefined, undefined, U1)).body)
      .toEqual({ mode: 'classic', settings: { usdt_futures: false, spot_hedge: false, use_funding: false, options: false } });
    const r = await call('PUT', '/unified/unified_mode', { mode: 'multi_currency', settings: { usdt_futures: true, options: true, spot_hedge: true } }, undefined, U1);
    expect(r.status).toBe(204);
    expect((await call('GET', '/unified/unified_mode', undefined, undefined, U1)).body)
      .toEqual({ mode: 'multi_currency', settings: { usdt_futures: true, spot_hedge: false, use_funding: false, options: true } });
  });

  it('rejects bad bodies, switching off multi_currency settings, and keys without the unified group', async () => {
    await expectRejected(sim, () => call('PUT', '/unified/unified_mode', { settings: {} }, undefined, U1), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => call('PUT', '/unified/unified_mode', { mode: 'cross' }, undefined, U1), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('PUT', '/unified/unified_mode', { mode: 'classic', settings: { options: 1 } }, undefined, U1), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('PUT', '/unified/unified_mode', { mode: 'multi_currency', settings: { options: false } }, undefined, U1), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/unified/unified_mode', undefined, undefined, ['wallet-only', 'ws']), 403, 'FORBIDDEN');
    await expectRejected(sim, () => call('GET', '/unified/accounts', undefined, undefined, ['wallet-only', 'ws']), 403, 'FORBIDDEN');
  });

  it('reports key.mode 2 in /account/detail for unified users', async () => {
    expect(((await call('GET', '/account/detail', undefined, undefined, U1)).body.key as J).mode).toBe(2);
    expect(((await call('GET', '/account/detail')).body.key as J).mode).toBe(1);
  });
});

describe('GET /unified/accounts', () => {
  it('computes section 2.11 from the ledger, index prices and discount tiers', async () => {
    const r = await call('GET', '/unified/accounts', undefined, undefined, U1);
    expect(r.status).toBe(200);
    const a = r.body;
    expect(a.user_id).toBe(10010);
    expect(a.mode).toBe('multi_currency');
    expect(typeof a.refresh_time).toBe('number');
    // 1 BTC at 50,000 (discount 0.9 up to 100,000 USD) + 10,000 USDT.
    expect(a.unified_account_total).toBe('60000');
    expect(a.unified_account_total_equity).toBe('60000');
    expect(a.unified_account_total_liab).toBe('0');
    expect(a.total_margin_balance).toBe('55000');
    expect(a.total_initial_margin).toBe('0');
    expect(a.total_available_margin).toBe('55000');
    expect(a.locked).toBe(false);
    const b = a.balances as Record<string, J>;
    expect(Object.keys(b).sort()).toEqual(['BTC', 'USDT']);
    expect(b.BTC).toMatchObject({ available: '1', freeze: '0', borrowed: '0', equity: '1', total_liab: '0', enabled_collateral: true });
    for (const k of ['negative_liab', 'futures_pos_liab', 'total_freeze', 'spot_in_use', 'funding', 'funding_version', 'cross_balance',
      'iso_balance', 'im', 'mm', 'imr', 'mmr', 'margin_balance', 'available_margin', 'balance_version']) expect(b.USDT, k).toHaveProperty(k);
    for (const k of ['total', 'borrowed', 'total_initial_margin_rate', 'total_maintenance_margin_rate', 'leverage', 'spot_order_loss',
      'options_order_loss', 'spot_hedge', 'use_funding', 'is_all_collateral']) expect(a, k).toHaveProperty(k);
  });

  it('filters by currency, reads a sub-account for its main account, and refuses other uids', async () => {
    const only = await call('GET', '/unified/accounts', undefined, 'currency=USDT', U1);
    expect(Object.keys(only.body.balances as J)).toEqual(['USDT']);
    const sub = await call('GET', '/unified/accounts', undefined, 'sub_uid=10011', U1);
    expect(sub.body.user_id).toBe(10011);
    expect((sub.body.balances as Record<string, J>).USDT!.available).toBe('500');
    expect(sub.body.total_margin_balance).toBe('0');
    await expectRejected(sim, () => call('GET', '/unified/accounts', undefined, 'sub_uid=10002', U1), 404, 'SUB_ACCOUNT_NOT_FOUND');
    await expectRejected(sim, () => call('GET', '/unified/accounts', undefined, 'sub_uid=10010', U_SUB), 404, 'SUB_ACCOUNT_NOT_FOUND');
    await expectRejected(sim, () => call('GET', '/unified/accounts', undefined, 'currency=XRP', U1), 400, 'INVALID_CURRENCY');
  });
});

describe('borrowable, transferable, rates, risk units, tiers', () => {
  it('answers the limits of the margin and the pool', async () => {
    // 55,000 USD of margin at imr 0.2 carries 275,000 USD: 5.5 BTC, capped by USDT's max_borrow and the BTC pool.
    expect((await call('GET', '/unified/borrowable', undefined, 'currency=BTC', U1)).body).toEqual({ currency: 'BTC', amount: '5.5' });
    expect((await call('GET', '/unified/borrowable', undefined, 'currency=USDT', U1)).body).toEqual({ currency: 'USDT', amount: '200000' });
    const batch = await call('GET', '/unified/batch_borrowable', undefined, 'currencies=BTC,ETH', U1);
    expect(batch.body).toEqual([{ currency: 'BTC', amount: '5.5' }, { currency: 'ETH', amount: '0' }]);
    expect((await call('GET', '/unified/borrowable', undefined, 'currency=USDT', U_SUB)).body).toEqual({ currency: 'USDT', amount: '0' });
    expect((await call('GET', '/unified/transferable', undefined, 'currency=USDT', U1)).body).toEqual({ currency: 'USDT', amount: '10000' });
    const many = await call('GET', '/unified/transferables', undefined, 'currencies=BTC,USDT', U1);
    expect(many.body).toEqual([{ currency: 'BTC', amount: '1' }, { currency: 'USDT', amount: '10000' }]);
    const eleven = Array.from({ length: 11 }, () => 'BTC').join(',');
    await expectRejected(sim, () => call('GET', '/unified/batch_borrowable', undefined, `currencies=${eleven}`, U1), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/unified/borrowable', undefined, undefined, U1), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => call('GET', '/unified/transferables', undefined, undefined, U1), 400, 'MISSING_REQUIRED_PARAM');
  });

  it('lists hourly rates, discount tiers, and risk units in portfolio mode only', async () => {
    expect((await call('GET', '/unified/estimate_rate', undefined, 'currencies=BTC,USDT,ETH', U1)).body)
      .toEqual({ BTC: '0.0001', USDT: '0.00002', ETH: '0.00001' });
    const tiers = (await call('GET', '/unified/currency_discount_tiers', undefined, undefined, U1)).body as unknown as J[];
    expect(tiers.find((t) => t.currency === 'BTC')!.discount_tiers).toEqual([
      { tier: '1', discount: '0.9', lower_limit: '0', upper_limit: '100000' },
      { tier: '2', discount: '0.5', lower_limit: '100000', upper_limit: '+' },
    ]);
    await expectRejected(sim, () => call('GET', '/unified/risk_units', undefined, undefined, U1), 400, 'INVALID_PARAM_VALUE');
    expect((await call('PUT', '/unified/unified_mode', { mode: 'portfolio', settings: { spot_hedge: true } }, undefined, U_SUB)).status).toBe(204);
    const ru = await call('GET', '/unified/risk_units', undefined, undefined, U_SUB);
    expect(ru.body).toEqual({ user_id: 10011, spot_hedge: true, risk_units: [
      { symbol: 'USDT', spot_in_use: '0', maintain_margin: '0', initial_margin: '0', delta: '500', gamma: '0', theta: '0', vega: '0' },
    ] });
  });
});
