/**
 * `replay` command-line flags. Fixed by the product: `--format journal --journal FILE`,
 * `--format tardis --trades FILE --book FILE`, `--json`. The rest are options of market-data replays.
 */
import { ConfigError } from '../core/invariant.js';

export const FORMATS = ['journal', 'tardis', 'gate', 'lobster'] as const;
export type ReplayFormat = (typeof FORMATS)[number];

export interface ReplayArgs {
  format: ReplayFormat;
  journal?: string;
  trades?: string;
  book?: string;
  /** Tardis derivative_ticker of a perpetual (mark, index, funding); makes the replay a perpetual one. */
  ticker?: string;
  /** Gate dumps: 'spot' (deals + orderbooks) or 'futures' (trades + orderbooks). */
  gateKind?: 'spot' | 'futures';
  /** LOBSTER message file. */
  messages?: string;
  /** A replay config file (JSON): market, users, models, strategy options. */
  config?: string;
  /** A strategy module (TypeScript or JavaScript) exporting `default` or `createStrategy`. */
  strategy?: string;
  seed?: number;
  json: boolean;
  /** Skip rows that do not parse (counted by reason in the report) instead of stopping at the first one. */
  skipInvalid?: boolean;
  /** Write the HTML report here. */
  html?: string;
  /** Write the JSON report here (besides stdout with --json). */
  out?: string;
  /** Sweep: `key=v1,v2,…` over a config field (latency or fee), run on a worker pool. */
  sweep?: string;
  workers?: number;
  /** Sweep on a JetStream work queue: NATS server URLs; the runs go to sweep-worker processes (./sweep-driver.ts). */
  queue?: string[];
  /** Seconds a `--queue` sweep waits for all its results (default 3600). */
  queueTimeout?: number;
}

export const USAGE = 'usage: replay --format journal --journal FILE | --format tardis --trades FILE --book FILE [--ticker FILE]'
  + ' | --format gate --gate-kind spot|futures --trades FILE --book FILE | --format lobster --messages FILE'
  + ' [--config FILE.json] [--strategy FILE.ts] [--seed N] [--json] [--html FILE] [--out FILE]'
  + ' [--sweep key=v1,v2,…] [--workers N | --queue nats://HOST:PORT[,…] [--queue-timeout S]] [--skip-invalid]';

/** What `npm run replay -- --help` prints: every flag, its default, and where the details are. */
export const REPLAY_HELP = `usage: npm run replay -- --format FORMAT INPUTS [options]

Replays recorded order flow or market data through the matching engine and ledger, in simulated time.

Formats and their inputs:
  --format journal --journal FILE                  our journal (order flow), ending at the live run's state hash
  --format tardis --trades FILE --book FILE        Tardis trades + incremental_book_L2 (plain or .gz)
      [--ticker FILE]                              + derivative_ticker: a perpetual on the futures engine
                                                   (also with --format gate --gate-kind futures)
  --format gate --gate-kind spot|futures --trades FILE --book FILE
                                                   Gate's dumps (--gate-kind default: spot)
  --format lobster --messages FILE                 a LOBSTER message file

Options:
  --config FILE.json   replay config: market, users, models, strategy (default: none; docs/replay.md)
  --strategy FILE.ts   a strategy module (overrides the config's strategy.module; default: none)
  --seed N             seed of every random draw (overrides the config's seed; default 1)
  --json               print exactly one JSON document on stdout (default: a short summary)
  --html FILE          write the HTML report (default: none)
  --out FILE           write the JSON report to a file too (default: none)
  --sweep key=v1,v2,…  one run per value of a config field; --out and --html then name directories
  --workers N          sweep pool size (default 2)
  --queue nats://HOST:PORT[,…]
                       run the sweep's tasks on sweep-worker processes (npm run sweep-worker) through a
                       JetStream work queue on these NATS servers, instead of a local pool; same table
  --queue-timeout S    seconds a --queue sweep waits for all its results (default 3600)
  --help, -h           this text

Details: docs/replay.md (formats, models, the config file, reports); README.md (Backtesting replays).
`;

const VALUE_FLAGS = new Set(['--format', '--journal', '--trades', '--book', '--ticker', '--gate-kind', '--messages', '--config',
  '--strategy', '--seed', '--html', '--out', '--sweep', '--workers', '--queue', '--queue-timeout']);

