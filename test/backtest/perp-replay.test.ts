// Perpetual market-data replays: the Tardis derivative_ticker reader, and replays on the real futures engine —
// recorded marks and funding applied through the futures services' commands, the liquidator run on mark updates,
// money conserved (insurance fund included), and the same state hash on every run.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Big from 'big.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openChunks } from '../../src/backtest/csv/chunk-source.js';
import { InvalidRows } from '../../src/backtest/csv/invalid-rows.js';
import { generateTardis } from '../../src/backtest/formats/synthetic-tardis.js';
import { TARDIS_TICKER_HEADER, TardisTickerReader } from '../../src/backtest/formats/tardis-ticker.js';
import type { MarketSim } from '../../src/backtest/market-sim.js';
import { gateInputs, tardisInputs } from '../../src/backtest/md-inputs.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { parseReplayArgs } from '../../src/backtest/replay-args.js';
import { configOf } from '../../src/backtest/replay-command.js';
import type { ReplayConfig } from '../../src/backtest/replay-config.js';
import { deterministicJson } from '../../src/backtest/report.js';
import { renderHtml } from '../../src/backtest/html-report.js';
import { summary } from '../../src/backtest/replay-summary.js';
import { loadStrategy, type StrategyContext } from '../../src/backtest/strategy.js';
import { bookRow, T0, tempDirs, writeTardis } from './md-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const FIX = 'test/backtest/fixtures';
const PERP = { trades: join(FIX, 'perp-trades.csv'), book: join(FIX, 'perp-book.csv'), ticker: join(FIX, 'perp-ticker.csv') };

/** A derivative_ticker row at local time T0 + dt (exchange time 100 µs earlier). */
const tickerRow = (dt: number, fundingDt: number | '', rate: string, index: string, mark: string): string =>
  `binance-futures,BTCUSDT,${T0 + dt - 100},${T0 + dt},${fundingDt === '' ? '' : T0 + fundingDt},${rate},${rate},100,${index},${index},${mark}`;

async function readTicker(path: string, priceScale = 1, chunk?: number, invalid?: InvalidRows): Promise<number[][]> {
  const r = new TardisTickerReader(await openChunks(path, chunk), path, priceScale).skipInvalidInto(invalid);
  const out: number[][] = [];
  const R = r.rows;
  while (await r.fill()) for (let i = 0; i < r.count; i++) out.push([R.exch[i]!, R.local[i]!, R.fundingTs[i]!, R.fundingRate[i]!, R.index[i]!, R.mark[i]!, R.last[i]!]);
  return out;
}

/** Per settle currency: Σ futures accounts (liquidity account and users) + fee account + insurance fund + clearing = supply. */
function expectConserved(sim: MarketSim, uids: readonly number[]): void {
  const ex = sim.engine.exchange;
  const cur = ex.currencyIndex('USDT');
  const L = ex.ledger.futures;
  const c = ex.ledger.conservation()[cur]!;
  let users = 0n;
  for (const uid of [1, ...uids]) users += L.total(uid, cur);
  expect(users + BigInt(c.feeAccount) + L.insuranceFund(cur) + c.clearing).toBe(c.credits - c.debits);
  for (const uid of uids) {
    const a = ex.futures.account(uid, cur);
    expect(L.total(uid, cur), `history of ${uid}`).toBe(a.dnw + a.pnl + a.fee + a.fund);
  }
  sim.engine.assertInvariants();
}

