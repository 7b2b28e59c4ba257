/**
 * `npm run bench:replay [-- --json] [-- --quick]`: replay throughput.
 *
 * - journal: the exchange-core generator's stream (bench/core/ec-generator.ts, seed 1, 1,000 resting orders,
 *   the ledger on every command) run live through the inline engine with a journal, then replayed from the
 *   file by `replay --format journal` (CRC check, decode, R1 + book + R2 per record); the replay must end at
 *   the live state hash. Decode alone (no engine) is measured too.
 * - tardis CSV: synthetic Tardis files (formats/synthetic-tardis.ts) read and parsed, plain and gzip.
 * - L2 rebuild: the whole market-data replay without a strategy (merge, batches, book updates).
 * - strategy: the same with the example strategy (touch-quoter) trading through the engine.
 * - perpetual: the same data as a perpetual (BTC_USDT on settle usdt) with a derivative_ticker every 100 ms of
 *   exchange time (funding every 60 s), the strategy trading contracts on the futures engine: recorded marks
 *   through the futures services, funding at the recorded times, the liquidator on each mark update. JSON:
 *   its row in `rows`, and `perpetual` (events, rate, ticker rows, fundings paid, liquidations).
 * - sweep: 8 replays of the strategy run over seeds on a piscina pool of 1, 2, … workers (up to the cores).
 *
 * Each figure is the median of 3 passes (1 for sweeps). Peers' published figures are printed beside ours;
 * none of them publishes a reproducible events-per-second replay figure (see the reference's §4).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { openChunks } from '../../src/backtest/csv/chunk-source.js';
import { TardisBookReader } from '../../src/backtest/formats/tardis.js';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import { tardisInputs } from '../../src/backtest/md-inputs.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { parseReplayArgs } from '../../src/backtest/replay-args.js';
import type { ReplayConfig } from '../../src/backtest/replay-config.js';
import { loadStrategy } from '../../src/backtest/strategy.js';
import { runSweep } from '../../src/backtest/sweep.js';
import { SimClock } from '../../src/core/clock.js';
import { Command } from '../../src/core/command.js';
import { defineMarket } from '../../src/core/market.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { readJournal } from '../../src/engine/journal/reader.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor } from '../../src/engine/recovery.js';
import { generateEc } from '../core/ec-generator.js';
import { gcNow, median } from '../core/measure.js';
import { buildEngineStream, ecDefinition } from '../engine/ec-engine-stream.js';
import { machineInfo, machineLines } from '../machine.js';
import { writeSynthetic } from './synthetic-files.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';

exitWithUsage(BENCH_USAGE.replay);

const JSON_OUT = process.argv.includes('--json');
const QUICK = process.argv.includes('--quick');
const CFG = QUICK ? { journal: 300_000, messages: 200_000, passes: 1, sweepMessages: 20_000 } : { journal: 2_000_000, messages: 1_000_000, passes: 3, sweepMessages: 100_000 };
const STRATEGY = 'src/backtest/strategies/touch-quoter.ts';
const STRATEGY_OPTIONS = { size: '0.5', requote_us: 20_000, max_position: '3' };
const log = (s: string): void => { process.stderr.write(`${s}\n`); };
const rate = (n: number, ms: number): number => Math.round(n / (ms / 1000));
const fmt = (n: number): string => n.toLocaleString('en-US');

interface Row { name: string; events: number; events_per_sec: number; passes: number[]; note?: string }
const rows: Row[] = [];

async function passes(name: string, fn: () => Promise<{ events: number; ms: number }>, note?: string): Promise<void> {
  const rates: number[] = [];
  let events = 0;
  for (let p = 0; p < CFG.passes; p++) {
    gcNow();
    const r = await fn();
    events = r.events;
    rates.push(rate(r.events, r.ms));
  }
  const row: Row = { name, events, events_per_sec: median(rates), passes: rates, ...(note === undefined ? {} : { note }) };
  rows.push(row);
  log(`${name}: ${fmt(row.events_per_sec)} events/s (${fmt(events)} events; passes ${rates.map(fmt).join(', ')})${note === undefined ? '' : `; ${note}`}`);
}

/** Runs the EC stream live with a journal; returns the file and the live hash (the stream and engine are dropped). */
async function writeEcJournal(dir: string): Promise<{ file: string; liveHash: string; commands: number }> {
  const def = ecDefinition(1);
  const g = generateEc(defineMarket(def.markets[0]!), { seed: 1, commands: CFG.journal, targetOrders: 1000, users: 1000, semantics: 'native', stp: false });
  const s = buildEngineStream(g.stream, 1, CFG.journal);
  const file = path.join(dir, 'ec.journal');
  const clock = new SimClock(1_767_225_600_000_000);
  const journal = await JournalWriter.open(file, headerFor(def, clock.nowUs()), { fsync: 'never' });
  const live = new InlineEngine(def, { clock, journal });
  const c = new Command();
  for (let i = 0; i < s.length; i++) {
    clock.advanceBy(1);
    live.submit(s.load(i, c));
    if ((i & 65535) === 65535) await live.flush();
  }
  await live.flush();
  await journal.close();
  return { file, liveHash: live.stateHash(), commands: s.length };
}

