// The futures routes' writes are engine commands in the journal: after a run of orders, fills, settings, dual mode
// and transfers on either runner, a restart from the journal answers every futures read exactly as before and
// reaches the same state hash.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { FUTURES_CONFIG, futuresCaller, setMark, stateHash } from './futures-helpers.js';
import { expectOk as ok, expectSameAfterRestart, journaledConfig, readPaths } from './journal-restart.js';

const dir = mkdtempSync(join(tmpdir(), 'futures-journal-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

const READS = ['/futures/usdt/accounts', '/futures/usdt/positions', '/futures/usdt/orders?status=open', '/futures/usdt/orders?status=finished',
  '/futures/usdt/my_trades', '/futures/usdt/account_book', '/futures/usdt/position_close', '/futures/btc/accounts'];

describe('futures writes across a restart', () => {
  for (const runner of ['threaded', 'inline'] as const) {
    it(`${runner} runner: reads and the state hash are the same after a restart from the journal`, async () => {
      await expectSameAfterRestart(journaledConfig(FUTURES_CONFIG, runner, dir), async (first) => {
        const call = futuresCaller(first);
        const B: [string, string] = ['k2', 's2'];
        await setMark(first, 'BTC_USDT', '50000');
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: -6, price: '50000' }, key: B }));
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 4, price: '0', tif: 'ioc' } }));
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 2, price: '49000', text: 't-rest' } }));
        await ok(call('POST', '/futures/usdt/positions/BTC_USDT/leverage', { query: 'leverage=5' }));
        await ok(call('POST', '/futures/usdt/positions/BTC_USDT/margin', { query: 'change=3' }));
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 0, close: true, price: '0', tif: 'ioc' }, key: B }));
        await ok(call('POST', '/wallet/transfers', { body: { currency: 'USDT', from: 'futures', settle: 'usdt', to: 'spot', amount: '10' } }));
        await ok(call('POST', '/futures/btc/dual_mode', { query: 'dual_mode=true', key: B }));
      }, async (sim) => readPaths(futuresCaller(sim), READS, { hash: await stateHash(sim) }));
    });
  }
});
