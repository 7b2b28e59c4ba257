// Shared by the private futures route tests: a simulator on 127.0.0.1 with a linear USDT contract and an inverse
// BTC one, users with funded futures accounts (10003 has none), a signed caller that can ask for string sizes,
// and a mark-price setter (the price clock is not these tests' subject: it submits FuturesSetPrices directly).
import { expect } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import type { ContractConfig } from '../../src/core/futures/contract.js';
import { parseSignedUnits } from '../../src/core/futures/futures-math.js';
import { ResultCode } from '../../src/core/result-code.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, TEST_CONFIG } from './http-helpers.js';

export const LINEAR: ContractConfig = {
  name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
  leverage_min: '1', leverage_max: '100', maintenance_rate: '0.005', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
  risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '8000000', order_size_min: 1, order_size_max: 100_000, orders_limit: 8,
};
export const INVERSE: ContractConfig = {
  name: 'BTC_USD', settle: 'btc', order_price_round: '0.5', mark_price_round: '0.01', leverage_min: '1', leverage_max: '100',
  maintenance_rate: '0.005', maker_fee_rate: '-0.00025', taker_fee_rate: '0.00075', risk_limit_base: '100', risk_limit_step: '50',
  risk_limit_max: '1000', order_size_min: 1, order_size_max: 1_000_000,
};

export const FUTURES_CONFIG: SimulatorConfig = {
  ...TEST_CONFIG,
  users: [
    { uid: 10001, keys: [{ key: 'k1', secret: 's1', mode: 1, perms: 'all' }],
      balances: { spot: { USDT: '100000', BTC: '2' }, futures: { USDT: '10000', BTC: '1' } } },
    { uid: 10002, keys: [{ key: 'k2', secret: 's2', mode: 1, perms: 'all' }],
      balances: { spot: { USDT: '50000', BTC: '1' }, futures: { USDT: '10000', BTC: '1' } } },
    { uid: 10003, keys: [
      { key: 'k3', secret: 's3', perms: 'all' },
      { key: 'ro', secret: 'ros', perms: [{ name: 'spot', read_only: true }, { name: 'futures', read_only: true }] },
    ], balances: { spot: { USDT: '1000' } } },
    { uid: 10006, keys: [{ key: 'k6', secret: 's6', perms: 'all' }], balances: { futures: { USDT: '50' } } },
    { uid: 20001, main_uid: 10001, keys: [{ key: 'sub1', secret: 'ss1' }], balances: { spot: { USDT: '100' } } },
  ],
  // The price clock, funding and liquidator services are off: these tests set prices themselves.
  futures: { contracts: [LINEAR, INVERSE], insurance: { USDT: '100000', BTC: '10' }, clock: { enabled: false } },
};

export type J = Record<string, unknown>;
export interface Res { status: number; body: J & J[] }
export type Call = (method: string, path: string, opts?: { body?: unknown; query?: string; key?: [string, string]; decimal?: boolean }) => Promise<Res>;

/** A signed caller of `/api/v4{path}`; `decimal` sends X-Gate-Size-Decimal: 1. */
export function futuresCaller(sim: Simulator): Call {
  return async (method, path, opts = {}) => {
    const [key, secret] = opts.key ?? ['k1', 's1'];
    const r = await signedFetch(sim.server.port, {
      method, path: `/api/v4${path}`, query: opts.query, body: opts.body === undefined ? '' : JSON.stringify(opts.body), key, secret,
      headers: opts.decimal === true ? { 'X-Gate-Size-Decimal': '1' } : {},
    });
    return { status: r.status, body: r.body as J & J[] };
  };
}

export async function stateHash(sim: Simulator): Promise<string> {
  const r = await plainFetch(sim.server.port, '/sim/state_hash');
  return (r.body as { state_hash: string }).state_hash;
}

/** Expects `label` with `status`, and the engine state unchanged. */
export async function expectRejected(sim: Simulator, call: () => Promise<Res>, status: number, label: string): Promise<void> {
  const before = await stateHash(sim);
  const r = await call();
  expect(r.body?.label, JSON.stringify(r.body)).toBe(label);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(await stateHash(sim), `state changed by a ${label} rejection`).toBe(before);
}

/** Sets a contract's mark (and index) price through the engine (FuturesSetPrices). */
export function setMark(sim: Simulator, contract: string, price: string): Promise<void> {
  const ex = sim.gateway.exchange;
  const ci = ex.futures.contracts.findIndex((c) => c.name === contract);
  const ticks = Number(parseSignedUnits(price, ex.futures.contracts[ci]!.priceScale));
  const c = new Command();
  c.type = CommandType.FuturesSetPrices;
  c.market = ex.futures.marketOf[ci]!; c.price = ticks; c.amount = ticks;
  return new Promise((resolve, reject) => {
    sim.gateway.submit(c, (code) => (code === ResultCode.Ok ? resolve() : reject(new Error(`FuturesSetPrices: ${code}`))));
  });
}