async function journalBench(dir: string): Promise<void> {
  const { file, liveHash, commands } = await writeEcJournal(dir);
  const bytes = (await stat(file)).size;
  log(`journal: ${fmt(commands)} commands (EC stream + credits), ${(bytes / 2 ** 20).toFixed(1)} MiB, live hash ${liveHash}`);
  await passes('journal replay (decode + engine)', async () => {
    const r = await replayJournal(file);
    if (r.report.state_hash !== liveHash) throw new Error(`replay hash ${r.report.state_hash} != live ${liveHash}`);
    return { events: r.report.events, ms: r.report.timing.wall_ms };
  }, 'ends at the live state hash (checked)');
  await passes('journal decode only (CRC + FlatBuffers)', async () => {
    const t = performance.now();
    const rep = await readJournal(file, () => undefined, { chunkBytes: 4 << 20 });
    return { events: rep.records, ms: performance.now() - t };
  });
}

async function gzipFile(src: string): Promise<string> {
  const dst = `${src}.gz`;
  await pipeline(createReadStream(src), createGzip({ level: 6 }), createWriteStream(dst));
  return dst;
}

async function csvBench(dir: string): Promise<void> {
  const p = await writeSynthetic(dir, CFG.messages, 'main');
  const gz = { book: await gzipFile(p.book), trades: await gzipFile(p.trades) };
  log(`tardis files: book ${((await stat(p.book)).size / 2 ** 20).toFixed(1)} MiB (gzip ${((await stat(gz.book)).size / 2 ** 20).toFixed(1)} MiB), trades ${((await stat(p.trades)).size / 2 ** 20).toFixed(1)} MiB`);
  const readOnly = async (file: string): Promise<{ events: number; ms: number }> => {
    const t = performance.now();
    const r = new TardisBookReader(await openChunks(file), file, { priceScale: 1, amountScale: 3 });
    let n = 0;
    while (await r.fill()) n += r.count;
    return { events: n, ms: performance.now() - t };
  };
  await passes('tardis CSV read + parse (plain)', () => readOnly(p.book), 'incremental_book_L2 rows');
  await passes('tardis CSV read + parse (gzip)', () => readOnly(gz.book), 'incremental_book_L2 rows, zlib inflate included');
  const cfg = { market: { price_precision: 1, amount_precision: 3 } };
  const replay = async (files: { book: string; trades: string }, withStrategy: boolean): Promise<{ events: number; ms: number }> => {
    const strategy = withStrategy ? await loadStrategy(STRATEGY, STRATEGY_OPTIONS) : undefined;
    const r = await runMarketReplay(await tardisInputs(files.trades, files.book, cfg), cfg, strategy);
    return { events: r.report.events, ms: r.report.timing.wall_ms };
  };
  await passes('L2 book rebuild (merge trades + book, plain)', () => replay(p, false), 'rows of both files');
  await passes('L2 book rebuild (gzip)', () => replay(gz, false));
  await passes('market replay with the example strategy (plain)', () => replay(p, true), 'orders, queue model, fills through the engine');
}

/** What the perpetual scenario did (the JSON's `perpetual`). */
let perpetual: Record<string, unknown> | undefined;

