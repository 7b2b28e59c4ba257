// Unchanged clients against the options routes: ccxt's gate class with its DEFAULT options (loadMarkets reads
// spot, swap, future and option markets) and gate-api's OptionsApi; then the simulated clock crosses the first
// expiration and the engine settles it.
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { ccxtGate, gateApiClient } from '../support/clients.js';
import { type Call } from './futures-helpers.js';
import { CALL, EXP1, PUT, simClock, spotTrade, startIndexed } from './options-helpers.js';

let sim: Simulator;
let call: Call;

beforeAll(async () => {
  ({ sim, call } = await startIndexed());
});
afterAll(async () => { await sim.close(); });

describe('ccxt (default options)', () => {
  it('loads spot and option markets, trades an option, reads positions and the options balance', async () => {
    const gate = ccxtGate(sim.server.port, 'k1', 's1');
    const maker = ccxtGate(sim.server.port, 'k2', 's2');
    const markets = await gate.loadMarkets();
    await maker.loadMarkets();
    const options = Object.values(markets).filter((x) => x?.option === true);
    expect(options).toHaveLength(12);
    expect(Object.values(markets).some((x) => x?.spot === true)).toBe(true);
    const symbol = 'BTC/USDT:USDT-260102-60000-C';
    const m = gate.market(symbol);
    expect(m).toMatchObject({ id: CALL, type: 'option', optionType: 'call', strike: 60000, expiry: EXP1 * 1000, settle: 'USDT' });
    expect(m.precision.price).toBe(0.1);

    const sold = await maker.createOrder(symbol, 'limit', 'sell', 4, 2500);
    expect(sold).toMatchObject({ symbol, side: 'sell', amount: 4, price: 2500, status: 'open' });
    const bought = await gate.createOrder(symbol, 'limit', 'buy', 2, 2500);
    expect(bought.id).toBeDefined();
    const positions = await gate.fetchPositions(undefined, { type: 'option' });
    const pos = positions.find((p) => p.symbol === symbol);
    expect(pos?.contracts).toBe(2);
    expect(pos?.side).toBe('long');
    const balance = await gate.fetchBalance({ type: 'option' });
    // 20000 − premium 2 × 0.01 × 2500 (50) − fee min(0.0003 × 2 × 0.01 × 60000, 12.5 % × 50) (0.36)
    expect(balance.USDT?.total).toBeCloseTo(19949.64, 8);
    const open = await maker.fetchOpenOrders(symbol);
    expect(open.map((o) => o.id)).toContain(sold.id);
    const book = await gate.fetchOrderBook(symbol);
    expect(book.asks[0]).toEqual([2500, 2]);
    const ticker = await gate.fetchTicker(symbol);
    expect(ticker).toMatchObject({ symbol, last: 2500, ask: 2500 });
    const trades = await gate.fetchTrades(symbol);
    expect(trades[0]).toMatchObject({ symbol, price: 2500, amount: 2, side: 'buy' });
    const mine = await gate.fetchMyTrades(symbol);
    expect(mine[0]).toMatchObject({ symbol, price: 2500, amount: 2, side: 'buy', takerOrMaker: 'taker' });
    expect(await gate.fetchOrder(bought.id!, symbol)).toMatchObject({ status: 'closed', filled: 2, remaining: 0 });
    const candles = await gate.fetchOHLCV(symbol, '1m', undefined, 1);
    expect(candles.at(-1)?.slice(1)).toEqual([2500, 2500, 2500, 2500, 2]);
    // Market orders: a buy takes the ask, a sell the maker's bid; the position is 2 again.
    const marketBuy = await gate.createOrder(symbol, 'market', 'buy', 1);
    expect(await gate.fetchOrder(marketBuy.id!, symbol)).toMatchObject({ status: 'closed', filled: 1, average: 2500 });
    await maker.createOrder(symbol, 'limit', 'buy', 1, 2400);
    const marketSell = await gate.createOrder(symbol, 'market', 'sell', 1);
    expect(await gate.fetchOrder(marketSell.id!, symbol)).toMatchObject({ status: 'closed', filled: 1, average: 2400 });
    expect((await gate.fetchPosition(symbol)).contracts).toBe(2);
    const cancelled = await maker.cancelOrder(sold.id!, symbol);
    expect(cancelled.status).toBe('canceled');
    const greeks = await gate.fetchGreeks(symbol);
    expect(greeks).toMatchObject({ symbol, markImpliedVolatility: 0.6, underlyingPrice: 60000 });
    expect(greeks.delta).toBeGreaterThan(0.5);
    expect(Object.keys(await gate.fetchOptionChain('BTC'))).toHaveLength(12);
    expect(await gate.fetchUnderlyingAssets()).toEqual(['BTC_USDT']);
    expect(await gate.fetchPosition(symbol)).toMatchObject({ symbol, contracts: 2, side: 'long' });
    const ledger = await gate.fetchLedger('USDT', undefined, undefined, { type: 'option' });
    expect(ledger.map((e) => (e.info as { type: string }).type)).toEqual(expect.arrayContaining(['dnw', 'prem', 'fee']));
  });
});