describe('Tardis derivative_ticker reader', () => {
  it('the shipped perpetual fixtures are what the synthetic generator writes (seed 11), and the ticker does not change the other files', async () => {
    const book: string[] = [];
    const trades: string[] = [];
    const ticker: string[] = [];
    const o = { seed: 11, messages: 3000, snapshotEvery: 1500, maxStepUs: 200_000, tickerEveryUs: 1_000_000, fundingIntervalS: 60,
      symbol: 'BTCUSDT', exchange: 'binance-futures' };
    const n = generateTardis(o, { book: (l) => book.push(l), trade: (l) => trades.push(l), ticker: (l) => ticker.push(l) });
    expect(n).toEqual({ bookRows: 5465, tradeRows: 458, tickerRows: 302 });
    expect(`${book.join('\n')}\n`).toBe(await readFile(PERP.book, 'utf8'));
    expect(`${trades.join('\n')}\n`).toBe(await readFile(PERP.trades, 'utf8'));
    expect(`${ticker.join('\n')}\n`).toBe(await readFile(PERP.ticker, 'utf8'));
    const alone: string[] = [];
    generateTardis(o, { book: (l) => alone.push(l), trade: () => undefined });
    expect(alone).toEqual(book);
  });

  it('reads prices as ticks and rates as 10^-8, rounding finer values; empty fields are NaN; plain, gzip and tiny chunks agree', async () => {
    const dir = await dirs.make();
    const lines = [TARDIS_TICKER_HEADER,
      tickerRow(0, 60_000_000, '0.00010000', '100.04', '100.05'),
      tickerRow(1000, 60_000_000, '-0.000123456', '100.1', '99.96'),
      `binance-futures,BTCUSDT,${T0 + 1900},${T0 + 2000},,,,,,,100.2`,
      tickerRow(3000, 60_000_000, '1e-5', '100', '100')];
    const plain = join(dir, 't.csv');
    await writeFile(plain, `${lines.join('\n')}\n`);
    const rows = await readTicker(plain);
    expect(rows.map((r) => r.slice(2))).toEqual([
      [T0 + 60_000_000, 10_000, 1000, 1001, 1000],
      [T0 + 60_000_000, -12_346, 1001, 1000, 1001],
      [Number.NaN, Number.NaN, Number.NaN, 1002, Number.NaN],
      [T0 + 60_000_000, 1000, 1000, 1000, 1000],
    ]);
    const gz = join(dir, 't.csv.gz');
    await writeFile(gz, gzipSync(await readFile(plain)));
    expect(await readTicker(gz)).toEqual(rows);
    expect(await readTicker(plain, 1, 7)).toEqual(rows);
  });

  it('refuses invalid rows with file and line, or skips and counts them', async () => {
    const dir = await dirs.make();
    const path = join(dir, 't.csv');
    await writeFile(path, [TARDIS_TICKER_HEADER, tickerRow(0, 60_000_000, '0.0001', '100', '100'), 'a,b,c',
      tickerRow(1000, 60_000_000, '0.0001', '100', '-5'), tickerRow(2000, 60_000_000, 'x', '100', '100'),
      `binance-futures,BTCUSDT,t,${T0},,,,,,,100`, tickerRow(3000, 60_000_000, '0.0001', '100', '100')].join('\n'));
    await expect(readTicker(path)).rejects.toThrow(/t\.csv:3: expected 11 fields/);
    const invalid = new InvalidRows();
    expect((await readTicker(path, 1, undefined, invalid)).length).toBe(2);
    expect(invalid.report().by_reason).toEqual({ bad_number: 1, bad_price: 1, bad_timestamp: 1, field_count: 1 });
  });

  it('--ticker goes with --format tardis or Gate futures dumps', () => {
    expect(parseReplayArgs(['--format', 'tardis', '--trades', 'a', '--book', 'b', '--ticker', 'c']).ticker).toBe('c');
    expect(parseReplayArgs(['--format', 'gate', '--gate-kind', 'futures', '--trades', 'a', '--book', 'b', '--ticker', 'c']).ticker).toBe('c');
    expect(() => parseReplayArgs(['--format', 'gate', '--trades', 'a', '--book', 'b', '--ticker', 'c'])).toThrow(/--gate-kind futures/);
    expect(() => parseReplayArgs(['--format', 'lobster', '--messages', 'a', '--ticker', 'c'])).toThrow(/--ticker/);
  });
});

