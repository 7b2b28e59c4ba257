// Account-book entries carry Gate's documented type codes (and their codes), on the spot and margin books:
// transfers named after the account other than spot, sub-account transfers, pushes, internal withdrawals,
// trades, fees and loans; the `type` filter takes Gate's names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { TEST_CONFIG } from './http-helpers.js';
import { advance, get, send, startWalletSimulator } from './wallet-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startWalletSimulator({
    users: [...TEST_CONFIG.users!, { uid: 10006, main_uid: 10001, keys: [{ key: 'sub', secret: 'subs' }] }],
    unified: { currencies: { USDT: { lendable: '1000000', index_price: '1' }, BTC: { lendable: '10', index_price: '50000' } } },
  });
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

type Entry = Record<string, string>;
const book = async (q = '', key = 'k1', secret = 's1'): Promise<Entry[]> => (await get(port, '/spot/account_book', q, key, secret)).body as Entry[];
const ok = async (method: string, path: string, body: unknown, key = 'k1', secret = 's1'): Promise<void> => {
  const r = await send(port, method, path, body, key, secret);
  expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBeLessThan(300);
};
const typesOf = (entries: Entry[]): string[][] => entries.map((e) => [e.type!, e.change!, e.code!]);

describe('account-book types', () => {
  it('names transfers after the account other than spot, with _in on the receiving side', async () => {
    await ok('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'margin', currency_pair: 'BTC_USDT', amount: '100' });
    await ok('POST', '/wallet/transfers', { currency: 'USDT', from: 'margin', to: 'spot', currency_pair: 'BTC_USDT', amount: '40' });
    await ok('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'cross_margin', amount: '30' });
    await ok('POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '20' });
    expect(typesOf(await book('currency=USDT&limit=4'))).toEqual([
      ['perp_out', '-20', '702'], ['cross_out', '-30', '652'], ['margin_in', '40', '601'], ['margin_out', '-100', '602']]);
    const margin = (await get(port, '/margin/account_book', 'currency_pair=BTC_USDT')).body as Entry[];
    expect(margin.map((e) => [e.type, e.change])).toEqual([['margin_out', '-40'], ['margin_in', '100']]);
    expect(((await get(port, '/margin/account_book', 'type=margin_out')).body as Entry[]).map((e) => e.change)).toEqual(['-40']);
  });

  it('types sub-account transfers, pushes and internal withdrawals on both sides', async () => {
    await ok('POST', '/wallet/sub_account_transfers', { sub_account: '10006', currency: 'USDT', amount: '11', direction: 'to' });
    expect(typesOf(await book('limit=1'))).toEqual([['subaccount_trf', '-11', '1401']]);
    expect(typesOf(await book('limit=1', 'sub', 'subs'))).toEqual([['subaccount_trf', '11', '1401']]);
    await ok('POST', '/withdrawals/push', { receive_uid: 10002, currency: 'USDT', amount: '3' });
    expect(typesOf(await book('limit=1'))).toEqual([['push_sent', '-3', '1907']]);
    expect(typesOf(await book('limit=1', 'k2', 's2'))).toEqual([['push_rcvd', '3', '1908']]);
    const bob = ((await get(port, '/wallet/deposit_address', 'currency=USDT', 'k2', 's2')).body as { multichain_addresses: Entry[] })
      .multichain_addresses.find((a) => a.chain === 'ETH')!;
    await advance(port, 3000);
    await ok('POST', '/withdrawals', { currency: 'USDT', chain: 'ETH', amount: '7', address: bob.address });
    expect(typesOf(await book('limit=1'))).toEqual([['withdraw', '-7', '4']]);
    expect(typesOf(await book('limit=1', 'k2', 's2'))).toEqual([['deposit', '7', '110']]);
  });

  it('types trades, trading fees and unified loans; filters by Gate names only', async () => {
    await ok('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.01', price: '50000' }, 'k2', 's2');
    await ok('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '50000' });
    expect(typesOf(await book('currency=BTC&limit=2'))).toEqual([['order_fee', '-0.00002', '151'], ['order_fill', '0.01', '102']]);
    expect((await book('type=order_fee')).every((e) => e.type === 'order_fee')).toBe(true);
    await ok('PUT', '/unified/unified_mode', { mode: 'multi_currency' });
    await ok('POST', '/unified/loans', { currency: 'USDT', type: 'borrow', amount: '10' });
    await ok('POST', '/unified/loans', { currency: 'USDT', type: 'repay', amount: '4' });
    expect(typesOf(await book('currency=USDT&limit=2'))).toEqual([['repay', '-4', '631'], ['borrow', '10', '630']]);
    for (const old of ['transfer_in', 'transfer_out', 'withdraw_fee', 'fee_income']) {
      expect((await get(port, '/spot/account_book', `type=${old}`)).status, old).toBe(400);
    }
  });
});