describe('gate-api OptionsApi', () => {
  it('lists underlyings and contracts, places an order, reads positions and the account', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k1', 's1'));
    const underlyings = (await api.listOptionsUnderlyings()).body;
    expect(underlyings).toEqual([expect.objectContaining({ name: 'BTC_USDT', indexPrice: '60000' })]);
    const contracts = (await api.listOptionsContracts('BTC_USDT')).body;
    expect(contracts.map((c) => c.name)).toContain(PUT);
    const put = contracts.find((c) => c.name === PUT)!;
    expect(put).toMatchObject({ isCall: false, multiplier: '0.01', underlying: 'BTC_USDT', orderPriceRound: '0.1' });
    expect(Number(put.markPrice)).toBeGreaterThan(0);
    const order = new GateApi.OptionsOrder();
    order.contract = PUT;
    order.size = -4;
    order.price = '500';
    order.text = 't-gateapi';
    const placed = (await api.createOptionsOrder(order)).body;
    expect(placed).toMatchObject({ contract: PUT, size: -4, left: -4, price: '500', status: 'open', text: 't-gateapi' });
    const buyer = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k2', 's2'));
    const fill = new GateApi.OptionsOrder();
    fill.contract = PUT;
    fill.size = 4;
    fill.price = '500';
    expect((await buyer.createOptionsOrder(fill)).body).toMatchObject({ status: 'finished', finishAs: 'filled', left: 0 });
    const positions = (await api.listOptionsPositions({ underlying: 'BTC_USDT' })).body;
    expect(positions.find((p) => p.contract === PUT)).toMatchObject({ size: -4, entryPrice: '500' });
    const account = (await api.listOptionsAccount()).body;
    expect(account.currency).toBe('USDT');
    expect(Number(account.initMargin)).toBeGreaterThan(0);
  });
});

describe('gate-api OptionsApi MMP settings', () => {
  it('sets, reads and resets them as engine state', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k2', 's2'));
    const mmp = new GateApi.OptionsMMP();
    mmp.underlying = 'BTC_USDT';
    mmp.window = 5000;
    mmp.frozenPeriod = 200;
    mmp.qtyLimit = '10';
    mmp.deltaLimit = '1.5';
    expect((await api.setOptionsMMP(mmp)).body).toMatchObject({ underlying: 'BTC_USDT', window: 5000, qtyLimit: '10', deltaLimit: '1.5' });
    expect(sim.gateway.exchange.options.mmpOf(10002, 0)).toMatchObject({ window: 5000, frozenPeriod: 200, qtyLimit: 1000, deltaLimit: 150 });
    expect((await api.getOptionsMMP({ underlying: 'BTC_USDT' })).body).toEqual([expect.objectContaining({ frozenPeriod: 200, frozenUntilMs: 0 })]);
    const reset = new GateApi.OptionsMMPReset();
    reset.underlying = 'BTC_USDT';
    expect((await api.resetOptionsMMP(reset)).body).toMatchObject({ underlying: 'BTC_USDT', triggerTimeMs: 0 });
    expect((await new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k1', 's1')).getOptionsMMP()).body).toEqual([]);
  });
});

describe('expiry on the engine clock', () => {
  it('settles in-the-money positions at the mean index of the 30 minutes before expiry when /sim/clock crosses it', async () => {
    const gate = ccxtGate(sim.server.port, 'k1', 's1');
    await gate.loadMarkets();
    const before = (await call('GET', '/options/accounts')).body;
    // Two index samples in [E − 1800 s, E): 62000 and 64000, so the settlement price is 63000. The call 60000 ends
    // 3000 in the money; the put 55000 out of it.
    await spotTrade(call, '62000');
    expect((await simClock(sim, { set_ms: (EXP1 - 900) * 1000 })).status).toBe(200);
    await spotTrade(call, '64000');
    expect((await simClock(sim, { set_ms: (EXP1 - 300) * 1000 })).status).toBe(200);
    const r = await simClock(sim, { set_ms: EXP1 * 1000 + 1000 });
    expect(r.status).toBe(200);
    const settled = (await call('GET', '/options/settlements', { query: 'underlying=BTC_USDT' })).body;
    expect(settled.find((s) => s.contract === CALL)).toMatchObject({ strike_price: '60000', settle_price: '63000' });
    const positions = (await call('GET', '/options/positions')).body;
    expect(positions).toEqual([]);
    const mine = (await call('GET', '/options/my_settlements', { query: 'underlying=BTC_USDT' })).body;
    // 10001 was long 2 calls: 2 × 0.01 × (63000 − 60000) = 60; short 4 puts out of the money: 0
    expect(mine.find((s) => s.contract === CALL)).toMatchObject({ size: 2, settle_profit: '60', settle_price: '63000' });
    expect(mine.find((s) => s.contract === PUT)).toMatchObject({ size: -4, settle_profit: '0' });
    const after = (await call('GET', '/options/accounts')).body;
    expect(Number(after.total) - Number(before.total)).toBeCloseTo(60, 8);
    const contracts = (await call('GET', '/options/contracts', { query: 'underlying=BTC_USDT' })).body;
    expect(contracts).toHaveLength(6); // the second expiration only
    // ccxt's markets loaded before the expiry still name the settled contract: its public settlement history.
    const history = await gate.fetchSettlementHistory('BTC/USDT:USDT-260102-60000-C');
    expect(history).toEqual([expect.objectContaining({ symbol: 'BTC/USDT:USDT-260102-60000-C', price: 63000, timestamp: (EXP1 + 1) * 1000 })]);
  });
});
