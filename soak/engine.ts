/**
 * `npm run soak:engine`: the long form of test/engine/threaded-pipeline.threads.test.ts. For each seed, the
 * seeded stream of every command kind (test/support/pipeline-stream.ts) is generated in chunks through the
 * inline runner (the oracle), and each chunk is fed to one threaded runner per shard count, submitted in
 * random bursts as the server does (test/support/pipeline-driver.ts). After every chunk: each command's
 * result code, the exchange's invariants (ledger conservation with the fee and pool accounts, holds = open
 * orders) and the state hash are compared with the inline runner's. Only one chunk of commands is held at a
 * time, so streams of any length fit in memory.
 *
 * commands/s: the inline row times generating and applying the stream; a threaded row times its feeding (from
 * the first submit of a chunk to its last answer); neither includes the checkpoints.
 *
 * Bounded: `--commands` per seed, and `--minutes` for the whole run (checked between chunks; a chunk that does
 * not finish within CHUNK_LIMIT_MS fails the run). A seed cut short by the time bound is compared up to where
 * it got and reported as such. Exit 1 on any mismatch, invariant failure or engine failure.
 */
import { performance } from 'node:perf_hooks';
import { Prng } from '../src/core/prng.js';
import { InlineEngine } from '../src/engine/inline-engine.js';
import { PIPE_DEFINITION, type PipelineChunk, PipelineGenerator, StepClock } from '../test/support/pipeline-stream.js';
import { PipelineDriver, STEP_PIPE, T0_PIPE } from '../test/support/pipeline-driver.js';
import { machineInfo, machineLines } from '../bench/machine.js';
import { SoakArgs } from './args.js';
import { formatTable } from './table.js';

const USAGE = `usage: npm run soak:engine -- [--seeds LIST] [--commands N] [--shards LIST] [--minutes M] [--chunk N] [--json]

The threaded runner against the inline one on long seeded streams of every command kind, submitted in bursts
as the server does: result codes, invariants and state hashes compared after every chunk.
  --seeds LIST     N (seeds 1..N), a-b, or a,b,c (default 1-4)
  --commands N     random commands per seed after the opening credits (default 2000000)
  --shards LIST    shard counts of the threaded runners (default 1,2,4)
  --minutes M      bound on the whole run, checked between chunks (default 60)
  --chunk N        commands per chunk, compared after each (default 50000)
  --json           one JSON document on stdout (progress on stderr); default: a table
  --help, -h       this text
Exit status 1 on any mismatch, invariant failure or engine failure.
`;

/** A chunk that takes longer than this on one runner is a hang: the run fails. */
const CHUNK_LIMIT_MS = 10 * 60_000;

const args = new SoakArgs(process.argv.slice(2), USAGE, ['seeds', 'commands', 'shards', 'minutes', 'chunk'], ['json']);
const SEEDS = args.list('seeds', [1, 2, 3, 4], true);
const COMMANDS = args.number('commands', 2_000_000);
const SHARDS = args.list('shards', [1, 2, 4]);
const MINUTES = args.number('minutes', 60, true);
const CHUNK = args.number('chunk', 50_000);
const JSON_OUT = args.has('json');

const START = Date.now();
const END = START + MINUTES * 60_000;
const log = (line: string): void => {
  process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`);
};

interface Row {
  seed: number;
  runner: string;
  commands: number;
  commands_per_sec: number;
  codes_equal: boolean;
  hash_equal: boolean;
  /** Chunk boundaries where the state hash was compared (all equal when hash_equal). */
  checkpoints: number;
  invariants: boolean;
  /** Why the row failed: the first mismatch, invariant or engine failure. */
  failure?: string;
  /** The time bound stopped the seed before `--commands`. */
  cut_short: boolean;
}

interface Runner {
  readonly shards: number;
  readonly driver: PipelineDriver;
  ms: number;
  commands: number;
  checkpoints: number;
  codesEqual: boolean;
  hashEqual: boolean;
  invariants: boolean;
  failure: string | undefined;
}

function withLimit<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no progress in ${CHUNK_LIMIT_MS / 1000} s`)), CHUNK_LIMIT_MS);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** Feeds one chunk to `r` and compares codes, invariants and the hash with the oracle's. */
async function feed(r: Runner, chunk: PipelineChunk, at: number, inlineHash: string): Promise<void> {
  const codes = new Array<number>(chunk.commands.length).fill(Number.NaN);
  const t = performance.now();
  try {
    await withLimit(r.driver.feed(chunk.commands, codes, 0, Date.now() + CHUNK_LIMIT_MS), `${r.shards} shard(s)`);
  } catch (e) {
    r.failure = `engine failure in commands ${at}–${at + chunk.commands.length - 1}: ${message(e)}`;
    return;
  } finally {
    r.ms += performance.now() - t;
  }
  r.commands += chunk.commands.length;
  const k = codes.findIndex((c, i) => c !== chunk.codes[i]);
  if (k >= 0) {
    r.codesEqual = false;
    r.failure = `command ${at + k} (type ${chunk.commands[k]!.type}): threaded code ${codes[k]}, inline ${chunk.codes[k]}`;
    return;
  }
  try {
    const { hash, failure } = await withLimit(r.driver.check(), `${r.shards} shard(s) state hash`);
    if (failure !== undefined) throw failure;
    r.checkpoints++;
    if (hash !== inlineHash) {
      r.hashEqual = false;
      r.failure = `state hash after command ${at + chunk.commands.length - 1}: threaded ${hash}, inline ${inlineHash}`;
    }
  } catch (e) {
    r.invariants = false;
    r.failure = `after command ${at + chunk.commands.length - 1}: ${message(e)}`;
  }
}

