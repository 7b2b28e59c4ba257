// Options market maker protection over HTTP with unchanged gate-api (setOptionsMMP, createOptionsOrder with mmp,
// getOptionsMMP, resetOptionsMMP) and ccxt (createOrder with params {mmp: true}): fills of the maker's MMP orders
// past qty_limit freeze its underlying; the options services then cancel its open MMP orders (finish_as
// mmp_cancelled) while its other orders stay; new MMP orders answer RISK_REJECT until frozen_period passes on the
// simulated clock, or until reset; the account shows mmp_enabled. Bad settings answer their label and change
// nothing.
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { ccxtGate, gateApiClient, rejection } from '../support/clients.js';
import { type Call, expectRejected } from './futures-helpers.js';
import { CALL, PUT, simClock, startIndexed } from './options-helpers.js';

let sim: Simulator;
let call: Call;
const B: [string, string] = ['k2', 's2'];

beforeAll(async () => {
  ({ sim, call } = await startIndexed());
});
afterAll(async () => { await sim.close(); });

/** Waits (bounded) until `check` holds: the services act on a freeze right after the command that triggered it. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met in 2 s');
}

describe('options MMP over HTTP', () => {
  it('freezes the maker past qty_limit, cancels its MMP orders, refuses new ones until the frozen period ends', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k2', 's2'));
    const mmp = new GateApi.OptionsMMP();
    mmp.underlying = 'BTC_USDT'; mmp.window = 5000; mmp.frozenPeriod = 3000; mmp.qtyLimit = '4'; mmp.deltaLimit = '100';
    expect((await api.setOptionsMMP(mmp)).body).toMatchObject({ window: 5000, frozenPeriod: 3000, qtyLimit: '4', deltaLimit: '100', triggerTimeMs: 0 });
    expect((await call('GET', '/options/accounts', { key: B })).body).toMatchObject({ mmp_enabled: true });
    expect((await call('GET', '/options/accounts')).body).toMatchObject({ mmp_enabled: false });
    const place = async (body: Record<string, unknown>) => (await call('POST', '/options/orders', { key: B, body })).body;
    const o = new GateApi.OptionsOrder();
    o.contract = CALL; o.size = -3; o.price = '900'; o.mmp = true;
    const a = (await api.createOptionsOrder(o)).body;
    expect(a).toMatchObject({ isMmp: true, mmp: true });
    const b = await place({ contract: PUT, size: -4, price: '300', mmp: true });
    const gate = ccxtGate(sim.server.port, 'k2', 's2');
    await gate.loadMarkets();
    const c = await gate.createOrder('BTC/USDT:USDT-260102-60000-C', 'limit', 'sell', 2, 1000, { mmp: true });
    const plain = await place({ contract: CALL, size: -1, price: '950' });
    expect((await call('GET', `/options/orders/${String(c.id)}`, { key: B })).body).toMatchObject({ is_mmp: true });
    // 3 CALL, then 2 PUT: 5 contracts of MMP fills in the window > 4.
    expect((await call('POST', '/options/orders', { body: { contract: CALL, size: 3, price: '900' } })).status).toBe(201);
    expect((await call('POST', '/options/orders', { body: { contract: PUT, size: 2, price: '300' } })).status).toBe(201);
    const state = (await api.getOptionsMMP({ underlying: 'BTC_USDT' })).body[0]!;
    const nowMs = Math.floor(sim.gateway.clock.nowUs() / 1000);
    expect(state).toMatchObject({ triggerTimeMs: nowMs, frozenUntilMs: nowMs + 3000 });
    const finishAs = async (id: unknown): Promise<unknown> => (await call('GET', `/options/orders/${String(id)}`, { key: B })).body.finish_as;
    await until(async () => (await finishAs(c.id)) === 'mmp_cancelled');
    expect(await finishAs(b.id)).toBe('mmp_cancelled');
    expect(await finishAs(a.id)).toBe('filled');
    expect((await call('GET', `/options/orders/${String(plain.id)}`, { key: B })).body).toMatchObject({ status: 'open', is_mmp: false });
    await expectRejected(sim, () => call('POST', '/options/orders', { key: B, body: { contract: PUT, size: -1, price: '300', mmp: true } }), 400,
      'RISK_REJECT');
    expect(await rejection(api.createOptionsOrder(o))).toEqual([400, 'RISK_REJECT']);
    expect((await call('POST', '/options/orders', { key: B, body: { contract: PUT, size: -1, price: '310' } })).status).toBe(201);
    await simClock(sim, { advance_ms: 3000 });
    expect((await call('POST', '/options/orders', { key: B, body: { contract: PUT, size: -1, price: '320', mmp: true } })).status).toBe(201);
  });

  it('stays frozen with frozen_period 0 until reset', async () => {
    const api = new GateApi.OptionsApi(gateApiClient(sim.server.port, 'k2', 's2'));
    await call('DELETE', '/options/orders', { key: B });
    expect((await call('POST', '/options/mmp', { key: B, body: { underlying: 'BTC_USDT', window: 1000, frozen_period: 0, qty_limit: 1,
      delta_limit: '50' } })).status).toBe(200);
    await call('POST', '/options/orders', { key: B, body: { contract: CALL, size: -2, price: '900', mmp: true } });
    await call('POST', '/options/orders', { body: { contract: CALL, size: 2, price: '900' } });
    const frozen = (await call('GET', '/options/mmp', { key: B })).body[0]!;
    expect(frozen.trigger_time_ms).toBeGreaterThan(0);
    expect(frozen.frozen_until_ms).toBe(0);
    await simClock(sim, { advance_ms: 60_000 });
    await expectRejected(sim, () => call('POST', '/options/orders', { key: B, body: { contract: CALL, size: -1, price: '900', mmp: true } }), 400,
      'RISK_REJECT');
    const reset = new GateApi.OptionsMMPReset();
    reset.underlying = 'BTC_USDT';
    expect((await api.resetOptionsMMP(reset)).body).toMatchObject({ triggerTimeMs: 0, frozenUntilMs: 0, window: 1000 });
    expect((await call('POST', '/options/orders', { key: B, body: { contract: CALL, size: -1, price: '900', mmp: true } })).status).toBe(201);
  });

  it('answers bad settings with their label and changes nothing', async () => {
    const body = { underlying: 'BTC_USDT', window: 10, frozen_period: 5, qty_limit: '1', delta_limit: '1' };
    const cases: [unknown, string, number, string][] = [
      [{ ...body, window: 5001 }, '/options/mmp', 400, 'INVALID_PARAM_VALUE'],
      [{ ...body, window: -1 }, '/options/mmp', 400, 'INVALID_PARAM_VALUE'],
      [{ ...body, frozen_period: 1.5 }, '/options/mmp', 400, 'INVALID_PARAM_VALUE'],
      [{ ...body, qty_limit: '0' }, '/options/mmp', 400, 'INVALID_PARAM_VALUE'],
      [{ ...body, qty_limit: '1.005' }, '/options/mmp', 400, 'INVALID_PARAM_VALUE'],
      [{ ...body, delta_limit: 'x' }, '/options/mmp', 400, 'INVALID_PARAM_VALUE'],
      [{ ...body, delta_limit: undefined }, '/options/mmp', 400, 'MISSING_REQUIRED_PARAM'],
      [{ ...body, underlying: 'ETH_USDT' }, '/options/mmp', 400, 'INVALID_PARAM_VALUE'],
      [{ underlying: 'BTC_USDT' }, '/options/mmp/reset', 400, 'INVALID_PARAM_VALUE'],
      [{}, '/options/mmp/reset', 400, 'MISSING_REQUIRED_PARAM'],
    ];
    for (const [b, path, status, label] of cases) await expectRejected(sim, () => call('POST', path, { body: b }), status, label);
    await expectRejected(sim, () => call('POST', '/options/orders', { body: { contract: CALL, size: 1, price: '1', mmp: 'yes' } }), 400,
      'INVALID_PARAM_VALUE');
  });
});
