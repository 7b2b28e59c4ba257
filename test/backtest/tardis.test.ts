// Tardis CSV reading: exact decimals, headers, chunk boundaries, gzip, errors; the snapshot and
// same-receive-time rules of the book rebuild.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { openChunks } from '../../src/backtest/csv/chunk-source.js';
import { BAD_DECIMAL, decimalsOf, parseScaled } from '../../src/backtest/csv/decimal.js';
import { ReplayDataError } from '../../src/backtest/csv/line-reader.js';
import { generateTardis } from '../../src/backtest/formats/synthetic-tardis.js';
import { TardisBookReader } from '../../src/backtest/formats/tardis.js';
import { L2Book } from '../../src/backtest/l2-book.js';
import type { OrderNote } from '../../src/backtest/market-sim.js';
import type { StrategyContext } from '../../src/backtest/strategy.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { deterministicJson } from '../../src/backtest/report.js';
import { Prng } from '../../src/core/prng.js';
import { bookRow, inputs, T0, tempDirs, tradeRow, writeTardis } from './md-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const scaled = (s: string, scale: number): number => parseScaled(bytes(s), 0, s.length, scale);
const FIXTURES = 'test/backtest/fixtures';

describe('decimal parsing', () => {
  it('is exact at the scale and refuses what would round', () => {
    expect(scaled('60000.1', 1)).toBe(600001);
    expect(scaled('60000.10', 1)).toBe(600001);
    expect(scaled('0.001', 3)).toBe(1);
    expect(scaled('5', 3)).toBe(5000);
    expect(scaled('1e-3', 3)).toBe(1);
    expect(scaled('1.5E2', 0)).toBe(150);
    expect(scaled('-2.5', 1)).toBe(-25);
    expect(scaled('0.0015', 3)).toBeNaN();
    expect(scaled('12a', 0)).toBeNaN();
    expect(scaled('', 0)).toBeNaN();
    expect(scaled('99999999999999999', 0)).toBeNaN();
    expect(Number.isNaN(BAD_DECIMAL)).toBe(true);
    expect(decimalsOf(bytes('1.2300'), 0, 6)).toBe(2);
    expect(decimalsOf(bytes('100'), 0, 3)).toBe(0);
  });
});

describe('Tardis readers', () => {
  it('the shipped fixtures are what the synthetic generator writes (seed 7)', async () => {
    const book: string[] = [];
    const trades: string[] = [];
    const n = generateTardis({ seed: 7, messages: 3000, snapshotEvery: 1500 }, { book: (l) => book.push(l), trade: (l) => trades.push(l) });
    expect(n).toEqual({ bookRows: 5439, tradeRows: 455 });
    expect(`${book.join('\n')}\n`).toBe(await readFile(join(FIXTURES, 'tardis-book.csv'), 'utf8'));
    expect(`${trades.join('\n')}\n`).toBe(await readFile(join(FIXTURES, 'tardis-trades.csv'), 'utf8'));
  });

  it('read the same rows plain, gzipped and across tiny chunks, with CRLF line ends', async () => {
    const dir = await dirs.make();
    const plain = { book: join(FIXTURES, 'tardis-book.csv'), trades: join(FIXTURES, 'tardis-trades.csv') };
    const crlf = join(dir, 'crlf.csv');
    await writeFile(crlf, (await readFile(plain.book, 'utf8')).replaceAll('\n', '\r\n'));
    const gz = join(dir, 'book.csv.gz');
    await writeFile(gz, gzipSync(await readFile(plain.book)));
    const collect = async (path: string, chunk?: number): Promise<number[]> => {
      const r = new TardisBookReader(await openChunks(path, chunk), path, { priceScale: 1, amountScale: 3 });
      const out: number[] = [];
      while (await r.fill()) for (let i = 0; i < r.count; i++) out.push(r.rows.local[i]!, r.rows.side[i]!, r.rows.price[i]!, r.rows.amount[i]!, r.rows.flags[i]!);
      return out;
    };
    const a = await collect(plain.book);
    expect(a.length).toBe(5439 * 5);
    expect(await collect(plain.book, 13)).toEqual(a);
    expect(await collect(crlf, 64)).toEqual(a);
    expect(await collect(gz)).toEqual(a);
  });

  it('replays a gzipped pair to the same state hash and report as the plain pair', async () => {
    const dir = await dirs.make();
    const plain = { book: join(FIXTURES, 'tardis-book.csv'), trades: join(FIXTURES, 'tardis-trades.csv') };
    await copyFile(plain.book, join(dir, 'b.csv'));
    const gz = { book: join(dir, 'book.gz'), trades: join(dir, 'trades.gz') };
    await writeFile(gz.book, gzipSync(await readFile(plain.book)));
    await writeFile(gz.trades, gzipSync(await readFile(plain.trades)));
    const a = await runMarketReplay(await inputs(plain), {}, undefined);
    const b = await runMarketReplay(await inputs(gz), {}, undefined);
    expect(b.report.state_hash).toBe(a.report.state_hash);
    const strip = (s: string): string => s.replace(/"file":"[^"]*"/g, '');
    expect(strip(deterministicJson(b.report))).toBe(strip(deterministicJson(a.report)));
    expect(a.report.events).toBe(5439 + 455);
  });

  it('names the file and line of a bad row', async () => {
    const dir = await dirs.make();
    const p = await writeTardis(dir, [bookRow(0, true, 'bid', '100.0', '1'), bookRow(1, false, 'bid', '100.05', '1')], []);
    await expect(runMarketReplay(await inputs(p), {}, undefined)).rejects.toThrow(/book\.csv:3: price "100\.05"/);
    const q = await writeTardis(dir, [bookRow(0, true, 'middle' as 'bid', '100.0', '1')], []);
    await expect(runMarketReplay(await inputs(q), {}, undefined)).rejects.toBeInstanceOf(ReplayDataError);
  });
});

