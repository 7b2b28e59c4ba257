// Options on a seeded random stream: orders (gtc, ioc, poc, fok, market, reduce-only, close), amends, cancels, index and
// mark moves, liquidations of accounts at or below maintenance margin (their orders cancelled first) and the
// liquidator's IOC closes, and the expiry of the first expiration (its orders cancelled, then settled at the index).
// After every command the ledger, order and options invariants hold and USDT is conserved (users' options accounts
// + the platform fee account + the options insurance fund + clearing = credits); the same commands replayed on a
// fresh inline engine and on the threaded runner (1 and 2 shards) reach the same state hash.
import { describe, expect, it } from 'vitest';
import { Command } from '../../../src/core/command.js';
import { TimeInForce } from '../../../src/core/matching/order-types.js';
import { isOptionsLiquidatable } from '../../../src/core/options/options-liquidation.js';
import { Prng } from '../../../src/core/prng.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { InlineEngine } from '../../../src/engine/inline-engine.js';
import { ThreadedEngine } from '../../../src/engine/threaded-engine.js';
import { StepClock } from '../../support/pipeline-stream.js';
import { replayThreaded } from '../../support/threaded-replay.js';
import { E1, OptionsDriver, optionsDefinition, T0 } from './options-driver.js';

const USERS = [1, 2, 3, 4];
const STEP = 60_000_000;
const DEF = optionsDefinition(USERS.length);

function run(seed: number, steps: number): { d: OptionsDriver; codes: number[]; stats: Record<string, number> } {
  const d = new OptionsDriver(DEF, new StepClock(T0, STEP));
  const ex = d.ex;
  const cur = ex.currencyIndex('USDT');
  const codes: number[] = [];
  const stats: Record<string, number> = {};
  const submit = d.submit.bind(d);
  d.submit = (c) => {
    const code = submit(c);
    codes.push(code);
    ex.assertInvariants();
    const c0 = ex.ledger.conservation()[cur]!;
    let users = 0n;
    for (const uid of USERS) users += ex.ledger.options.total(uid, cur);
    const fee = BigInt(c0.feeAccount);
    const fund = ex.ledger.options.insuranceFund(cur);
    if (users + fee + fund + c0.clearing !== c0.credits - c0.debits) throw new Error(`USDT not conserved after seq ${c.seq}`);
    return code;
  };
  for (const uid of USERS) d.fund(uid, uid === 4 ? '300' : '20000');
  d.fundInsurance('2000');
  d.index(1_000_000);
  const rng = new Prng(seed);
  const names = ex.options.contracts.map((k) => k.name);
  let settled = false;
  for (let i = 0; i < steps; i++) {
    const now = d.cmd.time;
    if (!settled && now >= E1 * 1e6) {
      for (const uid of USERS) for (const n of names) if (n.includes('-' + dateOf(E1) + '-')) d.cancelAll(uid, n);
      expect(d.settle(E1, ex.options.index[0]!)).toBe(ResultCode.Ok);
      settled = true;
      continue;
    }
    const roll = rng.nextInt(100);
    const uid = USERS[rng.nextInt(USERS.length)]!;
    const name = names[rng.nextInt(names.length)]!;
    if (roll < 8) {
      const size = (rng.nextInt(2) === 0 ? 1 : -1) * (1 + rng.nextInt(10));
      const code = d.marketOrder(uid, name, size, rng.nextInt(2) === 0 ? TimeInForce.Ioc : TimeInForce.Fok);
      stats[code === ResultCode.Ok ? 'market' : 'refused'] = (stats[code === ResultCode.Ok ? 'market' : 'refused'] ?? 0) + 1;
    } else if (roll < 70) {
      const size = (rng.nextInt(2) === 0 ? 1 : -1) * (1 + rng.nextInt(20));
      const price = (1 + rng.nextInt(60)) * 500;
      const tif = 1 + rng.nextInt(4);
      const flags = rng.nextInt(10) === 0 ? 2 : rng.nextInt(10) === 0 ? 1 : 0;
      const code = d.order(uid, name, flags === 2 ? 0 : size, price, { tif, flags });
      stats[code === ResultCode.Ok ? 'placed' : 'refused'] = (stats[code === ResultCode.Ok ? 'placed' : 'refused'] ?? 0) + 1;
    } else if (roll < 85) {
      const open = ex.orders.openOf(uid, d.market(name));
      d.cancel(uid, name, open.length > 0 ? ex.orders.id[open[rng.nextInt(open.length)]!]! : ex.lastOrderId);
    } else if (roll < 86) {
      d.cancelAll(uid, name);
    } else if (roll < 88) {
      const open = ex.orders.openOf(uid, d.market(name));
      const id = open.length > 0 ? ex.orders.id[open[rng.nextInt(open.length)]!]! : ex.lastOrderId;
      const code = d.amend(uid, name, id, rng.nextInt(3) === 0 ? 0 : (1 + rng.nextInt(60)) * 500, rng.nextInt(3) === 0 ? 0 : 1 + rng.nextInt(25));
      if (code === ResultCode.Ok) stats.amends = (stats.amends ?? 0) + 1;
    } else if (roll < 92) {
      d.index(Math.max(1000, ex.options.index[0]! + (rng.nextInt(2001) - 1000) * 10));
    } else if (roll < 97) {
      // A mark anywhere from one tick to well above the index: sellers get liquidated.
      d.mark(name, 1 + rng.nextInt(Math.max(2, ex.options.index[0]! * 4)));
      for (const u of USERS) {
        if (!isOptionsLiquidatable(ex, u, cur)) continue;
        for (const n of names) if (ex.orders.openOf(u, d.market(n)).length > 0) d.cancelAll(u, n);
        if (d.liquidate(u) !== ResultCode.Ok) continue;
        stats.liquidations = (stats.liquidations ?? 0) + 1;
        d.fund(u, '20000'); // the user tops its account up and trades on
      }
    } else {
      const code = d.liquidatorClose(name);
      if (code === ResultCode.Ok) stats.closes = (stats.closes ?? 0) + 1;
    }
  }
  stats.trades = ex.trades.count;
  return { d, codes, stats };
}

