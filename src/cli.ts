#!/usr/bin/env node
/**
 * Command line (the package's `ringmatch` bin): `ringmatch bench NAME …` (src/cli-bench.ts) and
 * `node --import tsx src/cli.ts start [--config FILE.json] [--host H] [--port P]`
 * (`npm start` runs it), `start --replay …` (a replayed market served), `replay …` (`npm run replay`, flags in
 * src/backtest/replay-args.ts) and `sweep-worker …` (`npm run sweep-worker`: runs the tasks of `replay --sweep …
 * --queue …` from a JetStream work queue; src/backtest/sweep-worker.ts). HOST and PORT in the environment apply
 * to both servers when the flags are absent; SIM_ADMIN_TOKEN to `start`.
 * Prints the address, markets and API keys; SIGINT/SIGTERM close the server and exit.
 * `--help` (or `-h`) with any command prints its usage and exits 0. The user's mistakes (bad flags, config,
 * files, a port in use) print one line `ringmatch: …` and exit 1; only a fault of ours prints a stack.
 */
import os from 'node:os';
import { fileErrorMessage, SERVE_HELP, START_HELP, wantsHelp } from './cli-usage.js';
import { ConfigError } from './core/invariant.js';
import { startSimulator } from './main.js';
import { startNode } from './sim/follower-node.js';
import { resolveRunner } from './sim/runner-choice.js';
import { loadConfigFile, type SimulatorConfig } from './sim/config-file.js';
import { DEMO_CONFIG } from './sim/demo.js';

const COMMANDS_HELP = `usage: npm start -- [options]        the exchange simulator (npm start -- --help)
       npm run replay -- [options]   a backtesting replay (npm run replay -- --help)
       npm run sweep-worker -- --queue nats://HOST:PORT
                                     runs the tasks of --queue sweeps (npm run sweep-worker -- --help)
Installed as a package: ringmatch start [options], ringmatch replay [options], ringmatch sweep-worker [options],
ringmatch bench NAME [flags] (ringmatch start --help, ringmatch replay --help, ringmatch sweep-worker --help,
ringmatch bench --help).
Details: README.md and docs/.
`;

interface Args { command: string; config?: string; host?: string; port?: number; log?: 'json' | 'text'; follow?: boolean }

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { command: argv[0] ?? 'start' };
  for (let i = 1; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === '--config' || flag === '--host' || flag === '--port' || flag === '--log') {
      if (value === undefined) throw new ConfigError(`${flag} needs a value`);
      i++;
      if (flag === '--log') {
        if (value !== 'json' && value !== 'text') throw new ConfigError(`--log: "${value}" is not json or text`);
        args.log = value;
      } else if (flag === '--config') args.config = value;
      else if (flag === '--host') args.host = value;
      else args.port = parsePort(value, '--port');
    } else if (flag === '--follow') {
      args.follow = true;
    } else {
      throw new ConfigError(`unknown argument ${flag} (usage: start [--config FILE.json] [--host HOST] [--port PORT] [--log json] [--follow]; --help for more)`);
    }
  }
  return args;
}

function parsePort(v: string, what: string): number {
  const n = Number(v);
  if (!/^[0-9]{1,5}$/.test(v) || n > 65535) throw new ConfigError(`${what}: "${v}" is not a port number`);
  return n;
}

