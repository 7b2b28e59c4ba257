/**
 * `--help` (or `-h`) for every benchmark command: its usage (flags, defaults, where the figures are explained),
 * printed before any work starts, then exit 0. Each benchmark entry calls `exitWithUsage` first thing.
 */

const COMMON = `  --json      exactly one JSON document on stdout (logs on stderr); default: a table
  --quick     a reduced run (smaller counts, shorter phases)
  --help, -h  this text`;

export const BENCH_USAGE = {
  core: `usage: npm run bench:core -- [--json] [--quick] [--no-isolated] [--only=name,…]

The order book beside nodejs-order-book (S1–S5, ec-steady, ec-steady-stp), the exchange-core mirror and memory;
each engine's passes run in one process together and again in child processes of their own (isolated).
${COMMON}
  --no-isolated  skip the child-process passes
  --only=…    run only the named scenarios (default: all)
Figures and method: README.md (Benchmarks, Order book).
`,
  engine: `usage: npm run bench:engine -- [--json] [--quick] [--shards 1,2,4] [--dir PATH] [--only=part,…]

The ledger pipeline, spot and futures: inline and threaded runners, journal, recovery, snapshots, and the ring
(bench:ring).
${COMMON}
  --shards L  shard counts of the threaded rows (default 1,2)
  --dir PATH  where journals and snapshots are written (default: the OS temp dir)
  --only=…    run only these parts: ec-ledger-1market, ec-ledger-8markets, ec-futures-1contract, recovery, ring
              (default: all)
Figures and method: README.md (Benchmarks, Engine).
`,
  ring: `usage: npm run bench:ring -- [--json] [--quick]

The SPSC SharedArrayBuffer ring beside postMessage: one-way throughput and ping-pong latency.
${COMMON}
Figures and method: README.md (Benchmarks, Engine).
`,
  journal: `usage: npm run bench:journal -- [--json] [--quick] [--dir PATH]

Journal append per fsync policy (closed and pipelined) and replay speed.
${COMMON}
  --dir PATH  the file system to measure (default: the OS temp dir; fsync means little on tmpfs)
Figures and method: README.md (Benchmarks, Engine).
`,
  http: `usage: npm run bench:http -- [--json] [--quick] [--connections=N] [--profile=DIR]

Signed order placement and the public book over HTTP, beside a bare uWebSockets.js server; every row carries the
server's CPU per request and its GC pauses.
${COMMON}
  --connections=N  load generator connections (default 32)
  --profile=DIR    run the inline simulator under --cpu-prof into DIR and print where its CPU went
Figures and method: README.md (Benchmarks, HTTP front).
`,
  handler: `usage: npm run bench:handler -- [--requests=N] [--no-allocations]

The HTTP front's request handler driven in-process (no sockets) with the bench:http order workload: CPU per
request, GC, bytes allocated per request by function, uWebSockets.js calls per request.
  --requests=N  signed requests in the timed pass (default 200000)
  --no-allocations  skip the allocation pass (sampling heap profiler)
  --help, -h    this text
Figures and method: README.md (Benchmarks, HTTP front).
`,
  ws: `usage: npm run bench:ws -- [--json] [--quick] [--subscribers=N] [--clients=K] [--rates=a,b,max] [--runner=threaded|inline]

WebSocket fan-out of one busy market to many subscribers, beside bare uWebSockets.js.
${COMMON}
  --subscribers=N  connections in all (default 1000)
  --clients=K      client processes (default 2)
  --rates=…        offered trades per second (default 100,500,2000,max)
  --runner=…       the ringmatch server's engine runner (default threaded)
Figures and method: README.md (Benchmarks, WebSocket), docs/websocket.md.
`,
  replication: `usage: npm run bench:replication -- [--json] [--quick] [--seconds=N] [--rounds=N] [--connections=N]

Signed orders/s with the replicated JetStream log beside the file journal and without it, in one run (phases
alternate); the follower's lag at half that load; a fresh follower's catch-up; kill -9 failover time. Starts a
nats-server (R1) on a free loopback port.
${COMMON}
  --seconds=N      length of a measured phase (default 3; --quick 1)
  --rounds=N       phases per row (default 5; --quick 1)
  --connections=N  load generator connections (default 32)
Figures and method: README.md (Benchmarks, Replication), docs/scale-out.md.
`,
  replay: `usage: npm run bench:replay -- [--json] [--quick]

Journal replay, Tardis CSV parsing, L2 rebuild, strategy replay and sweeps.
${COMMON}
Figures and method: README.md (Benchmarks, Replays), docs/replay.md.
`,
  sweep: `usage: npm run bench:sweep -- [--json] [--quick] [--workers=1,2,4] [--rounds=N]

Sweep throughput: 8 replays of the example strategy on a local piscina pool of N threads, and on N sweep-worker
processes behind a JetStream work queue (a nats-server -js started on loopback; needs the nats-server binary).
${COMMON}
  --workers=…  the pool sizes and worker counts (default 1,2,4)
  --rounds=N   run every row N times, interleaved; figures are medians (default 1)
Figures and method: docs/scale-out.md (Sweeps across machines), README.md (Benchmarks, Replays).
`,
} as const;

/** Prints `usage` and exits 0 when the command line asks for help; otherwise returns. */
export function exitWithUsage(usage: string): void {
  const argv = process.argv.slice(2);
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  process.stdout.write(usage);
  process.exit(0);
}
