// The private futures position and account routes over HTTP: leverage (isolated and cross), margin, risk limit,
// dual mode and dual_comp, FuturesAccount figures, account book, transfers in and out (margin in use stays),
// sub-account futures balances, and the labels of bad input with the state unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, expectRejected, FUTURES_CONFIG, futuresCaller, type J, setMark } from './futures-helpers.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
  call = futuresCaller(sim);
  await setMark(sim, 'BTC_USDT', '50000');
  await setMark(sim, 'BTC_USD', '50000');
});
afterAll(async () => { await sim.close(); });

const place = (body: J, key?: [string, string]) => call('POST', '/futures/usdt/orders', { body, key });
const post = (path: string, query: string, key?: [string, string]) => call('POST', `/futures/usdt${path}`, { query, key });

/** Opens a long of `size` for 10001 against 10002 at 50000. */
async function openLong(size: number): Promise<void> {
  expect((await place({ contract: 'BTC_USDT', size: -size, price: '50000' }, B)).status).toBe(201);
  expect((await place({ contract: 'BTC_USDT', size, price: '0', tif: 'ioc' })).body.finish_as).toBe('filled');
}

describe('futures accounts', () => {
  it('answers USER_NOT_FOUND before the first transfer, then the FuturesAccount with history.dnw', async () => {
    const k3: [string, string] = ['k3', 's3'];
    await expectRejected(sim, () => call('GET', '/futures/usdt/accounts', { key: k3 }), 400, 'USER_NOT_FOUND');
    await expectRejected(sim, () => call('POST', '/futures/usdt/orders', { key: k3, body: { contract: 'BTC_USDT', size: 1, price: '50000' } }),
      400, 'USER_NOT_FOUND');
    const t = await call('POST', '/wallet/transfers', { key: k3, body: { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '300' } });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    const a = await call('GET', '/futures/usdt/accounts', { key: k3 });
    expect(a.body).toMatchObject({
      total: '300', available: '300', position_margin: '0', order_margin: '0', unrealised_pnl: '0', currency: 'USDT',
      in_dual_mode: false, position_mode: 'single', enable_credit: false, cross_margin_balance: '300', isolated_position_margin: '0',
    });
    expect(a.body.history).toMatchObject({ dnw: '300', pnl: '0', fee: '0', fund: '0', refr: '0' });
    const book = await call('GET', '/futures/usdt/account_book', { key: k3, query: 'type=dnw' });
    expect(book.body[0]).toMatchObject({ type: 'dnw', change: '300', balance: '300' });
    await expectRejected(sim, () => call('GET', '/futures/usdt/account_book', { key: k3, query: 'type=bogus' }), 400, 'INVALID_PARAM_VALUE');
  });

  it('keeps margin in use out of a transfer back to spot', async () => {
    await openLong(10); // value 50 USDT at 10x: margin 5
    const a = await call('GET', '/futures/usdt/accounts');
    expect(a.body.position_margin).toBe('5');
    const avail = a.body.available as string;
    expect(Number(avail)).toBeLessThan(10000 - 5 + 0.01);
    await expectRejected(sim, () => call('POST', '/wallet/transfers', {
      body: { currency: 'USDT', from: 'futures', settle: 'usdt', to: 'spot', amount: a.body.total },
    }), 400, 'BALANCE_NOT_ENOUGH');
    const ok = await call('POST', '/wallet/transfers', { body: { currency: 'USDT', from: 'futures', settle: 'usdt', to: 'spot', amount: '100' } });
    expect(ok.status).toBe(200);
    const after = await call('GET', '/futures/usdt/accounts');
    expect(after.body.position_margin).toBe('5');
    expect(after.body.history).toMatchObject({ dnw: '9900' });
  });

  it('shows sub-account futures balances with live figures', async () => {
    const t = await call('POST', '/wallet/sub_account_transfers', {
      body: { sub_account: '20001', sub_account_type: 'futures', currency: 'USDT', amount: '25', direction: 'to' },
    });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    const b = await call('GET', '/wallet/sub_account_futures_balances', { query: 'sub_uid=20001' });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body[0]!.available).toMatchObject({ usdt: { total: '25', available: '25', currency: 'USDT', history: { dnw: '25' } } });
  });
});

