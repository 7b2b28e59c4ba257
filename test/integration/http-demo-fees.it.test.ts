// The demo's fees are never rounded away: a minimum-size taker buy (0.0001 ETH on ETH_USDT, 0.001 ETH on
// ETH_BTC) pays its 0.2 % in ETH, exactly, because ETH gets the decimals of the fee rate too
// (src/core/exchange/currency-scales.ts). With only the 4 decimals ETH amounts need, both fees were "0".
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { signedFetch } from '../api/http-helpers.js';

const ALICE = { key: 'demo-alice-key', secret: 'demo-alice-secret' };
let demo: Simulator;
beforeAll(async () => { demo = await startSimulator({ ...DEMO_CONFIG, rate_limits: false }, { host: '127.0.0.1', port: 0 }); });
afterAll(async () => { await demo.close(); });

const call = async (method: string, path: string, query = '', body = ''): Promise<unknown> => {
  const r = await signedFetch(demo.server.port, { ...ALICE, method, path: `/api/v4${path}`, query, body });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
};
const ethAvailable = async (): Promise<string> =>
  ((await call('GET', '/spot/accounts', 'currency=ETH')) as { available: string }[])[0]!.available;

describe('the demo over HTTP', () => {
  it.each([
    // The minimum base amount, at a limit price high enough for the minimum quote amount; it fills at the
    // market maker's ask.
    ['ETH_USDT', '0.0001', '30000', '0.0000002'],
    ['ETH_BTC', '0.001', '0.1', '0.000002'],
  ])('a minimum-size taker buy on %s of %s ETH at %s pays a fee of %s ETH', async (pair, amount, price, fee) => {
    const before = await ethAvailable();
    const order = await call('POST', '/spot/orders', '', JSON.stringify({ currency_pair: pair, side: 'buy', amount, price,
      time_in_force: 'ioc' })) as Record<string, string>;
    expect(order).toMatchObject({ status: 'closed', finish_as: 'filled', filled_amount: amount, fee, fee_currency: 'ETH' });
    const trades = await call('GET', '/spot/my_trades', `currency_pair=${pair}&order_id=${order.id}`) as Record<string, string>[];
    expect(trades.map((t) => [t.role, t.amount, t.fee, t.fee_currency])).toEqual([['taker', amount, fee, 'ETH']]);
    expect(await ethAvailable()).toBe(new Big(before).plus(amount).minus(fee).toFixed());
  });
});
