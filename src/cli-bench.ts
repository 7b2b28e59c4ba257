/**
 * `ringmatch bench NAME [flags]`: runs one of the package's benchmarks (the same programs as `npm run
 * bench:NAME`, from dist/bench/ beside this file's dist/src/) in a child node with the flags its npm script
 * uses, forwarding the flags and the exit status. `ringmatch bench --help` lists them; `ringmatch bench NAME
 * --help` prints that benchmark's own usage. Used by src/cli.ts only.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './core/invariant.js';

interface Bench { readonly file: string; readonly flags: readonly string[]; readonly what: string }

const GC = ['--expose-gc'];
const BIG = ['--expose-gc', '--max-old-space-size=8192'];
const BENCHES: Readonly<Record<string, Bench>> = {
  core: { file: 'core/main.js', flags: BIG, what: 'order books: ringmatch beside nodejs-order-book (needs that package installed)' },
  engine: { file: 'engine/engine.bench.js', flags: BIG, what: 'the ledger pipeline: inline and threaded runners, journal, recovery' },
  ring: { file: 'engine/ring.bench.js', flags: GC, what: 'the SharedArrayBuffer ring beside postMessage' },
  journal: { file: 'engine/journal.bench.js', flags: GC, what: 'journal append per fsync policy, replay speed' },
  liquidation: { file: 'engine/liquidation-cascade.bench.js', flags: BIG, what: 'a liquidation cascade of 10,000 positions' },
  replay: { file: 'backtest/replay.bench.js', flags: BIG, what: 'journal and market-data replays, sweeps' },
  http: { file: 'api/http.bench.js', flags: GC, what: 'signed order placement over HTTP beside bare uWebSockets.js' },
  handler: { file: 'api/handler-drive.js', flags: GC, what: 'the HTTP request handler in-process: CPU, GC, bytes per request' },
  ws: { file: 'api/ws.bench.js', flags: [], what: 'WebSocket fan-out beside bare uWebSockets.js' },
};

export const BENCH_HELP = `usage: ringmatch bench NAME [flags]      (from a checkout: npm run bench:NAME -- [flags])

Runs one benchmark and prints its table (most take --json and --quick; ringmatch bench NAME --help for its flags):
${Object.entries(BENCHES).map(([n, b]) => `  ${n.padEnd(12)} ${b.what}`).join('\n')}

Details: README.md (Benchmarks).
`;

/** Runs benchmark `argv[0]` with the rest of `argv`; resolves with its exit status. Throws ConfigError for an unknown name. */
export function runBench(argv: readonly string[]): Promise<number> {
  const name = argv[0];
  const bench = name === undefined ? undefined : BENCHES[name];
  if (bench === undefined) {
    throw new ConfigError(`${name === undefined ? 'bench needs a name' : `unknown benchmark "${name}"`} (one of ${Object.keys(BENCHES).join(', ')}; ringmatch bench --help)`);
  }
  const file = fileURLToPath(new URL(`../bench/${bench.file}`, import.meta.url));
  if (!existsSync(file)) throw new ConfigError(`benchmark ${name} is not built (${file} is missing); run npm run build`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...bench.flags, file, ...argv.slice(1)], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}
