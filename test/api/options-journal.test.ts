// Options writes are engine commands in the journal: orders, fills, index updates, a wallet transfer into the
// options account and the settlement of an expiration (the simulated clock moved across it) are all there, so a
// restart from the journal, on either runner, answers every options read exactly as before and reaches the same
// state hash — and does not settle the expiration a second time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/main.js';
import { stateHash } from './futures-helpers.js';
import { expectOk as ok, expectSameAfterRestart, journaledConfig, readPaths } from './journal-restart.js';
import { CALL, EXP1, EXP2, OPTIONS_CONFIG, optionsCaller, PUT, simClock, spotTrade, START_MS } from './options-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'options-journal-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

const READS = ['/options/accounts', '/options/positions', '/options/orders?status=open', '/options/orders?status=finished',
  '/options/my_trades', '/options/account_book', '/options/my_settlements', '/options/position_close'];

describe('options writes across a restart', () => {
  for (const runner of ['threaded', 'inline'] as const) {
    it(`${runner} runner: reads and the state hash are the same after a restart from the journal`, async () => {
      await expectSameAfterRestart(journaledConfig(OPTIONS_CONFIG, runner, dir), async (first) => {
        const call = optionsCaller(first);
        const B: [string, string] = ['k2', 's2'];
        await spotTrade(call, '60000');
        await simClock(first, { advance_ms: 2000 });
        await ok(call('POST', '/wallet/transfers', { body: { currency: 'USDT', from: 'spot', to: 'options', amount: '100' } }));
        await ok(call('POST', '/options/orders', { body: { contract: CALL, size: -3, price: '900' }, key: B }));
        await ok(call('POST', '/options/orders', { body: { contract: CALL, size: 2, price: '900' } }));
        await ok(call('POST', '/options/orders', { body: { contract: PUT, size: -1, price: '50', text: 't-rest' } }));
        await spotTrade(call, '61000');
        await ok(simClock(first, { advance_ms: 2000 })); // the last index before expiry: the settlement price
        await ok(simClock(first, { set_ms: EXP1 * 1000 + 5000 }));
        expect((await call('GET', '/options/my_settlements')).body).toEqual([
          expect.objectContaining({ contract: CALL, size: 2, settle_profit: '20' })]);
      }, async (sim) => {
        const call = optionsCaller(sim);
        const settlements = (await call('GET', '/options/settlements', { query: 'underlying=BTC_USDT' })).body;
        return readPaths(call, READS, { hash: await stateHash(sim), settlements });
      });
    });
  }
});

describe('relative expirations across days', () => {
  for (const runner of ['threaded', 'inline'] as const) {
    it(`${runner} runner: a journaled run restarts on another UTC day with the expirations it was journaled with`, async () => {
      const config = { ...OPTIONS_CONFIG, engine: { runner, journal: join(dir, `days-${runner}.journal`), fsync: 'batch' as const } };
      const first = await startSimulator(config, { host: '127.0.0.1', port: 0 });
      let before: unknown;
      try {
        const call = optionsCaller(first);
        await spotTrade(call, '60000');
        await ok(simClock(first, { advance_ms: 2000 }));
        await ok(call('POST', '/options/orders', { body: { contract: CALL, size: -1, price: '900' }, key: ['k2', 's2'] }));
        await ok(call('POST', '/options/orders', { body: { contract: CALL, size: 1, price: '900' } }));
        before = (await call('GET', '/options/expirations', { query: 'underlying=BTC_USDT' })).body;
        expect(before).toEqual([EXP1, EXP2]);
      } finally {
        await first.close();
      }
      // The next UTC day: `expiration_days` [1, 7] would now resolve a day later.
      const nextDay = { ...config, clock: { type: 'sim' as const, start_ms: START_MS + 86_400_000 + 3_600_000 } };
      const again = await startSimulator(nextDay, { host: '127.0.0.1', port: 0 });
      try {
        const call = optionsCaller(again);
        expect((await call('GET', '/options/expirations', { query: 'underlying=BTC_USDT' })).body).toEqual(before);
        expect((await call('GET', '/options/positions')).body).toEqual([expect.objectContaining({ contract: CALL, size: 1 })]);
        expect((await call('POST', '/options/orders', { body: { contract: CALL, size: 1, price: '800' } })).status).toBe(201);
      } finally {
        await again.close();
      }
      // Another change than the expirations is still refused.
      const strikes = { ...nextDay, options: { ...OPTIONS_CONFIG.options!, underlyings: [{ ...OPTIONS_CONFIG.options!.underlyings[0]!,
        strikes: ['60000'] }] } };
      await expect(startSimulator(strikes, { host: '127.0.0.1', port: 0 })).rejects.toThrow(/another exchange definition/);
    });
  }
});