async function soakSeed(seed: number): Promise<Row[]> {
  const inline = new InlineEngine(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE) });
  const gen = new PipelineGenerator(seed, inline);
  const runners: Runner[] = SHARDS.map((shards) => ({ shards, driver: new PipelineDriver(shards, new Prng(seed * 7919 + shards)),
    ms: 0, commands: 0, checkpoints: 0, codesEqual: true, hashEqual: true, invariants: true, failure: undefined }));
  let inlineMs = 0;
  let inlineOk = true;
  let inlineFailure: string | undefined;
  let at = 0;
  let random = 0;
  let chunk: PipelineChunk | undefined;
  try {
    for (;;) {
      const t = performance.now();
      chunk = chunk === undefined ? gen.openings() : gen.next(Math.min(CHUNK, COMMANDS - random));
      inlineMs += performance.now() - t;
      let inlineHash: string;
      try {
        inline.assertInvariants();
        inlineHash = inline.stateHash();
      } catch (e) {
        inlineOk = false;
        inlineFailure = `inline runner after command ${at + chunk.commands.length - 1}: ${message(e)}`;
        break;
      }
      if (at > 0) random += chunk.commands.length;
      for (const r of runners) if (r.failure === undefined) await feed(r, chunk, at, inlineHash);
      at += chunk.commands.length;
      if (runners.every((r) => r.failure !== undefined) || random >= COMMANDS || Date.now() > END) break;
      if (random > 0 && random % (CHUNK * 10) === 0) log(`seed ${seed}: ${random.toLocaleString('en-US')} commands compared`);
    }
  } finally {
    await Promise.all(runners.map((r) => r.driver.close().catch(() => undefined)));
  }
  const cut = random < COMMANDS && Date.now() > END;
  const rows: Row[] = [{ seed, runner: 'inline (oracle)', commands: at, commands_per_sec: Math.round(at / (inlineMs / 1000)),
    codes_equal: true, hash_equal: true, checkpoints: 0, invariants: inlineOk, cut_short: cut,
    ...(inlineFailure === undefined ? {} : { failure: inlineFailure }) }];
  for (const r of runners) {
    rows.push({ seed, runner: `threaded, ${r.shards} shard${r.shards === 1 ? '' : 's'}`, commands: r.commands,
      commands_per_sec: Math.round(r.commands / (r.ms / 1000)), codes_equal: r.codesEqual, hash_equal: r.hashEqual,
      checkpoints: r.checkpoints, invariants: r.invariants, cut_short: cut, ...(r.failure === undefined ? {} : { failure: r.failure }) });
  }
  return rows;
}

const yesNo = (b: boolean): string => (b ? 'yes' : 'NO');

async function main(): Promise<void> {
  const machine = machineInfo();
  const header = `ringmatch engine soak: seeds ${SEEDS.join(',')}, ${COMMANDS.toLocaleString('en-US')} commands per seed, `
    + `shards ${SHARDS.join(',')}, chunks of ${CHUNK.toLocaleString('en-US')}, bound ${MINUTES} min\n${machineLines(machine)}`;
  log(header);
  const rows: Row[] = [];
  const skipped: number[] = [];
  for (const seed of SEEDS) {
    if (Date.now() > END) {
      skipped.push(seed);
      continue;
    }
    const seedRows = await soakSeed(seed);
    for (const r of seedRows) {
      log(`seed ${seed} ${r.runner}: ${r.commands} commands, ${r.commands_per_sec}/s, codes ${yesNo(r.codes_equal)}, `
        + `hash ${yesNo(r.hash_equal)} (${r.checkpoints} checkpoints), invariants ${yesNo(r.invariants)}${r.failure === undefined ? '' : `: ${r.failure}`}`);
    }
    rows.push(...seedRows);
  }
  const failed = rows.filter((r) => r.failure !== undefined);
  const cut = rows.some((r) => r.cut_short) || skipped.length > 0;
  const verdict = failed.length > 0 ? `FAILED: ${failed.length} row(s) mismatched or failed`
    : `passed: every threaded runner gave the inline codes, state hashes and invariants`;
  const note = cut ? `\nthe --minutes bound cut the run short${skipped.length > 0 ? `; seeds not run: ${skipped.join(',')}` : ''}` : '';
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ machine, seeds: SEEDS, commands: COMMANDS, shards: SHARDS, chunk: CHUNK, minutes: MINUTES,
      skipped_seeds: skipped, passed: failed.length === 0, rows })}\n`);
  } else {
    const table = formatTable(['seed', 'runner', 'commands', 'commands/s', 'codes equal', 'state hash equal', 'checkpoints', 'invariants'],
      rows.map((r) => [String(r.seed), r.runner, r.commands.toLocaleString('en-US'), r.commands_per_sec.toLocaleString('en-US'),
        yesNo(r.codes_equal), yesNo(r.hash_equal), r.runner.startsWith('inline') ? '–' : String(r.checkpoints), yesNo(r.invariants)]), 2);
    const failures = failed.map((r) => `seed ${r.seed} ${r.runner}: ${r.failure}`).join('\n');
    process.stdout.write(`${header}\n\n${table}\n${failures === '' ? '' : `\n${failures}\n`}\n${verdict}${note}\n`);
  }
  log(`done in ${((Date.now() - START) / 1000).toFixed(1)} s: ${verdict}`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

await main();
