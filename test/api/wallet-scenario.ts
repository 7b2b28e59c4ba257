// A wallet history over HTTP that leaves something in every state a restart must bring back: deposits in each
// status (TRACK and DEP_CREDITED still walking), withdrawals done, cancelled, failed, held MANUAL and REVIEW,
// internal and pending, pushes received and PENDING (its hold the highest withdrawal-numbered id), saved
// addresses, chain switches changed, issued addresses, transfers with client_order_id, main ↔ sub and sub → sub.
// Port-based, so it drives an in-process simulator or a child process alike; `readAll` renders every wallet,
// withdrawal and transfer read route as JSON.
import { expect } from 'vitest';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch } from './http-helpers.js';
import { advance, get, post, send, WALLET_CONFIG } from './wallet-helpers.js';
import { TEST_CONFIG } from './http-helpers.js';

/** The wallet config plus sub-accounts 20001 (funded) and 20003 of 10001. */
export const RESTART_CONFIG: SimulatorConfig = {
  ...TEST_CONFIG,
  ...WALLET_CONFIG,
  users: [
    ...TEST_CONFIG.users!,
    { uid: 20001, main_uid: 10001, keys: [{ key: 'sub1', secret: 'ss1' }], balances: { spot: { USDT: '100' } } },
    { uid: 20003, main_uid: 10001, keys: [{ key: 'sub3', secret: 'ss3' }] },
  ],
};

type J = Record<string, unknown>;

export interface ScenarioIds {
  readonly deposits: Record<'blocked' | 'trx' | 'instant' | 'manual' | 'invalid' | 'credited' | 'track', string>;
  readonly withdrawals: Record<'done' | 'cancel' | 'fail' | 'manual' | 'internal' | 'review' | 'pending', string>;
  readonly pushes: Record<'direct' | 'received' | 'pending', number>;
  readonly txIds: number[];
  readonly bobTon: { address: string; memo: string };
}

async function ok(r: Promise<{ status: number; body: unknown }>): Promise<J> {
  const res = await r;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as J;
}

const deposit = async (port: number, uid: number, currency: string, amount: string, chain?: string): Promise<J> =>
  ok(post(port, '/sim/deposits', { uid, currency, amount, ...(chain === undefined ? {} : { chain }) }));

const withdraw = async (port: number, body: J): Promise<J> => ok(send(port, 'POST', '/withdrawals', body));

const push = async (port: number, amount: string): Promise<number> =>
  Number((await ok(send(port, 'POST', '/withdrawals/push', { receive_uid: 10002, currency: 'USDT', amount }))).id);

const ETH_ADDR = '0x2222222222222222222222222222222222222222';

