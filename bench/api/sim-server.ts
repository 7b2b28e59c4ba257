/**
 * The measured server: the ringmatch simulator (`startSimulator`, wall clock) with a benchmark configuration:
 * one BTC_USDT market, four funded users with keys, rate limits off, no market maker. The runner is the first
 * argument: `inline`, or `threaded` (the simulator's default: one shard worker, a thread of this process). A
 * second argument `journal` journals every command to a file in a temporary directory with the default policy
 * (fsync batch, group commit: every reply waits for its fdatasync; snapshots on their defaults), removed on exit.
 * Run as a child of http.bench.ts: reports its port over IPC, answers usage requests (server-usage.ts) and closes
 * when the channel closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { BENCH_KEYS, type FromServer } from './protocol.js';
import { serveUsage } from './server-usage.js';

serveUsage();

let config: SimulatorConfig = {
  currency_pairs: [
    { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6,
      min_base_amount: '0.0001', min_quote_amount: '1', fee: '0.2', maker_fee_rate: '0.2' },
  ],
  users: BENCH_KEYS.map((k, i) => ({
    uid: 20001 + i,
    keys: [{ key: k.key, secret: k.secret, mode: 1, perms: 'all', ip_whitelist: [] }],
    balances: { spot: { USDT: '1000000', BTC: '100' } },
  })),
  rate_limits: false,
  market_maker: false,
  engine: { runner: process.argv[2] === 'threaded' ? 'threaded' : 'inline', shards: 1 },
};
const journalDir = process.argv[3] === 'journal' ? mkdtempSync(join(tmpdir(), 'ringmatch-bench-journal-')) : undefined;
if (journalDir !== undefined) config = { ...config, engine: { ...config.engine, journal: join(journalDir, 'bench.journal') } };

const sim = await startSimulator(config, { host: '127.0.0.1', port: 0 });
const msg: FromServer = { type: 'listening', port: sim.server.port };
process.send?.(msg);
process.on('disconnect', () => {
  void sim.close().then(() => {
    if (journalDir !== undefined) rmSync(journalDir, { recursive: true, force: true });
    process.exit(0);
  });
});
