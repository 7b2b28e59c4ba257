// A seller liquidated over HTTP: an index move (a BTC_USDT spot trade, then the simulated clock) moves the marks;
// /options/accounts shows the figures the big.js oracle computes from the ticker marks, and liq_triggered; once the
// seller's equity is at or below its maintenance margin the options services cancel its orders and the liquidator
// takes its short over at the mark (order is_liq, finish_as liquidated; position_close text liquidated; the
// premium in its account book; the insurance fund's gain on /sim/options; options.liquidates and
// options.position_closes pushed to the seller's socket). USDT is conserved with the fund and clearing, and a
// restart from the journal reads the same on both runners, which reach the same state hash.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { afterAll, describe, expect, it } from 'vitest';
import { INSURANCE_UID } from '../../src/core/ledger/futures-funds.js';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { type Call, type J, stateHash } from './futures-helpers.js';
import { plainFetch } from './http-helpers.js';
import { expectOk as ok, expectSameAfterRestart, journaledConfig, readPaths } from './journal-restart.js';
import { CALL, OPTIONS_CONFIG, optionsCaller, PUT, simClock, spotTrade } from './options-helpers.js';
import { type Frame, nowS, subAuth, TestSocket } from './ws/ws-client.js';

const dir = mkdtempSync(join(tmpdir(), 'options-liquidation-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

const SELLER: [string, string] = ['k2', 's2'];
const CONFIG: SimulatorConfig = {
  ...OPTIONS_CONFIG,
  users: OPTIONS_CONFIG.users!.map((u) => (u.uid === 10002 ? { ...u, balances: { ...u.balances, options: { USDT: '300' } } } : u)),
  options: { ...OPTIONS_CONFIG.options!, insurance: { USDT: '5000' } },
};

/** The oracle of /options/accounts from the account's total, the index and the tickers' marks. */
function oracle(total: string, index: string, positions: { strike: string; size: number; mark: string }[]): J {
  const I = new Big(index);
  let value = new Big(0);
  let mm = new Big(0);
  for (const p of positions) {
    value = value.plus(new Big(p.mark).times('0.01').times(p.size));
    if (p.size >= 0) continue;
    const otm = new Big(p.strike).gt(I) ? new Big(p.strike).minus(I) : new Big(0); // calls
    const a = I.times('0.075').minus(otm);
    const b = I.times('0.05');
    mm = mm.plus((a.gt(b) ? a : b).times('0.01').times(-p.size).round(8, Big.roundUp));
  }
  const equity = new Big(total).plus(value);
  return { total, position_value: value.toFixed(), equity: equity.toFixed(), maint_margin: mm.toFixed(), liq_triggered: equity.lte(mm) && mm.gt(0) };
}

const markOf = async (call: Call, contract: string): Promise<string> =>
  ((await call('GET', '/options/tickers', { query: 'underlying=BTC_USDT' })).body.find((t) => t.name === contract)!.mark_price as string);

/** USDT: the users' options accounts + the platform fee account + the options insurance fund + clearing = supply. */
function expectConserved(sim: Simulator): void {
  const ex = sim.gateway.exchange;
  const cur = ex.currencyIndex('USDT');
  const c = ex.ledger.conservation()[cur]!;
  ex.assertInvariants();
  let options = 0n;
  for (const uid of [10001, 10002, 10003]) options += ex.ledger.options.total(uid, cur);
  expect(ex.ledger.options.insuranceFund(cur)).toBeGreaterThan(0n);
  // Every other USDT record (spot) is counted by the ledger's own identity: accounts + clearing = supply.
  expect(BigInt(c.accounts) + c.clearing).toBe(c.credits - c.debits);
  expect(options + BigInt(c.feeAccount) + ex.ledger.options.insuranceFund(cur) <= BigInt(c.accounts)).toBe(true);
}

describe('an options seller liquidated over HTTP', () => {
  const hashes: string[] = [];
  for (const runner of ['threaded', 'inline'] as const) {
    it(`${runner} runner: liquidates at the maintenance margin, leaves its records, and restarts from the journal the same`, async () => {
      await expectSameAfterRestart(journaledConfig(CONFIG, runner, dir), async (sim) => {
        const call = optionsCaller(sim);
        const socket = await TestSocket.open(sim.server.port, '/v4/ws/options/usdt');
        for (const channel of ['options.liquidates', 'options.position_closes']) {
          const time = nowS();
          const r = await socket.request({ id: channel, time, channel, event: 'subscribe', payload: ['10002', '!all'],
            auth: subAuth(SELLER[0], SELLER[1], channel, 'subscribe', time) });
          expect(r.result).toEqual({ status: 'success' });
        }
        const pushed = (channel: string): Promise<Frame> => socket.next((f) => f.channel === channel && f.event === 'update');
        const fundBefore = ((await plainFetch(sim.server.port, '/sim/options/insurance')).body as J).USDT;
        expect(fundBefore).toBe('5000');
        // Before the first move: the account against the oracle at index 60000.
        await spotTrade(call, '60000');
        await ok(simClock(sim, { advance_ms: 2000 }));
        await ok(call('POST', '/options/orders', { key: SELLER, body: { contract: CALL, size: -2, price: '900' } }));
        await ok(call('POST', '/options/orders', { body: { contract: CALL, size: 2, price: '900' } }));
        await ok(call('POST', '/options/orders', { key: SELLER, body: { contract: PUT, size: 1, price: '1' } }));
        expectConserved(sim);
        const at = async (index: string): Promise<J> => {
          const acct = (await call('GET', '/options/accounts', { key: SELLER })).body;
          expect(acct).toMatchObject(oracle(acct.total as string, index, [{ strike: '60000', size: -2, mark: await markOf(call, CALL) }]));
          return acct;
        };
        expect(await at('60000')).toMatchObject({ total: '317.64', liq_triggered: false, init_margin: '180' });
        // 70000: the call is worth about 10300, equity about 111.6 > maintenance 105 — not liquidated.
        await spotTrade(call, '70000');
        await ok(simClock(sim, { advance_ms: 2000 }));
        expect(await at('70000')).toMatchObject({ total: '317.64', liq_triggered: false, maint_margin: '105' });
        expect((await call('GET', '/options/orders', { key: SELLER, query: 'status=open' })).body).toHaveLength(1);
        expectConserved(sim);
        // 75000: the index step moves the marks, the liquidation scan follows in the same pass.
        await spotTrade(call, '75000');
        const mark = await markOf(call, CALL); // the mark at 70000 still
        await ok(simClock(sim, { advance_ms: 2000 }));
        const newMark = await markOf(call, CALL);
        expect(Number(newMark)).toBeGreaterThan(Number(mark));
        const acct = (await call('GET', '/options/accounts', { key: SELLER })).body;
        const paid = new Big(newMark).times('0.02');
        expect(acct).toMatchObject({ position_value: '0', maint_margin: '0', liq_triggered: false, order_margin: '0',
          total: new Big('317.64').minus(paid).toFixed() });
        expect((await call('GET', '/options/positions', { key: SELLER })).body).toEqual([]);
        expect((await call('GET', '/options/orders', { key: SELLER, query: 'status=open' })).body).toEqual([]);
        const finished = (await call('GET', '/options/orders', { key: SELLER, query: 'status=finished' })).body;
        const liq = finished.find((o) => o.is_liq === true)!;
        expect(liq).toMatchObject({ contract: CALL, size: 2, left: 0, fill_price: newMark, finish_as: 'liquidated', text: 'liquidation' });
        expect(finished.find((o) => o.contract === PUT)).toMatchObject({ finish_as: 'cancelled' });
        const closes = (await call('GET', '/options/position_close', { key: SELLER, query: 'underlying=BTC_USDT' })).body;
        expect(closes[0]).toMatchObject({ contract: CALL, side: 'short', text: 'liquidated', settle_size: '-2',
          pnl: new Big(18).minus('0.36').minus(paid).toFixed() });
        const book = (await call('GET', '/options/account_book', { key: SELLER, query: 'type=prem' })).body;
        expect(book[0]).toMatchObject({ change: paid.neg().toFixed(), type: 'prem', text: `${CALL}:${String(liq.id)}` });
        expect(((await plainFetch(sim.server.port, '/sim/options/insurance')).body as J).USDT).toBe(new Big(5000).plus(paid).toFixed());
        const rows = (await plainFetch(sim.server.port, '/sim/options/liquidations')).body as J[];
        expect(rows[0]).toMatchObject({ user: 10002, contract: CALL, size: -2, price: newMark, order_id: liq.id });
        // Gate's options.liquidates object (the account's margins when taken over, maintenance as the /sim row shows
        // it) and the close, on the seller's socket.
        const liqPush = ((await pushed('options.liquidates')).result as J[])[0]!;
        expect(liqPush).toMatchObject({ user: '10002', order_margin: 0, contract: CALL, size: -2, price: Number(newMark), order_id: liq.id,
          maint_margin: Number(rows[0]!.maint_margin) });
        expect(liqPush.init_margin).toBeGreaterThan(liqPush.maint_margin as number);
        expect(Math.floor((liqPush.time_ms as number) / 1000)).toBe(liqPush.time);
        const closePush = ((await pushed('options.position_closes')).result as J[])[0]!;
        expect(closePush).toMatchObject({ user: '10002', contract: CALL, side: 'short', text: 'liquidated', settle_size: -2,
          pnl: Number(closes[0]!.pnl) });
        socket.close();
        const ex = sim.gateway.exchange;
        expect(ex.options.rows[ex.options.find(INSURANCE_UID, ex.options.contractIndex(CALL))]!.size).toBe(-2);
        expectConserved(sim);
        hashes.push(await stateHash(sim));
      }, async (sim) => readPaths(optionsCaller(sim), ['/options/accounts', '/options/position_close', '/options/orders?status=finished',
        '/options/account_book', '/options/positions'], { hash: await stateHash(sim),
        insurance: (await plainFetch(sim.server.port, '/sim/options/insurance')).body,
        liquidations: (await plainFetch(sim.server.port, '/sim/options/liquidations')).body }));
    });
  }

  it('reaches one state hash on both runners', () => {
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toBe(hashes[1]);
  });
});
