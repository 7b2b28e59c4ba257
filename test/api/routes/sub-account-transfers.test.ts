// Main ↔ sub and sub → sub transfers, their records, and the four sub-account balance routes, over HTTP;
// conservation over every account after each group, and unchanged engine state after each rejection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { type Simulator, startSimulator } from '../../../src/main.js';
import { available, type Caller, caller, expectConserved, expectRejected, FUNDS_CONFIG, type J } from './funds-helpers.js';

let sim: Simulator;
let call: Caller;
let sub3 = 0;
const uids = (): number[] => [10001, 10002, 10003, 10004, 10005, 20001, 20002, sub3];
const SUB1: [string, string] = ['sub1', 'ss1'];

beforeAll(async () => {
  sim = await startSimulator(FUNDS_CONFIG, { host: '127.0.0.1', port: 0 });
  call = caller(sim);
  sub3 = (await call('POST', '/sub_accounts', { login_name: 'third' })).body.user_id as number;
});
afterAll(async () => { await sim.close(); });

const subTransfer = (body: J, key?: [string, string]) => call('POST', '/wallet/sub_account_transfers', body, undefined, key);
const subToSub = (body: J, key?: [string, string]) => call('POST', '/wallet/sub_account_to_sub_account', body, undefined, key);

describe('POST /wallet/sub_account_transfers', () => {
  it('moves funds main spot → sub (spot, futures) and back, with a harmless repeat', async () => {
    const usdt = sim.gateway.exchange.currencyIndex('USDT');
    expect((await subTransfer({ sub_account: '20001', currency: 'USDT', amount: '25', direction: 'to' })).status).toBe(200);
    expect(available(sim, 20001, AccountKind.Spot, 0, 'USDT')).toBe('125');
    const fut = { sub_account: 20001, sub_account_type: 'futures', currency: 'USDT', amount: '40', direction: 'to', client_order_id: 'fund-1' };
    const first = await subTransfer(fut);
    const again = await subTransfer(fut);
    expect(again.body.tx_id).toBe(first.body.tx_id);
    expect(available(sim, 20001, AccountKind.Futures, usdt, 'USDT')).toBe('40');
    await expectRejected(sim, () => subTransfer({ ...fut, direction: 'from' }), 400, 'DUPLICATE_REQUEST');
    expect((await subTransfer({ sub_account: '20001', currency: 'USDT', amount: '15', direction: 'from' })).status).toBe(200);
    expect(available(sim, 20001, AccountKind.Spot, 0, 'USDT')).toBe('110');
    expect(available(sim, 10001, AccountKind.Spot, 0, 'USDT')).toBe('99950');
    expect((await call('GET', '/wallet/order_status', undefined, 'client_order_id=fund-1')).body.status).toBe('SUCCESS');
    expectConserved(sim, uids());
  });

  it('rejects unknown or foreign sub-accounts, bad fields and a sub-account key, changing nothing', async () => {
    const ok = { sub_account: '20001', currency: 'USDT', amount: '1', direction: 'to' };
    const cases: [J, number, string][] = [
      [{ ...ok, sub_account: undefined }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, sub_account: '20002' }, 404, 'SUB_ACCOUNT_NOT_FOUND'],
      [{ ...ok, sub_account: '10002' }, 404, 'SUB_ACCOUNT_NOT_FOUND'],
      [{ ...ok, sub_account: 'x' }, 404, 'SUB_ACCOUNT_NOT_FOUND'],
      [{ ...ok, direction: undefined }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, direction: 'sideways' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...ok, sub_account_type: 'margin' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...ok, currency: 'DOGE' }, 400, 'INVALID_CURRENCY'],
      [{ ...ok, amount: '0.000000001' }, 400, 'INVALID_PRECISION'],
      [{ ...ok, amount: '0' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...ok, amount: '5000', direction: 'from' }, 400, 'BALANCE_NOT_ENOUGH'],
      [{ ...ok, client_order_id: 'é' }, 400, 'INVALID_CLIENT_ORDER_ID'],
    ];
    for (const [body, status, label] of cases) await expectRejected(sim, () => subTransfer(body), status, label);
    await expectRejected(sim, () => subTransfer({ ...ok, sub_account: '20001' }, SUB1), 404, 'SUB_ACCOUNT_NOT_FOUND');
  });
});

