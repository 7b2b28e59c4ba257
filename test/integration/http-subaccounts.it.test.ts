// Unchanged gate-api (SubAccountApi, WalletApi transfers and sub-account balances) and ccxt (`transfer`)
// against the simulator over HTTP: sub-accounts, their keys, lock/unlock, and every transfer route.
import ccxt from 'ccxt';
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { FUNDS_CONFIG } from '../api/routes/funds-helpers.js';
import { ccxtGate, gateApiClient as apiClient, rejection } from '../support/clients.js';

let sim: Simulator;
let subApi: GateApi.SubAccountApi;
let wallet: GateApi.WalletApi;

const model = <T extends object>(M: new () => T, fields: Record<string, unknown>): T => Object.assign(new M(), fields);
const spotUsdt = (uid: number): string => sim.gateway.exchange.ledger.balanceText(uid, AccountKind.Spot, 0, 'USDT')!.available;

beforeAll(async () => {
  sim = await startSimulator(FUNDS_CONFIG, { host: '127.0.0.1', port: 0 });
  const c = apiClient(sim.server.port, 'k1', 's1');
  subApi = new GateApi.SubAccountApi(c);
  wallet = new GateApi.WalletApi(c);
});
afterAll(async () => { await sim.close(); });

describe('gate-api SubAccountApi', () => {
  it('creates, lists, gets, locks and unlocks sub-accounts', async () => {
    const created = await subApi.createSubAccounts(model(GateApi.SubAccount, { loginName: 'gate_sub', remark: 'sdk' }));
    expect(created.response.status).toBe(201);
    const uid = created.body.userId!;
    expect(created.body).toMatchObject({ loginName: 'gate_sub', remark: 'sdk', state: 1, type: 1 });
    expect((await subApi.listSubAccounts({ type: '0' })).body.map((s) => s.userId)).toEqual([20001, uid]);
    expect((await subApi.getSubAccount(uid)).body.loginName).toBe('gate_sub');
    expect((await subApi.listUnifiedMode()).body.map((m) => m.userId)).toEqual([20001, uid]);
    expect((await subApi.lockSubAccount(uid)).response.status).toBe(204);
    expect((await subApi.getSubAccount(uid)).body.state).toBe(2);
    expect(await rejection(wallet.transferWithSubAccount(model(GateApi.SubAccountTransfer,
      { subAccount: String(uid), currency: 'USDT', amount: '1', direction: 'to' })))).toEqual([403, 'SUB_ACCOUNT_LOCKED']);
    expect((await subApi.unlockSubAccount(uid)).response.status).toBe(204);
    expect(await rejection(subApi.getSubAccount(20002))).toEqual([404, 'SUB_ACCOUNT_NOT_FOUND']);
  });

  it('manages keys: the secret once, list, get, update (mode fixed), delete', async () => {
    const made = await subApi.createSubAccountKeys(20001, model(GateApi.SubAccountKey, {
      name: 'sdk-key', perms: [model(GateApi.SubAccountKeyPerms, { name: 'wallet', readOnly: false })],
    }));
    const key = made.body.key!;
    const secret = (made.response.data as { secret: string }).secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(made.body).toMatchObject({ userId: 20001, name: 'sdk-key', mode: 1 });
    const subWallet = new GateApi.WalletApi(apiClient(sim.server.port, key, secret));
    expect((await subWallet.transfer(model(GateApi.Transfer, { currency: 'USDT', from: 'spot', to: 'options', amount: '1' }))).body.txId).toBeGreaterThan(0);
    expect((await subApi.listSubAccountKeys(20001)).body.map((k) => k.key)).toEqual(['sub1', key]);
    expect((await subApi.getSubAccountKey(20001, key)).body.perms).toEqual([model(GateApi.SubAccountKeyPerms, { name: 'wallet', readOnly: false })]);
    expect(await rejection(subApi.updateSubAccountKeys(20001, key, model(GateApi.SubAccountKey, { mode: 2 })))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect((await subApi.updateSubAccountKeys(20001, key, model(GateApi.SubAccountKey, { name: 'renamed' }))).response.status).toBe(204);
    expect(await rejection(subWallet.transfer(model(GateApi.Transfer, { currency: 'USDT', from: 'spot', to: 'options', amount: '1' })))).toEqual([403, 'FORBIDDEN']);
    expect((await subApi.deleteSubAccountKeys(20001, key)).response.status).toBe(204);
    expect(await rejection(subApi.getSubAccountKey(20001, key))).toEqual([404, 'NOT_FOUND']);
  });
});

describe('gate-api WalletApi transfers and sub-account balances', () => {
  it('transfers between own accounts and reads the order status', async () => {
    const r = await wallet.transfer(model(GateApi.Transfer, { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '12.5' }));
    const status = await wallet.getTransferOrderStatus({ txId: String(r.body.txId) });
    expect(status.body).toMatchObject({ txId: String(r.body.txId), status: 'SUCCESS' });
    expect(await rejection(wallet.transfer(model(GateApi.Transfer, { currency: 'USDT', from: 'spot', to: 'margin', amount: '1' }))))
      .toEqual([400, 'MISSING_REQUIRED_PARAM']);
  });

  it('moves funds main ↔ sub and sub → sub, and lists the records', async () => {
    const before = spotUsdt(20001);
    await wallet.transferWithSubAccount(model(GateApi.SubAccountTransfer,
      { subAccount: '20001', currency: 'USDT', amount: '30', direction: 'to', clientOrderId: 'gate-1' }));
    await wallet.transferWithSubAccount(model(GateApi.SubAccountTransfer,
      { subAccount: '20001', currency: 'USDT', amount: '30', direction: 'to', clientOrderId: 'gate-1' }));
    expect(Number(spotUsdt(20001)) - Number(before)).toBe(30);
    const subs = (await subApi.listSubAccounts()).body.map((s) => s.userId!);
    const other = subs.find((u) => u !== 20001)!;
    const moved = await wallet.subAccountToSubAccount(model(GateApi.SubAccountToSubAccount, {
      currency: 'USDT', subAccountFrom: '20001', subAccountFromType: 'spot', subAccountTo: String(other), subAccountToType: 'futures', amount: '4',
    }));
    expect(moved.body.txId).toBeGreaterThan(0);
    const records = (await wallet.listSubAccountTransfers({ subUid: '20001' })).body;
    expect(records[0]).toMatchObject({ subAccount: '20001', direction: 'to', amount: '30', clientOrderId: 'gate-1', status: 'success' });
    expect(records.length).toBe(1);
  });

  it('reads spot, margin, futures and cross-margin balances of sub-accounts', async () => {
    const spot = (await wallet.listSubAccountBalances({ subUid: '20001' })).body;
    expect(spot[0]).toMatchObject({ uid: '20001', available: { USDT: spotUsdt(20001) } });
    expect((await wallet.listSubAccountMarginBalances({ subUid: '20001' })).body[0]).toMatchObject({ uid: '20001', available: [] });
    const subs = (await subApi.listSubAccounts()).body.map((s) => s.userId!);
    const other = String(subs.find((u) => u !== 20001)!);
    const futures = (await wallet.listSubAccountFuturesBalances({ subUid: other, settle: 'usdt' })).body;
    expect(futures[0]?.available?.usdt).toMatchObject({ currency: 'USDT', total: '4', available: '4' });
    const cross = (await wallet.listSubAccountCrossMarginBalances({ subUid: other })).body;
    expect(cross[0]?.available).toMatchObject({ userId: 0, total: '0' });
  });
});

describe('ccxt transfer', () => {
  it('moves funds between spot and swap (settle upper case) and margin', async () => {
    const ex = ccxtGate(sim.server.port, 'k2', 's2');
    await ex.loadMarkets();
    const usdt = sim.gateway.exchange.currencyIndex('USDT');
    const t = await ex.transfer('USDT', 20, 'spot', 'swap');
    expect(Number(t.id)).toBeGreaterThan(0);
    expect(sim.gateway.exchange.ledger.balanceText(10002, AccountKind.Futures, usdt, 'USDT')!.available).toBe('20');
    await ex.transfer('USDT', 5, 'swap', 'spot');
    expect(sim.gateway.exchange.ledger.balanceText(10002, AccountKind.Futures, usdt, 'USDT')!.available).toBe('15');
    await ex.transfer('BTC', 0.1, 'spot', 'margin', { symbol: 'BTC/USDT' });
    expect(sim.gateway.exchange.ledger.balanceText(10002, AccountKind.Margin, sim.gateway.exchange.marketIndex('BTC_USDT'), 'BTC')!.available).toBe('0.1');
    await expect(ex.transfer('USDT', 1e6, 'spot', 'swap')).rejects.toThrow(ccxt.InsufficientFunds);
  });
});
