// A delivery contract's mark follows Gate's rule (help 17601): index + index × r × T / year, r the reasonable basis
// rate = (impact mid / index − 1) × year / T, computed again about every minute of the engine clock and only while
// the impact spread is below the maintenance rate × index. A book that moves the basis moves the mark at the next
// computation; a book too wide keeps the previous rate (the basis shrinking with T and following the index); the
// contract shows basis_value and basis_rate from the mark. The same run on the inline and the threaded runner, and
// a restart from its journal, reach one state hash.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { clockTo, DELIVERY_CONFIG, simPost, START_MS, WEEKLY, WEEKLY_EXPIRE } from './delivery-helpers.js';
import { type Call, futuresCaller, type J, stateHash } from './futures-helpers.js';
import { expectOk as ok, expectSameAfterRestart, journaledConfig, type Runner } from './journal-restart.js';

const dir = mkdtempSync(join(tmpdir(), 'delivery-mark-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

// Impact value 600 USDT: 100 contracts at about 60000 (quanto 0.0001), so a level of 200 contracts is the impact price.
const CONFIG: SimulatorConfig = {
  ...DELIVERY_CONFIG,
  futures: { ...DELIVERY_CONFIG.futures!, contracts: DELIVERY_CONFIG.futures!.contracts.map((c) => (c.name === WEEKLY ? { ...c, funding_impact_value: '600' } : c)) },
};
const B: [string, string] = ['k2', 's2'];
const YEAR_US = 365n * 86_400_000_000n;
const ONE = 100_000_000n;

/** r = (mid / index − 1) × year / T in 10^-8, half up; prices in ticks of 0.1. */
function rateOf(mid2: bigint, index: bigint, leftUs: bigint): bigint {
  return halfUp((mid2 - 2n * index) * ONE * YEAR_US, 2n * index * leftUs);
}
function halfUp(a: bigint, b: bigint): bigint {
  let q = a / b;
  if (a - q * b < 0n) q -= 1n;
  return (a - q * b) * 2n >= b ? q + 1n : q;
}
/** The mark (decimal text) of index `index` ticks, rate `r` and time left `leftUs`, on the 0.1 mark tick. */
const markOf = (index: bigint, r: bigint, leftUs: bigint): string => new Big((index + halfUp(index * r * leftUs, ONE * YEAR_US)).toString()).div(10).toString();
const leftAt = (ms: number): bigint => BigInt(WEEKLY_EXPIRE) * 1_000_000n - BigInt(ms) * 1000n;

async function contract(call: Call): Promise<J> {
  const r = await call('GET', `/delivery/usdt/contracts/${WEEKLY}`);
  expect(r.status).toBe(200);
  return r.body;
}

/** basis_rate as shown: (mark − index) / index × year / T at `ms`, 8 decimals (truncated toward zero). */
const shownRate = (mark: string, index: string, ms: number): string => {
  const v = new Big(mark).minus(index).times(365 * 86_400).div(new Big(index).times(WEEKLY_EXPIRE - ms / 1000));
  return v.round(8, 0).toFixed(8).replace(/\.?0+$/, '') || '0';
};

/** The scenario; expects each mark on the way; returns nothing (the state is compared by the callers). */
async function scenario(sim: Simulator, check = true): Promise<void> {
  const call = futuresCaller(sim);
  const place = async (body: J, key?: [string, string]): Promise<J> => {
    const r = await call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, tif: 'gtc', ...body }, key });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  const expectMark = async (mark: string, ms: number): Promise<void> => {
    if (!check) return;
    const c = await contract(call);
    expect(c.mark_price, `at +${(ms - START_MS) / 1000} s`).toBe(mark);
    expect(c.basis_value).toBe(new Big(mark).minus(c.index_price as string).toString());
    expect(c.basis_rate).toBe(shownRate(mark, c.index_price as string, ms));
    expect(c.basis_impact_value).toBe('600');
  };
  // An index and an empty book: no basis yet (r = 0).
  expect((await simPost(sim, '/sim/futures/prices', { contract: WEEKLY, index: '60000' })).status).toBe(200);
  await expectMark('60000', START_MS);
  // A book with impact bid 60500 and ask 60700 (spread 200 < 0.005 × 60000 = 300): the minute's computation takes r1.
  const bid = await place({ size: 200, price: '60500' });
  const ask = await place({ size: -200, price: '60700' }, B);
  await clockTo(sim, START_MS + 30_000);
  await expectMark('60000', START_MS + 30_000); // not a minute since the last computation yet
  await clockTo(sim, START_MS + 60_000);
  const r1 = rateOf(2n * 606_000n, 600_000n, leftAt(START_MS + 60_000));
  await expectMark(markOf(600_000n, r1, leftAt(START_MS + 60_000)), START_MS + 60_000);
  expect(markOf(600_000n, r1, leftAt(START_MS + 60_000))).toBe('60600');
  // Too wide: the ask moves to 61000 (spread 500 ≥ 300). A day later the rate is still r1: the basis shrank with T.
  await ok(call('DELETE', `/delivery/usdt/orders/${String(ask.id)}`, { key: B }));
  const wide = await place({ size: -200, price: '61000' }, B);
  const day = START_MS + 86_460_000;
  await clockTo(sim, day);
  await expectMark(markOf(600_000n, r1, leftAt(day)), day);
  // ... and it follows the index: 61000 now, still at r1.
  expect((await simPost(sim, '/sim/futures/prices', { contract: WEEKLY, index: '61000' })).status).toBe(200);
  await expectMark(markOf(610_000n, r1, leftAt(day)), day);
  // Narrow again, around a higher mid: bid 61300, ask 61500 (spread 200 < 0.005 × 61000).
  await ok(call('DELETE', `/delivery/usdt/orders/${String(bid.id)}`));
  await ok(call('DELETE', `/delivery/usdt/orders/${String(wide.id)}`, { key: B }));
  await place({ size: 200, price: '61300' });
  await place({ size: -200, price: '61500' }, B);
  const later = day + 60_000;
  await clockTo(sim, later);
  const r2 = rateOf(613_000n + 615_000n, 610_000n, leftAt(later));
  expect(r2).not.toBe(r1);
  await expectMark(markOf(610_000n, r2, leftAt(later)), later);
}

describe('delivery mark price: Gate\'s reasonable basis', () => {
  it('a book that moves the basis moves the mark at the next computation; a spread too wide keeps the rate', async () => {
    await expectSameAfterRestart(journaledConfig(CONFIG, 'inline', dir), (sim) => scenario(sim), async (sim) => ({ hash: await stateHash(sim) }));
  });

  it('the inline and the threaded runner reach one state hash, and each a restart from its journal', async () => {
    const hashes: Record<string, unknown> = {};
    for (const runner of ['inline', 'threaded'] as Runner[]) {
      const sub = mkdtempSync(join(dir, `${runner}-`));
      const read = await expectSameAfterRestart(journaledConfig(CONFIG, runner, sub), (sim) => scenario(sim, false),
        async (sim) => ({ hash: await stateHash(sim), mark: (await contract(futuresCaller(sim))).mark_price }));
      hashes[runner] = read;
    }
    expect(hashes.threaded).toEqual(hashes.inline);
  });
});