describe('GET /wallet/sub_account_transfers', () => {
  it('lists main ↔ sub records newest first, filtered by sub_uid, within 30 days', async () => {
    await subTransfer({ sub_account: String(sub3), currency: 'BTC', amount: '0.1', direction: 'to', client_order_id: 'third-1' });
    const all = (await call('GET', '/wallet/sub_account_transfers')).body as unknown as J[];
    expect(all[0]).toMatchObject({ uid: '10001', sub_account: String(sub3), sub_account_type: 'spot', currency: 'BTC', amount: '0.1',
      direction: 'to', source: 'api', client_order_id: 'third-1', status: 'success' });
    expect(Number(all[0]!.timest)).toBeGreaterThan(0);
    expect(all.length).toBe(4);
    const one = (await call('GET', '/wallet/sub_account_transfers', undefined, 'sub_uid=20001')).body as unknown as J[];
    expect(one.map((r) => r.direction)).toEqual(['from', 'to', 'to']);
    const both = (await call('GET', '/wallet/sub_account_transfers', undefined, `sub_uid=20001,${sub3}&limit=2&offset=1`)).body as unknown as J[];
    expect(both.length).toBe(2);
    const own = (await call('GET', '/wallet/sub_account_transfers', undefined, undefined, SUB1)).body as unknown as J[];
    expect(own.length).toBe(3);
    const bad = async (query: string, status: number, label: string, key?: [string, string]): Promise<void> => {
      const r = await call('GET', '/wallet/sub_account_transfers', undefined, query, key);
      expect([r.status, r.body.label], query).toEqual([status, label]);
    };
    await bad('sub_uid=20002', 404, 'SUB_ACCOUNT_NOT_FOUND');
    await bad(`sub_uid=${sub3}`, 404, 'SUB_ACCOUNT_NOT_FOUND', SUB1);
    await bad('from=1000&to=3000000', 400, 'INVALID_PARAM_VALUE');
    await bad('from=3000&to=1000', 400, 'INVALID_PARAM_VALUE');
    await bad('limit=1001', 400, 'INVALID_PARAM_VALUE');
    const old = (await call('GET', '/wallet/sub_account_transfers', undefined, 'from=1000&to=2000')).body as unknown as J[];
    expect(old).toEqual([]);
  });
});