function banner(config: SimulatorConfig, host: string, port: number): string {
  const lines = [`ringmatch simulator: http://${host}:${port}/api/v4  (control plane: http://${host}:${port}/sim)`];
  lines.push(`WebSocket v4: ws://${host}:${port}/ws/v4/`);
  lines.push(`dashboard: http://${host}:${port}/ui/`);
  lines.push(`markets: ${config.currency_pairs.map((p) => p.id).join(', ')}`);
  const setting = config.engine?.runner;
  const auto = setting === undefined || setting === 'auto' ? ` (auto: ${os.availableParallelism()} cores)` : '';
  const engine = resolveRunner(setting) === 'inline' ? `inline runner${auto}` : `threaded runner, ${config.engine?.shards ?? 1} shard worker(s)${auto}`;
  lines.push(`engine: ${engine}`);
  lines.push(`clock: ${config.clock?.type === 'sim' ? 'simulated (POST /sim/clock)' : 'wall'}; rate limits: ${config.rate_limits === false ? 'off' : 'on'}`);
  lines.push('API keys (uid  key  secret  perms):');
  for (const u of config.users ?? []) {
    for (const k of u.keys ?? []) {
      const perms = k.perms === undefined || k.perms === 'all' ? 'all' : k.perms.map((p) => `${p.name}${p.read_only === true ? ':ro' : ''}`).join(',');
      lines.push(`  ${u.uid}  ${k.key}  ${k.secret}  ${perms}`);
    }
  }
  return lines.join('\n');
}

/** Each `--flag value` pair of `argv` (for naming the flag a bad path came from). */
function flagValues(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  argv.forEach((a, i) => { if (a.startsWith('--') && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) out.set(a, argv[i + 1]!); });
  return out;
}

/** The user's input errors as one-line ConfigErrors (bad data, unreadable files); anything else unchanged. */
function asUserError(e: unknown, argv: readonly string[]): unknown {
  if (e instanceof Error && (e.name === 'ReplayDataError' || e.name === 'JournalFormatError')) return new ConfigError(e.message);
  const message = fileErrorMessage(e, flagValues(argv));
  return message === undefined ? e : new ConfigError(message);
}

/** Prints `e` as main's catch does: one line for the user's errors, the stack for ours. */
function report(e: unknown, argv: readonly string[]): void {
  const u = asUserError(e, argv);
  console.error(u instanceof ConfigError ? `ringmatch: ${u.message}` : u);
}

/** A signal aborted (with the signal's name as reason) on the first SIGINT or SIGTERM. */
function abortOnSignals(): AbortSignal {
  const ac = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => { ac.abort(sig); });
  return ac.signal;
}

