// Invalid rows in recorded data: strict by default (file, line, reason), and with --skip-invalid every
// reader (Tardis trades and book, Gate dumps, LOBSTER) skips them, counts them by reason, and replays
// exactly what a file without those rows replays.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidRows } from '../../src/backtest/csv/invalid-rows.js';
import { ReplayDataError } from '../../src/backtest/csv/line-reader.js';
import { replayLobster } from '../../src/backtest/lobster-replay.js';
import { gateInputs, tardisInputs } from '../../src/backtest/md-inputs.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { parseReplayArgs } from '../../src/backtest/replay-args.js';
import { runReplay } from '../../src/backtest/replay-command.js';
import type { ReplayConfig } from '../../src/backtest/replay-config.js';
import type { StrategyContext } from '../../src/backtest/strategy.js';
import { bookRow, tempDirs, tradeRow, writeTardis } from './md-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const CFG: ReplayConfig = { market: { price_precision: 1, amount_precision: 3 } };

/** A book around 100/101 and 14 trades; `bad` replaces trade rows by index (0-based; row k is line k + 2). */
function tardisLines(badTrades: Readonly<Record<number, string>> = {}): { book: string[]; trades: string[] } {
  const book = [bookRow(0, true, 'bid', '100.0', '5'), bookRow(0, true, 'ask', '101.0', '5')];
  for (let k = 1; k <= 20; k++) book.push(bookRow(k * 1000, false, k % 2 === 0 ? 'bid' : 'ask', k % 2 === 0 ? '100.0' : '101.0', String(5 + k)));
  const trades: string[] = [];
  for (let k = 0; k < 14; k++) trades.push(badTrades[k] ?? tradeRow(k * 1000 + 500, k % 2 === 0 ? 'sell' : 'buy', k % 2 === 0 ? '100.0' : '101.0', '2'));
  return { book, trades };
}

/** A strategy resting a bid and an ask at the touch, so that public trades fill it. */
const quoter = {
  onStart(ctx: StrategyContext) {
    ctx.place({ side: 'buy', price: '100', amount: '3' });
    ctx.place({ side: 'sell', price: '101', amount: '3' });
  },
};

describe('strict by default', () => {
  it('stops at a zero-amount trade on line 15, naming the file, line and flag', async () => {
    const dir = await dirs.make();
    const { book, trades } = tardisLines({ 13: tradeRow(13_500, 'buy', '101.0', '0') });
    const p = await writeTardis(dir, book, trades);
    const run = runMarketReplay(await tardisInputs(p.trades, p.book, CFG), CFG, undefined);
    await expect(run).rejects.toBeInstanceOf(ReplayDataError);
    await expect(runMarketReplay(await tardisInputs(p.trades, p.book, CFG), CFG, undefined))
      .rejects.toThrow(/trades\.csv:15: trade amount must be positive \(--skip-invalid skips and counts such rows\)/);
  });

  it('refuses what used to pass silently: a zero price, a Gate deal of amount 0, a LOBSTER order without direction', async () => {
    const dir = await dirs.make();
    const { book, trades } = tardisLines({ 2: tradeRow(2500, 'sell', '0', '0.5') });
    const p = await writeTardis(dir, book, trades);
    await expect(runMarketReplay(await tardisInputs(p.trades, p.book, CFG), CFG, undefined)).rejects.toThrow(/trades\.csv:4: price "0" is not a positive decimal/);
    const ob = join(dir, 'ob.csv');
    await writeFile(ob, '1626163200, 2, set,100,5,1,0\n1626163200, 1, set,101,5,1,0\n');
    const deals = join(dir, 'deals.csv');
    await writeFile(deals, '1626163201, 9, 100, 0, 1\n');
    await expect(runMarketReplay(await gateInputs('spot', deals, ob, {}), {}, undefined)).rejects.toThrow(/deals\.csv:1: trade amount must be positive/);
    const lob = join(dir, 'X_2020-01-02_0_0_message_1.csv');
    await writeFile(lob, '1.0,1,1,10,100000,1\n1.1,1,2,10,100000,0\n');
    await expect(replayLobster(lob, {})).rejects.toThrow(/_1\.csv:2: direction 0 is neither 1 nor -1/);
  });
});

