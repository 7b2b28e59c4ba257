/**
 * `npm run soak:crash`: kill -9 cycles of the real server under concurrent load of every write kind, at length
 * (test/support/crash-cycles.ts does the work; the CI test runs 5 cycles per runner).
 *
 *   npm run soak:crash -- [--cycles N (default 100)] [--runner threaded|inline|both (default both)] [--seed S]
 *                         [--load-ms MIN,MAX (default 300,1500)] [--workers W (default 8)] [--json]
 *
 * Each runner gets its own journal in a temporary directory (removed at the end). Exits 1 at the first cycle
 * that loses an acknowledged write, leaves something half-applied or ends at a state hash other than the
 * journal's inline replay; prints per-cycle lines on stderr and a summary (or, with --json, one JSON document).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CycleResult, runCrashCycles } from '../test/support/crash-cycles.js';

const USAGE = `usage: npm run soak:crash -- [--cycles N] [--runner threaded|inline|both] [--seed S] [--load-ms MIN,MAX] [--workers W] [--json]
  Kills the real server (src/cli.ts start) with SIGKILL at random moments under concurrent load of every write
  kind, restarts it and checks every acknowledged write, half-applied requests and the state hash.
  Defaults: --cycles 100, --runner both, --seed 1, --load-ms 300,1500, --workers 8. See README (Durability).`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const cycles = Number(flag('--cycles') ?? 100);
const runnerArg = flag('--runner') ?? 'both';
const seed = Number(flag('--seed') ?? 1);
const [minMs, maxMs] = (flag('--load-ms') ?? '300,1500').split(',').map(Number);
const workers = Number(flag('--workers') ?? 8);
const json = args.includes('--json');
if (!Number.isInteger(cycles) || cycles < 1 || !['threaded', 'inline', 'both'].includes(runnerArg) || !Number.isFinite(seed)
  || !(minMs! >= 0 && maxMs! > minMs!) || !Number.isInteger(workers) || workers < 1) {
  console.error(USAGE);
  process.exit(2);
}
const runners = runnerArg === 'both' ? ['threaded', 'inline'] as const : [runnerArg as 'threaded' | 'inline'];
const started = Date.now();
const out: Record<string, CycleResult[]> = {};
let failed = false;
for (const runner of runners) {
  const dir = await mkdtemp(join(tmpdir(), `ringmatch-soak-crash-${runner}-`));
  try {
    out[runner] = await runCrashCycles({ runner, dir, cycles, seed, loadMs: [minMs!, maxMs!], workers, log: (l) => console.error(l) });
  } catch (e) {
    console.error(`ringmatch soak:crash (${runner}): ${e instanceof Error ? e.message : String(e)}`);
    failed = true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (failed) break;
}
const summary = Object.entries(out).map(([runner, rs]) => {
  const acked = rs.reduce((n, r) => n + r.acked, 0);
  const restarts = rs.map((r) => r.restartMs).sort((a, b) => a - b);
  return { runner, cycles: rs.length, acknowledged_writes: acked, lost: 0, half_applied: 0,
    restart_ms: { p50: restarts[restarts.length >> 1] ?? 0, max: restarts.at(-1) ?? 0 } };
});
if (json) console.log(JSON.stringify({ seed, cycles, summary, wall_s: (Date.now() - started) / 1000, results: out }));
else for (const s of summary) console.log(`${s.runner}: ${s.cycles} cycles, ${s.acknowledged_writes} acknowledged writes, none lost, none half-applied; restart p50 ${s.restart_ms.p50} ms, max ${s.restart_ms.max} ms`);
process.exit(failed ? 1 : 0);
