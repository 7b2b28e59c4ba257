// The futures routes' writes are engine commands in the journal: after a run of orders, fills, settings, dual mode
// and transfers on either runner, a restart from the journal answers every futures read exactly as before and
// reaches the same state hash.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { FUTURES_CONFIG, futuresCaller, type J, setMark, stateHash } from './futures-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'futures-journal-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

const READS = ['/futures/usdt/accounts', '/futures/usdt/positions', '/futures/usdt/orders?status=open', '/futures/usdt/orders?status=finished',
  '/futures/usdt/my_trades', '/futures/usdt/account_book', '/futures/usdt/position_close', '/futures/btc/accounts'];

describe('futures writes across a restart', () => {
  for (const runner of ['threaded', 'inline'] as const) {
    it(`${runner} runner: reads and the state hash are the same after a restart from the journal`, async () => {
      const config: SimulatorConfig = { ...FUTURES_CONFIG, engine: { runner, journal: join(dir, `${runner}.journal`), fsync: 'batch' } };
      const read = async (sim: Awaited<ReturnType<typeof startSimulator>>): Promise<J> => {
        const call = futuresCaller(sim);
        const out: J = { hash: await stateHash(sim) };
        for (const who of [['k1', 's1'], ['k2', 's2']] as [string, string][]) {
          for (const path of READS) {
            const [p, q] = path.split('?') as [string, string | undefined];
            out[`${who[0]} ${path}`] = (await call('GET', p, { query: q, key: who })).body;
          }
        }
        return out;
      };
      const first = await startSimulator(config, { host: '127.0.0.1', port: 0 });
      let before: J;
      try {
        const call = futuresCaller(first);
        const B: [string, string] = ['k2', 's2'];
        await setMark(first, 'BTC_USDT', '50000');
        const ok = async (p: Promise<{ status: number; body: unknown }>): Promise<void> => {
          const r = await p;
          expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
        };
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: -6, price: '50000' }, key: B }));
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 4, price: '0', tif: 'ioc' } }));
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 2, price: '49000', text: 't-rest' } }));
        await ok(call('POST', '/futures/usdt/positions/BTC_USDT/leverage', { query: 'leverage=5' }));
        await ok(call('POST', '/futures/usdt/positions/BTC_USDT/margin', { query: 'change=3' }));
        await ok(call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', size: 0, close: true, price: '0', tif: 'ioc' }, key: B }));
        await ok(call('POST', '/wallet/transfers', { body: { currency: 'USDT', from: 'futures', settle: 'usdt', to: 'spot', amount: '10' } }));
        await ok(call('POST', '/futures/btc/dual_mode', { query: 'dual_mode=true', key: B }));
        before = await read(first);
      } finally {
        await first.close();
      }
      const again = await startSimulator(config, { host: '127.0.0.1', port: 0 });
      try {
        expect(await read(again)).toEqual(before);
      } finally {
        await again.close();
      }
    });
  }
});