async function perpBench(dir: string): Promise<void> {
  const p = await writeSynthetic(dir, CFG.messages, 'perp', true);
  const cfg: ReplayConfig = {
    market: { id: 'BTC_USDT', price_precision: 1, amount_precision: 3 }, contract: { funding_interval: 60 },
    users: [{ uid: 10001, balances: { USDT: '1000000' }, leverage: '10' }],
  };
  const options = { size: '500', requote_us: 20_000, max_position: '3000' };
  let last: Record<string, unknown> = {};
  await passes('perpetual replay with the example strategy (trades + book + derivative_ticker, plain)', async () => {
    const r = await runMarketReplay(await tardisInputs(p.trades, p.book, cfg, undefined, p.ticker), cfg, await loadStrategy(STRATEGY, options));
    const perp = r.report.result.perpetual as { funding: { applied: number; refused: number }; liquidator: { liquidations: number }; prices: { ticker_rows: number } };
    if (perp.funding.refused !== 0) throw new Error(`perpetual bench: ${perp.funding.refused} fundings refused`);
    last = { events: r.report.events, ticker_rows: perp.prices.ticker_rows, fundings: perp.funding.applied, liquidations: perp.liquidator.liquidations,
      state_hash: r.report.state_hash };
    return { events: r.report.events, ms: r.report.timing.wall_ms };
  }, 'futures engine: recorded marks, funding, liquidator on each mark');
  const row = rows[rows.length - 1]!;
  perpetual = { ...last, events_per_sec: row.events_per_sec, passes: row.passes };
}

async function sweepBench(dir: string): Promise<void> {
  const p = await writeSynthetic(dir, CFG.sweepMessages, 'sweep');
  const maxWorkers = Math.max(1, os.cpus().length);
  const counts = [...new Set([1, 2, 4, 8, 16].filter((w) => w <= maxWorkers))];
  for (const w of counts) {
    const args = parseReplayArgs(['--format', 'tardis', '--trades', p.trades, '--book', p.book, '--strategy', STRATEGY, '--sweep', 'seed=1,2,3,4,5,6,7,8']);
    const r = await runSweep(args, { market: { price_precision: 1, amount_precision: 3 }, strategy: { options: STRATEGY_OPTIONS } }, w);
    const events = r.runs.reduce((a, x) => a + x.report.events, 0);
    rows.push({ name: `sweep, 8 runs, ${w} worker${w > 1 ? 's' : ''}`, events, events_per_sec: r.events_per_sec, passes: [r.events_per_sec], note: `${(r.wall_ms / 1000).toFixed(2)} s wall, pool start included` });
    log(`sweep with ${w} workers: ${fmt(r.events_per_sec)} events/s over 8 runs (${(r.wall_ms / 1000).toFixed(2)} s)`);
  }
}

const PEERS = [
  { system: 'hftbacktest', figure: 'one day of Binance-Futures BTCUSDT (Tardis L2 + trades), full queue + latency models: 1 min 49 s wall; no event count published', source: 'examples/Accelerated Backtesting.ipynb' },
  { system: 'nautilus_trader', figure: 'old README claim "500,000+ events/s" (no setup); a user measured ~114–124 events/s on the bundled examples', source: 'nautilus_trader #730' },
  { system: 'OrderBook-rs', figure: 'journal replay ~1.29M events/s at 10K events (Apple M4 Max)', source: 'BENCHMARKS.md' },
  { system: 'exchange-core', figure: '5M ops/s on one order book (risk + matching, no journal; dual Xeon X5690)', source: 'README' },
];

async function main(): Promise<void> {
  const machine = machineInfo();
  log(`ringmatch replay benchmark (${QUICK ? 'quick' : 'full'})\n${machineLines(machine)}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ringmatch-replay-bench-'));
  try {
    await journalBench(dir);
    await csvBench(dir);
    await perpBench(dir);
    await sweepBench(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ machine, quick: QUICK, rows, peers: PEERS, ...(perpetual === undefined ? {} : { perpetual }) })}\n`);
    return;
  }
  const lines = ['', '| scenario | events/s | events | note |', '|---|---:|---:|---|'];
  for (const r of rows) lines.push(`| ${r.name} | ${fmt(r.events_per_sec)} | ${fmt(r.events)} | ${r.note ?? ''} |`);
  lines.push('', 'Peers (published, not measured here):');
  for (const p of PEERS) lines.push(`- ${p.system}: ${p.figure} (${p.source})`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
