// Temp files, Tardis lines and a scripted strategy for market-data replay tests.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openChunks } from '../../src/backtest/csv/chunk-source.js';
import { TARDIS_BOOK_HEADER, TARDIS_TRADES_HEADER, TardisBookReader, TardisTradeReader } from '../../src/backtest/formats/tardis.js';
import type { MdInputs } from '../../src/backtest/md-replay.js';

export const T0 = 1_767_225_600_000_000;

export function tempDirs(): { make: () => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    make: async () => { const d = await mkdtemp(join(tmpdir(), 'ringmatch-md-')); made.push(d); return d; },
    cleanup: async () => { await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true }))); },
  };
}

/** A book row at local time T0 + dt (exchange time 100 µs earlier). */
export const bookRow = (dt: number, snap: boolean, side: 'bid' | 'ask', price: string, amount: string): string =>
  `gate-io,BTC_USDT,${T0 + dt - 100},${T0 + dt},${snap},${side},${price},${amount}`;
export const tradeRow = (dt: number, side: 'buy' | 'sell' | '', price: string, amount: string): string =>
  `gate-io,BTC_USDT,${T0 + dt - 100},${T0 + dt},${dt},${side},${price},${amount}`;

/** Writes the two files (optionally gzipped); returns their paths. */
export async function writeTardis(dir: string, book: readonly string[], trades: readonly string[], gz = false): Promise<{ book: string; trades: string }> {
  const b = `${TARDIS_BOOK_HEADER}\n${book.join('\n')}\n`;
  const t = `${TARDIS_TRADES_HEADER}\n${trades.join('\n')}${trades.length > 0 ? '\n' : ''}`;
  const paths = { book: join(dir, gz ? 'book.csv.gz' : 'book.csv'), trades: join(dir, gz ? 'trades.csv.gz' : 'trades.csv') };
  await writeFile(paths.book, gz ? gzipSync(b) : b);
  await writeFile(paths.trades, gz ? gzipSync(t) : t);
  return paths;
}

/** Readers at price precision 1 and amount precision 3 (the fixtures' scales). */
export async function inputs(paths: { book: string; trades: string }, chunk?: number): Promise<MdInputs> {
  const scales = { priceScale: 1, amountScale: 3 };
  return {
    format: 'tardis',
    trades: new TardisTradeReader(await openChunks(paths.trades, chunk), paths.trades, scales),
    book: new TardisBookReader(await openChunks(paths.book, chunk), paths.book, scales),
  };
}
