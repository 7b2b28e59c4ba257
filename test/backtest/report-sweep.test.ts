// The HTML report is self-contained and shows the charts and tables; sweeps run one replay per value on a
// worker pool and give the same runs whatever the worker count.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/backtest/html-report.js';
import { parseReplayArgs } from '../../src/backtest/replay-args.js';
import { configOf, replayOnce } from '../../src/backtest/replay-command.js';
import { withField } from '../../src/backtest/replay-config.js';
import { deterministicJson } from '../../src/backtest/report.js';
import { parseSweep, runSweep, sweepText } from '../../src/backtest/sweep.js';

const FIX = ['--trades', 'test/backtest/fixtures/tardis-trades.csv', '--book', 'test/backtest/fixtures/tardis-book.csv'];
const STRATEGY = ['--strategy', 'src/backtest/strategies/touch-quoter.ts'];
const made: string[] = [];
afterAll(async () => { await Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))); });

describe('HTML report', () => {
  it('is one self-contained document with the charts and tables', async () => {
    const args = parseReplayArgs(['--format', 'tardis', ...FIX, ...STRATEGY]);
    const html = renderHtml(await replayOnce(args, configOf(args)));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<svg /g)).toHaveLength(3);
    for (const title of ['Equity', 'Position (base)', 'Mid price with our fills', 'Users', 'Latency', 'Queue and execution']) expect(html).toContain(title);
    expect(html).not.toMatch(/<script|src="http|href="http/);
  });

  it('renders order-flow reports as tables', async () => {
    const args = parseReplayArgs(['--format', 'lobster', '--messages', 'test/backtest/fixtures/AAPL_2012-06-21_34200000_57600000_message_1.csv']);
    const html = renderHtml(await replayOnce(args, configOf(args)));
    expect(html).toContain('messages_by_type');
    expect(html).not.toContain('<svg');
  });
});

describe('sweeps', () => {
  it('parses key=values and sets dotted fields', () => {
    expect(parseSweep('latency.entry.us=100,1000')).toEqual({ key: 'latency.entry.us', values: [100, 1000] });
    expect(parseSweep('market.fee=0.1,0.2')).toEqual({ key: 'market.fee', values: ['0.1', '0.2'] });
    expect(parseSweep('queue.model=conservative,probabilistic').values).toEqual(['conservative', 'probabilistic']);
    expect(() => parseSweep('latency')).toThrow(/key=v1/);
    expect(withField({ seed: 1 }, 'latency.entry.us', 5)).toEqual({ seed: 1, latency: { entry: { us: 5 } } });
  });

  it('runs one replay per value on the pool, the same as run alone, with files per run', async () => {
    const out = await mkdtemp(join(tmpdir(), 'ringmatch-sweep-'));
    const html = join(await mkdtemp(join(tmpdir(), 'ringmatch-sweep-')), 'html');
    made.push(out, dirname(html));
    const args = parseReplayArgs(['--format', 'tardis', ...FIX, ...STRATEGY, '--sweep', 'market.maker_fee_rate=0,0.1', '--out', out, '--html', html]);
    const r = await runSweep(args, configOf(args), 2);
    expect(r.runs.map((x) => x.value)).toEqual(['0', '0.1']);
    expect(r.table).toHaveLength(2);
    const alone = await replayOnce({ ...args, sweep: undefined }, withField(configOf(args), 'market.maker_fee_rate', '0.1'));
    expect(deterministicJson(r.runs[1]!.report)).toBe(deterministicJson(alone));
    expect(r.runs[0]!.report.state_hash).not.toBe(r.runs[1]!.report.state_hash);
    expect((await readdir(out)).sort()).toEqual(['run-0.json', 'run-1.json']);
    expect((await readdir(html)).sort()).toEqual(['run-0.html', 'run-1.html']);
    expect(sweepText(r)).toContain('| 0.1 |');
  });
});
