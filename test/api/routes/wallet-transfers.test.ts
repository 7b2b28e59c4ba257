// POST /wallet/transfers and GET /wallet/order_status over HTTP: every account kind, both books, the
// client_order_id repeat rule, each rejection (with the engine state unchanged), permissions and the rate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { type Simulator, startSimulator } from '../../../src/main.js';
import { available, type Caller, caller, expectConserved, expectRejected, FUNDS_CONFIG, type J } from './funds-helpers.js';

let sim: Simulator;
let call: Caller;
const UIDS = [10001, 10002, 10003, 10004, 10005, 20001, 20002];
let USDT: number;

beforeAll(async () => {
  sim = await startSimulator(FUNDS_CONFIG, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
  USDT = sim.gateway.exchange.currencyIndex('USDT');
});
afterAll(async () => { await sim.close(); });

const transfer = (body: J, key?: [string, string]) => call('POST', '/wallet/transfers', body, undefined, key);

describe('POST /wallet/transfers', () => {
  it('moves funds spot → futures (settle in lower case) with entries in both books', async () => {
    const r = await transfer({ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '150.5' });
    expect(r.status).toBe(200);
    expect(typeof r.body.tx_id).toBe('number');
    expect(available(sim, 10001, AccountKind.Spot, 0, 'USDT')).toBe('99849.5');
    expect(available(sim, 10001, AccountKind.Futures, USDT, 'USDT')).toBe('150.5');
    const ledger = sim.gateway.exchange.ledger;
    expect(ledger.accountBook(10001, { kind: AccountKind.Spot, limit: 1 })[0]).toMatchObject({ change: '-150.5', type: 'perp_out' });
    expect(ledger.accountBook(10001, { kind: AccountKind.Futures, limit: 1 })[0]).toMatchObject({ change: '150.5', balance: '150.5', type: 'perp_in' });
    expectConserved(sim, UIDS);
  });

  it('serves margin (per currency_pair), delivery (settle upper case), cross_margin and options', async () => {
    const btcUsdt = sim.gateway.exchange.marketIndex('BTC_USDT');
    const steps: [J, number, number, string, string][] = [
      [{ currency: 'BTC', from: 'spot', to: 'margin', currency_pair: 'BTC_USDT', amount: '0.5' }, AccountKind.Margin, btcUsdt, 'BTC', '0.5'],
      [{ currency: 'BTC', from: 'margin', to: 'spot', currency_pair: 'BTC_USDT', amount: '0.25' }, AccountKind.Margin, btcUsdt, 'BTC', '0.25'],
      [{ currency: 'USDT', from: 'futures', to: 'delivery', settle: 'USDT', amount: '50' }, AccountKind.Delivery, USDT, 'USDT', '50'],
      [{ currency: 'ETH', from: 'spot', to: 'options', amount: '1' }, AccountKind.Options, 0, 'ETH', '1'],
      [{ currency: 'ETH', from: 'options', to: 'cross_margin', amount: '0.4' }, AccountKind.CrossMargin, 0, 'ETH', '0.4'],
    ];
    for (const [body, kind, sub, cur, expected] of steps) {
      const r = await transfer(body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(available(sim, 10001, kind, sub, cur)).toBe(expected);
    }
    expect(available(sim, 10001, AccountKind.Futures, USDT, 'USDT')).toBe('100.5');
    expectConserved(sim, UIDS);
  });

  it('makes a repeated client_order_id harmless and refuses its reuse for another transfer', async () => {
    const body = { currency: 'USDT', from: 'spot', to: 'options', amount: '10', client_order_id: 'move-1' };
    const first = await transfer(body);
    const again = await transfer(body);
    expect(again.body.tx_id).toBe(first.body.tx_id);
    expect(available(sim, 10001, AccountKind.Options, 0, 'USDT')).toBe('10');
    await expectRejected(sim, () => transfer({ ...body, amount: '11' }), 400, 'DUPLICATE_REQUEST');
    const other = await transfer(body, ['k2', 's2']);
    expect(other.body.tx_id).not.toBe(first.body.tx_id);
    expectConserved(sim, UIDS);
  });

  it('rejects bad input with the right label and changes nothing', async () => {
    const ok = { currency: 'USDT', from: 'spot', to: 'futures', settle: 'USDT', amount: '1' };
    const cases: [J, string][] = [
      [{ ...ok, currency: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, currency: 'DOGE' }, 'INVALID_CURRENCY'],
      [{ ...ok, from: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, from: 'wallet' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, to: 'unified' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, to: 'spot' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, settle: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, settle: 'btc' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, to: 'margin', settle: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, to: 'margin', currency_pair: 'DOGE_USDT' }, 'INVALID_CURRENCY_PAIR'],
      [{ ...ok, currency: 'ETH', settle: 'eth', from: 'margin', to: 'spot', currency_pair: 'BTC_USDT' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, amount: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, amount: '0' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, amount: '-1' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, amount: 1 }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, amount: '1e3' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, amount: '0.123456789' }, 'INVALID_PRECISION'],
      // ETH has 7 decimals (amount_precision 4 and 3 for the 0.2 % fee): within the 8 of a transfer, beyond ETH's.
      [{ ...ok, currency: 'ETH', settle: 'ETH', amount: '0.00000001' }, 'INVALID_PRECISION'],
      [{ ...ok, amount: '1000000' }, 'BALANCE_NOT_ENOUGH'],
      [{ ...ok, amount: '1000000000001' }, 'AMOUNT_TOO_MUCH'],   // above USDT's max supply, 10^12
      [{ ...ok, client_order_id: 'bad id!' }, 'INVALID_CLIENT_ORDER_ID'],
      [{ ...ok, client_order_id: 'x'.repeat(65) }, 'INVALID_CLIENT_ORDER_ID'],
    ];
    for (const [body, label] of cases) {
      await expectRejected(sim, () => transfer(body), 400, label);
    }
    await expectRejected(sim, () => call('POST', '/wallet/transfers'), 400, 'INVALID_REQUEST_BODY');
  });

  it('needs the wallet permission', async () => {
    await expectRejected(sim, () => transfer({ currency: 'USDT', from: 'spot', to: 'options', amount: '1' }, ['ro', 'ros']), 403, 'FORBIDDEN');
    const r = await transfer({ currency: 'USDT', from: 'spot', to: 'options', amount: '1' }, ['wallet-only', 'ws']);
    expect(r.status).toBe(200);
  });
});

describe('GET /wallet/order_status', () => {
  it('finds a transfer by tx_id or client_order_id, for its owner only', async () => {
    const made = await transfer({ currency: 'USDT', from: 'spot', to: 'options', amount: '2', client_order_id: 'status-1' });
    const tx = String(made.body.tx_id);
    expect((await call('GET', '/wallet/order_status', undefined, `tx_id=${tx}`)).body).toEqual({ tx_id: tx, status: 'SUCCESS' });
    expect((await call('GET', '/wallet/order_status', undefined, 'client_order_id=status-1')).body).toEqual({ tx_id: tx, status: 'SUCCESS' });
    const foreign = await call('GET', '/wallet/order_status', undefined, `tx_id=${tx}`, ['k2', 's2']);
    expect([foreign.status, foreign.body.label]).toEqual([404, 'NOT_FOUND']);
    const missing = await call('GET', '/wallet/order_status', undefined, 'client_order_id=nope');
    expect([missing.status, missing.body.label]).toEqual([404, 'NOT_FOUND']);
    const none = await call('GET', '/wallet/order_status');
    expect([none.status, none.body.label]).toEqual([400, 'MISSING_REQUIRED_PARAM']);
    const bad = await call('GET', '/wallet/order_status', undefined, 'tx_id=abc');
    expect([bad.status, bad.body.label]).toEqual([400, 'INVALID_PARAM_VALUE']);
  });
});

describe('rate limit', () => {
  it('allows 80 transfers per 10 s per user, then answers TOO_MANY_REQUESTS', async () => {
    const limited = await startSimulator({ ...FUNDS_CONFIG, rate_limits: true }, { host: '127.0.0.1', port: 0 });
    try {
      const c = caller(limited);
      const bad = { currency: 'USDT', from: 'spot', to: 'options', amount: '0' };
      const statuses: number[] = [];
      for (let i = 0; i < 81; i++) statuses.push((await c('POST', '/wallet/transfers', bad)).status);
      expect(statuses.slice(0, 80).every((s) => s === 400)).toBe(true);
      expect(statuses[80]).toBe(429);
      expect((await c('POST', '/wallet/transfers', bad, undefined, ['k2', 's2'])).status).toBe(400);
    } finally {
      await limited.close();
    }
  });
});
