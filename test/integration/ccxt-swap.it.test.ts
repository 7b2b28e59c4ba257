// Unchanged ccxt `gate` trading a USDT perpetual the way a bot would, with the futures services running on a
// simulated clock (prices, funding, liquidation) and POST /sim/clock moving it: once with ccxt's default options
// and once with {defaultType: 'swap'}. Every figure is exact: BTC_USDT has a multiplier of 0.0001, a taker fee of
// 0.075 % and a maker rebate of 0.01 %, so 4 contracts at 60000 are worth 24 USDT and cost a taker 0.018.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { type CcxtGate, ccxtGate } from '../support/clients.js';
import { FUTURES_TEST_CONFIG } from '../api/futures-price-orders-config.js';
import { plainFetch, startTestSimulator } from '../api/http-helpers.js';

const S = 'BTC/USDT:USDT';
const START_MS = Date.UTC(2026, 5, 1); // FUTURES_TEST_CONFIG's simulated clock
type J = Record<string, unknown>;

describe.each([
  ['default options', {}],
  ['defaultType swap', { defaultType: 'swap' }],
] as const)('ccxt gate on a perpetual (%s)', (_name, options) => {
  const swapParams: J = 'defaultType' in options ? {} : { type: 'swap' }; // calls without a symbol need it by default
  let sim: Simulator;
  let bot: CcxtGate; // alice, 10001
  let maker: CcxtGate; // bob, 10002: the counterparty
  const post = async (path: string, body: unknown): Promise<J> => {
    const r = await plainFetch(sim.server.port, path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as J;
  };
  const contract = async (): Promise<J> => (await plainFetch(sim.server.port, '/api/v4/futures/usdt/contracts/BTC_USDT')).body as J;

  beforeAll(async () => {
    sim = await startTestSimulator(FUTURES_TEST_CONFIG);
    await post('/sim/futures/prices', { contract: 'BTC_USDT', mark: '60000' });
    bot = ccxtGate(sim.server.port, 'k1', 's1', { ...options });
    maker = ccxtGate(sim.server.port, 'k2', 's2', { ...options });
  });
  afterAll(async () => { await sim.close(); });

  it('loads the markets and reads the futures balance (after /account/detail)', async () => {
    await Promise.all([bot.loadMarkets(), maker.loadMarkets()]);
    expect(Object.keys(bot.markets ?? {}).sort()).toEqual(['BTC/USD:BTC', 'BTC/USDT', 'BTC/USDT:USDT', 'ETH/USDT']);
    expect(bot.market(S)).toMatchObject({ swap: true, linear: true, settle: 'USDT', contractSize: 0.0001, id: 'BTC_USDT' });
    const balance = await bot.fetchBalance({ type: 'swap' });
    expect(bot.options['unifiedAccount']).toBe(false); // read from /account/detail's key.mode (1: classic)
    expect(balance['USDT']).toEqual({ free: 100000, used: 0, total: 100000 });
    // fetchTradingFee on a swap reads /wallet/fee's futures rates (currency_pair = the contract's id): the contract's.
    expect(await bot.fetchTradingFee(S)).toMatchObject({ symbol: S, maker: -0.0001, taker: 0.00075 });
    expect(await bot.fetchTradingFee('BTC/USDT')).toMatchObject({ symbol: 'BTC/USDT', maker: 0.001, taker: 0.002 });
    // Without a pair, `settle` picks the settle currency's first contract (BTC_USD, the default rates).
    const inverse = (await plainFetch(sim.server.port, '/api/v4/futures/btc/contracts/BTC_USD')).body as J;
    const btcFee = await bot.privateWalletGetFee({ settle: 'btc' }) as J;
    expect([btcFee['futures_taker_fee'], btcFee['futures_maker_fee']]).toEqual([inverse['taker_fee_rate'], inverse['maker_fee_rate']]);
    expect(btcFee['futures_taker_fee']).not.toBe('0');
  });

  it('sets isolated and cross leverage, and reads the leverage tiers', async () => {
    const iso = await bot.setLeverage(10, S) as J;
    expect([iso['leverage'], iso['cross_leverage_limit'], iso['pos_margin_mode']]).toEqual(['10', '0', 'isolated']);
    // ccxt asks for cross margin with marginMode 'cross' (leverage=0, cross_leverage_limit=the leverage) ...
    const cross = await bot.setLeverage(20, S, { marginMode: 'cross' }) as J;
    expect([cross['leverage'], cross['cross_leverage_limit'], cross['pos_margin_mode']]).toEqual(['0', '20', 'cross']);
    expect(await bot.fetchPosition(S)).toMatchObject({ marginMode: 'cross', leverage: 0, contracts: 0 });
    // ... or with cross_leverage_limit itself, which wins over the leverage argument.
    const limit = await bot.setLeverage(5, S, { cross_leverage_limit: 25 }) as J;
    expect([limit['leverage'], limit['cross_leverage_limit']]).toEqual(['0', '25']);
    const back = await bot.setLeverage(10, S, { marginMode: 'isolated' }) as J;
    expect([back['leverage'], back['pos_margin_mode']]).toEqual(['10', 'isolated']);
    expect(await bot.fetchPosition(S)).toMatchObject({ marginMode: 'isolated', leverage: 10 });

    if (!('defaultType' in options)) {
      // ccxt's quirk: fetchLeverageTiers picks the market type from its options, not the symbols (spot by default).
      await expect(bot.fetchLeverageTiers([S])).rejects.toThrow(/only supports swap and future/);
    }
    const tiers = await bot.fetchLeverageTiers([S], swapParams);
    expect(tiers[S]!.slice(0, 2).map((t) => [t.tier, t.minNotional, t.maxNotional, t.maintenanceMarginRate, t.maxLeverage]))
      .toEqual([[1, 0, 1000000, 0.005, 100], [2, 1000000, 2000000, 0.01, 50]]);
  });

  let limitId = '';
  let pocId = '';
  it('creates, edits, fetches and cancels a limit order; a post-only order rests', async () => {
    const order = await bot.createOrder(S, 'limit', 'buy', 3, 59000);
    expect(order).toMatchObject({ symbol: S, type: 'limit', side: 'buy', amount: 3, price: 59000, status: 'open', remaining: 3,
      filled: 0, timeInForce: 'GTC', postOnly: false, reduceOnly: false, timestamp: START_MS });
    limitId = order.id!;
    const edited = await bot.editOrder(limitId, S, 'limit', 'buy', 5, 59100);
    expect(edited).toMatchObject({ id: limitId, amount: 5, price: 59100, remaining: 5, status: 'open' });
    expect(await bot.fetchOrder(limitId, S)).toMatchObject({ id: limitId, amount: 5, price: 59100, status: 'open', side: 'buy' });
    expect((await bot.fetchOpenOrders(S)).map((o) => [o.id, o.amount, o.price])).toEqual([[limitId, 5, 59100]]);
    // The order holds its margin: 5 × 0.0001 × 59100 = 29.55 over 10, plus the taker fee on 29.55 (0.0221625).
    expect((await bot.fetchBalance({ type: 'swap' }))['USDT']).toEqual({ free: 99997.0228375, used: 2.9771625, total: 100000 });
    const cancelled = await bot.cancelOrder(limitId, S);
    expect(cancelled).toMatchObject({ id: limitId, status: 'canceled', filled: 0, remaining: 5 });
    expect((await bot.fetchBalance({ type: 'swap' }))['USDT']).toEqual({ free: 100000, used: 0, total: 100000 });

    const poc = await bot.createOrder(S, 'limit', 'sell', 2, 61000, { postOnly: true });
    expect(poc).toMatchObject({ status: 'open', timeInForce: 'PO', postOnly: true, side: 'sell', amount: 2, price: 61000 });
    expect((poc.info as J)['tif']).toBe('poc');
    // A post-only order that would take is refused with Gate's ORDER_POC_IMMEDIATE.
    await maker.createOrder(S, 'limit', 'buy', 1, 60500);
    await expect(bot.createOrder(S, 'limit', 'sell', 1, 60500, { postOnly: true })).rejects.toThrow(/ORDER_POC_IMMEDIATE/);
    await maker.cancelAllOrders(S);
    pocId = poc.id!;
    expect(await bot.cancelOrder(pocId, S)).toMatchObject({ id: pocId, status: 'canceled', postOnly: true });
  });

  it('buys at market, reads the position, reduces it, and places, lists and cancels a stop', async () => {
    await maker.createOrder(S, 'limit', 'sell', 4, 60000);
    const bought = await bot.createOrder(S, 'market', 'buy', 4);
    expect(bought).toMatchObject({ type: 'market', side: 'buy', status: 'closed', amount: 4, filled: 4, remaining: 0, average: 60000,
      cost: 24, timeInForce: 'IOC', reduceOnly: false });
    const pos = await bot.fetchPosition(S);
    expect(pos).toMatchObject({ symbol: S, side: 'long', contracts: 4, contractSize: 0.0001, entryPrice: 60000, markPrice: 60000,
      notional: 24, leverage: 10, marginMode: 'isolated', unrealizedPnl: 0, realizedPnl: -0.018,
      collateral: 2.4, // margin ⌈24 / 10⌉
      initialMargin: 2.418, // 24 / 10 + the closing taker fee
      maintenanceMargin: 0.138, // 24 × (0.005 + 0.00075)
      liquidationPrice: 54312.3 }); // 2.4 + 0.0004 (P − 60000) = 0.0004 P × 0.00575, rounded up to the mark tick
    expect((await bot.fetchPositions([S])).map((p) => [p.symbol, p.side, p.contracts])).toEqual([[S, 'long', 4]]);

    // A stop (triggerPrice: ccxt's stop-loss, a sell at ≤ 56000 on the last price), placed, listed, fetched, cancelled.
    const stop = await bot.createOrder(S, 'limit', 'sell', 1, 55000, { triggerPrice: 56000, reduceOnly: true });
    const open = await bot.fetchOpenOrders(S, undefined, undefined, { stop: true });
    expect(open.map((o) => [o.id, o.status, o.side, o.amount, o.price, o.triggerPrice, o.reduceOnly])).toEqual([
      [stop.id, 'open', 'sell', 1, 55000, 56000, true]]);
    const trigger = (open[0]!.info as { trigger: J }).trigger;
    expect([trigger['rule'], trigger['price_type'], trigger['price']]).toEqual([2, 0, '56000']);
    expect(await bot.fetchOrder(stop.id!, S, { stop: true })).toMatchObject({ id: stop.id, status: 'open', triggerPrice: 56000 });
    expect(await bot.cancelOrder(stop.id!, S, { stop: true })).toMatchObject({ id: stop.id, status: 'canceled' });

    await maker.createOrder(S, 'limit', 'buy', 1, 60000);
    const reduced = await bot.createOrder(S, 'market', 'sell', 1, undefined, { reduceOnly: true });
    expect(reduced).toMatchObject({ status: 'closed', side: 'sell', filled: 1, average: 60000, cost: 6, reduceOnly: true });
    await expect(bot.createOrder(S, 'market', 'sell', 5, undefined, { reduceOnly: true })).rejects.toThrow(/REDUCE_EXCEEDED/);
    expect(await bot.fetchPosition(S)).toMatchObject({ contracts: 3, realizedPnl: -0.0225, collateral: 1.8 });

    const closed = await bot.fetchClosedOrders(S);
    expect(closed.map((o) => [o.id, o.status, o.type, o.side, o.filled])).toEqual([
      [reduced.id, 'closed', 'market', 'sell', 1], [bought.id, 'closed', 'market', 'buy', 4],
      [pocId, 'canceled', 'limit', 'sell', 0], [limitId, 'canceled', 'limit', 'buy', 0]]);
  });

  it('reads the funding rate, is charged funding after the clock passes funding_next_apply, and lists it', async () => {
    await post('/sim/futures/funding_rate', { contract: 'BTC_USDT', rate: '0.0005' });
    const next = (await contract())['funding_next_apply'] as number;
    expect(next * 1000).toBe(START_MS + 8 * 3600_000);
    const rate = await bot.fetchFundingRate(S);
    expect(rate).toMatchObject({ symbol: S, fundingRate: 0.0005, markPrice: 60000, indexPrice: 60000, fundingTimestamp: next * 1000,
      interval: '8h', interestRate: 0.0001 });
    const rates = await bot.fetchFundingRates([S]);
    expect(Object.keys(rates)).toEqual([S]);
    expect(rates[S]).toMatchObject({ fundingRate: 0.0005, fundingTimestamp: next * 1000 });

    await post('/sim/clock', { set_ms: next * 1000 });
    // 3 contracts long × 0.0001 × 60000 × 0.0005 = 0.009 paid; bob's 3 short receive it.
    const paid = await bot.fetchFundingHistory(S);
    expect(paid.map((f) => [f.symbol, f.code, f.timestamp, f.amount])).toEqual([[S, 'USDT', next * 1000, -0.009]]);
    const received = await maker.fetchFundingHistory(S);
    expect(received.map((f) => [f.timestamp, f.amount])).toEqual([[next * 1000, 0.009]]);
    expect(await bot.fetchPosition(S)).toMatchObject({ contracts: 3, realizedPnl: -0.0315 });
    expect((await bot.fetchFundingRate(S)).fundingTimestamp).toBe((next + 8 * 3600) * 1000);
  });

  it('lists its trades with fees, the mark candles and the futures ledger', async () => {
    const trades = await bot.fetchMyTrades(S);
    expect(bot.last_request_url).toMatch(/\/futures\/usdt\/my_trades_timerange\?contract=BTC_USDT/);
    expect(trades.map((t) => [t.symbol, t.side, t.takerOrMaker, t.price, t.amount, t.cost, t.fee?.cost, t.fee?.currency, t.timestamp]))
      .toEqual([[S, 'buy', 'taker', 60000, 4, 24, 0.018, 'USDT', START_MS], [S, 'sell', 'taker', 60000, 1, 6, 0.0045, 'USDT', START_MS]]);
    const makerTrades = await maker.fetchMyTrades(S);
    expect(makerTrades.map((t) => [t.side, t.takerOrMaker, t.amount, t.fee?.cost])).toEqual([
      ['sell', 'maker', 4, -0.0024], ['buy', 'maker', 1, -0.0006]]);

    const candles = await bot.fetchOHLCV(S, '1h', START_MS, 9, { price: 'mark' });
    expect(bot.last_request_url).toMatch(/contract=mark_BTC_USDT/);
    expect(candles.map((c) => c.slice(0, 5))).toEqual(Array.from({ length: 9 }, (_, i) => [START_MS + i * 3600_000, 60000, 60000, 60000, 60000]));

    // No `since`: ccxt's fetchLedger sends it as `from` in milliseconds, where Gate's account_book takes seconds (a
    // 13-digit `from` answers INVALID_PARAM_VALUE here); fetchFundingHistory and fetchMyTrades divide it by 1000.
    const ledger = await bot.fetchLedger('USDT', undefined, undefined, swapParams);
    expect(ledger.map((e) => [e.type, e.direction, e.amount, e.after, e.timestamp])).toEqual([
      ['fee', 'out', 0.0045, 99999.9775, START_MS],
      ['fee', 'out', 0.018, 99999.982, START_MS],
      ['deposit/withdraw', 'in', 100000, 100000, START_MS],
      ['fee', 'out', 0.009, 99999.9685, START_MS + 8 * 3600_000], // ccxt reads Gate's 'fund' as a fee
    ]);
  });

  it('transfers spot → swap and back', async () => {
    const spotBefore = (await bot.fetchBalance({ type: 'spot' }))['USDT']!.total!;
    const swapBefore = (await bot.fetchBalance({ type: 'swap' }))['USDT']!.total!;
    const inTransfer = await bot.transfer('USDT', 100, 'spot', 'swap');
    expect(inTransfer).toMatchObject({ currency: 'USDT' });
    expect((await bot.fetchBalance({ type: 'swap' }))['USDT']!.total).toBeCloseTo(swapBefore + 100, 8);
    await bot.transfer('USDT', 40, 'swap', 'spot');
    expect((await bot.fetchBalance({ type: 'swap' }))['USDT']!.total).toBeCloseTo(swapBefore + 60, 8);
    expect((await bot.fetchBalance({ type: 'spot' }))['USDT']!.total).toBe(spotBefore - 60);
    const dnw = (await bot.fetchLedger('USDT', undefined, undefined, swapParams)).filter((e) => e.type === 'deposit/withdraw');
    // Gate lists the book newest first; ccxt sorts by time, stably, so the two moves of the same second stay newest first.
    expect(dnw.map((e) => [e.direction, e.amount])).toEqual([['in', 100000], ['out', 40], ['in', 100]]);
  });

  it('closes the position', async () => {
    await maker.createOrder(S, 'limit', 'buy', 3, 60000);
    const close = await bot.closePosition(S);
    expect(close).toMatchObject({ type: 'market', side: 'sell', status: 'closed', filled: 3, average: 60000, reduceOnly: true });
    expect((close.info as J)['is_close']).toBe(true);
    const after = await bot.fetchPositions([S]);
    expect(after.map((p) => [p.symbol, p.contracts, p.side])).toEqual([[S, 0, undefined]]);
    expect((await bot.fetchBalance({ type: 'swap' }))['USDT']!.used).toBe(0);
    // The closed position (position_close): fees 0.018 + 0.0045 + 3 × 6 × 0.00075 = 0.036, funding 0.009.
    const history = await bot.fetchPositionsHistory([S]);
    expect(history.map((p) => [p.symbol, p.side, p.contracts, p.realizedPnl, p.timestamp, p.lastUpdateTimestamp])).toEqual([
      [S, 'long', 4, -0.045, START_MS, START_MS + 8 * 3600_000]]);
    expect((history[0]!.info as J)['pnl_fee']).toBe('-0.036');
    const rates = await bot.fetchFundingRateHistory(S);
    expect(rates.map((r) => [r.symbol, r.fundingRate, r.timestamp])).toEqual([[S, 0.0005, START_MS + 8 * 3600_000]]);
  });

  it('fires a stop on the mark price: its market order reduces the position', async () => {
    await maker.createOrder(S, 'limit', 'sell', 2, 60000);
    await bot.createOrder(S, 'market', 'buy', 2);
    const stop = await bot.createOrder(S, 'market', 'sell', 1, undefined, { triggerPrice: 59000, price_type: 1, reduceOnly: true });
    await maker.createOrder(S, 'limit', 'buy', 1, 59000);
    await post('/sim/futures/prices', { contract: 'BTC_USDT', mark: '59000' }); // the trigger fires before the answer
    const fired = await bot.fetchOrder(stop.id!, S, { stop: true });
    expect(fired).toMatchObject({ id: stop.id, status: 'closed', triggerPrice: 59000, side: 'sell', amount: 1 });
    const placed = String((fired.info as J)['trade_id']);
    expect(await bot.fetchOrder(placed, S)).toMatchObject({ id: placed, type: 'market', side: 'sell', status: 'closed', filled: 1,
      average: 59000, reduceOnly: true });
    // 1 of 2 contracts sold at 59000 from an entry of 60000: 0.0001 × −1000 = −0.1, and the fee 5.9 × 0.00075 = 0.004425.
    expect(await bot.fetchPosition(S)).toMatchObject({ contracts: 1, entryPrice: 60000, markPrice: 59000, unrealizedPnl: -0.1,
      realizedPnl: -0.113425 }) // the opening fee 0.009 too;
    const last = (await bot.fetchMyTrades(S)).at(-1)!;
    expect([last.order, last.side, last.price, last.amount, last.fee?.cost]).toEqual([placed, 'sell', 59000, 1, 0.004425]);
  });

  it('is liquidated by the running services when the mark falls through its liquidation price', async () => {
    expect(await bot.fetchPosition(S)).toMatchObject({ contracts: 1, collateral: 0.5, liquidationPrice: 54312.3 });
    await post('/sim/futures/prices', { contract: 'BTC_USDT', mark: '54000' }); // the liquidations it causes run before the answer
    const T8 = START_MS + 8 * 3600_000; // the simulated clock now
    expect(await bot.fetchPosition(S)).toMatchObject({ contracts: 0, markPrice: 54000, collateral: 0 });
    expect((await bot.fetchMyLiquidations(S)).map((l) => [l.symbol, l.contracts, l.price, l.timestamp])).toEqual([[S, 1, 54312.3, T8]]);
    // The liquidator took the position over at its bankruptcy price: its 0.6 margin + 0.0001 × (P − 60000) = 0 ⇒ P = 54000 ...
    const liq = (await bot.fetchClosedOrders(S)).filter((o) => o.clientOrderId === 'liquidation');
    expect(liq.map((o) => [o.status, o.side, o.filled, o.average, (o.info as J)['finish_as'], (o.info as J)['is_liq']])).toEqual([
      ['closed', 'sell', 1, 54000, 'liquidated', true]]);
    const [closedPos] = await bot.fetchPositionsHistory([S]);
    expect([closedPos!.realizedPnl, (closedPos!.info as J)['text'], (closedPos!.info as J)['pnl_pnl']]).toEqual([-0.713425, 'liquidated', '-0.7']);
    expect((await bot.fetchBalance({ type: 'swap' }))['USDT']).toMatchObject({ used: 0, total: 100059.241575 });
    // ... and with no bid in the book, auto-deleveraged it against bob's short at that price. ccxt leaves Gate's
    // finish_as 'auto_deleveraged' unmapped as the order's status (as it would on Gate).
    const adl = (await maker.fetchClosedOrders(S)).filter((o) => o.clientOrderId === 'adl');
    expect(adl.map((o) => [o.status, o.side, o.filled, o.average])).toEqual([['auto_deleveraged', 'buy', 1, 54000]]);
    expect(await maker.fetchPosition(S)).toMatchObject({ contracts: 0 });
    const [makerPos] = await maker.fetchPositionsHistory([S]);
    expect([makerPos!.side, (makerPos!.info as J)['text'], (makerPos!.info as J)['pnl_pnl']]).toEqual(['short', 'adl', '0.7']);
  });

  it('funds the BTC-settled inverse perpetual by transfer and trades it', async () => {
    const I = 'BTC/USD:BTC'; // 1 contract = 1 USD, settled in BTC
    await post('/sim/futures/prices', { contract: 'BTC_USD', mark: '60000' });
    expect(await bot.transfer('BTC', 0.5, 'spot', 'swap')).toMatchObject({ currency: 'BTC' }); // settle=BTC: a new account
    await maker.transfer('BTC', 0.5, 'spot', 'swap');
    expect((await bot.fetchBalance({ type: 'swap', settle: 'btc' }))['BTC']).toEqual({ free: 0.5, used: 0, total: 0.5 });
    await maker.createOrder(I, 'limit', 'sell', 600, 60000);
    const bought = await bot.createOrder(I, 'market', 'buy', 600);
    expect(bought).toMatchObject({ symbol: I, status: 'closed', filled: 600, average: 60000, cost: 0.01 }); // 600 / 60000 BTC
    expect(await bot.fetchPosition(I)).toMatchObject({ symbol: I, side: 'long', contracts: 600, contractSize: 1, entryPrice: 60000,
      notional: 0.01, leverage: 10, collateral: 0.001, realizedPnl: -0.0000075, // the fee 0.01 × 0.00075
      maintenanceMargin: 0.0001075 }); // tier 2 (risk limit 100 over a step of 50): 0.01 × (2 × 0.005 + 0.00075)
    // ccxt's quirk: fetchPositions takes the settle from its params, not the symbols (usdt by default), as on Gate.
    expect(await bot.fetchPositions([I])).toEqual([]);
    expect((await bot.fetchPositions([I], { settle: 'btc' })).map((p) => [p.symbol, p.contracts])).toEqual([[I, 600]]);
    const [trade] = await bot.fetchMyTrades(I);
    expect([trade!.symbol, trade!.amount, trade!.price, trade!.fee?.cost, trade!.fee?.currency]).toEqual([I, 600, 60000, 0.0000075, 'BTC']);
    await maker.createOrder(I, 'limit', 'buy', 600, 60000);
    expect(await bot.closePosition(I)).toMatchObject({ status: 'closed', filled: 600, reduceOnly: true });
    await bot.transfer('BTC', 0.1, 'swap', 'spot');
    expect((await bot.fetchBalance({ type: 'swap', settle: 'btc' }))['BTC']).toEqual({ free: 0.399985, used: 0, total: 0.399985 });
    expect((await bot.fetchBalance({ type: 'spot' }))['BTC']!.total).toBe(1.6);
  });
});