/** Parses `replay` flags (argv after the command name). Throws ConfigError with the usage line. */
export function parseReplayArgs(argv: readonly string[]): ReplayArgs {
  const v = new Map<string, string>();
  let json = false;
  let skipInvalid = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--json') { json = true; continue; }
    if (flag === '--skip-invalid') { skipInvalid = true; continue; }
    if (!VALUE_FLAGS.has(flag)) throw new ConfigError(`unknown argument ${flag} (${USAGE})`);
    const value = argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    v.set(flag, value);
  }
  const format = v.get('--format');
  if (format === undefined || !(FORMATS as readonly string[]).includes(format)) {
    throw new ConfigError(`--format must be one of ${FORMATS.join(', ')} (${USAGE})`);
  }
  const args: ReplayArgs = { format: format as ReplayFormat, json, ...(skipInvalid ? { skipInvalid } : {}) };
  const need = (flag: string): string => {
    const x = v.get(flag);
    if (x === undefined) throw new ConfigError(`--format ${format} needs ${flag} (${USAGE})`);
    return x;
  };
  if (format === 'journal') args.journal = need('--journal');
  if (format === 'journal' && skipInvalid) {
    throw new ConfigError('--skip-invalid applies to CSV inputs: journal records are checksummed, and a corrupt tail already ends the replay (result.journal.defect)');
  }
  if (format === 'tardis' || format === 'gate') { args.trades = need('--trades'); args.book = need('--book'); }
  if (format === 'lobster') args.messages = need('--messages');

  if (format === 'gate') {
    const k = v.get('--gate-kind') ?? 'spot';
    if (k !== 'spot' && k !== 'futures') throw new ConfigError('--gate-kind must be spot or futures');
    args.gateKind = k;
  }
  if (v.has('--ticker')) {
    if (format !== 'tardis' && !(format === 'gate' && args.gateKind === 'futures')) {
      throw new ConfigError('--ticker (a Tardis derivative_ticker) goes with --format tardis or --format gate --gate-kind futures');
    }
    args.ticker = v.get('--ticker')!;
  }
  const opt = (flag: string): string | undefined => v.get(flag);
  if (opt('--config') !== undefined) args.config = opt('--config');
  if (opt('--strategy') !== undefined) args.strategy = opt('--strategy');
  if (opt('--html') !== undefined) args.html = opt('--html');
  if (opt('--out') !== undefined) args.out = opt('--out');
  if (opt('--sweep') !== undefined) args.sweep = opt('--sweep');
  const seed = opt('--seed');
  if (seed !== undefined) {
    if (!/^[0-9]{1,15}$/.test(seed)) throw new ConfigError(`--seed: "${seed}" is not a non-negative integer`);
    args.seed = Number(seed);
  }
  const workers = opt('--workers');
  if (workers !== undefined) {
    if (!/^[1-9][0-9]{0,2}$/.test(workers)) throw new ConfigError(`--workers: "${workers}" is not a positive integer`);
    args.workers = Number(workers);
  }
  const queue = opt('--queue');
  if (queue !== undefined) {
    if (args.sweep === undefined) throw new ConfigError('--queue runs the tasks of a sweep on sweep-worker processes: it needs --sweep key=v1,v2,…');
    if (workers !== undefined) throw new ConfigError('--workers sizes the local pool; with --queue the runs go to sweep-worker processes (their --concurrency)');
    args.queue = parseQueueServers(queue, '--queue');
  }
  const timeout = opt('--queue-timeout');
  if (timeout !== undefined) {
    if (queue === undefined) throw new ConfigError('--queue-timeout goes with --queue');
    args.queueTimeout = parseSeconds(timeout, '--queue-timeout');
  }
  return args;
}

/** `nats://host:port[,…]` (or `tls://`) as a list of server URLs. Throws ConfigError naming `flag`. */
export function parseQueueServers(value: string, flag: string): string[] {
  const servers = value.split(',');
  for (const s of servers) {
    if (!/^(nats|tls):\/\/[^\s,/]+$/.test(s)) throw new ConfigError(`${flag}: "${s}" is not a NATS server URL such as nats://127.0.0.1:4222`);
  }
  return servers;
}

/** A whole number of seconds, 1 to 10^7. Throws ConfigError naming `flag`. */
export function parseSeconds(value: string, flag: string): number {
  if (!/^[1-9][0-9]{0,6}$/.test(value)) throw new ConfigError(`${flag}: "${value}" is not a whole number of seconds (1 or more)`);
  return Number(value);
}

/**
 * The command-line flags of one run (the inputs, config, strategy, seed): what parseReplayArgs reads back
 * into the same arguments, less the outputs and the sweep. Used to name, in a sweep task's error, the flag a
 * missing file came from. @allocates
 */
export function replayArgv(args: ReplayArgs): string[] {
  const out = ['--format', args.format];
  const flags: [string, string | number | undefined][] = [['--journal', args.journal], ['--trades', args.trades], ['--book', args.book],
    ['--ticker', args.ticker], ['--gate-kind', args.gateKind], ['--messages', args.messages], ['--config', args.config],
    ['--strategy', args.strategy], ['--seed', args.seed]];
  for (const [flag, v] of flags) if (v !== undefined) out.push(flag, String(v));
  if (args.skipInvalid === true) out.push('--skip-invalid');
  if (args.json) out.push('--json');
  return out;
}
