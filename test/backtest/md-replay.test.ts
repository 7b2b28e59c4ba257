// Market-data replay end to end on the shipped fixtures: determinism, the example strategy, latency legs in
// simulated time, and the command line's JSON.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Big from 'big.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderNote } from '../../src/backtest/market-sim.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { parseReplayArgs } from '../../src/backtest/replay-args.js';
import { runReplay } from '../../src/backtest/replay-command.js';
import type { ReplayConfig } from '../../src/backtest/replay-config.js';
import { deterministicJson } from '../../src/backtest/report.js';
import { loadStrategy, type StrategyContext } from '../../src/backtest/strategy.js';
import { bookRow, inputs, T0, tempDirs, writeTardis } from './md-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const FIX = { book: 'test/backtest/fixtures/tardis-book.csv', trades: 'test/backtest/fixtures/tardis-trades.csv' };
const EXAMPLE = 'src/backtest/strategies/touch-quoter.ts';
const CFG: ReplayConfig = {
  users: [{ uid: 10001, balances: { USDT: '1000000', BTC: '10' } }],
  latency: { entry: { type: 'normal', mean_us: 800, std_us: 300, min_us: 50 }, ack: { type: 'uniform', min_us: 100, max_us: 900 } },
  queue: { model: 'probabilistic', power: 2 },
  strategy: { module: EXAMPLE, options: { size: '0.5', requote_us: 20_000, max_position: '3' } },
  sample_us: 100_000,
};

async function runExample(cfg: ReplayConfig): Promise<Awaited<ReturnType<typeof runMarketReplay>>> {
  return runMarketReplay(await inputs(FIX), cfg, await loadStrategy(EXAMPLE, cfg.strategy!.options!));
}

describe('market-data replay', () => {
  it('is deterministic: same inputs and seed give the same state hash and report', async () => {
    const a = await runExample({ ...CFG, seed: 5 });
    const b = await runExample({ ...CFG, seed: 5 });
    expect(b.report.state_hash).toBe(a.report.state_hash);
    expect(deterministicJson(b.report)).toBe(deterministicJson(a.report));
    const c = await runExample({ ...CFG, seed: 6 });
    expect(c.report.state_hash).not.toBe(a.report.state_hash);
    const users = a.report.result.users as { orders: number; maker_fills: number }[];
    expect(users[0]!.orders).toBeGreaterThan(10);
    expect(users[0]!.maker_fills).toBeGreaterThan(0);
    a.sim.engine.assertInvariants();
  });

  it('reports PnL exactly: quote change plus base change marked at the final mid (tick-floored)', async () => {
    const { report } = await runExample({ ...CFG, seed: 2, currencies: [{ code: 'BTC', scale: 8 }] });
    const u = (report.result.users as { balances: Record<string, string>; pnl: string; position_change: string }[])[0]!;
    const pub = report.result.public as { best_bid: string; best_ask: string };
    const mid = new Big(pub.best_bid).plus(pub.best_ask).div(2).round(1, Big.roundDown);
    const expected = new Big(u.balances.USDT!).minus('1000000').plus(new Big(u.balances.BTC!).minus('10').times(mid));
    expect(new Big(u.pnl).eq(expected)).toBe(true);
    expect(new Big(u.position_change).eq(new Big(u.balances.BTC!).minus('10'))).toBe(true);
  });

  it('separates the legs: entry before the exchange sees an order, ack before the strategy hears back', async () => {
    const dir = await dirs.make();
    const p = await writeTardis(dir, [bookRow(0, true, 'bid', '99.0', '1'), bookRow(0, true, 'ask', '101.0', '1'),
      bookRow(50_000, false, 'bid', '99.0', '2')], []);
    const seen: [string, number, number][] = [];
    const strategy = {
      onStart(ctx: StrategyContext) { ctx.place({ side: 'buy', price: '101', amount: '0.4', time_in_force: 'ioc' }); ctx.timer(1000, 3); },
      onOrder(ctx: StrategyContext, n: OrderNote) { seen.push([n.kind, n.time - T0, ctx.now - T0]); },
      onTimer(ctx: StrategyContext, tag: number) { seen.push([`timer${tag}`, 0, ctx.now - T0]); },
    };
    const cfg: ReplayConfig = { latency: { entry: { type: 'constant', us: 700 }, ack: { type: 'constant', us: 300 }, feed: { type: 'recorded' } } };
    await runMarketReplay(await inputs(p), cfg, strategy);
    // The strategy starts at the first message's exchange time (T0 − 100): the order reaches the exchange
    // 700 µs later, the notes come back 300 µs after that; the timer set first runs first at the same time.
    expect(seen).toEqual([
      ['timer3', 0, 900], ['accepted', 600, 900], ['fill', 600, 900], ['finished', 600, 900],
    ]);
  });

  it('prints one JSON document for --format tardis --json', async () => {
    const out = { text: '', write(s: string) { this.text += s; return true; } };
    const err = { isTTY: true, text: '', write(s: string) { this.text += s; return true; } };
    const dir = await dirs.make();
    const cfgPath = join(dir, 'cfg.json');
    await writeFile(cfgPath, JSON.stringify(CFG));
    await runReplay(parseReplayArgs(['--format', 'tardis', '--trades', FIX.trades, '--book', FIX.book, '--config', cfgPath, '--seed', '3', '--json']), { stdout: out, stderr: err });
    expect(err.text).toBe('');
    const doc = JSON.parse(out.text) as { events: number; events_per_sec: number; state_hash: string; result: { models: { seed: number } } };
    expect(doc.events).toBe(5439 + 455);
    expect(doc.events_per_sec).toBeGreaterThan(0);
    expect(doc.state_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(doc.result.models.seed).toBe(3);
  });
});