describe('--skip-invalid', () => {
  it('Tardis: skips and counts by reason, and replays exactly what the file without those rows replays', async () => {
    const dir = await dirs.make();
    const good = tardisLines();
    const badTrades = {
      3: tradeRow(3500, 'buy', '101.0', '0'),
      6: tradeRow(6500, 'buy', '101.0', '-1'),
      9: 'gate-io,BTC_USDT,1,2,3,buy,101.0',
      12: tradeRow(12_500, 'sell', 'abc', '0.5'),
    };
    const bad = tardisLines(badTrades);
    // Book rows with a bad side, a zero price, a negative amount, too many decimals and a bad timestamp.
    bad.book.splice(5, 0, bookRow(4500, false, 'bud' as 'bid', '100.0', '1'), bookRow(4600, false, 'bid', '0', '1'),
      bookRow(4700, false, 'ask', '101.0', '-2'), bookRow(4800, false, 'ask', '101.05', '1'), 'gate-io,BTC_USDT,x,1,false,bid,100.0,1');
    const dropped = { book: good.book, trades: good.trades.filter((_, k) => !(k in badTrades)) };
    const a = await writeTardis(await dirs.make(), dropped.book, dropped.trades);
    const b = await writeTardis(dir, bad.book, bad.trades);
    const invalid = new InvalidRows();
    const skipped = await runMarketReplay(await tardisInputs(b.trades, b.book, CFG, invalid), CFG, quoter);
    const clean = await runMarketReplay(await tardisInputs(a.trades, a.book, CFG), CFG, quoter);
    expect(skipped.report.result.skipped_rows).toEqual({
      total: 9,
      by_reason: { amount_not_positive: 2, bad_price: 2, bad_side: 1, bad_timestamp: 1, field_count: 1, negative_amount: 1, price_precision: 1 },
      examples: [
        'trades.csv:5: trade amount must be positive',
        'trades.csv:11: expected 8 fields (exchange,symbol,timestamp,local_timestamp,id,side,price,amount), got 7',
        'trades.csv:14: price "abc" is not a positive decimal',
        'book.csv:7: side is neither bid nor ask',
        'book.csv:8: price "0" is not a positive decimal',
        'book.csv:9: negative amount',
        'book.csv:10: price "101.05" has more than 1 decimals (set price_precision)',
        'book.csv:11: timestamp "x" is not an integer',
      ],
    });
    expect(skipped.report.state_hash).toBe(clean.report.state_hash);
    expect(skipped.report.events).toBe(clean.report.events);
    const fills = (r: typeof clean): number => (r.report.result.users as { maker_fills: number }[])[0]!.maker_fills;
    expect(fills(clean)).toBeGreaterThan(0);
    expect(fills(skipped)).toBe(fills(clean));
    expect(clean.report.result.skipped_rows).toEqual({ total: 0, by_reason: {}, examples: [] });
  });

  it('Gate spot and futures dumps: skips bad rows of both files', async () => {
    const dir = await dirs.make();
    const ob = join(dir, 'ob.csv');
    await writeFile(ob, '1626163200, 2, set,100,5,1,0\n1626163200, 1, set,101,5,1,0\n1626163201, 3, make,100,1,2,1\n'
      + '1626163201, 2, cancel,100,1,2,1\n1626163202, 2, make,100,-1,3,1\n1626163202, 2, make,100,2,3,1\n');
    const deals = join(dir, 'deals.csv');
    await writeFile(deals, '1626163201, 9, 100, 0, 1\n1626163201.5, 10, 100, 0.5\n1626163202, 11, 100, 1, 1\n');
    const invalid = new InvalidRows();
    const { sim, report } = await runMarketReplay(await gateInputs('spot', deals, ob, {}, invalid), {}, undefined);
    expect(report.result.skipped_rows).toMatchObject({ total: 5, by_reason: { amount_not_positive: 1, bad_action: 1, bad_side: 1, field_count: 1, negative_amount: 1 } });
    expect(sim.book.top(2)).toEqual({ bids: [[100, 20]], asks: [[101, 50]] });
    expect(report.result.public).toMatchObject({ trades: 1, volume: '1' });

    const fob = join(dir, 'fob.csv');
    await writeFile(fob, '1626166800,set,2656.1,2000,1,0\n1626166800,set,2660.0,-1000,1,0\n1626166800.1,make,-5,300,3,1\n1626166800.x,make,2655.0,300,3,1\n');
    const ftr = join(dir, 'ftrades.csv');
    await writeFile(ftr, '1626166800.1, 5427, 2656.1, 0\n1626166800.2, 5428, 2656.1, -20\n');
    const fut = await runMarketReplay(await gateInputs('futures', ftr, fob, {}, new InvalidRows()), {}, undefined);
    expect(fut.report.result.skipped_rows).toMatchObject({ total: 3, by_reason: { amount_not_positive: 1, bad_price: 1, bad_timestamp: 1 } });
    expect(fut.report.result.public).toMatchObject({ trades: 1, volume: '20' });
  });

  it('LOBSTER: skips bad messages; an undefined type is counted as other, never read as a delete', async () => {
    const dir = await dirs.make();
    const p = join(dir, 'X_2020-01-02_0_0_message_1.csv');
    const good = ['1.0,1,1,10,100000,1', '1.1,1,2,10,100100,-1', '1.2,4,1,4,100000,1'];
    const bad = ['1.05,1,3,0,100000,1', '1.06,1,4,5,-100,1', '1.07,1,5,5,100000,2', '1.08,x,5,5,100000,1', 'a,1,6,5,100000,1', '1.09,1,7', '1.15,0,1,10,100000,1'];
    await writeFile(p, `${[good[0], ...bad, good[1], good[2]].join('\n')}\n`);
    const invalid = new InvalidRows();
    const { report, engine } = await replayLobster(p, {}, undefined, invalid);
    expect(report.result.skipped_rows).toMatchObject({
      total: 6, by_reason: { amount_not_positive: 1, bad_number: 1, bad_price: 1, bad_side: 1, bad_timestamp: 1, field_count: 1 },
    });
    expect(report.result).toMatchObject({ messages_by_type: { add: 2, execute: 1, delete: 0, other: 1 }, engine_trades: 1, resting_orders: 2, unknown_orders: 0 });
    const q = join(await dirs.make(), 'X_2020-01-02_0_0_message_1.csv');
    await writeFile(q, `${[good[0], '1.15,0,1,10,100000,1', good[1], good[2]].join('\n')}\n`);
    expect((await replayLobster(q, {})).report.state_hash).toBe(engine.stateHash());
  });

  it('on the command line: the JSON result and the summary list skipped rows by reason; journals refuse the flag', async () => {
    const dir = await dirs.make();
    const { book, trades } = tardisLines({ 13: tradeRow(13_500, 'buy', '101.0', '0') });
    const p = await writeTardis(dir, book, trades);
    const io = () => ({ stdout: { text: '', write(s: string) { this.text += s; return true; } }, stderr: { write: () => true } });
    const json = io();
    const argv = ['--format', 'tardis', '--trades', p.trades, '--book', p.book, '--skip-invalid'];
    await runReplay(parseReplayArgs([...argv, '--json']), json);
    const doc = JSON.parse(json.stdout.text) as { result: { skipped_rows: unknown } };
    expect(doc.result.skipped_rows).toEqual({ total: 1, by_reason: { amount_not_positive: 1 }, examples: ['trades.csv:15: trade amount must be positive'] });
    const text = io();
    await runReplay(parseReplayArgs(argv), text);
    expect(text.stdout.text).toContain('skipped rows: 1 (amount_not_positive 1)');
    expect(text.stdout.text).toContain('trades.csv:15: trade amount must be positive');
    expect(parseReplayArgs(argv).skipInvalid).toBe(true);
    expect(parseReplayArgs(argv.slice(0, -1)).skipInvalid).toBeUndefined();
    expect(() => parseReplayArgs(['--format', 'journal', '--journal', 'j', '--skip-invalid'])).toThrow(/checksummed/);
  });
});