describe('futures positions', () => {
  it('lists holding positions with every Position field', async () => {
    const r = await call('GET', '/futures/usdt/positions', { query: 'holding=true' });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    const p = r.body[0]!;
    expect(p).toMatchObject({
      user: 10001, contract: 'BTC_USDT', size: 10, leverage: '10', risk_limit: '1000000', leverage_max: '100', maintenance_rate: '0.005',
      value: '50', margin: '5', entry_price: '50000', mark_price: '50000', unrealised_pnl: '0', mode: 'single',
      cross_leverage_limit: '0', pending_orders: 0, close_order: null, adl_ranking: 1,
    });
    for (const k of ['liq_price', 'initial_margin', 'maintenance_margin', 'realised_pnl', 'pnl_pnl', 'pnl_fund', 'pnl_fee', 'history_pnl',
      'last_close_pnl', 'update_time', 'update_id', 'open_time']) expect(p).toHaveProperty(k);
    expect(Number(p.liq_price)).toBeGreaterThan(40000);
    expect(Number(p.liq_price)).toBeLessThan(50000);
  });

  it('moves margin, changes leverage (isolated and cross) and the risk limit', async () => {
    const add = await post('/positions/BTC_USDT/margin', 'change=2');
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body.margin).toBe('7');
    await expectRejected(sim, () => post('/positions/BTC_USDT/margin', 'change=-7'), 400, 'REMOVE_TOO_MUCH');
    expect((await post('/positions/BTC_USDT/margin', 'change=-2')).body.margin).toBe('5');
    const lev = await post('/positions/BTC_USDT/leverage', 'leverage=5');
    expect(lev.body).toMatchObject({ leverage: '5', margin: '10' });
    await expectRejected(sim, () => post('/positions/BTC_USDT/leverage', 'leverage=101'), 400, 'LEVERAGE_TOO_HIGH');
    await expectRejected(sim, () => post('/positions/BTC_USDT/leverage', 'leverage=x'), 400, 'INVALID_PARAM_VALUE');
    const cross = await post('/positions/BTC_USDT/leverage', 'leverage=0&cross_leverage_limit=20');
    expect(cross.body).toMatchObject({ leverage: '0', cross_leverage_limit: '20', pos_margin_mode: 'cross' });
    await expectRejected(sim, () => post('/positions/BTC_USDT/margin', 'change=1'), 400, 'POSITION_CROSS_MARGIN');
    expect((await post('/positions/BTC_USDT/leverage', 'leverage=10')).body.leverage).toBe('10');
    const rl = await post('/positions/BTC_USDT/risk_limit', 'risk_limit=2000000');
    expect(rl.body).toMatchObject({ risk_limit: '2000000', maintenance_rate: '0.01', leverage_max: '50' });
    await expectRejected(sim, () => post('/positions/BTC_USDT/risk_limit', 'risk_limit=9000000'), 400, 'RISK_LIMIT_TOO_HIGH');
    await expectRejected(sim, () => post('/positions/BTC_USDT/risk_limit', 'risk_limit=1500000'), 400, 'RISK_LIMIT_NOT_MULTIPLE');
    await expectRejected(sim, () => post('/positions/BTC_USDT/risk_limit', 'risk_limit=500000'), 400, 'RISK_LIMIT_TOO_lOW');
    await expectRejected(sim, () => post('/positions/NOPE_USDT/leverage', 'leverage=5'), 400, 'CONTRACT_NOT_FOUND');
  });

  it('refuses dual mode while holding or with open orders, then serves dual_comp routes and auto_size', async () => {
    await expectRejected(sim, () => post('/dual_mode', 'dual_mode=true'), 400, 'POSITION_HOLDING');
    // B buys back its short (reduce-only), A closes its long into it.
    expect((await place({ contract: 'BTC_USDT', size: 10, price: '50000', reduce_only: true }, B)).status).toBe(201);
    const close = await place({ contract: 'BTC_USDT', size: 0, close: true, price: '0', tif: 'ioc' });
    expect(close.body).toMatchObject({ finish_as: 'filled', size: -10 });
    const k2 = await call('GET', '/futures/usdt/positions/BTC_USDT', { key: B });
    expect(k2.body.size).toBe(0);
    const resting = await place({ contract: 'BTC_USDT', size: 1, price: '49000' });
    await expectRejected(sim, () => post('/dual_mode', 'dual_mode=true'), 400, 'ORDER_PENDING');
    await call('DELETE', `/futures/usdt/orders/${String(resting.body.id)}`);
    const dual = await post('/dual_mode', 'dual_mode=true');
    expect(dual.status, JSON.stringify(dual.body)).toBe(200);
    expect(dual.body).toMatchObject({ in_dual_mode: true, position_mode: 'dual' });
    await expectRejected(sim, () => call('GET', '/futures/usdt/positions/BTC_USDT'), 400, 'POSITION_DUAL_MODE');
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: 0, close: true, price: '0', tif: 'ioc' }), 400, 'POSITION_DUAL_MODE');

    await place({ contract: 'BTC_USDT', size: -3, price: '50000' }, B);
    expect((await place({ contract: 'BTC_USDT', size: 3, price: '0', tif: 'ioc' })).body.finish_as).toBe('filled');
    const legs = await call('GET', '/futures/usdt/dual_comp/positions/BTC_USDT');
    expect(legs.body.map((p) => [p.mode, p.size])).toEqual([['dual_long', 3], ['dual_short', 0]]);
    const listed = await call('GET', '/futures/usdt/positions');
    expect(listed.body.map((p) => [p.contract, p.mode, p.size])).toEqual([['BTC_USDT', 'dual_long', 3], ['BTC_USDT', 'dual_short', 0]]);
    const m = await call('POST', '/futures/usdt/dual_comp/positions/BTC_USDT/margin', { query: 'change=1&dual_side=dual_long' });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body[0]!.margin).not.toBe(legs.body[0]!.margin);
    const lev = await call('POST', '/futures/usdt/dual_comp/positions/BTC_USDT/leverage', { query: 'leverage=20' });
    expect(lev.body.map((p) => p.leverage)).toEqual(['20', '20']);

    await place({ contract: 'BTC_USDT', size: 3, price: '50000' }, B);
    const auto = await place({ contract: 'BTC_USDT', size: 0, auto_size: 'close_long', price: '0', tif: 'ioc', reduce_only: true });
    expect(auto.status, JSON.stringify(auto.body)).toBe(201);
    expect(auto.body).toMatchObject({ auto_size: 'close_long', is_close: true, finish_as: 'filled', size: -3 });
    const back = await post('/dual_mode', 'dual_mode=false');
    expect(back.body.in_dual_mode).toBe(false);
    expect((await call('GET', '/futures/usdt/positions')).body.map((p) => p.mode)).toEqual(['single']);
  });
});

