// Unchanged gate-api (WalletApi, WithdrawalApi) and ccxt (fetchDepositAddress, fetchDeposits, fetchWithdrawals,
// withdraw) against the chain simulation over HTTP, on a simulated clock.
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { advance, post, startWalletSimulator } from '../api/wallet-helpers.js';
import { type CcxtGate, ccxtGate, gateApiClient } from '../support/clients.js';

let sim: Simulator;
let port: number;
let wallet: GateApi.WalletApi;
let withdrawals: GateApi.WithdrawalApi;
let alice: CcxtGate;

beforeAll(async () => {
  sim = await startWalletSimulator();
  port = sim.server.port;
  const c = gateApiClient(port, 'k1', 's1');
  wallet = new GateApi.WalletApi(c);
  withdrawals = new GateApi.WithdrawalApi(c);
  alice = ccxtGate(port, 'k1', 's1');
  await alice.loadMarkets();
});
afterAll(async () => { await sim.close(); });

describe('gate-api WalletApi and WithdrawalApi', () => {
  it('reads chains, addresses, withdraw status, low-cap list, saved addresses and the total balance', async () => {
    const chains = (await wallet.listCurrencyChains('USDT')).body;
    expect(chains.map((c) => c.chain)).toEqual(['ETH', 'TON', 'TRX']);
    expect(chains[1]).toMatchObject({ isTag: 1, decimal: '6', isWithdrawDisabled: 0 });
    const addr = (await wallet.getDepositAddress('USDT')).body;
    expect(addr.multichainAddresses?.[1]).toMatchObject({ chain: 'TON', paymentId: '10001', paymentName: 'Memo', obtainFailed: 0 });
    const status = (await wallet.listWithdrawStatus({ currency: 'USDT' })).body;
    expect(status[0]).toMatchObject({ currency: 'USDT', withdrawFix: '1', withdrawDayLimitRemain: '1500' });
    expect((await wallet.getLowCapExchangeList()).body).toEqual(['ETH']);
    await post(port, '/sim/saved_address', { uid: 10001, currency: 'USDT', chain: 'ETH', address: '0xfeed', name: 'cold' });
    expect((await wallet.listSavedAddress({ currency: 'USDT' })).body[0]).toMatchObject({ address: '0xfeed', name: 'cold', verified: '1' });
    const total = (await wallet.getTotalBalance({ currency: 'USDT' })).body;
    expect(total.total?.currency).toBe('USDT');
    expect(Number(total.total?.amount)).toBeGreaterThanOrEqual(100000);
    expect(total.details?.spot?.amount).toBe(total.total?.amount);
  });

  it('withdraws, lists, cancels; lists deposits; pushes to another main account', async () => {
    const w = (await withdrawals.withdraw(Object.assign(new GateApi.LedgerRecord(), {
      currency: 'USDT', chain: 'ETH', amount: '25', address: '0x2222222222222222222222222222222222222222', withdrawOrderId: 'sdk-1',
    }))).body;
    expect(w.id).toMatch(/^w/);
    expect(w.status).toBe('REQUEST');
    const listed = (await wallet.listWithdrawals({ withdrawOrderId: 'sdk-1' })).body;
    expect(listed[0]).toMatchObject({ id: w.id, amount: '25', fee: '1.025', status: 'REQUEST', chain: 'ETH' });
    const del = await withdrawals.cancelWithdrawal(w.id!);
    expect(del.response.status).toBe(202);
    expect(del.body.status).toBe('CANCEL');
    await post(port, '/sim/deposits', { uid: 10001, currency: 'USDT', amount: '12', chain: 'TON' });
    await advance(port, 1000);
    const deps = (await wallet.listDeposits({ currency: 'USDT' })).body;
    expect(deps[0]).toMatchObject({ amount: '12', status: 'DONE', chain: 'TON', memo: '10001' });
    const push = (await withdrawals.withdrawPushOrder(Object.assign(new GateApi.UidPushWithdrawal(), {
      receiveUid: 10002, currency: 'USDT', amount: '3',
    }))).body;
    expect(push.id).toMatch(/^[0-9]+$/);
    expect((await wallet.listPushOrders({})).body[0]).toMatchObject({ receiveUid: 10002, status: 'RECEIVED', amount: '3' });
  });
});

describe('ccxt', () => {
  it('fetchDepositAddress by network', async () => {
    const a = await alice.fetchDepositAddress('USDT', { network: 'ERC20' });
    expect(a.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(a.network).toBe('ERC20');
  });

  it('withdraw, fetchWithdrawals and fetchDeposits parse the records', async () => {
    await advance(port, 3000);
    const tx = await alice.withdraw('USDT', 10, '0x3333333333333333333333333333333333333333', undefined, { network: 'ERC20' });
    expect(tx.id).toMatch(/^w/);
    expect(tx.type).toBe('withdrawal');
    await advance(port, 10_000);
    const list = await alice.fetchWithdrawals('USDT');
    const mine = list.find((t) => t.id === tx.id)!;
    expect(mine.status).toBe('ok');
    expect(mine.network).toBe('ERC20');
    await post(port, '/sim/deposits', { uid: 10001, currency: 'USDT', amount: '40', chain: 'ETH' });
    const deps = (await alice.fetchDeposits('USDT')).filter((d) => d.amount === 40); // ccxt sorts oldest first
    // ccxt passes statuses it does not map through unchanged (TRACK); DONE becomes 'ok'
    expect(deps[0]).toMatchObject({ type: 'deposit', amount: 40, status: 'TRACK', currency: 'USDT', network: 'ERC20' });
    await advance(port, 5000);
    expect((await alice.fetchDeposits('USDT')).find((d) => d.amount === 40)!.status).toBe('ok');
  });
});
