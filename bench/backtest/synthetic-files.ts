/**
 * Synthetic Tardis files for the replay benchmarks (bench:replay, bench:sweep): `messages` messages of
 * src/backtest/formats/synthetic-tardis.ts (seed 1, a snapshot every 250,000), written as
 * `<tag>-trades.csv` and `<tag>-book.csv` in `dir`, and with `withTicker` a `<tag>-ticker.csv`
 * derivative_ticker (a row every 100 ms of exchange time, funding every 60 s). Lines are written in blocks
 * of 8,192 so memory stays flat whatever the count.
 */
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { generateTardis } from '../../src/backtest/formats/synthetic-tardis.js';

export async function writeSynthetic(dir: string, messages: number, tag: string, withTicker = false): Promise<{ book: string; trades: string; ticker: string }> {
  const p = { book: path.join(dir, `${tag}-book.csv`), trades: path.join(dir, `${tag}-trades.csv`), ticker: path.join(dir, `${tag}-ticker.csv`) };
  const b = createWriteStream(p.book);
  const t = createWriteStream(p.trades);
  const d = createWriteStream(p.ticker);
  let bb: string[] = [];
  let tt: string[] = [];
  let dd: string[] = [];
  const ticker = withTicker ? { tickerEveryUs: 100_000, fundingIntervalS: 60 } : {};
  generateTardis({ seed: 1, messages, snapshotEvery: 250_000, ...ticker }, {
    book: (l) => { bb.push(l); if (bb.length >= 8192) { b.write(`${bb.join('\n')}\n`); bb = []; } },
    trade: (l) => { tt.push(l); if (tt.length >= 8192) { t.write(`${tt.join('\n')}\n`); tt = []; } },
    ...(withTicker ? { ticker: (l: string) => { dd.push(l); if (dd.length >= 8192) { d.write(`${dd.join('\n')}\n`); dd = []; } } } : {}),
  });
  b.end(`${bb.join('\n')}\n`);
  t.end(`${tt.join('\n')}\n`);
  d.end(dd.length === 0 ? '' : `${dd.join('\n')}\n`);
  await Promise.all([b, t, d].map((w) => new Promise<void>((r) => { w.on('finish', () => r()); })));
  return p;
}
