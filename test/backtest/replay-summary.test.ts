// Replays for a person: currency scales that never round a fee away, the maximum drawdown, and the summary
// printed without --json (PnL, fills, fees, drawdown, fill ratio, where the reports are).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replayLobster } from '../../src/backtest/lobster-replay.js';
import type { OrderNote } from '../../src/backtest/market-sim.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { parseReplayArgs } from '../../src/backtest/replay-args.js';
import { runReplay } from '../../src/backtest/replay-command.js';
import { replayCurrencies } from '../../src/backtest/replay-currencies.js';
import { feeDecimals, ppmDecimals } from '../../src/core/exchange/currency-scales.js';
import type { StrategyContext } from '../../src/backtest/strategy.js';
import type { MarketConfig } from '../../src/core/exchange/exchange-definition.js';
import { bookRow, inputs, tempDirs, writeTardis } from './md-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const MARKET: MarketConfig = { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 3, fee: '0.2', maker_fee_rate: '0.1' };
const FIX = { book: 'test/backtest/fixtures/tardis-book.csv', trades: 'test/backtest/fixtures/tardis-trades.csv' };

describe('currency scales of replayed markets', () => {
  it('add the fee rate decimals to what the market amounts need, within the ledger limit', () => {
    expect([0, 1, 10, 2000, 2500, 1_000_000].map(ppmDecimals)).toEqual([0, 6, 5, 3, 4, 0]);
    expect(feeDecimals(MARKET)).toBe(3);
    expect(feeDecimals({ ...MARKET, fee: '0', maker_fee_rate: '0.0125' })).toBe(6);
    const scales = (m: MarketConfig, e?: Parameters<typeof replayCurrencies>[1]) => replayCurrencies(m, e).map((c) => [c.code, c.scale]);
    expect(scales(MARKET)).toEqual([['BTC', 6], ['USDT', 7]]);
    expect(scales({ ...MARKET, fee: '0', maker_fee_rate: '0' })).toEqual([['BTC', 3], ['USDT', 4]]);
    expect(scales({ ...MARKET, precision: 8, amount_precision: 8, fee: '0.0001' })).toEqual([['BTC', 14], ['USDT', 18]]);
    expect(scales(MARKET, [{ code: 'BTC', scale: 8 }, { code: 'ETH', scale: 9 }])).toEqual([['BTC', 8], ['USDT', 7], ['ETH', 9]]);
    expect(() => replayCurrencies(MARKET, [{ code: 'BTC', scale: 2 }])).toThrow(/below the 3 decimals/);
    // Supplies: plain numbers where 10^9 fit exactly, else 10^12 in BigInt.
    expect(replayCurrencies(MARKET).map((c) => c.maxSupply)).toEqual([String(Math.floor(Number.MAX_SAFE_INTEGER / 1e6)), '1000000000000']);
  });

  it('a 0.01 BTC taker fill of a market-data replay pays its fee (0.2 % of 0.01 BTC), not "0"', async () => {
    const dir = await dirs.make();
    const p = await writeTardis(dir, [bookRow(0, true, 'bid', '100.0', '5'), bookRow(0, true, 'ask', '101.0', '5'), bookRow(5000, false, 'bid', '100.0', '6')], []);
    const fees: number[] = [];
    const strategy = {
      onStart: (ctx: StrategyContext) => { ctx.place({ side: 'buy', price: '101', amount: '0.01', time_in_force: 'ioc' }); },
      onOrder: (_c: StrategyContext, n: OrderNote) => { if (n.kind === 'fill') fees.push(n.fee); },
    };
    const { report, sim } = await runMarketReplay(await inputs(p), { market: { fee: '0.2' } }, strategy);
    expect(fees).toEqual([20]);
    const u = (report.result.users as { fees: Record<string, string>; balances: Record<string, string> }[])[0]!;
    expect(u.fees).toEqual({ BTC: '0.00002', USDT: '0' });
    expect(u.balances).toEqual({ BTC: '10.00998', USDT: '999998.99' });
    sim.engine.assertInvariants();
  });

  it('LOBSTER executions pay the configured fee in the currency received', async () => {
    const dir = await dirs.make();
    const p = join(dir, 'X_2020-01-02_0_0_message_1.csv');
    await writeFile(p, '1.0,1,1,10,100000,1\n1.1,4,1,3,100000,1\n');
    const { engine } = await replayLobster(p, { market: { fee: '0.2' } });
    // The aggressor sold 3 shares at 10: 0.2 % of 30 USD; the resting buyer got 3 shares less 0.2 %.
    expect(engine.exchange.ledger.format('USD', engine.exchange.trades.takerFee[0]!)).toBe('0.06');
    expect(engine.exchange.ledger.format('X', engine.exchange.trades.makerFee[0]!)).toBe('0.006');
  });
});

