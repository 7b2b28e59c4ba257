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
import type { FromServer } from './protocol.js';
import { config as simConfig } from './sim-config.js';
import { serveUsage } from './server-usage.js';

serveUsage();

const journalDir = process.argv[3] === 'journal' ? mkdtempSync(join(tmpdir(), 'ringmatch-bench-journal-')) : undefined;
const config = simConfig(process.argv[2] === 'threaded' ? 'threaded' : 'inline', journalDir === undefined ? undefined : join(journalDir, 'bench.journal'));

const sim = await startSimulator(config, { host: '127.0.0.1', port: 0 });
const msg: FromServer = { type: 'listening', port: sim.server.port };
process.send?.(msg);
process.on('disconnect', () => {
  void sim.close().then(() => {
    if (journalDir !== undefined) rmSync(journalDir, { recursive: true, force: true });
    process.exit(0);
  });
});