describe('bad input on the order routes answers its label and changes nothing', () => {
  const cases: [string, J, number, string][] = [
    ['unknown contract', { contract: 'NOPE_USDT', size: 1, price: '50000' }, 400, 'CONTRACT_NOT_FOUND'],
    ['missing contract', { size: 1, price: '50000' }, 400, 'MISSING_REQUIRED_PARAM'],
    ['missing size', { contract: 'BTC_USDT', price: '50000' }, 400, 'MISSING_REQUIRED_PARAM'],
    ['fractional size', { contract: 'BTC_USDT', size: 1.5, price: '50000' }, 400, 'INVALID_PARAM_VALUE'],
    ['size as words', { contract: 'BTC_USDT', size: 'ten', price: '50000' }, 400, 'INVALID_PARAM_VALUE'],
    ['size 0 without close', { contract: 'BTC_USDT', size: 0, price: '50000' }, 400, 'SIZE_TOO_SMALL'],
    ['size above max', { contract: 'BTC_USDT', size: 100_001, price: '50000' }, 400, 'SIZE_TOO_LARGE'],
    ['price off the tick', { contract: 'BTC_USDT', size: 1, price: '50000.05' }, 400, 'INVALID_PARAM_VALUE'],
    ['negative price', { contract: 'BTC_USDT', size: 1, price: '-1' }, 400, 'INVALID_PARAM_VALUE'],
    ['price far from mark', { contract: 'BTC_USDT', size: 1, price: '90000' }, 400, 'PRICE_TOO_DEVIATED'],
    ['market gtc', { contract: 'BTC_USDT', size: 1, price: '0', tif: 'gtc' }, 400, 'INVALID_PARAM_VALUE'],
    ['unknown tif', { contract: 'BTC_USDT', size: 1, price: '50000', tif: 'day' }, 400, 'INVALID_PARAM_VALUE'],
    ['bad text', { contract: 'BTC_USDT', size: 1, price: '50000', text: 'nope' }, 400, 'INVALID_PARAM_VALUE'],
    ['bad stp_act', { contract: 'BTC_USDT', size: 1, price: '50000', stp_act: 'xx' }, 400, 'INVALID_PARAM_VALUE'],
    ['reduce_only not boolean', { contract: 'BTC_USDT', size: 1, price: '50000', reduce_only: 'yes' }, 400, 'INVALID_PARAM_VALUE'],
    ['close with a size', { contract: 'BTC_USDT', size: 1, price: '0', tif: 'ioc', close: true }, 400, 'INVALID_PARAM_VALUE'],
    ['auto_size in single mode', { contract: 'BTC_USDT', size: 0, price: '0', tif: 'ioc', auto_size: 'close_long' }, 400, 'INVALID_PARAM_VALUE'],
    ['more than the balance', { contract: 'BTC_USDT', size: 50_000, price: '50000' }, 400, 'INSUFFICIENT_AVAILABLE'],
    ['fill-or-kill on an empty book', { contract: 'BTC_USDT', size: 1, price: '51000', tif: 'fok' }, 400, 'ORDER_FOK'],
  ];
  for (const [name, body, status, label] of cases) {
    it(`${name} → ${label}`, async () => {
      await expectRejected(sim, () => place(body), status, label);
    });
  }

  it('post-only that would take → ORDER_POC_IMMEDIATE', async () => {
    const resting = await place({ contract: 'BTC_USDT', size: -1, price: '50000' }, B);
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: 1, price: '50000', tif: 'poc' }), 400, 'ORDER_POC_IMMEDIATE');
    await call('DELETE', `/futures/usdt/orders/${String(resting.body.id)}`, { key: B });
  });

  it('a high-leverage order past the liquidation price of a small account → LIQUIDATE_IMMEDIATELY or INSUFFICIENT_AVAILABLE', async () => {
    const k6: [string, string] = ['k6', 's6'];
    // 50 USDT at 100x: a buy far above the mark would be underwater at once.
    expect((await post('/positions/BTC_USDT/leverage', 'leverage=100', k6)).status).toBe(200);
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: 100, price: '74000' }, k6), 400, 'LIQUIDATE_IMMEDIATELY');
  });

  it('an order past the contract\'s orders_limit (8 here) → TOO_MANY_ORDERS', async () => {
    const k6: [string, string] = ['k6', 's6'];
    for (let i = 0; i < 8; i++) expect((await place({ contract: 'BTC_USDT', size: 1, price: String(49000 - i) }, k6)).status).toBe(201);
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: 1, price: '48000' }, k6), 400, 'TOO_MANY_ORDERS');
    const all = await call('DELETE', '/futures/usdt/orders', { query: 'contract=BTC_USDT', key: k6 });
    expect(all.body).toHaveLength(8);
  });

  it('a buy at or below an isolated long\'s liquidation price → PRICE_OVER_LIQUIDATION', async () => {
    const k6: [string, string] = ['k6', 's6'];
    expect((await place({ contract: 'BTC_USDT', size: -10, price: '50000' }, B)).status).toBe(201);
    const buy = await place({ contract: 'BTC_USDT', size: 10, price: '50000', tif: 'ioc' }, k6);
    expect(buy.body.finish_as, JSON.stringify(buy.body)).toBe('filled');
    const p = await call('GET', '/futures/usdt/positions/BTC_USDT', { key: k6 });
    expect(p.body).toMatchObject({ size: 10, leverage: '100', margin: '0.5' });
    const liq = Number(p.body.liq_price);
    expect(liq).toBeGreaterThan(49_000);
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: 1, price: '49000' }, k6), 400, 'PRICE_OVER_LIQUIDATION');
  });

  it('unknown orders, settle and queries', async () => {
    await expectRejected(sim, () => call('GET', '/futures/usdt/orders/123456789'), 404, 'ORDER_NOT_FOUND');
    await expectRejected(sim, () => call('GET', '/futures/usdt/orders/t-none'), 404, 'ORDER_NOT_FOUND');
    await expectRejected(sim, () => call('DELETE', '/futures/usdt/orders/abc'), 404, 'ORDER_NOT_FOUND');
    await expectRejected(sim, () => call('GET', '/futures/eth/accounts'), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/futures/usdt/orders', { query: 'status=done' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/futures/usdt/orders'), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, () => call('GET', '/futures/usdt/orders', { query: 'status=open&limit=0' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('GET', '/futures/usdt/positions', { query: 'holding=maybe' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('POST', '/futures/usdt/dual_mode', { query: 'dual_mode=1' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('POST', '/futures/usdt/positions/BTC_USDT/margin'), 400, 'MISSING_REQUIRED_PARAM');
    const ro: [string, string] = ['ro', 'ros'];
    await expectRejected(sim, () => place({ contract: 'BTC_USDT', size: 1, price: '50000' }, ro), 403, 'READ_ONLY');
    expect((await call('GET', '/futures/usdt/accounts', { key: ro })).body.total).toBe('300'); // 10003, funded above
    expect((await call('GET', '/futures/usdt/accounts', { key: ['sub1', 'ss1'] })).body.total).toBe('25'); // the sub-account
  });
});