describe('POST /wallet/sub_account_to_sub_account', () => {
  it('is signed by the main key or the source sub-account key', async () => {
    const usdt = sim.gateway.exchange.currencyIndex('USDT');
    const body = { currency: 'USDT', sub_account_from: '20001', sub_account_from_type: 'spot', sub_account_to: String(sub3),
      sub_account_to_type: 'delivery', amount: '10' };
    expect((await subToSub(body)).status).toBe(200);
    expect(available(sim, sub3, AccountKind.Delivery, usdt, 'USDT')).toBe('10');
    const r = await subToSub({ ...body, sub_account_from_type: 'futures', sub_account_to_type: 'spot', amount: '5' }, SUB1);
    expect(r.status).toBe(200);
    expect((await call('GET', '/wallet/order_status', undefined, `tx_id=${String(r.body.tx_id)}`)).body.status).toBe('SUCCESS');
    expect(available(sim, 20001, AccountKind.Futures, usdt, 'USDT')).toBe('35');
    expectConserved(sim, uids());
  });

  it('refuses other signers, foreign or frozen sub-accounts and bad fields, changing nothing', async () => {
    const body = { currency: 'USDT', sub_account_from: String(sub3), sub_account_from_type: 'spot', sub_account_to: '20001',
      sub_account_to_type: 'spot', amount: '1' };
    await expectRejected(sim, () => subToSub(body, SUB1), 403, 'FORBIDDEN');
    await expectRejected(sim, () => subToSub({ ...body, sub_account_to: '20002' }), 404, 'SUB_ACCOUNT_NOT_FOUND');
    await expectRejected(sim, () => subToSub({ ...body, sub_account_to_type: undefined }), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => subToSub({ ...body, sub_account_to_type: 'moon' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => subToSub({ ...body, sub_account_to: String(sub3) }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => subToSub({ ...body, amount: '999' }), 400, 'BALANCE_NOT_ENOUGH');
    expect((await call('POST', '/sub_accounts/20001/lock')).status).toBe(204);
    await expectRejected(sim, () => subToSub(body), 403, 'SUB_ACCOUNT_LOCKED');
    await expectRejected(sim, () => subToSub({ ...body, sub_account_from: '20001', sub_account_to: String(sub3) }), 403, 'SUB_ACCOUNT_LOCKED');
    expect((await call('POST', '/sub_accounts/20001/unlock')).status).toBe(204);
  });
});

describe('sub-account balances', () => {
  it('spot: {uid, available} per sub-account, paged (limit default 20, at most 100)', async () => {
    const all = (await call('GET', '/wallet/sub_account_balances')).body as unknown as J[];
    expect(all.map((b) => b.uid)).toEqual(['20001', String(sub3)]);
    expect(all[0]).toEqual({ uid: '20001', available: { USDT: available(sim, 20001, AccountKind.Spot, 0, 'USDT') } });
    expect(all[1]).toEqual({ uid: String(sub3), available: { BTC: '0.1', USDT: '5' } });
    expect((await call('GET', '/wallet/sub_account_balances', undefined, 'limit=1&page=2')).body).toEqual([all[1]]);
    expect((await call('GET', '/wallet/sub_account_balances', undefined, `sub_uid=${sub3}`)).body).toEqual([all[1]]);
    expect((await call('GET', '/wallet/sub_account_balances', undefined, 'limit=101')).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await call('GET', '/wallet/sub_account_balances', undefined, 'sub_uid=20002')).body.label).toBe('SUB_ACCOUNT_NOT_FOUND');
  });

  it('margin: isolated accounts where the sub-account has margin funds, else an empty list', async () => {
    expect((await call('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'margin', currency_pair: 'ETH_USDT', amount: '3' }, undefined, SUB1)).status).toBe(200);
    const r = (await call('GET', '/wallet/sub_account_margin_balances')).body as unknown as J[];
    expect(r[0]).toMatchObject({ uid: '20001', available: [{ currency_pair: 'ETH_USDT', account_type: 'mmr', locked: false, risk: '9999.99',
      base: { currency: 'ETH', available: '0', locked: '0', borrowed: '0', interest: '0' },
      quote: { currency: 'USDT', available: '3', locked: '0', borrowed: '0', interest: '0' } }] });
    expect(r[1]).toEqual({ uid: String(sub3), available: [] });
  });

  it('futures: per settle currency (lower-case keys), zeros for an unused settle', async () => {
    const r = (await call('GET', '/wallet/sub_account_futures_balances', undefined, 'sub_uid=20001')).body as unknown as J[];
    expect(r[0]).toMatchObject({ uid: '20001', available: { usdt: { currency: 'USDT', total: '35', available: '35', unrealised_pnl: '0',
      position_mode: 'single', history: { dnw: '35', pnl: '0' } } } });
    const btc = (await call('GET', '/wallet/sub_account_futures_balances', undefined, `sub_uid=${sub3}&settle=BTC`)).body as unknown as J[];
    expect(btc[0]).toMatchObject({ uid: String(sub3), available: { btc: { currency: 'BTC', total: '0', available: '0' } } });
    const none = (await call('GET', '/wallet/sub_account_futures_balances', undefined, `sub_uid=${sub3}`)).body as unknown as J[];
    expect(none[0]).toEqual({ uid: String(sub3), available: {} });
    expect((await call('GET', '/wallet/sub_account_futures_balances', undefined, 'settle=doge')).body.label).toBe('INVALID_PARAM_VALUE');
  });

  it('cross margin: the account object, user_id 0 without a cross-margin account', async () => {
    expect((await subTransfer({ sub_account: '20001', sub_account_type: 'cross_margin', currency: 'USDT', amount: '7', direction: 'to' })).status).toBe(200);
    const r = (await call('GET', '/wallet/sub_account_cross_margin_balances')).body as unknown as J[];
    expect(r[0]).toMatchObject({ uid: '20001', available: { user_id: 20001, locked: false, total: '7', borrowed: '0',
      balances: { USDT: { available: '7', freeze: '0', borrowed: '0', interest: '0' } } } });
    expect(r[1]).toMatchObject({ uid: String(sub3), available: { user_id: 0, balances: {}, total: '0' } });
    expectConserved(sim, uids());
  });

  it('needs the wallet permission', async () => {
    const r = await call('GET', '/wallet/sub_account_balances', undefined, undefined, ['ro', 'ros']);
    expect([r.status, r.body.label]).toEqual([403, 'FORBIDDEN']);
  });
});