describe('maximum drawdown', () => {
  it('is the largest fall of PnL from its running peak (from 0), marked at the mid as PnL is', async () => {
    // The strategy buys 1 BTC at 101 (no fee); its PnL is then mid − 101. Mid 100.5 → 90.5 → 120.5 → 100.5 → 110.5:
    // PnL −10.5, +19.5 (peak), −0.5 (20 below the peak), +9.5. Holding the opening 10 BTC is not the strategy's doing.
    const dir = await dirs.make();
    const move = (t: number, from: [string, string], to: [string, string]) => [
      bookRow(t, false, 'bid', from[0], '0'), bookRow(t, false, 'ask', from[1], '0'), bookRow(t, false, 'bid', to[0], '5'), bookRow(t, false, 'ask', to[1], '5')];
    const p = await writeTardis(dir, [bookRow(0, true, 'bid', '100.0', '5'), bookRow(0, true, 'ask', '101.0', '5'),
      ...move(1000, ['100.0', '101.0'], ['90.0', '91.0']), ...move(2000, ['90.0', '91.0'], ['120.0', '121.0']),
      ...move(3000, ['120.0', '121.0'], ['100.0', '101.0']), ...move(4000, ['100.0', '101.0'], ['110.0', '111.0'])], []);
    const strategy = { onStart: (ctx: StrategyContext) => { ctx.place({ side: 'buy', price: '101', amount: '1', time_in_force: 'ioc' }); } };
    const { report } = await runMarketReplay(await inputs(p), { sample_us: 1, market: { fee: '0' } }, strategy);
    const u = (report.result.users as { max_drawdown: string; pnl: string; taker_fills: number }[])[0]!;
    expect(u.taker_fills).toBe(1);
    expect(u.pnl).toBe('9.5');
    expect(u.max_drawdown).toBe('20');
    const idle = await runMarketReplay(await inputs(p), { sample_us: 1 }, undefined);
    expect((idle.report.result.users as { max_drawdown: string }[])[0]!.max_drawdown).toBe('0');
  });
});

describe('the summary without --json', () => {
  it('gives each user PnL, drawdown, fills, fill ratio and fees, and where the reports are', async () => {
    const dir = await dirs.make();
    const out = { text: '', write(s: string) { this.text += s; return true; } };
    const io = { stdout: out, stderr: { write: () => true } };
    const json = join(dir, 'r.json');
    const html = join(dir, 'r.html');
    const argv = ['--format', 'tardis', '--trades', FIX.trades, '--book', FIX.book, '--strategy', 'src/backtest/strategies/touch-quoter.ts'];
    const report = await runReplay(parseReplayArgs([...argv, '--out', json, '--html', html]), io);
    const u = (report.result.users as Record<string, unknown>[])[0]!;
    const fills = Number(u.maker_fills) + Number(u.taker_fills);
    expect(fills).toBeGreaterThan(0);
    const lines = out.text.split('\n');
    expect(lines[0]).toMatch(/^replay \(tardis\): 5,894 events in [0-9.]+ s/);
    expect(lines).toContain(`uid 10001: PnL ${String(u.pnl)} USDT, max drawdown ${String(u.max_drawdown)} USDT, ${fills} fills `
      + `(${String(u.maker_fills)} maker, ${String(u.taker_fills)} taker), fill ratio ${String(u.fill_ratio)}, `
      + `fees ${(u.fees as Record<string, string>).BTC} BTC + ${(u.fees as Record<string, string>).USDT} USDT, ${String(u.orders)} orders (${String(u.rejected)} rejected)`);
    expect(out.text).toMatch(/public BTC_USDT: 455 trades, volume [0-9.]+, best bid [0-9.]+, best ask [0-9.]+/);
    expect(lines).toContain(`reports: JSON ${json}, HTML ${html}`);
    expect(JSON.parse(await readFile(json, 'utf8'))).toMatchObject({ state_hash: report.state_hash });
    expect(await readFile(html, 'utf8')).toContain('<svg');

    out.text = '';
    await runReplay(parseReplayArgs(['--format', 'lobster', '--messages', 'test/backtest/fixtures/AAPL_2012-06-21_34200000_57600000_message_1.csv']), io);
    expect(out.text).toContain('messages: 9, 3 trades, 0 resting orders, 0 about unknown orders, 0 mismatched executions, 0 rejected');
    expect(out.text).toContain('reports: none written (--html FILE for charts, --out FILE or --json for the full report)');
    out.text = '';
    await runReplay(parseReplayArgs(['--format', 'journal', '--journal', 'test/backtest/fixtures/demo.journal']), io);
    expect(out.text).toMatch(/journal: 1,018 records, [0-9,]+ trades, [0-9,]+ rejected, [0-9,]+ open orders\n/);
  });
});
