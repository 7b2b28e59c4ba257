// Delivery futures through unchanged clients against a real server: ccxt (default options) loads the dated
// contracts as `future` markets and trades them; gate-api's DeliveryApi lists contracts, places orders, reads
// positions, accounts and settlements; bad input gets Gate's labels and changes nothing; and moving the simulated
// clock over an expiry settles the contract (orders cancelled, positions closed at the mean index, settlement
// records), with the ledger's invariants (conservation, insurance fund included) holding.
import Big from 'big.js';
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { ccxtGate, gateApiClient, rejection } from '../support/clients.js';
import { clockTo, DELIVERY_CONFIG, QUARTERLY, simPost, WEEKLY, WEEKLY_EXPIRE } from './delivery-helpers.js';
import { expectRejected, futuresCaller, type J } from './futures-helpers.js';
import { plainFetch } from './http-helpers.js';

let sim: Simulator;
let port: number;
const SYMBOL = 'BTC/USDT:USDT-260605';

beforeAll(async () => {
  sim = await startSimulator(DELIVERY_CONFIG, { host: '127.0.0.1', port: 0 });
  port = sim.server.port;
  // The index of both dated contracts (no spot trades here): an override the price clock keeps.
  for (const contract of [WEEKLY, QUARTERLY]) expect((await simPost(sim, '/sim/futures/prices', { contract, index: '60000' })).status).toBe(200);
});
afterAll(async () => { await sim.close(); });

const get = async (path: string): Promise<{ status: number; body: J & J[] }> =>
  (await plainFetch(port, `/api/v4${path}`)) as { status: number; body: J & J[] };

describe('public delivery routes', () => {
  it('list the dated contracts with Gate\'s delivery fields; perpetual and delivery routes each see only their own', async () => {
    const list = (await get('/delivery/usdt/contracts')).body;
    expect(list.map((c) => c.name)).toEqual([WEEKLY, QUARTERLY]);
    expect(list[0]).toMatchObject({
      name: WEEKLY, underlying: 'BTC_USDT', cycle: 'WEEKLY', type: 'direct', quanto_multiplier: '0.0001', expire_time: WEEKLY_EXPIRE,
      settle_price: '0', settle_price_duration: 600, settle_fee_rate: '0.0015', in_delisting: false, status: 'trading', index_price: '60000',
    });
    expect(list[0]).not.toHaveProperty('funding_rate');
    expect(typeof list[0]!.basis_rate).toBe('string');
    expect((await get('/futures/usdt/contracts')).body.map((c) => c.name)).toEqual(['BTC_USDT']);
    expect((await get('/delivery/btc/contracts')).body).toEqual([]);
    expect((await get(`/delivery/usdt/contracts/${QUARTERLY}`)).body).toMatchObject({ name: QUARTERLY, cycle: 'QUARTERLY' });
    expect((await get('/delivery/usdt/contracts/BTC_USDT')).body.label).toBe('CONTRACT_NOT_FOUND');
    expect((await get(`/futures/usdt/contracts/${WEEKLY}`)).body.label).toBe('CONTRACT_NOT_FOUND');
    expect((await get('/delivery/eth/contracts')).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await get(`/delivery/usdt/order_book?contract=${WEEKLY}`)).status).toBe(200);
    expect((await get('/delivery/usdt/order_book')).body.label).toBe('MISSING_REQUIRED_PARAM');
    expect((await get(`/delivery/usdt/tickers?contract=${WEEKLY}`)).body[0]).toMatchObject({ contract: WEEKLY });
    expect((await get(`/delivery/usdt/candlesticks?contract=${WEEKLY}&interval=1m`)).status).toBe(200);
    expect((await get(`/delivery/usdt/trades?contract=${WEEKLY}`)).status).toBe(200);
    expect((await get('/delivery/usdt/insurance')).status).toBe(200);
    expect((await get(`/delivery/usdt/risk_limit_tiers?contract=${WEEKLY}`)).body[0]).toMatchObject({ contract: WEEKLY });
  });
});

describe('private delivery routes by settle', () => {
  it('Gate\'s default settle btc answers per account (USER_NOT_FOUND without one, state unchanged); an unknown settle INVALID_PARAM_VALUE', async () => {
    const call = futuresCaller(sim);
    // expectRejected also checks the state hash is unchanged. k1 (10001) holds a USDT delivery account only; ccxt asks /delivery/btc when told no settle.
    await expectRejected(sim, () => call('GET', '/delivery/btc/positions'), 400, 'USER_NOT_FOUND');
    await expectRejected(sim, () => call('GET', '/delivery/btc/accounts'), 400, 'USER_NOT_FOUND');
    await expectRejected(sim, () => call('GET', '/delivery/eth/positions'), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('POST', '/delivery/btc/orders', { body: { contract: WEEKLY, size: 1, price: '60000' } }), 400, 'USER_NOT_FOUND');
  });
});