function dateOf(e: number): string {
  const x = new Date(e * 1000);
  return `${x.getUTCFullYear()}${String(x.getUTCMonth() + 1).padStart(2, '0')}${String(x.getUTCDate()).padStart(2, '0')}`;
}

describe('options on a random stream', () => {
  const { d, codes, stats } = run(7, 2000);
  const hash = d.engine.stateHash();

  it('trades, settles and conserves USDT after every command', () => {
    expect(stats.placed).toBeGreaterThan(300);
    expect(stats.market).toBeGreaterThan(20);
    expect(stats.trades).toBeGreaterThan(100);
    expect(stats.liquidations).toBeGreaterThan(3);
    expect(stats.closes).toBeGreaterThan(0);
    expect(stats.amends).toBeGreaterThan(5);
    expect(d.ex.options.closes.some((r) => r.text === 'liquidated')).toBe(true);
    expect(d.ex.options.userSettlements.length).toBeGreaterThan(0);
    expect(d.ex.options.settlements.length).toBe(6);
  });

  it('replays to the same state hash on a fresh inline engine', () => {
    const e = new InlineEngine(DEF, { clock: new StepClock(T0, STEP) });
    const got = d.sent.map((c) => e.submit(new Command().copyFrom(c)));
    expect(got).toEqual(codes);
    expect(e.stateHash()).toBe(hash);
  });

  it.each([1, 2])('reaches the same state hash on the threaded runner with %i shard(s)', async (shards) => {
    const engine = ThreadedEngine.start(DEF, { clock: new StepClock(T0, STEP), shards });
    try {
      const got = await replayThreaded(engine, d.sent, 60_000);
      expect(got).toEqual(codes);
      expect(engine.exchange.options.exportData()).toEqual(d.ex.options.exportData());
      expect(await engine.stateHash()).toBe(hash);
    } finally {
      await engine.close();
    }
  });
});
