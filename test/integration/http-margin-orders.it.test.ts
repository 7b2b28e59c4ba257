// Unchanged clients placing isolated-margin orders against the simulator: ccxt's createOrder with
// { marginMode: 'isolated' } (account=margin, auto_borrow) and gate-api's SpotApi with account 'margin'.
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import { UNIFIED_CONFIG } from '../api/routes/unified-helpers.js';
import { ccxtGate, gateApiClient } from '../support/clients.js';

let sim: Simulator;
let spot: GateApi.SpotApi;

beforeAll(async () => {
  sim = await startSimulator(UNIFIED_CONFIG, { host: '127.0.0.1', port: 0 });
  const api = gateApiClient(sim.server.port, 'k1', 's1');
  spot = new GateApi.SpotApi(api);
  const t = new GateApi.Transfer();
  Object.assign(t, { currency: 'USDT', from: 'spot', to: 'margin', amount: '1000', currencyPair: 'BTC_USDT' });
  await new GateApi.WalletApi(api).transfer(t);
});
afterAll(async () => { await sim.close(); });

const marginUsdt = (): string => sim.gateway.exchange.ledger.balanceText(10001, AccountKind.Margin, 0, 'USDT')!.available;

describe('margin orders from unchanged clients', () => {
  it('gate-api SpotApi places, lists and cancels an order with account margin', async () => {
    const o = new GateApi.Order();
    Object.assign(o, { currencyPair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '40000', account: 'margin' });
    const placed = (await spot.createOrder(o)).body;
    expect(placed).toMatchObject({ account: 'margin', status: 'open', autoBorrow: false });
    expect(marginUsdt()).toBe('600');
    const listed = (await spot.listOrders('BTC_USDT', 'open', { account: 'margin' })).body;
    expect(listed.map((x) => x.id)).toEqual([placed.id]);
    expect((await spot.listOrders('BTC_USDT', 'open')).body).toEqual([]);
    const cancelled = (await spot.cancelOrder(placed.id!, 'BTC_USDT', { account: 'margin' })).body;
    expect(cancelled).toMatchObject({ status: 'cancelled', account: 'margin' });
    expect(marginUsdt()).toBe('1000');
  });

  it('ccxt createOrder with marginMode isolated borrows the shortfall', async () => {
    const ex = ccxtGate(sim.server.port, 'k1', 's1');
    const order = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.05, 40000, { marginMode: 'isolated', auto_borrow: true });
    expect(order.status).toBe('open');
    expect((order.info as Record<string, unknown>).account).toBe('margin');
    expect(marginUsdt()).toBe('0');
    const loans = sim.gateway.exchange.ledger.openLoans().filter((l) => l.uid === 10001);
    expect(loans.map((l) => [l.kind, l.sub])).toEqual([[AccountKind.Margin, 0]]);
    const open = await ex.fetchOpenOrders('BTC/USDT', undefined, undefined, { marginMode: 'isolated' });
    expect(open.map((x) => x.id)).toEqual([order.id]);
  });
});
