// Lending without a `unified` section: every currency gets the documented default pool (1,000,000 units), so a
// user of a config that never mentions lending can borrow in multi_currency mode, on isolated margin and on
// cross margin; `"lendable": "0"` still switches a currency's lending off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import { definitionFromConfig } from '../../src/sim/sim-config.js';
import { defaultLendable } from '../../src/sim/unified-config.js';
import { TEST_CONFIG } from '../api/http-helpers.js';
import { type Caller, caller, type J } from '../api/routes/funds-helpers.js';

const BORROWER = { uid: 10010, keys: [{ key: 'b1', secret: 'bs1' }], balances: { spot: { USDT: '1000' } } };
const KEY: [string, string] = ['b1', 'bs1'];
let sim: Simulator;
let call: Caller;

beforeAll(async () => {
  expect(TEST_CONFIG.unified).toBeUndefined();
  sim = await startSimulator({ ...TEST_CONFIG, users: [...TEST_CONFIG.users!, BORROWER] }, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
});
afterAll(async () => { await sim.close(); });

describe('default lending pools', () => {
  it('fill every currency the config leaves out, capped at a tenth of its max supply', () => {
    const { definition, balances } = definitionFromConfig(TEST_CONFIG);
    expect(definition.unified?.currencies).toEqual({ BTC: { lendable: '1000000' }, USDT: { lendable: '1000000' }, ETH: { lendable: '1000000' } });
    expect(balances.filter((b) => b.uid === 0)).toEqual(['BTC', 'USDT', 'ETH'].map((currency) => ({ uid: 0, account: 'unified', currency, amount: '1000000' })));
    expect(defaultLendable({ code: 'X', scale: 12 })).toBe('1000000');
    expect(defaultLendable({ code: 'X', scale: 12, maxSupply: '9007.199254740991' })).toBe('900.719925474099');
    expect(defaultLendable({ code: 'Y', scale: 2, maxSupply: '100' })).toBe('10');
    expect(defaultLendable({ code: 'Y', scale: 2, maxSupply: '100' }, 9_500n)).toBe('5');
    expect(defaultLendable({ code: 'Y', scale: 2, maxSupply: '100' }, 10_000n)).toBe('0');
    const off = definitionFromConfig({ ...TEST_CONFIG, unified: { currencies: { ETH: { lendable: '0', hourly_rate: '0.0001' } } } });
    expect(off.definition.unified?.currencies?.ETH).toEqual({ lendable: '0', hourly_rate: '0.0001' });
    expect(off.balances.filter((b) => b.uid === 0).map((b) => b.currency)).toEqual(['BTC', 'USDT']);
  });

  it('let a multi_currency user borrow and an order borrow its shortfall', async () => {
    expect((await call('PUT', '/unified/unified_mode', { mode: 'multi_currency' }, undefined, KEY)).status).toBe(204);
    const borrowable = await call('GET', '/unified/borrowable', undefined, 'currency=USDT', KEY);
    expect(borrowable.body).toMatchObject({ currency: 'USDT', amount: '5000' });
    const order = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.02', price: '90000', account: 'unified' }, undefined, KEY);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const usdt = ((await call('GET', '/unified/accounts', undefined, 'currency=USDT', KEY)).body.balances as Record<string, J>).USDT;
    expect(usdt).toMatchObject({ available: '0', freeze: '1800', borrowed: '800' });
    expect((await call('DELETE', `/spot/orders/${order.body.id as string}`, undefined, 'currency_pair=BTC_USDT', KEY)).status).toBe(200);
    expect((await call('POST', '/unified/loans', { currency: 'USDT', type: 'repay', amount: '0', repaid_all: true }, undefined, KEY)).status).toBe(200);
    expect((await call('PUT', '/unified/unified_mode', { mode: 'classic' }, undefined, KEY)).status).toBe(204);
  });

  it('let isolated and cross margin accounts borrow from the same pools', async () => {
    const toMargin = { currency: 'USDT', from: 'spot', to: 'margin', currency_pair: 'BTC_USDT', amount: '300' };
    expect((await call('POST', '/wallet/transfers', toMargin, undefined, KEY)).status).toBe(200);
    const loan = await call('POST', '/margin/uni/loans', { currency: 'USDT', currency_pair: 'BTC_USDT', type: 'borrow', amount: '1000' }, undefined, KEY);
    expect(loan.status, JSON.stringify(loan.body)).toBe(204);
    expect((await call('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'cross_margin', amount: '300' }, undefined, KEY)).status).toBe(200);
    const cross = await call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '50000', account: 'cross_margin',
      auto_borrow: true }, undefined, KEY);
    expect(cross.status, JSON.stringify(cross.body)).toBe(201);
    expect(cross.body).toMatchObject({ account: 'cross_margin', auto_borrow: true, status: 'open' });
  });

  it('are listed as what the platform lends', async () => {
    const lent = (await call('GET', '/earn/uni/currencies')).body as unknown as J[];
    expect(lent.map((c) => [c.currency, c.max_lend_amount])).toEqual([['BTC', '1000000'], ['USDT', '1000000'], ['ETH', '1000000']]);
  });
});
