// A simulator with perpetual contracts for the public futures tests, and a way to apply engine commands
// (prices, orders) directly through its gateway, so that these tests read the public routes only.
import { Command, CommandType } from '../../src/core/command.js';
import type { ContractConfig } from '../../src/core/futures/contract.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import type { ResultCode } from '../../src/core/result-code.js';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { startTestSimulator, TEST_CONFIG } from './http-helpers.js';

export const LINEAR: ContractConfig = {
  name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
  leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
  risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '3000000', funding_interval: 28800,
  order_size_min: 1, order_size_max: 1_000_000, order_price_deviate: '0.5', orders_limit: 100,
};
export const INVERSE: ContractConfig = {
  name: 'BTC_USD', settle: 'btc', type: 'inverse', order_price_round: '0.5', mark_price_round: '0.01', leverage_min: '1',
  leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.00025', taker_fee_rate: '0.00075', risk_limit_base: '100',
  risk_limit_step: '50', risk_limit_max: '200', order_size_min: 1, order_size_max: 1_000_000, index_source: 'BTC_USDT',
};

/** TEST_CONFIG plus the two contracts, funded futures accounts for 10001 and 10002, and insurance funds. */
export function startFuturesSimulator(overrides: Partial<SimulatorConfig> = {}): Promise<Simulator> {
  const users = TEST_CONFIG.users!.map((u) => (u.uid === 10001 || u.uid === 10002
    ? { ...u, balances: { ...u.balances, futures: { USDT: '100000', BTC: '5' } } } : u));
  // The tests set prices and apply funding themselves: the price clock, funding and liquidator services are off.
  return startTestSimulator({
    users, futures: { contracts: [LINEAR, INVERSE], insurance: { USDT: '50000', BTC: '2' }, clock: { enabled: false } }, ...overrides,
  });
}

/** Applies one command through the simulator's gateway and answers its result code. */
export function apply(sim: Simulator, fill: (c: Command) => void): Promise<ResultCode> {
  const c = new Command();
  fill(c);
  return new Promise((resolve) => { sim.gateway.submit(c, (code) => resolve(code)); });
}

/** The market index of a contract. */
export function contractMarket(sim: Simulator, name: string): number {
  const S = sim.gateway.exchange.futures;
  return S.marketOf[S.contracts.findIndex((c) => c.name === name)]!;
}

/** FuturesSetPrices: mark and index in ticks, the rate in 10^-8. */
export function setPrices(sim: Simulator, name: string, mark: number, index: number, rate = 0): Promise<ResultCode> {
  return apply(sim, (c) => {
    c.type = CommandType.FuturesSetPrices; c.market = contractMarket(sim, name); c.price = mark; c.amount = index; c.iceberg = rate;
  });
}

/** A futures limit order (size signed, price ticks; gtc unless `tif`). */
export function futuresOrder(sim: Simulator, uid: number, name: string, size: number, price: number, tif: number = TimeInForce.Gtc): Promise<ResultCode> {
  const ex = sim.gateway.exchange;
  const ci = ex.futures.contracts.findIndex((k) => k.name === name);
  return apply(sim, (c) => {
    c.type = CommandType.PlaceOrder; c.uid = uid; c.market = ex.futures.marketOf[ci]!; c.kind = AccountKind.Futures;
    c.sub = ex.futures.settleCur[ci]!; c.side = size >= 0 ? Side.Buy : Side.Sell; c.amount = Math.abs(size); c.price = price;
    c.orderType = OrderType.Limit; c.tif = tif;
  });
}

/** FuturesFunding of a contract at `rate` (10^-8); due only once the clock passed the contract's next funding time. */
export function applyFunding(sim: Simulator, name: string, rate: number): Promise<ResultCode> {
  return apply(sim, (c) => { c.type = CommandType.FuturesFunding; c.market = contractMarket(sim, name); c.iceberg = rate; });
}
