// Withdrawals and pushes over HTTP on a simulated clock: every validation label, the status walk, cancels,
// control-plane outcomes, internal transfers, the daily limit, GET /wallet/withdrawals, pushes, total balance,
// and conservation (deposits in − withdrawals out = balances + fees).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { Side } from '../../src/core/matching/order-types.js';
import type { Simulator } from '../../src/main.js';
import { advance, get, label, post, send, spot, startWalletSimulator, stateHash } from '../api/wallet-helpers.js';

let sim: Simulator;
let port: number;

beforeAll(async () => {
  sim = await startWalletSimulator();
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

type W = Record<string, string>;
const withdraw = (body: unknown, key = 'k1', secret = 's1') => send(port, 'POST', '/withdrawals', body, key, secret);
const record = async (id: string, key = 'k1', secret = 's1'): Promise<W> =>
  ((await get(port, '/wallet/withdrawals', `withdraw_id=${id}`, key, secret)).body as W[])[0]!;
const ETH_ADDR = '0x1111111111111111111111111111111111111111';

describe('POST /withdrawals validation', () => {
  it('answers each label and changes nothing', async () => {
    const poor = (await post(port, '/sim/users', { balances: { spot: { USDT: '5' } } })).body as { key: string; secret: string };
    const h = await stateHash(port);
    const base = { currency: 'USDT', chain: 'ETH', amount: '10', address: ETH_ADDR };
    const cases: [unknown, number, string][] = [
      [{ currency: 'USDT', amount: '10' }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ ...base, withdraw_order_id: 'bad id!' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...base, withdraw_order_id: 'x'.repeat(33) }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...base, asset_class: 'GOLD' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...base, currency: 'NOPE' }, 400, 'INVALID_CURRENCY'],
      [{ ...base, chain: 'SOL' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...base, chain: 'TRX' }, 400, 'API_WITHDRAW_DISABLED'],
      [{ ...base, address: '' }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ ...base, chain: 'TON', address: 'EQx' }, 400, 'MISSING_REQUIRED_PARAM'],
      [{ ...base, amount: '1.1234567' }, 400, 'INVALID_PRECISION'],
      [{ ...base, amount: '0' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...base, amount: 'ten' }, 400, 'INVALID_PARAM_VALUE'],
      [{ ...base, amount: '1.5' }, 400, 'AMOUNT_TOO_LITTLE'],
      [{ ...base, amount: '1000.5' }, 400, 'AMOUNT_TOO_MUCH'],
    ];
    for (const [body, status, lbl] of cases) expect(label(await withdraw(body)), JSON.stringify(body)).toEqual([status, lbl]);
    // the amount (its fee included) above the 5 available; an amount not above its fee (TON: 0.5)
    expect(label(await withdraw({ ...base, amount: '5.01' }, poor.key, poor.secret))).toEqual([400, 'BALANCE_NOT_ENOUGH']);
    expect(label(await withdraw({ ...base, chain: 'TON', address: 'EQx', memo: '1', amount: '0.5' }))).toEqual([400, 'AMOUNT_TOO_LITTLE']);
    expect(label(await withdraw(base, 'wallet-only', 'ws'))).toEqual([403, 'FORBIDDEN']);
    expect(await stateHash(port)).toBe(h);
  });
});

