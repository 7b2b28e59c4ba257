/**
 * `npm run soak:failover`: kill -9 cycles of the replicated log's leader under concurrent signed order load, at
 * length (test/support/failover-cycles.ts does the work; the CI test runs 10 cycles).
 *
 *   npm run soak:failover -- [--cycles N (default 50)] [--seed S (default 1)] [--lease-ms MS (default 1500)]
 *                            [--writers W (default 4)] [--json]
 *
 * Starts a nats-server (JetStream, a free loopback port, a temporary store; test/support/nats-server.ts installs
 * it with apt when it can) and three nodes (`src/cli.js start --config … [--follow]`), kills the leader at a
 * random moment each cycle and restarts it as a follower. Exits 1 when a follower does not take over, or when an
 * acknowledged order or cancel is lost or applied twice, or the nodes end at different state hashes, or not at the
 * offline replay's; prints one line per cycle on stderr and a summary (with --json, one JSON document).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFailoverCycles } from '../test/support/failover-cycles.js';
import { startNatsServer } from '../test/support/nats-server.js';
import { SoakArgs } from './args.js';

const USAGE = `usage: npm run soak:failover -- [--cycles N] [--seed S] [--lease-ms MS] [--writers W] [--json]
  Three nodes of the replicated log on a local nats-server; kill -9 of the leader at random moments under
  concurrent signed order load, cycle after cycle; checks every acknowledged order and cancel, the epochs, and
  one state hash on every node equal to an offline replay of the stream.
  Defaults: --cycles 50, --seed 1, --lease-ms 1500, --writers 4. See docs/scale-out.md.
`;

const args = new SoakArgs(process.argv.slice(2), USAGE, ['cycles', 'seed', 'lease-ms', 'writers'], ['json']);
const cycles = args.number('cycles', 50);
const seed = args.number('seed', 1);
const leaseMs = args.number('lease-ms', 1500);
const writers = args.number('writers', 4);
const json = args.has('json');

const started = Date.now();
const dir = await mkdtemp(join(tmpdir(), 'ringmatch-soak-failover-'));
const nats = await startNatsServer();
let failed = false;
try {
  const report = await runFailoverCycles({ cycles, dir, servers: [nats.url], stream: 'soak', seed, leaseMs, writers,
    log: (l) => console.error(l) });
  const ms = report.cycles.map((c) => c.failoverMs).sort((a, b) => a - b);
  const at = (q: number): number => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] ?? 0;
  const summary = {
    cycles: report.cycles.length, orders_acknowledged: report.ordersAcked, cancels_acknowledged: report.cancelsAcked, lost: 0, doubled: 0,
    epochs: report.epochs.length, seq: report.seq, state_hash: report.stateHash,
    failover_ms: { p50: at(0.5), p99: at(0.99), max: ms.at(-1) ?? 0 }, lease_ms: leaseMs, seed,
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, load_average: loadavg().map((x) => Math.round(x * 10) / 10) },
    wall_s: (Date.now() - started) / 1000,
  };
  if (json) console.log(JSON.stringify({ ...summary, results: report.cycles }));
  else {
    console.log(`${summary.cycles} failovers (lease ${leaseMs} ms): ${summary.orders_acknowledged} orders and ${summary.cancels_acknowledged} `
      + `cancels acknowledged, none lost or doubled; every node at seq ${summary.seq}, the offline replay's hash; failover p50 `
      + `${summary.failover_ms.p50} ms, p99 ${summary.failover_ms.p99} ms, max ${summary.failover_ms.max} ms; ${summary.wall_s} s`);
  }
} catch (e) {
  console.error(`ringmatch soak:failover: ${e instanceof Error ? e.message : String(e)}`);
  failed = true;
} finally {
  await nats.stop();
  await rm(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
