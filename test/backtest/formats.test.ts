// Gate dump readers (spot and futures) and the LOBSTER order-flow replay.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { lobsterFileInfo } from '../../src/backtest/formats/lobster.js';
import { replayLobster } from '../../src/backtest/lobster-replay.js';
import { gateInputs } from '../../src/backtest/md-inputs.js';
import { runMarketReplay } from '../../src/backtest/md-replay.js';
import { tempDirs } from './md-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const FIX = 'test/backtest/fixtures';

describe('Gate dumps', () => {
  it('spot: set rows are the snapshot, make/take set levels, deals carry the taker side', async () => {
    const { sim, report } = await runMarketReplay(await gateInputs('spot', join(FIX, 'gate-spot-deals.csv'), join(FIX, 'gate-spot-orderbooks.csv'), {}), {}, undefined);
    expect(sim.book.top(5)).toEqual({ bids: [[331000, 2000], [330000, 9606]], asks: [[331859, 19], [332000, 4000]] });
    expect(report.result.public).toMatchObject({ trades: 1, volume: '0.3', best_bid: '33100', best_ask: '33185.9' });
    expect(report.result.market).toMatchObject({ price_precision: 1, amount_precision: 4 });
  });

  it('spot with delta amounts, gzipped', async () => {
    const dir = await dirs.make();
    const ob = join(dir, 'ob.csv.gz');
    await writeFile(ob, gzipSync('1626163200, 2, set,100,5,1,0\n1626163200, 1, set,101,5,1,0\n1626163201, 2, take,100,-2,2,1\n1626163201, 1, make,101,1.5,3,1\n'));
    const deals = join(dir, 'deals.csv');
    await writeFile(deals, '1626163201, 9, 100, 2, 1\n');
    const { sim } = await runMarketReplay(await gateInputs('spot', deals, ob, { gate: { amounts: 'delta' } }), {}, undefined);
    expect(sim.book.top(2)).toEqual({ bids: [[100, 30]], asks: [[101, 65]] });
  });

  it('futures: the sign of size is the side; a level of size 0 is removed from the side holding it', async () => {
    const dir = await dirs.make();
    const ob = join(dir, 'ob.csv');
    await writeFile(ob, '1626166800,set,2656.1,2000,1,0\n1626166800,set,2660.0,-1000,1,0\n1626166800.1,take,2656.1,0,2,1\n1626166800.1,make,2655.0,300,3,1\n');
    const tr = join(dir, 'trades.csv');
    await writeFile(tr, '1626166800.1, 5427, 2656.1, -2000\n');
    const { sim, report } = await runMarketReplay(await gateInputs('futures', tr, ob, {}), {}, undefined);
    expect(sim.book.top(2)).toEqual({ bids: [[26550, 300]], asks: [[26600, 1000]] });
    expect(report.result.public).toMatchObject({ trades: 1, volume: '2000' });
  });
});

describe('LOBSTER', () => {
  it('replays adds, partial cancels, deletes and executions through the real book', async () => {
    const { engine, report } = await replayLobster(join(FIX, 'AAPL_2012-06-21_34200000_57600000_message_1.csv'), {});
    expect(report.result).toMatchObject({
      messages_by_type: { add: 3, cancel: 1, delete: 1, execute: 3, hidden: 1 },
      mismatched_executions: 0, unknown_orders: 0, engine_trades: 3, resting_orders: 0, market: 'AAPL_USD',
    });
    engine.assertInvariants();
    const again = await replayLobster(join(FIX, 'AAPL_2012-06-21_34200000_57600000_message_1.csv'), {});
    expect(again.report.state_hash).toBe(report.state_hash);
  });

  it('counts executions that do not meet the order they name, and messages about unknown orders', async () => {
    const dir = await dirs.make();
    const p = join(dir, 'X_2020-01-02_0_0_message_1.csv');
    await writeFile(p, '1.0,1,1,10,100000,1\n1.1,1,2,10,100000,1\n1.2,4,2,5,100000,1\n1.3,3,99,5,100000,1\n');
    const { report } = await replayLobster(p, {});
    expect(report.result).toMatchObject({ mismatched_executions: 1, unknown_orders: 1, engine_trades: 1 });
    expect(lobsterFileInfo('X_2020-01-02_0_0_message_1.csv')).toEqual({ ticker: 'X', dayStartUs: Date.UTC(2020, 0, 2) * 1000 });
  });
});