describe('withdrawal walk', () => {
  it('holds the amount (fee included), walks REQUEST → PEND → PROCES → EXTPEND → DONE, and settles the fee', async () => {
    const before = await spot(port, 'USDT');
    const r = await withdraw({ currency: 'USDT', chain: 'ETH', amount: '100', address: ETH_ADDR, withdraw_order_id: 'wo-1.a', asset_class: 'SPOT' });
    expect(r.status).toBe(200);
    const w = r.body as W;
    expect(w).toMatchObject({ status: 'REQUEST', amount: '100', currency: 'USDT', chain: 'ETH', address: ETH_ADDR,
      withdraw_order_id: 'wo-1.a', txid: '', memo: null, fee_amount: '1.10000000' });
    expect(w.id).toMatch(/^w[0-9]+$/);
    expect(await spot(port, 'USDT')).toEqual({ available: String(Number(before.available) - 100), locked: '100' });
    expect((await record(w.id!))).toMatchObject({ amount: '100', fee: '1.1', asset_class: 'SPOT' }); // 1 fixed + 0.1 % of 100
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) { await advance(port, 1000); statuses.push((await record(w.id!)).status!); }
    expect(statuses).toEqual(['PEND', 'PROCES', 'EXTPEND']);
    const sent = await record(w.id!);
    expect(sent.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Number(sent.block_number)).toBeGreaterThan(0);
    expect(label(await send(port, 'DELETE', `/withdrawals/${w.id}`, undefined))).toEqual([400, 'INVALID_WITHDRAW_CANCEL_STATUS']);
    await advance(port, 3000);
    const done = await record(w.id!);
    expect(done).toMatchObject({ status: 'DONE', timestamp2: String(1_700_000_006) });
    expect(await spot(port, 'USDT')).toEqual({ available: String(Number(before.available) - 100), locked: '0' });
    expect(sim.gateway.exchange.ledger.balanceText(0, AccountKind.Spot, 0, 'USDT')?.available).toBe('1.1');
    // one withdraw entry of the whole amount, as Gate books it; 98.9 left the platform
    expect(((await get(port, '/spot/account_book', 'currency=USDT&limit=1')).body as W[])[0]).toMatchObject({ type: 'withdraw', change: '-100' });
    expect(label(await withdraw({ currency: 'USDT', chain: 'ETH', amount: '5', address: ETH_ADDR, withdraw_order_id: 'wo-1.a' })))
      .toEqual([400, 'DUPLICATE_REQUEST']);
  });

  it('refuses a second withdrawal within 3 s (TOO_FAST) and enforces the daily limit', async () => {
    await advance(port, 3000);
    const first = await withdraw({ currency: 'USDT', chain: 'ETH', amount: '1000', address: ETH_ADDR });
    expect(first.status).toBe(200);
    const firstId = (first.body as W).id!;
    expect(label(await withdraw({ currency: 'USDT', chain: 'ETH', amount: '10', address: ETH_ADDR }))).toEqual([429, 'TOO_FAST']);
    const status = ((await get(port, '/wallet/withdraw_status', 'currency=USDT')).body as W[])[0]!;
    expect(status).toMatchObject({ currency: 'USDT', withdraw_fix: '1', withdraw_percent: '0.1%', withdraw_day_limit: '1500',
      withdraw_day_limit_remain: '400', withdraw_amount_mini: '0', withdraw_eachtime_limit: '1000' });
    expect(status.withdraw_fix_on_chains).toEqual({ ETH: '1', TON: '0.5', TRX: '0' });
    const cancelled = await send(port, 'DELETE', `/withdrawals/${firstId}`, undefined);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ id: firstId, status: 'CANCEL', amount: '1000' });
    expect((await record(firstId)).fail_reason).not.toBe('');
    const remain = ((await get(port, '/wallet/withdraw_status', 'currency=USDT')).body as W[])[0]!.withdraw_day_limit_remain;
    expect(remain).toBe('1400');
    expect(label(await send(port, 'DELETE', `/withdrawals/${firstId}`, undefined))).toEqual([400, 'INVALID_WITHDRAW_CANCEL_STATUS']);
    expect(label(await send(port, 'DELETE', '/withdrawals/w999999', undefined))).toEqual([404, 'INVALID_WITHDRAW_ID']);
    expect(label(await send(port, 'DELETE', '/withdrawals/nope', undefined))).toEqual([404, 'INVALID_WITHDRAW_ID']);
    expect(label(await send(port, 'DELETE', `/withdrawals/${firstId}`, undefined, 'k2', 's2'))).toEqual([404, 'INVALID_WITHDRAW_ID']);
    await advance(port, 3000);
    expect((await withdraw({ currency: 'USDT', chain: 'ETH', amount: '1000', address: ETH_ADDR })).status).toBe(200);
    await advance(port, 3000);
    const h = await stateHash(port);
    expect(label(await withdraw({ currency: 'USDT', chain: 'ETH', amount: '400.000001', address: ETH_ADDR }))).toEqual([400, 'WITHDRAWAL_OVER_LIMIT']);
    expect(await stateHash(port)).toBe(h);
    expect(label(await get(port, '/wallet/withdraw_status', 'currency=NOPE'))).toEqual([400, 'INVALID_CURRENCY']);
  });

  it('control-plane switches: MANUAL/REVIEW hold, RESUME, FAIL/REJECT/CANCEL release with fail_reason, DONE settles', async () => {
    const open = async (): Promise<string> => {
      await advance(port, 3000);
      const r = await withdraw({ currency: 'USDT', chain: 'TON', amount: '2', address: 'EQdest', memo: '123' });
      expect(r.status).toBe(200);
      return (r.body as W).id!;
    };
    const a = await open();
    expect((await post(port, `/sim/withdrawals/${a}/status`, { status: 'MANUAL' })).body).toMatchObject({ status: 'MANUAL', uid: 10001 });
    await advance(port, 10_000);
    expect((await record(a)).status).toBe('MANUAL');
    expect((await post(port, `/sim/withdrawals/${a}/status`, { status: 'REVIEW' })).body).toMatchObject({ status: 'REVIEW' });
    expect((await post(port, `/sim/withdrawals/${a}/status`, { status: 'RESUME' })).body).toMatchObject({ status: 'REQUEST' });
    await advance(port, 5000);
    expect((await record(a)).status).toBe('DONE');
    for (const outcome of ['FAIL', 'REJECT', 'CANCEL']) {
      const before = await spot(port, 'USDT');
      const id = await open();
      expect((await spot(port, 'USDT')).locked).toBe(String(Number(before.locked) + 2));
      const r = (await post(port, `/sim/withdrawals/${id}/status`, { status: outcome, fail_reason: `because ${outcome}` })).body as W;
      expect(r).toMatchObject({ status: outcome, fail_reason: `because ${outcome}` });
      expect(r.timestamp2).not.toBe('');
      expect(await spot(port, 'USDT')).toEqual(before);
    }
    const forced = await open();
    expect((await post(port, `/sim/withdrawals/${forced}/status`, { status: 'DONE' })).body).toMatchObject({ status: 'DONE' });
    expect(label(await post(port, `/sim/withdrawals/${forced}/status`, { status: 'FAIL' }))).toEqual([400, 'INVALID_WITHDRAW_CANCEL_STATUS']);
    expect(label(await post(port, '/sim/withdrawals/w424242/status', { status: 'FAIL' }))).toEqual([404, 'INVALID_WITHDRAW_ID']);
    await post(port, '/sim/chains/USDT/TON', { withdraw_hold: 'REVIEW' });
    const held = await open();
    expect((await record(held)).status).toBe('REVIEW');
    expect(label(await post(port, `/sim/withdrawals/${held}/status`, { status: 'BOGUS' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect((await send(port, 'DELETE', `/withdrawals/${held}`, undefined)).status).toBe(202);
    await post(port, '/sim/chains/USDT/TON', { withdraw_hold: '', withdraw_enabled: false });
    await advance(port, 3000);
    expect(label(await withdraw({ currency: 'USDT', chain: 'TON', amount: '2', address: 'EQdest', memo: '1' }))).toEqual([400, 'API_WITHDRAW_DISABLED']);
    await post(port, '/sim/chains/USDT/TON', { withdraw_enabled: true });
  });

  it('withdraws to a platform user\'s address internally: free, credited at once, a DONE deposit for the receiver', async () => {
    const bobAddr = ((await get(port, '/wallet/deposit_address', 'currency=USDT', 'k2', 's2')).body as { multichain_addresses: W[] })
      .multichain_addresses.find((a) => a.chain === 'TON')!;
    const bobBefore = await spot(port, 'USDT', 'k2', 's2');
    const aliceBefore = await spot(port, 'USDT');
    await advance(port, 3000);
    const r = await withdraw({ currency: 'USDT', chain: 'TON', amount: '7', address: bobAddr.address, memo: bobAddr.payment_id });
    expect(r.body).toMatchObject({ status: 'DONE', fee: '0', type: 'internal' });
    expect((await spot(port, 'USDT', 'k2', 's2')).available).toBe(String(Number(bobBefore.available) + 7));
    expect((await spot(port, 'USDT')).available).toBe(String(Number(aliceBefore.available) - 7));
    const deps = (await get(port, '/wallet/deposits', 'currency=USDT', 'k2', 's2')).body as W[];
    expect(deps[0]).toMatchObject({ amount: '7', status: 'DONE', chain: 'TON' });
    await advance(port, 3000);
    const own = ((await get(port, '/wallet/deposit_address', 'currency=USDT')).body as { address: string }).address;
    expect(label(await withdraw({ currency: 'USDT', chain: 'ETH', amount: '5', address: own }))).toEqual([400, 'INVALID_PARAM_VALUE']);
  });

  it('keeps deposits in DEP_CREDITED out of what can be withdrawn', async () => {
    await post(port, '/sim/deposits', { uid: 10003, currency: 'USDT', amount: '50', chain: 'ETH' });
    await advance(port, 3000);
    expect((await spot(port, 'USDT', 'k2', 's2')).available).not.toBe('0');
    const h = await stateHash(port);
    const user = await post(port, '/sim/users', {});
    const { uid, key, secret } = user.body as { uid: number; key: string; secret: string };
    await post(port, '/sim/deposits', { uid, currency: 'USDT', amount: '50', chain: 'ETH' });
    await advance(port, 3000);
    expect((await spot(port, 'USDT', key, secret)).available).toBe('50');
    expect(label(await withdraw({ currency: 'USDT', chain: 'ETH', amount: '10', address: ETH_ADDR }, key, secret))).toEqual([400, 'BALANCE_NOT_ENOUGH']);
    await advance(port, 2000);
    expect((await withdraw({ currency: 'USDT', chain: 'ETH', amount: '10', address: ETH_ADDR }, key, secret)).status).toBe(200);
    expect(h).not.toBe('');
  });
});

describe('GET /wallet/withdrawals', () => {
  it('filters by currency, withdraw_id (ignoring time), withdraw_order_id, asset_class, limit and offset', async () => {
    const all = (await get(port, '/wallet/withdrawals')).body as W[];
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(all.every((w) => w.id!.startsWith('w'))).toBe(true);
    expect((await get(port, '/wallet/withdrawals', 'limit=2&offset=1')).body).toEqual(all.slice(1, 3));
    expect(((await get(port, '/wallet/withdrawals', 'withdraw_order_id=wo-1.a')).body as W[]).map((w) => w.status)).toEqual(['DONE']);
    expect(((await get(port, '/wallet/withdrawals', 'asset_class=SPOT')).body as W[])).toHaveLength(1);
    expect(((await get(port, '/wallet/withdrawals', 'currency=BTC')).body as W[])).toEqual([]);
    const oldest = all[all.length - 1]!;
    await advance(port, 8 * 86_400_000);
    expect((await get(port, '/wallet/withdrawals')).body).toEqual([]);
    expect(((await get(port, '/wallet/withdrawals', `withdraw_id=${oldest.id}&from=1&to=2`)).body as W[]).map((w) => w.id)).toEqual([oldest.id]);
    expect(label(await get(port, '/wallet/withdrawals', 'from=1&to=9999999'))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await get(port, '/wallet/withdrawals', 'limit=0'))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect(label(await get(port, '/wallet/withdrawals', 'asset_class=X'))).toEqual([400, 'INVALID_PARAM_VALUE']);
  });
});

describe('UID pushes', () => {
  it('moves funds between main accounts at once, 1 per 10 s, and lists them', async () => {
    const before = await spot(port, 'USDT', 'k2', 's2');
    const r = await send(port, 'POST', '/withdrawals/push', { receive_uid: 10002, currency: 'USDT', amount: '5' });
    expect(r.status).toBe(200);
    const id = (r.body as { id: string }).id;
    expect(id).toMatch(/^[0-9]+$/);
    expect((await spot(port, 'USDT', 'k2', 's2')).available).toBe(String(Number(before.available) + 5));
    expect(label(await send(port, 'POST', '/withdrawals/push', { receive_uid: 10002, currency: 'USDT', amount: '5' }))).toEqual([429, 'TOO_FAST']);
    const h = await stateHash(port);
    for (const [body, lbl] of [
      [{ receive_uid: 10005, currency: 'USDT', amount: '1' }, 'INVALID_PARAM_VALUE'],
      [{ receive_uid: 10001, currency: 'USDT', amount: '1' }, 'INVALID_PARAM_VALUE'],
      [{ receive_uid: 77, currency: 'USDT', amount: '1' }, 'USER_NOT_FOUND'],
      [{ receive_uid: 10002, currency: 'NOPE', amount: '1' }, 'INVALID_CURRENCY'],
      [{ receive_uid: 10002, currency: 'USDT' }, 'MISSING_REQUIRED_PARAM'],
    ] as const) expect(label(await send(port, 'POST', '/withdrawals/push', body)), JSON.stringify(body)).toEqual([400, lbl]);
    expect(await stateHash(port)).toBe(h);
    const sent = (await get(port, '/wallet/push')).body as Record<string, unknown>[];
    expect(sent[0]).toMatchObject({ id: Number(id), push_uid: 10001, receive_uid: 10002, currency: 'USDT', amount: '5', status: 'RECEIVED', transaction_type: 'withdraw' });
    expect(((await get(port, '/wallet/push', 'transaction_type=deposit', 'k2', 's2')).body as unknown[])).toHaveLength(1);
    expect((await get(port, '/wallet/push', 'transaction_type=deposit')).body).toEqual([]);
    expect(((await get(port, '/wallet/push', `id=${id}`)).body as unknown[])).toHaveLength(1);
    expect(label(await get(port, '/wallet/push', 'transaction_type=x'))).toEqual([400, 'INVALID_PARAM_VALUE']);
  });

  it('holds a push PENDING for a receiver who accepts manually, then receives, refuses or cancels it', async () => {
    expect((await post(port, '/sim/push_receivers', { uid: 10002, manual: true })).status).toBe(200);
    const pushOnce = async (amount: string): Promise<number> => {
      await advance(port, 11_000);
      const r = await send(port, 'POST', '/withdrawals/push', { receive_uid: 10002, currency: 'USDT', amount });
      expect(r.status).toBe(200);
      return Number((r.body as { id: string }).id);
    };
    const statusOf = async (id: number): Promise<Record<string, unknown>> => ((await get(port, '/wallet/push', `id=${id}`)).body as Record<string, unknown>[])[0]!;
    const [sender0, receiver0] = [await spot(port, 'USDT'), await spot(port, 'USDT', 'k2', 's2')];
    const a = await pushOnce('7');
    expect(await statusOf(a)).toMatchObject({ status: 'PENDING', message: 'waiting for the receiver to accept' });
    expect(Number((await spot(port, 'USDT')).locked)).toBe(Number(sender0.locked) + 7);
    expect((await spot(port, 'USDT', 'k2', 's2')).available).toBe(receiver0.available);
    expect(label(await post(port, `/sim/pushes/${a}/status`, { status: 'DONE' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect((await post(port, `/sim/pushes/${a}/status`, { status: 'RECEIVED' })).body).toMatchObject({ id: a, status: 'RECEIVED' });
    expect(Number((await spot(port, 'USDT', 'k2', 's2')).available)).toBe(Number(receiver0.available) + 7);
    expect(label(await post(port, `/sim/pushes/${a}/status`, { status: 'CANCELLED' }))).toEqual([400, 'INVALID_PARAM_VALUE']);
    for (const end of ['REFUSED', 'CANCELLED'] as const) {
      const id = await pushOnce('3');
      expect((await post(port, `/sim/pushes/${id}/status`, { status: end })).body).toMatchObject({ id, status: end });
      expect(await statusOf(id)).toMatchObject({ status: end });
    }
    const sender1 = await spot(port, 'USDT');
    expect(sender1.locked).toBe(sender0.locked);
    expect(Number(sender1.available)).toBe(Number(sender0.available) - 7);
    expect((await post(port, '/sim/push_receivers', { uid: 10002, manual: false })).status).toBe(200);
  });
});

describe('total balance and conservation', () => {
  it('values every account in a chosen currency at last trade prices', async () => {
    const t = (await get(port, '/wallet/total_balance', 'currency=USDT')).body as { total: W; details: Record<string, W> };
    const usdt = Number((await spot(port, 'USDT')).available) + Number((await spot(port, 'USDT')).locked);
    expect(Number(t.total.amount)).toBe(usdt); // no trades yet: BTC and ETH have no price
    expect(t.details.spot).toEqual({ currency: 'USDT', amount: t.total.amount, unrealised_pnl: '0', borrowed: '0' });
    expect(Object.keys(t.details)).toContain('futures');
    const place = (key: string, secret: string, side: string) => send(port, 'POST', '/spot/orders',
      { currency_pair: 'BTC_USDT', side, amount: '0.1', price: '50000' }, key, secret);
    expect((await place('k2', 's2', 'sell')).status).toBe(201);
    expect((await place('k1', 's1', 'buy')).status).toBe(201);
    const after = (await get(port, '/wallet/total_balance')).body as { total: W };
    const btc = Number((await spot(port, 'BTC')).available);
    const usdtNow = Number((await spot(port, 'USDT')).available) + Number((await spot(port, 'USDT')).locked);
    expect(Number(after.total.amount)).toBeCloseTo(usdtNow + btc * 50000, 6);
    const inBtc = (await get(port, '/wallet/total_balance', 'currency=BTC')).body as { total: W };
    expect(Number(inBtc.total.amount)).toBeCloseTo((usdtNow + btc * 50000) / 50000, 6);
    expect(label(await get(port, '/wallet/total_balance', 'currency=XYZ'))).toEqual([400, 'INVALID_CURRENCY']);
  });

  it('deposits in − withdrawals out = balances + fees, per currency', () => {
    const ex = sim.gateway.exchange;
    ex.assertInvariants();
    const wallet = sim.server.deps.wallet;
    const opening: Record<string, number> = { USDT: 150015, BTC: 3, ETH: 20 }; // config balances + the /sim/users credit
    for (const currency of ['USDT', 'BTC', 'ETH']) {
      opening[currency]! += Number(ex.definition.unified!.currencies![currency]!.lendable); // + the (default) lending pool
      const scale = 10 ** 8;
      let deposited = 0;
      for (const d of wallet.deposits) if (d.currency === currency && d.credited && !wallet.withdrawals.some((w) => w.internal && w.txid === d.txid)) deposited += Number(d.units);
      let out = 0;
      let fees = 0;
      // A withdrawal's amount includes its fee: amount − fee leaves the platform, the fee stays with it.
      for (const w of wallet.withdrawals) if (w.currency === currency && w.status === 'DONE' && !w.internal) { out += Number(w.units - w.fee); fees += Number(w.fee); }
      const units = (v: string): number => Math.round(Number(v) * scale);
      const supply = Number(ex.ledger.supply(currency));
      const perUnit = units('1') / Number(ex.ledger.parse(currency, '1'));
      expect(supply * perUnit, currency).toBe(units(String(opening[currency])) + (deposited - out) * perUnit);
      // The platform's fee account holds exactly the withdrawal fees and the trading fees (each side's fee is in
      // the currency it received: a buyer's in base, a seller's in quote).
      let tradingFees = 0;
      const T = ex.trades;
      for (let id = 1; id <= T.count; id++) {
        const i = T.slotOf(id);
        const m = ex.markets[T.market[i]!]!.spec;
        const takerBuys = T.takerSide[i] === Side.Buy;
        if ((takerBuys ? m.base : m.quote) === currency) tradingFees += Number(T.takerFee[i]!);
        if ((takerBuys ? m.quote : m.base) === currency) tradingFees += Number(T.makerFee[i]!);
      }
      const platform = units(ex.ledger.balanceText(0, AccountKind.Spot, 0, currency)!.available);
      expect(platform, currency).toBe((fees + tradingFees) * perUnit);
    }
  });
});