/** Runs the history; every step is checked acknowledged. */
export async function buildWallet(port: number): Promise<ScenarioIds> {
  const bob = (await ok(get(port, '/wallet/deposit_address', 'currency=USDT', 'k2', 's2'))).multichain_addresses as J[];
  const ton = bob.find((a) => a.chain === 'TON')!;
  await ok(get(port, '/wallet/deposit_address', 'currency=USDT'));
  const blocked = (await deposit(port, 10002, 'USDT', '5', 'TRX')).id as string;
  await ok(post(port, '/sim/chains/USDT/TRX', { deposit_enabled: true }));
  const trx = await deposit(port, 10001, 'USDT', '7', 'TRX');
  expect(trx.status).toBe('DONE');
  const instant = (await deposit(port, 10002, 'ETH', '1.5')).id as string;
  const manual = (await deposit(port, 10002, 'USDT', '10', 'TON')).id as string;
  expect((await ok(post(port, `/sim/deposits/${manual}/status`, { status: 'MANUAL' }))).status).toBe('MANUAL');
  const invalid = (await deposit(port, 10002, 'USDT', '10', 'ETH')).id as string;
  await ok(post(port, `/sim/deposits/${invalid}/status`, { status: 'INVALID' }));

  const eth = { currency: 'USDT', chain: 'ETH', address: ETH_ADDR };
  const ton1 = { currency: 'USDT', chain: 'TON', address: 'EQdest', memo: '9' };
  const done = (await withdraw(port, { ...eth, amount: '100', withdraw_order_id: 'wo-1' })).id as string;
  for (const ms of [1000, 1000, 1000, 3000]) await ok(advance(port, ms));
  const cancel = (await withdraw(port, { ...eth, amount: '50' })).id as string;
  expect((await send(port, 'DELETE', `/withdrawals/${cancel}`, undefined)).status).toBe(202);
  await ok(advance(port, 3000));
  const fail = (await withdraw(port, { ...ton1, amount: '3' })).id as string;
  await ok(post(port, `/sim/withdrawals/${fail}/status`, { status: 'FAIL', fail_reason: 'node down' }));
  await ok(advance(port, 3000));
  const wManual = (await withdraw(port, { ...ton1, amount: '4' })).id as string;
  await ok(post(port, `/sim/withdrawals/${wManual}/status`, { status: 'MANUAL' }));
  await ok(advance(port, 3000));
  const internal = await withdraw(port, { currency: 'USDT', chain: 'TON', amount: '6', address: ton.address, memo: ton.payment_id });
  expect(internal).toMatchObject({ status: 'DONE', type: 'internal' });
  await ok(post(port, '/sim/chains/USDT/TON', { withdraw_hold: 'REVIEW' }));
  await ok(advance(port, 3000));
  const review = await withdraw(port, { ...ton1, amount: '5' });
  expect(review.status).toBe('REVIEW');

  const direct = await push(port, '5');
  await ok(post(port, '/sim/push_receivers', { uid: 10002, manual: true }));
  await ok(advance(port, 11_000));
  const received = await push(port, '3');
  expect((await ok(post(port, `/sim/pushes/${received}/status`, { status: 'RECEIVED' }))).status).toBe('RECEIVED');

  const txIds: number[] = [];
  const tx = async (path: string, body: J, key: [string, string] = ['k1', 's1']): Promise<void> => {
    txIds.push(Number((await ok(send(port, 'POST', path, body, ...key))).tx_id));
  };
  await tx('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'options', amount: '10', client_order_id: 'move-1' });
  await tx('/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'cross_margin', amount: '2.5' });
  await tx('/wallet/sub_account_transfers', { sub_account: '20001', currency: 'USDT', amount: '5', direction: 'to', client_order_id: 'sub-1' });
  await tx('/wallet/sub_account_transfers', { sub_account: '20003', currency: 'USDT', amount: '1', direction: 'to' });
  await tx('/wallet/sub_account_to_sub_account', { currency: 'USDT', sub_account_from: '20001', sub_account_from_type: 'spot',
    sub_account_to: '20003', sub_account_to_type: 'spot', amount: '1.25' }, ['sub1', 'ss1']);
  await ok(post(port, '/sim/saved_address', { uid: 10001, currency: 'USDT', chain: 'TON', address: 'EQsaved', name: 'desk', tag: '77' }));

  // Still walking at the end: a DEP_CREDITED and a TRACK deposit, a PEND withdrawal; a PENDING push last.
  await ok(advance(port, 11_000));
  const credited = (await deposit(port, 10002, 'USDT', '100', 'ETH')).id as string;
  await ok(advance(port, 3000));
  const track = (await deposit(port, 10001, 'USDT', '20', 'ETH')).id as string;
  const pending = (await withdraw(port, { ...eth, amount: '10' })).id as string;
  const pendingPush = await push(port, '4');
  await ok(advance(port, 1000));
  await ok(post(port, '/sim/saved_address', { uid: 10001, currency: 'USDT', chain: 'ETH', address: '0xsaved', verified: '0' }));
  return {
    deposits: { blocked, trx: trx.id as string, instant, manual, invalid, credited, track },
    withdrawals: { done, cancel, fail, manual: wManual, internal: internal.id as string, review: review.id as string, pending },
    pushes: { direct, received, pending: pendingPush }, txIds, bobTon: { address: ton.address as string, memo: ton.payment_id as string },
  };
}

/** Every wallet, withdrawal and transfer read, as JSON, keyed by route. */
export async function readAll(port: number, ids: ScenarioIds): Promise<Record<string, unknown>> {
  const reads: [string, string, string, string][] = [];
  for (const [k, s] of [['k1', 's1'], ['k2', 's2']] as const) {
    reads.push(['/wallet/deposits', '', k, s], ['/wallet/withdrawals', '', k, s], ['/wallet/push', '', k, s],
      ['/wallet/push', 'transaction_type=deposit', k, s], ['/wallet/deposit_address', 'currency=USDT', k, s],
      ['/wallet/withdraw_status', '', k, s], ['/spot/accounts', '', k, s], ['/spot/account_book', 'limit=100', k, s]);
  }
  reads.push(['/wallet/saved_address', 'currency=USDT', 'k1', 's1'], ['/wallet/sub_account_transfers', '', 'k1', 's1'],
    ['/wallet/sub_account_transfers', '', 'sub1', 'ss1'], ['/wallet/order_status', 'client_order_id=move-1', 'k1', 's1'],
    ['/wallet/order_status', 'client_order_id=sub-1', 'k1', 's1'], ['/wallet/sub_account_balances', '', 'k1', 's1'],
    ['/wallet/withdrawals', `withdraw_id=${ids.withdrawals.pending}`, 'k1', 's1']);
  for (const t of ids.txIds) reads.push(['/wallet/order_status', `tx_id=${t}`, 'k1', 's1']);
  const out: Record<string, unknown> = {};
  for (const [path, query, key, secret] of reads) {
    const r = await get(port, path, query, key, secret);
    out[`${key} ${path}?${query}`] = [r.status, r.body];
  }
  const chains = await plainFetch(port, '/api/v4/wallet/currency_chains?currency=USDT');
  out.currency_chains = [chains.status, chains.body];
  return out;
}