describe('book rebuild rules', () => {
  it('resets the book when snapshot rows follow updates, and keeps snapshot rows of one message together', async () => {
    const dir = await dirs.make();
    const p = await writeTardis(dir, [
      bookRow(0, true, 'bid', '99.0', '1'), bookRow(0, true, 'ask', '101.0', '2'),
      bookRow(10, false, 'bid', '98.0', '3'), bookRow(20, false, 'ask', '101.0', '0'), bookRow(20, false, 'ask', '102.0', '4'),
      bookRow(30, true, 'bid', '50.0', '5'), bookRow(30, true, 'ask', '60.0', '6'),
      bookRow(40, false, 'bid', '51.0', '1'),
    ], []);
    const { sim, report } = await runMarketReplay(await inputs(p), {}, undefined);
    expect(sim.book.top(5)).toEqual({ bids: [[510, 1000], [500, 5000]], asks: [[600, 6000]] });
    expect(report.result.inputs).toMatchObject({ book: { snapshot_resets: 2 }, batches: 5 });
  });

  it('with snapshots "each", every snapshot message replaces the book (snapshot-only datasets)', async () => {
    const dir = await dirs.make();
    const p = await writeTardis(dir, [
      bookRow(0, true, 'bid', '99.0', '1'), bookRow(0, true, 'ask', '101.0', '2'),
      bookRow(10, true, 'bid', '98.0', '3'), bookRow(10, true, 'ask', '102.0', '4'),
    ], []);
    const flip = await runMarketReplay(await inputs(p), {}, undefined);
    expect(flip.sim.book.levels(1) + flip.sim.book.levels(2)).toBe(4);
    const each = await runMarketReplay(await inputs(p), { snapshots: 'each' }, undefined);
    expect(each.sim.book.top(5)).toEqual({ bids: [[980, 3000]], asks: [[1020, 4000]] });
  });

  it('replays header-only files to an empty report', async () => {
    const dir = await dirs.make();
    const p = await writeTardis(dir, [], []);
    const { report } = await runMarketReplay(await inputs(p), {}, undefined);
    expect(report.events).toBe(0);
    expect(report.result.public).toMatchObject({ best_bid: null, best_ask: null });
  });

  it('applies all rows of one receive time before reading the book', async () => {
    // Our bid at 100 rests; one message briefly shows an ask at 100 and removes it again: no fill.
    const dir = await dirs.make();
    const p = await writeTardis(dir, [
      bookRow(0, true, 'bid', '99.0', '1'), bookRow(0, true, 'ask', '101.0', '1'),
      bookRow(5000, false, 'ask', '100.0', '1'), bookRow(5000, false, 'ask', '100.0', '0'),
      bookRow(9000, false, 'ask', '100.0', '1'),
    ], []);
    const fills: number[] = [];
    const strategy = {
      onStart: (ctx: StrategyContext) => { ctx.place({ side: 'buy', price: '100', amount: '0.5' }); },
      onOrder: (c: { now: number }, n: OrderNote) => { if (n.kind === 'fill') fills.push(n.time, c.now); },
    };
    await runMarketReplay(await inputs(p), {}, strategy);
    // Only the last message (exchange time +8900 µs) fills it; the note reaches the strategy 500 µs later.
    expect(fills).toEqual([T0 + 8900, T0 + 9400]);
  });

  it('orders a trade before the depth update of the same receive time', async () => {
    // Trade at 100 (size 2) and, at the same receive time, the level 100 shrinking from 5 to 3. Our bid
    // rested behind 5: the trade alone moves it to 3 ahead; the depth update must not count the 2 again.
    const dir = await dirs.make();
    const p = await writeTardis(dir, [
      bookRow(0, true, 'bid', '100.0', '5'), bookRow(0, true, 'ask', '101.0', '5'),
      bookRow(5000, false, 'bid', '100.0', '3'), bookRow(7000, false, 'bid', '100.0', '1'),
    ], [tradeRow(5000, 'sell', '100.0', '2'), tradeRow(8000, 'sell', '100.0', '1.5')]);
    const fills: number[] = [];
    const strategy = {
      onStart: (ctx: StrategyContext) => { ctx.place({ side: 'buy', price: '100', amount: '1' }); },
      onOrder: (_c: unknown, n: OrderNote) => { if (n.kind === 'fill') fills.push(n.lots); },
    };
    // Conservative: ahead 5 → 3 (trade) → min(3, 3) → min(3, 1) = 1 → trade 1.5 fills 0.5.
    await runMarketReplay(await inputs(p), {}, strategy);
    expect(fills).toEqual([500]);
  });
});

describe('L2 book', () => {
  it('agrees with a map on random updates', () => {
    const r = new Prng(3);
    const b = new L2Book();
    const ref = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
    for (let i = 0; i < 20_000; i++) {
      const side = 1 + r.nextInt(2);
      const price = 1000 + r.nextInt(300);
      const size = r.chance(0.3) ? 0 : 1 + r.nextInt(100);
      expect(b.set(side, price, size)).toBe(ref[side]!.get(price) ?? 0);
      if (size === 0) ref[side]!.delete(price); else ref[side]!.set(price, size);
    }
    for (const side of [1, 2]) {
      const sorted = [...ref[side]!.entries()].sort((x, y) => (side === 1 ? y[0] - x[0] : x[0] - y[0]));
      expect(b.levels(side)).toBe(sorted.length);
      sorted.forEach(([p, s], k) => { expect(b.priceAt(side, k)).toBe(p); expect(b.sizeAtLevel(side, k)).toBe(s); });
    }
  });
});