describe('perpetual replay on the futures engine', () => {
  const fixtureConfig = async (): Promise<ReplayConfig> => JSON.parse(await readFile(join(FIX, 'perp-config.json'), 'utf8')) as ReplayConfig;
  const runFixture = async (cfg: ReplayConfig): Promise<Awaited<ReturnType<typeof runMarketReplay>>> =>
    runMarketReplay(await tardisInputs(PERP.trades, PERP.book, cfg, undefined, PERP.ticker), cfg,
      await loadStrategy(cfg.strategy!.module!, cfg.strategy!.options!));

  it('pays funding at the recorded times and rates, follows the recorded mark, conserves money and repeats its state hash', async () => {
    const cfg = await fixtureConfig();
    const a = await runFixture(cfg);
    const b = await runFixture(cfg);
    expect(b.report.state_hash).toBe(a.report.state_hash);
    expect(deterministicJson(b.report)).toBe(deterministicJson(a.report));
    expectConserved(a.sim, [10001]);
    // The oracle: the ticker file read as text; each funding time's rate is the last one recorded for it.
    const rows = (await readFile(PERP.ticker, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(','));
    const rateOf = new Map<number, string>();
    for (const r of rows) rateOf.set(Number(r[4]), r[5]!);
    const last = Number(rows[rows.length - 1]![2]);
    const due = [...rateOf.keys()].filter((t) => t <= last);
    const p = a.report.result.perpetual as {
      funding: { recorded: number; applied: number; refused: number; events: { time_us: number; rate: string; applied: boolean }[] };
      prices: { mark: string; price_updates: number };
      users: { uid: number; position: number; funding_pnl: string; fees: string; realised_pnl: string; unrealised_pnl: string; total_pnl: string; equity: string }[];
    };
    expect(due.length).toBe(5);
    expect(p.funding.events.map((e) => [e.time_us, e.rate, e.applied])).toEqual(due.map((t) => [t, new Big(rateOf.get(t)!).toFixed(8), true]));
    expect([p.funding.recorded, p.funding.applied, p.funding.refused]).toEqual([5, 5, 0]);
    expect(p.prices.mark).toBe(new Big(rows[rows.length - 1]![10]!).toString());
    expect(p.prices.price_updates).toBeGreaterThan(1);
    const ex = a.sim.engine.exchange;
    expect(ex.futures.funding.map((f) => f.t * 1e6)).toEqual(due);
    const u = p.users[0]!;
    expect(u.position).not.toBe(0);
    expect(new Big(u.funding_pnl).eq(0)).toBe(false);
    expect(new Big(u.fees).gt(0)).toBe(true);
    // Every PnL component is the futures account's, and they add up to the equity's change.
    expect(new Big(u.realised_pnl).plus(u.funding_pnl).minus(u.fees).plus(u.unrealised_pnl).eq(u.total_pnl)).toBe(true);
    expect(new Big(u.equity).minus('100000').eq(u.total_pnl)).toBe(true);
    // Margin in use over time, sampled every second from the first recorded mark on.
    const series = (a.report.result.perpetual as { series: { t: number[]; mark: number[]; users: { margin: number[]; equity: number[] }[] } }).series;
    expect(series.t.length).toBeGreaterThan(250);
    expect(Math.min(...series.mark)).toBeGreaterThan(59_000);
    expect(Math.max(...series.users[0]!.margin)).toBeGreaterThan(0);
    expect(series.users[0]!.equity.length).toBe(series.t.length);
    const users = a.report.result.users as { pnl: string; fees: Record<string, string> }[];
    expect(users[0]!.pnl).toBe(u.total_pnl);
    expect(users[0]!.fees.USDT).toBe(u.fees);
  });

  it('replays Gate futures dumps (sizes in contracts) with a derivative_ticker for the prices and funding', async () => {
    const dir = await dirs.make();
    const T = 1_626_166_800;
    const ob = join(dir, 'ob.csv');
    await writeFile(ob, `${T},set,33000.0,2000,1,0\n${T},set,33010.0,-1000,1,0\n`);
    const tr = join(dir, 'trades.csv');
    await writeFile(tr, `${T + 100}, 5427, 33010.0, 5\n`);
    const ticker = join(dir, 'ticker.csv');
    const row = (s: number, f: number, mark: string): string => `gate-io-futures,BTC_USDT,${s * 1e6},${s * 1e6 + 100},${f * 1e6},0.0001,0.0001,1,${mark},${mark},${mark}`;
    await writeFile(ticker, [TARDIS_TICKER_HEADER, row(T, T + 60, '33005.0'), row(T + 61, T + 120, '33005.0')].join('\n'));
    const cfg: ReplayConfig = {
      market: { id: 'BTC_USDT', price_precision: 1, amount_precision: 0 },
      currencies: [{ code: 'USDT', scale: 8 }], contract: { funding_interval: 60, quanto_multiplier: '0.0001' },
      users: [{ uid: 10001, balances: { USDT: '1000' } }],
    };
    const strategy = { onStart(ctx: StrategyContext) { ctx.place({ side: 'buy', price: '33010', amount: 100, time_in_force: 'ioc' }); } };
    const { report, sim } = await runMarketReplay(await gateInputs('futures', tr, ob, cfg, undefined, ticker), cfg, strategy);
    const p = report.result.perpetual as { funding: { applied: number }; users: { position: number; funding_pnl: string; fees: string }[] };
    // 100 contracts × 0.0001 BTC at 33010 = 330.1 USDT: a 0.05 % taker fee of 0.16505; funding 0.01 × 33005 × 0.0001.
    expect(p.users[0]).toMatchObject({ position: 100, fees: '0.16505', funding_pnl: '-0.033005' });
    // The data ends at T + 100 s: the funding recorded for T + 120 s is not paid.
    expect(p.funding.applied).toBe(1);
    expectConserved(sim, [10001]);
  });

  it('counts, and does not pay, recorded fundings the engine schedule refuses (a funding_interval unlike the data)', async () => {
    const cfg = { ...(await fixtureConfig()), contract: { funding_interval: 28_800 } };
    const { report, sim } = await runFixture(cfg);
    const p = report.result.perpetual as { funding: { recorded: number; applied: number; refused: number }; users: { funding_pnl: string }[] };
    expect([p.funding.recorded, p.funding.applied, p.funding.refused]).toEqual([5, 0, 5]);
    expect(p.users[0]!.funding_pnl).toBe('0');
    expect(sim.engine.exchange.futures.funding).toEqual([]);
    expectConserved(sim, [10001]);
  });

  it('--ticker alone makes the config a perpetual one', () => {
    const args = parseReplayArgs(['--format', 'tardis', '--trades', 'a', '--book', 'b', '--ticker', 'c', '--seed', '3']);
    expect(configOf(args)).toEqual({ contract: {}, seed: 3 });
    expect(configOf(parseReplayArgs(['--format', 'tardis', '--trades', 'a', '--book', 'b']))).toEqual({});
  });

  /** One user buys 1,000 contracts (1 BTC) at 101 with leverage 10, then the recorded mark falls. */
  async function scenario(marks: readonly [number, string][]): Promise<Awaited<ReturnType<typeof runMarketReplay>>> {
    const dir = await dirs.make();
    const p = await writeTardis(dir, [bookRow(0, true, 'bid', '99.0', '5.000'), bookRow(0, true, 'ask', '101.0', '5.000')], []);
    const ticker = join(dir, 'ticker.csv');
    await writeFile(ticker, [TARDIS_TICKER_HEADER, tickerRow(0, 60_000_000, '0.0001', '100.0', '100.0'),
      tickerRow(30_000_000, 60_000_000, '0.0002', '100.0', '100.0'), tickerRow(61_000_000, 120_000_000, '0.0003', '100.0', '100.0'),
      ...marks.map(([dt, mark]) => tickerRow(dt, 120_000_000, '0.0003', '100.0', mark))].join('\n'));
    const cfg: ReplayConfig = {
      market: { id: 'BTC_USDT', price_precision: 1, amount_precision: 3 }, contract: { funding_interval: 60, insurance: '1000' },
      users: [{ uid: 10001, balances: { USDT: '10000' }, leverage: '10' }],
    };
    const strategy = { onStart(ctx: StrategyContext) { ctx.place({ side: 'buy', price: '101', amount: 1000, time_in_force: 'ioc' }); } };
    return runMarketReplay(await tardisInputs(p.trades, p.book, cfg, undefined, ticker), cfg, strategy);
  }

  it('charges funding on the position at the recorded mark and rate', async () => {
    const { report, sim } = await scenario([[90_000_000, '95.0']]);
    const p = report.result.perpetual as { funding: { events: { time_us: number; rate: string }[] }; users: { position: number; funding_pnl: string; fees: string; liquidations: number }[] };
    // At T0 + 60 s the last rate recorded for it is 0.0002: 1 BTC at mark 100 pays 0.02 USDT.
    expect(p.funding.events.map((e) => [e.time_us, e.rate])).toEqual([[T0 + 60_000_000, '0.0002']]);
    expect(p.users[0]!.position).toBe(1000);
    expect(p.users[0]!.funding_pnl).toBe('-0.02');
    expect(p.users[0]!.fees).toBe('0.0505'); // 101 × 0.0005, the taker fee
    expect(p.users[0]!.liquidations).toBe(0);
    expectConserved(sim, [10001]);
  });

  it('liquidates when the recorded mark crosses the liquidation price, closing through the replayed book', async () => {
    const { report, sim } = await scenario([[90_000_000, '95.0'], [100_000_000, '91.0']]);
    const p = report.result.perpetual as {
      users: { position: number; liquidations: number; margin: { position: string } }[];
      liquidations: { time_us: number; uid: number; size: number; mark_price: string }[];
      liquidator: { liquidations: number; book_closes: number }; insurance: { open: string; close: string };
    };
    expect(p.users[0]!.position).toBe(0);
    expect(p.users[0]!.liquidations).toBe(1);
    expect(p.liquidations).toEqual([expect.objectContaining({ time_us: T0 + 100_000_000 - 100, uid: 10001, size: 1000, mark_price: '91' })]);
    expect(p.liquidator).toEqual(expect.objectContaining({ liquidations: 1, book_closes: 1 }));
    // The liquidator took the position at its bankruptcy price and sold it to the displayed bid at 99: the fund gained.
    expect(new Big(p.insurance.close).gt(p.insurance.open)).toBe(true);
    const ex = sim.engine.exchange;
    const P = ex.futures.positions;
    for (let r = 0; r < P.count; r++) if (P.uid[r] === 2147483647) expect(P.size[r]).toBe(0);
    expectConserved(sim, [10001]);
    // Both reports show it: the HTML's liquidation table and the terminal summary.
    const html = renderHtml(report);
    expect(html).toContain('<h2>Perpetual</h2>');
    expect(html).toMatch(/<h3>Liquidations<\/h3><table>.*<td>10001<\/td><td>1000<\/td><td>10<\/td>/);
    expect(html).not.toContain('Equity (USDT; base marked at mid)');
    const text = summary(report);
    expect(text).toContain('perpetual BTC_USDT: mark 91, funding 1 paid of 1 recorded (0 refused), 1 liquidations');
    expect(text).toMatch(/uid 10001: position 0 contracts, funding PnL -0.02, fees 0.0505, realised -?[0-9.]+, unrealised 0, total -?[0-9.]+ USDT/);
  });
});
