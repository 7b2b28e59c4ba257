// The chain simulation's deposit side over HTTP on a simulated clock: chains, addresses, the deposit walk
// (TRACK → DEP_CREDITED → DONE, BLOCKED, MANUAL/REVIEW switches), GET /wallet/deposits and the other wallet reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { plainFetch } from '../api/http-helpers.js';
import { advance, get, label, post, spot, startWalletSimulator, stateHash } from '../api/wallet-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startWalletSimulator();
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

type Dep = { id: string; status: string; amount: string; chain: string; address: string; memo: string; txid: string; timestamp: string };

describe('chains and addresses', () => {
  it('lists a currency\'s chains (public) with their switches and decimals', async () => {
    const r = await plainFetch(port, '/api/v4/wallet/currency_chains?currency=USDT');
    expect(r.status).toBe(200);
    const rows = r.body as Record<string, unknown>[];
    expect(rows.map((c) => c.chain)).toEqual(['ETH', 'TON', 'TRX']);
    expect(rows[0]).toEqual({ chain: 'ETH', name_cn: 'ETH', name_en: 'ETH/ERC20', contract_address: '0xdac17f958d2ee523a2206206994597c13d831ec7',
      is_disabled: 0, is_deposit_disabled: 0, is_withdraw_disabled: 0, decimal: '6', is_tag: 0 });
    expect(rows[1]).toMatchObject({ chain: 'TON', is_tag: 1 });
    expect(rows[2]).toMatchObject({ is_disabled: 1, is_deposit_disabled: 1, is_withdraw_disabled: 1 });
    const eth = (await plainFetch(port, '/api/v4/wallet/currency_chains?currency=ETH')).body as Record<string, unknown>[];
    expect(eth.map((c) => c.chain)).toEqual(['ETH']); // the implicit chain of a currency without configuration
    expect(label(await plainFetch(port, '/api/v4/wallet/currency_chains?currency=XYZ'))).toEqual([400, 'INVALID_CURRENCY']);
    expect(label(await plainFetch(port, '/api/v4/wallet/currency_chains'))).toEqual([400, 'MISSING_REQUIRED_PARAM']);
  });

  it('gives each user a stable address per chain, a memo on tag chains, obtain_failed where deposits are off', async () => {
    const a = (await get(port, '/wallet/deposit_address', 'currency=USDT')).body as { currency: string; address: string;
      min_deposit_amount: string; multichain_addresses: Record<string, unknown>[] };
    const again = (await get(port, '/wallet/deposit_address', 'currency=USDT')).body;
    expect(again).toEqual(a);
    expect(a.currency).toBe('USDT');
    expect(a.min_deposit_amount).toBe('1');
    const [eth, ton, trx] = a.multichain_addresses;
    expect(a.address).toBe(eth!.address);
    expect(eth).toMatchObject({ chain: 'ETH', payment_id: '', payment_name: '', obtain_failed: 0, min_confirms: 3 });
    expect(eth!.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(ton).toMatchObject({ chain: 'TON', payment_id: '10001', payment_name: 'Memo' });
    expect(trx).toMatchObject({ chain: 'TRX', obtain_failed: 1 });
    expect((trx!.address as string)).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const bob = (await get(port, '/wallet/deposit_address', 'currency=USDT', 'k2', 's2')).body as { address: string };
    expect(bob.address).not.toBe(a.address);
    expect(label(await get(port, '/wallet/deposit_address', 'currency=NOPE'))).toEqual([400, 'INVALID_CURRENCY']);
    expect(label(await get(port, '/wallet/deposit_address'))).toEqual([400, 'MISSING_REQUIRED_PARAM']);
  });

  it('lists low-cap currencies, saved addresses (added by the control plane) and needs the wallet permission', async () => {
    expect((await get(port, '/wallet/getLowCapExchangeList')).body).toEqual(['ETH']);
    const added = await post(port, '/sim/saved_address', { uid: 10001, currency: 'USDT', chain: 'TON', address: 'EQabc', name: 'desk', tag: '77' });
    expect(added.status).toBe(200);
    await post(port, '/sim/saved_address', { uid: 10001, currency: 'USDT', chain: 'ETH', address: '0xabc', verified: '0' });
    expect((await get(port, '/wallet/saved_address', 'currency=USDT&chain=TON')).body)
      .toEqual([{ currency: 'USDT', chain: 'TON', address: 'EQabc', name: 'desk', tag: '77', verified: '1' }]);
    expect((await get(port, '/wallet/saved_address', 'currency=USDT&limit=1&page=2')).body).toMatchObject([{ chain: 'ETH', verified: '0' }]);
    expect((await get(port, '/wallet/saved_address', 'currency=USDT', 'k2', 's2')).body).toEqual([]);
    expect(label(await get(port, '/wallet/saved_address', 'currency=USDT&limit=101'))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await get(port, '/wallet/saved_address'))).toEqual([400, 'MISSING_REQUIRED_PARAM']);
    expect(label(await post(port, '/sim/saved_address', { uid: 10001, currency: 'USDT', chain: 'XX', address: 'a' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await post(port, '/sim/saved_address', { uid: 5, currency: 'USDT', chain: 'ETH', address: 'a' }))).toEqual([400, 'USER_NOT_FOUND']);
    expect(label(await get(port, '/wallet/deposits', '', 'ro', 'ros'))).toEqual([403, 'FORBIDDEN']);
  });
});

describe('deposit walk', () => {
  it('tracks confirmations: TRACK, then DEP_CREDITED (credited, withdrawal locked), then DONE', async () => {
    const before = await spot(port, 'USDT', 'k2', 's2');
    const d = (await post(port, '/sim/deposits', { uid: 10002, currency: 'USDT', amount: '100', chain: 'ETH' })).body as Dep & { uid: number };
    expect(d).toMatchObject({ uid: 10002, status: 'TRACK', amount: '100', chain: 'ETH', memo: '' });
    expect(d.id).toMatch(/^d[0-9]+$/);
    expect(d.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await spot(port, 'USDT', 'k2', 's2')).toEqual(before);
    await advance(port, 2999);
    expect(await spot(port, 'USDT', 'k2', 's2')).toEqual(before);
    await advance(port, 1);
    expect((await spot(port, 'USDT', 'k2', 's2')).available).toBe(String(Number(before.available) + 100));
    let rows = (await get(port, '/wallet/deposits', 'currency=USDT', 'k2', 's2')).body as Dep[];
    expect(rows[0]).toMatchObject({ id: d.id, status: 'DEP_CREDITED' });
    await advance(port, 2000);
    rows = (await get(port, '/wallet/deposits', 'currency=USDT', 'k2', 's2')).body as Dep[];
    expect(rows[0]).toMatchObject({ id: d.id, status: 'DONE', timestamp: String(START_S) });
  });

  it('credits at once and DONE on a chain without confirmations; BLOCKED where deposits are off', async () => {
    const eth = (await post(port, '/sim/deposits', { uid: 10002, currency: 'ETH', amount: '1.5' })).body as Dep;
    expect(eth).toMatchObject({ status: 'DONE', chain: 'ETH', amount: '1.5' });
    const usdt = await spot(port, 'USDT', 'k2', 's2');
    const blocked = (await post(port, '/sim/deposits', { uid: 10002, currency: 'USDT', amount: '5', chain: 'TRX' })).body as Dep;
    expect(blocked.status).toBe('BLOCKED');
    // The record is journaled state, and so is the clock's move: the balance, not the state hash, shows that
    // nothing is credited.
    await advance(port, 60_000);
    expect(await spot(port, 'USDT', 'k2', 's2')).toEqual(usdt);
    const rows = (await get(port, '/wallet/deposits', 'currency=USDT', 'k2', 's2')).body as Dep[];
    expect(rows.find((r) => r.id === blocked.id)?.status).toBe('BLOCKED');
  });

  it('control-plane switches hold a deposit in MANUAL or REVIEW, resume it or end it INVALID', async () => {
    const d = (await post(port, '/sim/deposits', { uid: 10002, currency: 'USDT', amount: '10', chain: 'TON' })).body as Dep;
    expect((await post(port, `/sim/deposits/${d.id}/status`, { status: 'MANUAL' })).body).toMatchObject({ status: 'MANUAL' });
    const usdt = await spot(port, 'USDT', 'k2', 's2');
    await advance(port, 5000);
    expect(await spot(port, 'USDT', 'k2', 's2')).toEqual(usdt);
    const h = await stateHash(port);
    expect((await post(port, `/sim/deposits/${d.id}/status`, { status: 'REVIEW' })).body).toMatchObject({ status: 'REVIEW' });
    expect((await post(port, `/sim/deposits/${d.id}/status`, { status: 'RESUME' })).body).toMatchObject({ status: 'DONE' });
    expect(await stateHash(port)).not.toBe(h);
    expect(await spot(port, 'USDT', 'k2', 's2')).not.toEqual(usdt);
    expect(label(await post(port, `/sim/deposits/${d.id}/status`, { status: 'MANUAL' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    const e = (await post(port, '/sim/deposits', { uid: 10002, currency: 'USDT', amount: '10', chain: 'ETH' })).body as Dep;
    expect((await post(port, `/sim/deposits/${e.id}/status`, { status: 'INVALID' })).body).toMatchObject({ status: 'INVALID' });
    expect(label(await post(port, '/sim/deposits/d999/status', { status: 'MANUAL' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await post(port, `/sim/deposits/${e.id}/status`, {}))).toEqual([400, 'MISSING_REQUIRED_PARAM']);
    expect((await post(port, '/sim/chains/USDT/ETH', { deposit_hold: 'REVIEW' })).body).toMatchObject({ deposit_hold: 'REVIEW' });
    const held = (await post(port, '/sim/deposits', { uid: 10002, currency: 'USDT', amount: '3', chain: 'ETH' })).body as Dep;
    expect(held.status).toBe('REVIEW');
    await post(port, '/sim/chains/USDT/ETH', { deposit_hold: '' });
    expect(label(await post(port, '/sim/chains/USDT/NOPE', { deposit_hold: '' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await post(port, '/sim/chains/USDT/ETH', { deposit_hold: 'X' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
  });

  it('rejects bad deposits without changing anything', async () => {
    const h = await stateHash(port);
    expect(label(await post(port, '/sim/deposits', { uid: 10002, currency: 'USDT', amount: '1', chain: 'SOL' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await post(port, '/sim/deposits', { uid: 10002, currency: 'NOPE', amount: '1' }))).toEqual([400, 'INVALID_CURRENCY']);
    expect(label(await post(port, '/sim/deposits', { uid: 10002, currency: 'USDT', amount: '-1' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await post(port, '/sim/deposits', { uid: 42, currency: 'USDT', amount: '1' }))).toEqual([400, 'USER_NOT_FOUND']);
    expect(await stateHash(port)).toBe(h);
  });

  it('GET /wallet/deposits: 7 days back by default, at most 30 days, limit ≤ 500, offset', async () => {
    const all = (await get(port, '/wallet/deposits', '', 'k2', 's2')).body as Dep[];
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(all.every((d) => d.id.startsWith('d'))).toBe(true);
    expect((await get(port, '/wallet/deposits', 'limit=2&offset=1', 'k2', 's2')).body).toEqual(all.slice(1, 3));
    expect(((await get(port, '/wallet/deposits', 'currency=ETH', 'k2', 's2')).body as Dep[]).map((d) => d.chain)).toEqual(['ETH']);
    expect((await get(port, '/wallet/deposits')).body).toEqual([]); // alice has none
    expect(label(await get(port, '/wallet/deposits', 'limit=501'))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await get(port, '/wallet/deposits', `from=${START_S}&to=${START_S + 31 * 86400}`))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await get(port, '/wallet/deposits', 'currency=NOPE'))).toEqual([400, 'INVALID_CURRENCY']);
    await advance(port, 8 * 86_400_000);
    expect((await get(port, '/wallet/deposits', '', 'k2', 's2')).body).toEqual([]);
    expect(((await get(port, '/wallet/deposits', `from=${START_S}`, 'k2', 's2')).body as Dep[]).length).toBe(all.length);
  });
});

const START_S = 1_700_000_000;