describe('clients on a delivery contract', () => {
  it('ccxt (default options) loads future markets, places orders, reads positions and the delivery balance', async () => {
    const gate = ccxtGate(port, 'k1', 's1');
    const markets = await gate.loadMarkets();
    const futures = Object.values(markets).filter((m) => m !== undefined && m.type === 'future');
    expect(futures.map((m) => m!.symbol).sort()).toEqual([SYMBOL, 'BTC/USDT:USDT-260626']);
    expect(markets[SYMBOL]).toMatchObject({ id: WEEKLY, settle: 'USDT', linear: true, contractSize: 0.0001, expiry: WEEKLY_EXPIRE * 1000, active: true });
    const maker = ccxtGate(port, 'k2', 's2');
    await maker.loadMarkets();
    const resting = await maker.createOrder(SYMBOL, 'limit', 'sell', 3, 60000);
    expect(resting).toMatchObject({ symbol: SYMBOL, side: 'sell', amount: 3, status: 'open' });
    const bought = await gate.createOrder(SYMBOL, 'market', 'buy', 3);
    expect(bought).toMatchObject({ symbol: SYMBOL, status: 'closed', filled: 3 });
    // ccxt's delivery calls without a market default to settle btc: USDT-settled ones name it, as with Gate.
    const positions = await gate.fetchPositions([SYMBOL], { settle: 'usdt' });
    expect(positions.find((p) => p.symbol === SYMBOL)).toMatchObject({ contracts: 3, side: 'long', entryPrice: 60000 });
    const rest = await gate.createOrder(SYMBOL, 'limit', 'buy', 2, 59000);
    expect((await gate.fetchOpenOrders(SYMBOL)).map((o) => o.id)).toContain(rest.id);
    const balance = await gate.fetchBalance({ type: 'future', settle: 'usdt' });
    // 3 × 0.0001 × 60000 = 18 taken at 0.0005: 0.009; what is left is free or margin.
    expect(balance.USDT?.total).toBeCloseTo(10000 - 0.009, 6);
    // The perpetual account is another one.
    expect((await gate.fetchBalance({ type: 'swap' })).USDT?.total).toBe(1000);
  });

  it('gate-api DeliveryApi: contracts, orders, positions, accounts', async () => {
    const api = new GateApi.DeliveryApi(gateApiClient(port, 'k2', 's2'));
    const contracts = (await api.listDeliveryContracts('usdt')).body;
    expect(contracts.map((c) => c.name)).toEqual([WEEKLY, QUARTERLY]);
    expect(contracts[0]).toMatchObject({ cycle: 'WEEKLY', expireTime: WEEKLY_EXPIRE, inDelisting: false, settlePrice: '0' });
    const order = Object.assign(new GateApi.DeliveryOrder(), { contract: QUARTERLY, size: 2, price: '61000', text: 't-gateapi' });
    const placed = (await api.createDeliveryOrder('usdt', order)).body;
    // gate-api asks for decimal sizes (X-Gate-Size-Decimal: 1): strings.
    expect(placed).toMatchObject({ contract: QUARTERLY, size: '2', left: '2', price: '61000', status: 'open', text: 't-gateapi' });
    expect((await api.listDeliveryOrders('usdt', 'open', { contract: QUARTERLY })).body.map((o) => String(o.id))).toContain(String(placed.id));
    expect((await api.cancelDeliveryOrder('usdt', String(placed.id))).body).toMatchObject({ status: 'finished', finishAs: 'cancelled' });
    const positions = (await api.listDeliveryPositions('usdt')).body;
    expect(positions.find((p) => p.contract === WEEKLY)).toMatchObject({ size: '-3', entryPrice: '60000' });
    const account = (await api.listDeliveryAccounts('usdt')).body;
    expect(account).toMatchObject({ currency: 'USDT' });
    expect(account.history?.dnw).toBe('10000');
    expect(await rejection(api.getDeliveryOrder('usdt', '999999999'))).toEqual([404, 'ORDER_NOT_FOUND']);
  });

  it('serves the rest of the private delivery routes over the delivery account', async () => {
    const call = futuresCaller(sim);
    const trades = (await call('GET', '/delivery/usdt/my_trades', { query: `contract=${WEEKLY}` })).body;
    expect(trades[0]).toMatchObject({ contract: WEEKLY, size: 3, role: 'taker', price: '60000' });
    const book = (await call('GET', '/delivery/usdt/account_book')).body;
    expect(book.map((e) => e.type)).toEqual(expect.arrayContaining(['fee', 'dnw']));
    expect((await call('GET', '/delivery/usdt/liquidates')).body).toEqual([]);
    expect((await call('GET', `/delivery/usdt/positions/${WEEKLY}`)).body).toMatchObject({ contract: WEEKLY, size: 3 });
    expect((await call('POST', `/delivery/usdt/positions/${WEEKLY}/leverage`, { query: 'leverage=20' })).body).toMatchObject({ leverage: '20' });
    expect((await call('POST', `/delivery/usdt/positions/${WEEKLY}/margin`, { query: 'change=1' })).status).toBe(200);
    expect((await call('POST', `/delivery/usdt/positions/${WEEKLY}/risk_limit`, { query: 'risk_limit=2000000' })).body)
      .toMatchObject({ risk_limit: '2000000' });
    // Price-triggered orders: create, list, get, cancel, cancel all.
    const trigger = (price: string) => ({ initial: { contract: QUARTERLY, size: 1, price: '0', tif: 'ioc' },
      trigger: { strategy_type: 0, price_type: 0, price, rule: 1 } });
    const made = await call('POST', '/delivery/usdt/price_orders', { body: trigger('70000') });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = String(made.body.id);
    expect((await call('GET', '/delivery/usdt/price_orders', { query: 'status=open' })).body.map((o) => String(o.id))).toEqual([id]);
    expect((await call('GET', '/futures/usdt/price_orders', { query: 'status=open' })).body).toEqual([]);
    expect((await call('GET', `/delivery/usdt/price_orders/${id}`)).body).toMatchObject({ status: 'open' });
    expect((await call('DELETE', `/delivery/usdt/price_orders/${id}`)).body).toMatchObject({ status: 'finished' });
    await call('POST', '/delivery/usdt/price_orders', { body: trigger('71000') });
    expect((await call('DELETE', '/delivery/usdt/price_orders', { query: `contract=${QUARTERLY}` })).body).toHaveLength(1);
    // The perpetual account saw none of it.
    expect((await call('GET', '/futures/usdt/accounts')).body).toMatchObject({ total: '1000', position_margin: '0' });
  });

  it('bad input gets Gate labels and changes nothing', async () => {
    const call = futuresCaller(sim);
    const order = (body: unknown, key?: [string, string]) => () => call('POST', '/delivery/usdt/orders', { body, ...(key === undefined ? {} : { key }) });
    await expectRejected(sim, order({ contract: 'BTC_USDT', size: 1, price: '60000' }), 400, 'CONTRACT_NOT_FOUND');
    await expectRejected(sim, order({ contract: 'BTC_USDT_20260612', size: 1, price: '60000' }), 400, 'CONTRACT_NOT_FOUND');
    await expectRejected(sim, order({ size: 1, price: '60000' }), 400, 'MISSING_REQUIRED_PARAM');
    await expectRejected(sim, order({ contract: WEEKLY, size: 0, price: '60000' }), 400, 'SIZE_TOO_SMALL');
    await expectRejected(sim, order({ contract: WEEKLY, size: 1, price: '60000.05' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, order({ contract: WEEKLY, size: 10_000_000, price: '60000', unknown_key: 1 }), 400, 'SIZE_TOO_LARGE');
    // A user with no delivery account, and a key without the delivery permission.
    await expectRejected(sim, order({ contract: WEEKLY, size: 1, price: '60000' }, ['k3', 's3']), 400, 'USER_NOT_FOUND');
    await expectRejected(sim, order({ contract: WEEKLY, size: 1, price: '60000' }, ['fut', 'futs']), 403, 'FORBIDDEN');
    await expectRejected(sim, () => call('POST', `/futures/usdt/orders`, { body: { contract: WEEKLY, size: 1, price: '60000' } }), 400, 'CONTRACT_NOT_FOUND');
    await expectRejected(sim, () => call('GET', '/delivery/usdt/settlements', { query: 'limit=0' }), 400, 'INVALID_PARAM_VALUE');
    await expectRejected(sim, () => call('POST', '/delivery/usdt/dual_mode', { query: 'dual_mode=true' }), 404, 'NOT_FOUND');
    await expectRejected(sim, () => call('POST', '/delivery/usdt/batch_orders', { body: [] }), 404, 'NOT_FOUND');
  });
});

describe('expiry on the engine clock', () => {
  it('delists, then settles at the mean index of the window: orders cancelled, positions closed, settlements listed', async () => {
    const call = futuresCaller(sim);
    const B: [string, string] = ['k2', 's2'];
    const total = async (key: [string, string]): Promise<Big> => new Big((await call('GET', '/delivery/usdt/accounts', { key })).body.total as string);
    // Into the window: the index is 61000 from here on.
    expect((await simPost(sim, '/sim/futures/prices', { contract: WEEKLY, index: '61000' })).status).toBe(200);
    await clockTo(sim, (WEEKLY_EXPIRE - 300) * 1000);
    const listed = (await call('GET', `/delivery/usdt/contracts/${WEEKLY}`)).body;
    expect(listed).toMatchObject({ in_delisting: true, status: 'delisting' });
    await expectRejected(sim, () => call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, size: 1, price: '61000' } }),
      400, 'CONTRACT_IN_DELISTING');
    // A reduce-only order is accepted (and left open for the expiry to cancel).
    const reduce = await call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, size: 1, price: '55000', reduce_only: true }, key: B });
    expect(reduce.status, JSON.stringify(reduce.body)).toBe(201);
    const before = { a: await total(['k1', 's1']), b: await total(B) };
    await clockTo(sim, (WEEKLY_EXPIRE + 1) * 1000);
    sim.gateway.exchange.assertInvariants();
    const contract = (await call('GET', `/delivery/usdt/contracts/${WEEKLY}`)).body;
    expect(contract).toMatchObject({ settle_price: '61000', status: 'delisted', in_delisting: true });
    expect((await call('GET', '/delivery/usdt/orders', { query: 'status=open' })).body).toEqual([]);
    expect((await call('GET', '/delivery/usdt/orders', { query: 'status=open', key: B })).body).toEqual([]);
    const positions = (await call('GET', '/delivery/usdt/positions')).body.filter((p) => p.contract === WEEKLY);
    expect(positions.every((p) => p.size === 0)).toBe(true);
    // Long 3 at 60000 settled at 61000: + 3 × 0.0001 × 1000 = 0.3, less 0.0015 of 3 × 0.0001 × 61000 (0.02745).
    const value = new Big('0.0003').times(61000);
    const fee = value.times('0.0015');
    const longProfit = value.minus(new Big('0.0003').times(60000));
    expect((await total(['k1', 's1'])).minus(before.a).toFixed(8)).toBe(longProfit.minus(fee).toFixed(8));
    expect((await total(B)).minus(before.b).toFixed(8)).toBe(longProfit.neg().minus(fee).toFixed(8));
    const api = new GateApi.DeliveryApi(gateApiClient(port, 'k1', 's1'));
    const settlements = (await api.listDeliverySettlements('usdt', { contract: WEEKLY })).body;
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({ contract: WEEKLY, size: '3', entryPrice: '60000', settlePrice: '61000', time: WEEKLY_EXPIRE });
    expect(new Big(settlements[0]!.profit!).toFixed(8)).toBe(longProfit.toFixed(8));
    expect(new Big(settlements[0]!.fee!).toFixed(8)).toBe(fee.toFixed(8));
    const closes = (await call('GET', '/delivery/usdt/position_close')).body;
    expect(closes[0]).toMatchObject({ contract: WEEKLY, text: 'delivery', side: 'long' });
    // The quarterly contract trades on.
    expect((await call('GET', `/delivery/usdt/contracts/${QUARTERLY}`)).body).toMatchObject({ status: 'trading', in_delisting: false });
    // Settled contracts take no orders.
    await expectRejected(sim, () => call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, size: -1, price: '61000', reduce_only: true } }),
      400, 'CONTRACT_IN_DELISTING');
  });

  it('a settled contract leaves the contract and ticker lists, as at Gate; its own page and its history stay readable', async () => {
    const call = futuresCaller(sim);
    const names = async (path: string, key: string): Promise<unknown[]> =>
      ((await plainFetch(port, `/api/v4/delivery/usdt/${path}`)).body as J[]).map((c) => c[key]);
    expect(await names('contracts', 'name')).toEqual([QUARTERLY]);
    expect(await names('tickers', 'contract')).toEqual([QUARTERLY]);
    // By name: the delisted contract with its settlement price, its ticker, its book and trades, the user's orders.
    expect((await call('GET', `/delivery/usdt/contracts/${WEEKLY}`)).body).toMatchObject({ name: WEEKLY, status: 'delisted', settle_price: '61000' });
    expect((await plainFetch(port, `/api/v4/delivery/usdt/tickers?contract=${WEEKLY}`)).body).toEqual([expect.objectContaining({ contract: WEEKLY })]);
    expect((await plainFetch(port, `/api/v4/delivery/usdt/trades?contract=${WEEKLY}`)).status).toBe(200);
    const finished = (await call('GET', '/delivery/usdt/orders', { query: `status=finished&contract=${WEEKLY}` })).body;
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.every((o) => o.contract === WEEKLY)).toBe(true);
    expect((await call('GET', '/delivery/usdt/settlements', { query: `contract=${WEEKLY}` })).body).toHaveLength(1);
    // ccxt (default options) loads the markets Gate lists: the settled contract is gone, the quarterly one is there.
    const markets = await ccxtGate(port, 'k1', 's1').loadMarkets();
    expect(Object.keys(markets).filter((s) => s.startsWith('BTC/USDT:USDT-'))).toEqual(['BTC/USDT:USDT-260626']);
  });
});
