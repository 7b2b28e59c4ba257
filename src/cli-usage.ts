/**
 * What the command line prints for `--help`, and one-line messages for the user's mistakes that would
 * otherwise surface as a raw error and its stack: a file given on the command line that cannot be read or
 * written, a strategy module that cannot be loaded. Used by src/cli.ts only.
 */
import { resolve, sep } from 'node:path';

/** `npm start -- --help`. */
export const START_HELP = `usage: npm start -- [--config FILE.json] [--host HOST] [--port PORT] [--follow]
       npm start -- --replay --format tardis|gate ...   (see npm start -- --replay --help)

Serves Gate's REST API v4 (http://HOST:PORT/api/v4) and WebSocket v4 (ws://HOST:PORT/ws/v4/): a local
exchange simulator that unchanged ccxt and gate-api code trades against. Prints the address, markets and
API keys; SIGINT or SIGTERM stops it.

Options:
  --config FILE.json  the exchange: markets, users and keys, balances, chains, lending, market maker, server
                      settings (default: the built-in demo: 3 markets, 3 users with fixed keys, a market maker);
                      with "extends": "demo" the file keeps the demo and adds to it
  --host HOST         address to listen on (default: env HOST, else the config's host, else 127.0.0.1)
  --port PORT         port (default: env PORT, else the config's port, else 8080; 0: any free port);
                      start-up fails if the address is already in use
  --follow            with engine.log: start as a follower of the replicated log; take over writes when the
                      leader's lease runs out (docs/scale-out.md)
  --replay ...        serve a market replayed from recorded data instead
  --log json|text     json: structured logs (pino, one JSON object a line) on stderr and nothing on stdout,
                      never a key secret (default: env RINGMATCH_LOG, else text: the lines above)
  --help, -h          this text

Environment: HOST, PORT, SIM_ADMIN_TOKEN (the control plane's token; default: loopback callers only),
RINGMATCH_LOG, RINGMATCH_LOG_LEVEL (default info). GET /metrics: Prometheus metrics (docs/operations.md).
Details: docs/http.md (config file, demo keys, control plane, routes), docs/websocket.md, docs/wallet.md,
docs/unified.md, docs/sub-accounts.md, README.md.
`;

/** `npm start -- --replay --help`. */
export const SERVE_HELP = `usage: npm start -- --replay --format tardis --trades FILE --book FILE [options]
       npm start -- --replay --format gate --gate-kind spot|futures --trades FILE --book FILE [options]

Serves the simulator (REST API v4 and WebSocket v4) on one market replayed from recorded data, in simulated
time, so an unchanged bot trades against real history. When the data ends it keeps serving the final state.

Options:
  --speed X            simulated time at X times wall time; 0: as fast as possible (default 1)
  --sim-config FILE    users and keys in the npm start config format (default: the demo's users and keys)
  --config FILE.json   the replay config: market, fees, models (default: none; docs/replay.md)
  --ticker FILE        a Tardis derivative_ticker: serve the market as a perpetual (/futures/usdt, /v4/ws/fx/usdt)
                       with the recorded mark, index and funding (default: none; a spot market)
  --seed N             seed of every random draw (default 1)
  --host HOST          address to listen on (default: env HOST, else 127.0.0.1)
  --port PORT          port (default: env PORT, else 8080; 0: any free port); start-up fails if the address is
                       already in use
  --help, -h           this text

Environment: HOST, PORT.

Details: docs/replay.md (Serving a replay over HTTP), docs/http.md.
`;

/** True when the arguments ask for help. */
export const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

/** Flags whose path is written, not read. */
const OUTPUTS = new Set(['--html', '--out']);
const WHY: Readonly<Record<string, string>> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory', EPERM: 'operation not permitted' };

/**
 * A one-line message for a file-system error (ENOENT, EACCES, EISDIR, ENOTDIR, EPERM) about a path given on the
 * command line, or for a strategy module that cannot be loaded; undefined for anything else. `flags` maps each
 * flag to its value, so the message names the flag the path came from and says what to do.
 */
export function fileErrorMessage(e: unknown, flags: ReadonlyMap<string, string>): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ERR_MODULE_NOT_FOUND') {
    const strategy = flags.get('--strategy');
    return `cannot load the strategy module${strategy === undefined ? '' : ` ${strategy}`} (${err.message.split('\n')[0]}); check its path`;
  }
  if (err.code === undefined || WHY[err.code] === undefined || typeof err.path !== 'string') return undefined;
  const path = resolve(err.path);
  let flag: string | undefined;
  for (const [f, v] of flags) if (path === resolve(v) || path.startsWith(resolve(v) + sep)) flag = f;
  const what = flag === undefined ? err.path : `${flag} ${err.path}`;
  if (flag !== undefined && OUTPUTS.has(flag)) return `cannot write ${what} (${WHY[err.code]}); check that its directory exists and is writable`;
  return `cannot read ${what} (${WHY[err.code]}); check the path`;
}