/** A sweep task's error (as a worker thread returned it) in one line, as the replay command would print it. */
function explainTaskError(e: { name: string; message: string; code?: string; path?: string }, argv: readonly string[]): string {
  if (e.name === 'ConfigError') return e.message;
  const u = asUserError(Object.assign(new Error(e.message), e), argv);
  return u instanceof ConfigError ? u.message : `${e.name}: ${e.message}`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(COMMANDS_HELP);
    return;
  }
  if (argv[0] === 'bench') {
    const { BENCH_HELP, runBench } = await import('./cli-bench.js');
    if (argv.length === 1 || argv[1] === '--help' || argv[1] === '-h') {
      process.stdout.write(BENCH_HELP);
      return;
    }
    process.exitCode = await runBench(argv.slice(1));
    return;
  }
  if (argv[0] === 'replay') {
    const { parseReplayArgs, REPLAY_HELP } = await import('./backtest/replay-args.js');
    if (wantsHelp(argv.slice(1))) {
      process.stdout.write(REPLAY_HELP);
      return;
    }
    const { runReplay } = await import('./backtest/replay-command.js');
    try {
      const args = parseReplayArgs(argv.slice(1));
      // A queue sweep removes its tasks from the queue when interrupted, then fails with one line.
      const signal = args.queue === undefined ? undefined : abortOnSignals();
      await runReplay(args, { stdout: process.stdout, stderr: process.stderr, signal });
    } catch (e) {
      // Unreadable data and files, bad strategy orders are the user's input: one line, like a config error.
      throw asUserError(e, argv);
    }
    return;
  }
  if (argv[0] === 'sweep-worker') {
    const { parseSweepWorkerArgs, runSweepWorker, SWEEP_WORKER_HELP } = await import('./backtest/sweep-worker.js');
    if (wantsHelp(argv.slice(1))) {
      process.stdout.write(SWEEP_WORKER_HELP);
      return;
    }
    const opts = parseSweepWorkerArgs(argv.slice(1));
    const log = (line: string): void => { console.log(`sweep-worker ${opts.name}: ${line}`); };
    const s = await runSweepWorker(opts, { log, explain: explainTaskError, signal: abortOnSignals() });
    log(`exiting: ${s.done} done, ${s.failed} failed, ${s.given_back} given back`);
    return;
  }
  if (argv[0] === 'start' && argv.includes('--replay')) {
    if (wantsHelp(argv.slice(1))) {
      process.stdout.write(SERVE_HELP);
      return;
    }
    const { parseServeArgs, serveReplay } = await import('./backtest/replay-server.js');
    let served: Awaited<ReturnType<typeof serveReplay>>;
    try {
      const a = parseServeArgs(argv.slice(1));
      const host = a.host ?? (process.env.HOST || undefined);
      const envPort = process.env.PORT;
      const port = a.port ?? (envPort !== undefined && envPort !== '' ? parsePort(envPort, 'PORT') : undefined);
      served = await serveReplay({ ...a, ...(host === undefined ? {} : { host }), ...(port === undefined ? {} : { port }) });
    } catch (e) {
      throw asUserError(e, argv);
    }
    console.log(`${banner(served.sim.config, served.sim.server.host, served.sim.server.port)}\nreplaying market data in simulated time`);
    served.finished.then((s) => console.log(`ringmatch: replay finished (${s.rows} rows); serving the final state until stopped`),
      (e: unknown) => { report(e, argv); process.exit(1); });
    let closing = false;
    const stop = (signal: string): void => {
      if (closing) return;
      closing = true;
      console.log(`ringmatch: ${signal}, closing`);
      served.stop();
      served.sim.close().then(() => process.exit(0), () => process.exit(1));
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    return;
  }
  if (argv[0] === 'start' && wantsHelp(argv.slice(1))) {
    process.stdout.write(START_HELP);
    return;
  }
  const args = parseArgs(argv);
  if (args.command !== 'start') throw new ConfigError(`unknown command "${args.command}" (commands: start, replay, sweep-worker, bench; --help for usage)`);
  const config = args.config === undefined ? DEMO_CONFIG : loadConfigFile(args.config);
  const envPort = process.env.PORT;
  // JSON logs (docs/operations.md): records on stderr, nothing on stdout (the banner shows key secrets).
  const logger = (args.log ?? process.env.RINGMATCH_LOG) === 'json' ? (await import('./ops/log.js')).createLogger({ level: process.env.RINGMATCH_LOG_LEVEL }) : undefined;
  const startOptions = {
    host: args.host ?? process.env.HOST ?? config.host ?? '127.0.0.1',
    port: args.port ?? (envPort !== undefined && envPort !== '' ? parsePort(envPort, 'PORT') : config.port ?? 8080),
    adminToken: process.env.SIM_ADMIN_TOKEN || undefined,
    logger,
  };
  if (args.follow === true && config.engine?.log === undefined) throw new ConfigError('--follow needs engine.log in the config (docs/scale-out.md)');
  // A node of the replicated log (sim/follower-node.ts) follows, or leads once it holds the lease.
  const node = config.engine?.log === undefined ? undefined : await startNode(config, { ...startOptions, follow: args.follow });
  const sim = node === undefined ? await startSimulator(config, startOptions) : node.simulator!;
  const closeAll = (): Promise<void> => (node ?? sim).close();
  if (logger === undefined) console.log(banner(config, sim.server.host, sim.server.port));
  if (config.engine?.log !== undefined) console.log(`replicated log: stream ${config.engine.log.stream} on ${config.engine.log.servers.join(', ')}; `
    + `${args.follow === true ? 'following' : 'leading once it holds the lease'} (GET /sim/replication)`);
  let closing = false;
  const stop = (signal: string): void => {
    if (closing) return;
    closing = true;
    if (logger !== undefined) logger.info({ event: 'closing', signal }, 'closing');
    else console.log(`ringmatch: ${signal}, closing`);
    closeAll().then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  report(e, process.argv.slice(2));
  process.exit(1);
});
