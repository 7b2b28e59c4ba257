/**
 * `node --expose-gc --max-old-space-size=8192 --import tsx bench/engine/engine.bench.ts [--json] [--quick] [--shards 1,2,4,8] [--dir PATH] [--only PARTS]`
 *
 * The whole engine with the ledger on exchange-core's PerfThroughput workload: sequencer, R1 (holds), book,
 * R2 (settlement, fees), optionally the journal; the inline runner and the threaded runner (ledger on this
 * thread, market shards in workers behind SAB rings).
 *
 * Workload: bench/core/ec-generator.ts (seed 1, ~1,000 resting orders, 1,000 users, native move/reduce, no
 * STP) converted by ec-engine-stream.ts: users credited once, untimed, with ~10^4× the largest hold; the
 * generator's pre-fill applied untimed; then the timed commands.
 * - `ec-ledger-1market`: one market, the EC stream (2M commands; --quick 60k). Extra shards are idle workers
 *   here, so --quick runs only the first `--shards` count on it.
 * - `ec-ledger-8markets`: 8 markets, each its own copy of the stream (own users, own ids), interleaved round-robin
 *   (8 × 250k; --quick 8 × 10k), so that 2+ shards have work.
 * - `ec-delivery-1contract`: the same on the delivery variant of that contract (dated 2099-12-31, margined in the
 *   delivery account): the same rows; the note compares it with the perpetual (the target: within 10 %).
 * - `ec-futures-1contract`: the 1-market stream on a linear perpetual (ec-engine-stream.ts ecFuturesDefinition):
 *   every fill moves positions, margin, fees and realised PnL; FOK places become IOC. Rows: inline journal off and
 *   pipelined, threaded ×1 journal off (the product is serial: its book lives on the ledger thread there, so
 *   the threaded row measures the runner's intake around the inline work).
 * Rows per scenario: inline (shards 0 = no worker) journal off; inline with a journal, fsync per batch
 * (flush every 256 commands) awaited before the next batch (`flush_depth` 1) and pipelined (up to 16 flushes
 * in flight, the event loop turned once per batch so writes and syncs proceed, `flush_depth` 16); threaded
 * with each `--shards` count (default 1,2), journal off and pipelined. The journal lives in `--dir` (default
 * the OS temp dir); fsync figures mean little on tmpfs.
 *
 * Throughput: a fresh engine per pass (threaded engines closed after), pre-fill, gc(), then the timed
 * commands as fast as backpressure allows: inline, from the first submit to the last submit's return (and,
 * with a journal, the last flush); threaded, from the first submit until every callback has run (and the
 * last flush), submitting in runs of 256 followed by pump + poll, and on Busy pump + poll, turning the
 * event loop when nothing moved. The figure is the median of the measured passes (inline 3, threaded 3;
 * --quick 2 and 1); one warm-up pass runs before the first row only: the ledger thread's code stays warm
 * across engines, while shard workers are new (cold) in every pass, which a warm-up pass cannot change.
 * Latency: one more fresh engine, 200k commands (--quick 5k): inline, each `submit` timed with performance.now();
 * threaded, submit → callback with at most LAT_WINDOW commands in flight (pump + poll after every submit),
 * into an HDR histogram (ns). State hash: every throughput pass's final `stateHash()`; all rows and passes of
 * a scenario must agree (`hashes_match`). After the first inline pass the bench checks that no command was
 * rejected and that the engine's last order id equals the stream's place count (ids line up) and runs the
 * engine's invariant check (ledger conservation, holds = open orders).
 *
 * Recovery: 8 × 1.25M = 10M commands (--quick 8 × 25k = 200k) of the 8-market stream journaled by the inline
 * engine with fsync 'never' (`recovery-write`), then `recoverFromJournal` timed (`recovery-replay`, full
 * replay through a fresh inline engine, page cache warm) and its state hash compared with the live one.
 *
 * Restart (the server's start-up path, restart.ts, inline runner, page cache warm): `restart-journal` replays the
 * whole journal; `restart-snapshot` loads the snapshot taken at 90 % of it and replays the last 10 %.
 *
 * Snapshot: the live engine at the end of the recovery journal is captured (`captureSnapshot`, synchronous)
 * and written (`writeSnapshotFile`, encode + write + datasync): `snapshot-write`; then read and restored
 * (`readSnapshotFile` + `restoreEngine`): `snapshot-load`, its state hash compared with the live one.
 *
 * Ring: `ring.bench.ts --json` (with --quick when quick) runs as a child process; its rows are merged with
 * `scenario: 'ring-one-way' | 'ring-ping-pong'`.
 *
 * `--only` runs a comma-separated subset of: ec-ledger-1market, ec-ledger-8markets, ec-futures-1contract, ec-delivery-1contract,
 * recovery, ring (default: all).
 *
 * Output: a table and notes on stdout, or with `--json` exactly one JSON array on stdout; logs on stderr.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimClock } from '../../src/core/clock.js';
import { Command } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { defineMarket } from '../../src/core/market.js';
import { ResultCode } from '../../src/core/result-code.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { planRestart, restartInline } from '../../src/engine/restart.js';
import { takeSnapshot } from '../../src/engine/snapshot/snapshotter.js';
import { captureSnapshot, restoreEngine } from '../../src/engine/snapshot/capture.js';
import { readSnapshotFile, writeSnapshotFile } from '../../src/engine/snapshot/snapshot-file.js';
import { type ResultCallback, ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { generateEc, type EcResult } from '../core/ec-generator.js';
import { LatencyRecorder, type Percentiles, gcNow, hasGc, median } from '../core/measure.js';
import { KIND_NAMES, type Kind } from '../core/stream.js';
import { buildEngineStream, buildFuturesEngineStream, ecDefinition, ecFuturesDefinition, type EngineStream } from './ec-engine-stream.js';
import { machineInfo } from '../machine.js';
import { nodeCommand } from '../children.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';

exitWithUsage(BENCH_USAGE.engine);

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const QUICK = args.includes('--quick');
const argValue = (name: string): string | undefined => {
  const eq = args.find((a) => a.startsWith(`${name}=`));
  if (eq !== undefined) return eq.slice(name.length + 1);
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const SHARDS = (argValue('--shards') ?? '1,2').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
const BASE_DIR = argValue('--dir') ?? os.tmpdir();
const ONLY = argValue('--only')?.split(',');
const wanted = (part: string): boolean => ONLY === undefined || ONLY.includes(part);

const CFG = QUICK
  ? { inlinePasses: 2, threadedPasses: 1, single: 60_000, perMarket: 10_000, recoveryPerMarket: 25_000, latency: 5_000 }
  : { inlinePasses: 3, threadedPasses: 3, single: 2_000_000, perMarket: 250_000, recoveryPerMarket: 1_250_000, latency: 200_000 };
const MARKETS = 8;
const SCENARIOS = ['ec-ledger-1market', 'ec-ledger-8markets', 'ec-futures-1contract', 'ec-delivery-1contract'] as const;
const SEED = 1;
const T0 = 1_767_225_600_000_000;
const FLUSH_EVERY = 256;
const PIPELINE_DEPTH = 16;
const LAT_WINDOW = 16;
const RECOVERY_FLUSH_EVERY = 65_536;

const EC_REFERENCE_OPS = 5_000_000;
const EC_REFERENCE = 'exchange-core README: one order book, 5M ops/s on a Xeon X5690 (2011), Java 8, risk + matching, no journal';
const EC_LATENCY = 'exchange-core latency (risk + matching, no journal): 125K/s p50 0.6 µs p99 1.4 µs; 1M/s p50 0.5 µs p99 4 µs; 5M/s p50 1.5 µs p99 42 µs';
const TARGETS = { threadedPerSec: 1_000_000, journalCost: 0.3, replayPerSec: 2_000_000 };

const START = Date.now();
const log = (line: string): void => void process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`);

const machine = { ...machineInfo(), journal_dir: BASE_DIR };

type Row = Record<string, unknown> & { scenario: string };
const rows: Row[] = [];

interface Scenario {
  readonly name: string;
  readonly def: ExchangeDefinition;
  readonly stream: EngineStream;
  readonly hashes: string[];
  /** Commands timed per pass. */
  readonly commands: number;
}

interface JournalMode {
  readonly depth: number;
}

interface PassOut {
  seconds: number;
  hash: string;
  rejects: number;
  lastOrderId: number;
  trades: number;
}

let dir = '';
let fileNo = 0;

async function openJournal(def: ExchangeDefinition, fsync: 'batch' | 'never'): Promise<JournalWriter> {
  return JournalWriter.open(path.join(dir, `engine-${fileNo++}.journal`), headerFor(def, T0), { fsync });
}

async function closeJournal(w: JournalWriter | undefined): Promise<void> {
  if (w === undefined) return;
  await w.close();
  await rm(w.path, { force: true });
}

const turnLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Flushes per batch, keeping fewer than `depth` flushes in flight (depth 1: each awaited at once). */
class Flusher {
  readonly #inFlight: Promise<void>[] = [];
  constructor(private readonly flush: () => Promise<void>, private readonly depth: number) {}

  async batch(): Promise<void> {
    this.#inFlight.push(this.flush());
    while (this.#inFlight.length >= this.depth) await this.#inFlight.shift();
    if (this.#inFlight.length > 0) await turnLoop();
  }

  async drain(): Promise<void> {
    this.#inFlight.push(this.flush());
    await Promise.all(this.#inFlight.splice(0));
  }
}

async function inlinePass(sc: Scenario, journal: JournalMode | null, rec: LatencyRecorder | null, check = false): Promise<PassOut> {
  const s = sc.stream;
  const writer = journal === null ? undefined : await openJournal(sc.def, 'batch');
  const engine = new InlineEngine(sc.def, { clock: new SimClock(T0), journal: writer });
  const c = new Command();
  let rejects = 0;
  for (let i = 0; i < s.prefill; i++) if (engine.submit(s.load(i, c)) < 0) rejects++;
  await engine.flush();
  const flusher = journal === null ? null : new Flusher(() => engine.flush(), journal.depth);
  const end = rec === null ? s.length : Math.min(s.length, s.prefill + CFG.latency);
  gcNow();
  const t0 = performance.now();
  for (let i = s.prefill; i < end; i++) {
    s.load(i, c);
    if (rec === null) {
      if (engine.submit(c) < 0) rejects++;
    } else {
      const a = performance.now();
      const code = engine.submit(c);
      rec.record((performance.now() - a) * 1e6);
      if (code < 0) rejects++;
    }
    if (flusher !== null && (i - s.prefill) % FLUSH_EVERY === FLUSH_EVERY - 1) await flusher.batch();
  }
  if (flusher !== null) await flusher.drain();
  const seconds = (performance.now() - t0) / 1000;
  if (check) engine.assertInvariants();
  const out = { seconds, hash: engine.stateHash(), rejects, lastOrderId: engine.exchange.lastOrderId, trades: engine.exchange.trades.count };
  await closeJournal(writer);
  return out;
}

async function threadedPass(sc: Scenario, shards: number, journal: JournalMode | null, rec: LatencyRecorder | null): Promise<PassOut> {
  const s = sc.stream;
  const writer = journal === null ? undefined : await openJournal(sc.def, 'batch');
  const engine = ThreadedEngine.start(sc.def, { clock: new SimClock(T0), shards, journal: writer });
  try {
    const c = new Command();
    let rejects = 0;
    let completed = 0;
    const sent = new Float64Array(rec === null ? 0 : s.length);
    const done: ResultCallback = rec === null
      ? (code) => { completed++; if (code < 0) rejects++; }
      : (code, cmd) => {
        rec.record((performance.now() - sent[cmd.seq - 1]!) * 1e6);
        completed++;
        if (code < 0) rejects++;
      };
    const drive = async (): Promise<void> => {
      if (engine.pump() + engine.poll() === 0) await turnLoop();
    };
    const untimed: ResultCallback = (code) => { if (code < 0) rejects++; };
    for (let i = 0; i < s.prefill; i++) {
      s.load(i, c);
      while (engine.submit(c, untimed) === ResultCode.Busy) await engine.run();
    }
    await engine.run();
    await engine.sequencer.flush();
    const flusher = journal === null ? null : new Flusher(() => engine.sequencer.flush(), journal.depth);
    const end = rec === null ? s.length : Math.min(s.length, s.prefill + CFG.latency);
    completed = 0;
    gcNow();
    const t0 = performance.now();
    if (rec === null) {
      for (let i = s.prefill; i < end; i++) {
        s.load(i, c);
        while (engine.submit(c, done) === ResultCode.Busy) await drive();
        if ((i & 255) === 255) {
          engine.pump();
          engine.poll();
          if (flusher !== null) await flusher.batch();
        }
      }
    } else {
      let i = s.prefill;
      let idle = 0;
      while (i < end) {
        if (i - s.prefill - completed < LAT_WINDOW) {
          s.load(i, c);
          sent[i] = performance.now();
          if (engine.submit(c, done) === ResultCode.Busy) {
            await drive();
            continue;
          }
          i++;
          engine.pump();
          engine.poll();
          if (flusher !== null && (i - s.prefill) % FLUSH_EVERY === 0) await flusher.batch();
        } else if (engine.pump() + engine.poll() === 0 && ++idle % 100_000 === 0) {
          await turnLoop();
        }
      }
    }
    await engine.run();
    if (flusher !== null) await flusher.drain();
    const seconds = (performance.now() - t0) / 1000;
    if (completed !== end - s.prefill) throw new Error(`threaded: ${completed} callbacks for ${end - s.prefill} commands`);
    return { seconds, hash: await engine.stateHash(), rejects, lastOrderId: engine.exchange.lastOrderId, trades: engine.exchange.trades.count };
  } finally {
    await engine.close();
    await closeJournal(writer);
  }
}

type Runner = { runner: 'inline'; shards: 0 } | { runner: 'threaded'; shards: number };

async function measure(sc: Scenario, who: Runner, journal: JournalMode | null, first: boolean): Promise<Row> {
  const label = `${sc.name} ${who.runner}${who.runner === 'threaded' ? ` ×${who.shards}` : ''} journal ${journal === null ? 'off' : `depth ${journal.depth}`}`;
  const rates: number[] = [];
  let last: PassOut | null = null;
  const warmup = first && sc.name === SCENARIOS[0] ? 1 : 0;
  const passes = who.runner === 'inline' ? CFG.inlinePasses : CFG.threadedPasses;
  for (let p = 0; p < warmup + passes; p++) {
    const out = who.runner === 'inline'
      ? await inlinePass(sc, journal, null, first && p === 0)
      : await threadedPass(sc, who.shards, journal, null);
    if (first && p === 0) {
      if (out.rejects !== 0 || out.lastOrderId !== sc.stream.places) {
        log(`WARNING ${sc.name}: ${out.rejects} rejected commands, last order id ${out.lastOrderId} vs ${sc.stream.places} places: ids do not line up`);
        sc.hashes.push('ids-mismatch');
      } else {
        log(`${sc.name}: ids line up (${out.lastOrderId} places accepted, 0 rejects), invariants hold, ${out.trades} trades`);
      }
    }
    sc.hashes.push(out.hash);
    if (p >= warmup) rates.push(sc.commands / out.seconds);
    last = out;
  }
  const rec = new LatencyRecorder();
  gcNow();
  if (who.runner === 'inline') await inlinePass(sc, journal, rec);
  else await threadedPass(sc, who.shards, journal, rec);
  const lat: Percentiles = rec.summary();
  const rate = median(rates);
  log(`${label}: ${Math.round(rate).toLocaleString('en-US')} commands/s, p50 ${lat.p50} ns, p99 ${lat.p99} ns`);
  return {
    scenario: sc.name, runner: who.runner, shards: who.shards, journal: journal !== null,
    fsync: journal === null ? 'off' : 'batch', flush_every: journal === null ? null : FLUSH_EVERY,
    flush_depth: journal === null ? null : journal.depth, markets: sc.def.markets.length + (sc.def.futures?.contracts.length ?? 0), commands: sc.commands,
    passes, commands_per_sec: Math.round(rate), pass_commands_per_sec: rates.map(Math.round),
    p50_ns: lat.p50, p99_ns: lat.p99, p999_ns: lat.p999, max_ns: lat.max, latency_commands: lat.count,
    latency_in_flight: who.runner === 'threaded' ? LAT_WINDOW : 1, state_hash: last?.hash ?? '',
    rejects: last?.rejects ?? 0, trades: last?.trades ?? 0, hashes_match: true,
  };
}

function mix(name: string, s: EngineStream): void {
  const counts = new Map<string, number>();
  for (let i = s.prefill; i < s.length; i++) {
    const k = KIND_NAMES[s.kind[i] as Kind];
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const n = s.length - s.prefill;
  const parts = [...counts].map(([k, v]) => `${k} ${((100 * v) / n).toFixed(1)}%`);
  log(`${name}: ${n.toLocaleString('en-US')} timed commands after ${s.prefill.toLocaleString('en-US')} untimed (credits + pre-fill); mix ${parts.join(', ')}`);
}

/**
 * One scenario's rows. `futures`: the EC stream on a perpetual (ec-engine-stream.ts buildFuturesEngineStream),
 * measured inline (journal off and depth 16) and threaded ×1 (futures commands run serially there).
 */
async function runScenario(name: string, g: EcResult, markets: number, perMarket: number, shardCounts: readonly number[],
  futures = false, delivery = false): Promise<void> {
  const stream = futures ? buildFuturesEngineStream(g.stream, perMarket, delivery) : buildEngineStream(g.stream, markets, perMarket);
  const def = futures ? ecFuturesDefinition(delivery) : ecDefinition(markets);
  const sc: Scenario = { name, def, stream, hashes: [], commands: stream.length - stream.prefill };
  mix(name, stream);
  const out: Row[] = [];
  out.push(await measure(sc, { runner: 'inline', shards: 0 }, null, true));
  if (!futures) out.push(await measure(sc, { runner: 'inline', shards: 0 }, { depth: 1 }, false));
  out.push(await measure(sc, { runner: 'inline', shards: 0 }, { depth: PIPELINE_DEPTH }, false));
  for (const shards of futures ? [1] : shardCounts) {
    out.push(await measure(sc, { runner: 'threaded', shards }, null, false));
    if (!futures) out.push(await measure(sc, { runner: 'threaded', shards }, { depth: PIPELINE_DEPTH }, false));
  }
  const match = sc.hashes.every((h) => h === sc.hashes[0]);
  if (!match) log(`WARNING ${name}: state hashes differ between rows or passes: ${[...new Set(sc.hashes)].join(', ')}`);
  const base = out[0]!.commands_per_sec as number;
  for (const r of out) {
    r.hashes_match = match;
    r.vs_inline = Number(((r.commands_per_sec as number) / base).toFixed(3));
    r.vs_reference = Number(((r.commands_per_sec as number) / EC_REFERENCE_OPS).toFixed(3));
    rows.push({ ...r, ...machine });
  }
}

/** Journals the whole stream through an inline engine (fsync 'never'); the engine is dropped on return. */
async function writeJournal(def: ExchangeDefinition, s: EngineStream, writer: JournalWriter, snapDir: string):
  Promise<{ writeSeconds: number; live: string; snap: SnapshotOut; midSnapshotSeq: number }> {
  const engine = new InlineEngine(def, { clock: new SimClock(T0), journal: writer });
  const c = new Command();
  // A snapshot at 90 % of the stream, as a server snapshotting every so often would leave: a restart from it
  // replays the last 10 % (the snapshot's own cost is not in the write time).
  const mid = Math.floor(s.length * 0.9);
  let midSnapshotSeq = 0;
  let paused = 0;
  gcNow();
  const t0 = performance.now();
  for (let i = 0; i < s.length; i++) {
    engine.submit(s.load(i, c));
    if (i % RECOVERY_FLUSH_EVERY === RECOVERY_FLUSH_EVERY - 1) await engine.flush();
    if (i === mid) {
      const tp = performance.now();
      midSnapshotSeq = (await takeSnapshot(engine, snapDir)).seq;
      paused += performance.now() - tp;
    }
  }
  await engine.flush();
  const writeSeconds = (performance.now() - t0 - paused) / 1000;
  gcNow();
  const t1 = performance.now();
  const data = captureSnapshot(engine);
  const captureMs = performance.now() - t1;
  const file = path.join(dir, 'engine.snapshot');
  const written = await writeSnapshotFile(data, file);
  return { writeSeconds, live: engine.stateHash(), snap: { file, captureMs, writeMs: performance.now() - t1, bytes: written.bytes }, midSnapshotSeq };
}

/** Times a server restart (restart.ts, inline runner): newest snapshot in `snapDir` (none: undefined) + the journal after it. */
async function timeRestart(journal: string, snapDir: string | undefined): Promise<{ seconds: number; hash: string; replayed: number; snapshotSeq: number | undefined }> {
  gcNow();
  const t0 = performance.now();
  const plan = (await planRestart(journal, snapDir, (m) => log(m)))!;
  const r = await restartInline(plan, journal, new SimClock(T0), undefined);
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, hash: r.engine.stateHash(), replayed: r.report.replayed, snapshotSeq: r.report.snapshotSeq };
}

interface SnapshotOut { file: string; captureMs: number; writeMs: number; bytes: number }

async function runRecovery(g: EcResult): Promise<void> {
  const def = ecDefinition(MARKETS);
  const s = buildEngineStream(g.stream, MARKETS, CFG.recoveryPerMarket);
  const writer = await openJournal(def, 'never');
  const snapDir = path.join(dir, 'snapshots');
  await mkdir(snapDir, { recursive: true });
  const { writeSeconds, live, snap } = await writeJournal(def, s, writer, snapDir);
  await writer.close();
  const bytes = (await stat(writer.path)).size;
  log(`recovery: journaled ${s.length.toLocaleString('en-US')} commands (${(bytes / 2 ** 20).toFixed(0)} MiB) in ${writeSeconds.toFixed(1)} s`);
  gcNow();
  const t1 = performance.now();
  const r = await recoverFromJournal(writer.path);
  const replaySeconds = (performance.now() - t1) / 1000;
  const hash = r.engine.stateHash();
  const match = hash === live && r.report.records === s.length;
  if (!match) log(`WARNING recovery: replayed hash ${hash} (${r.report.records} records) differs from live ${live}`);
  log(`recovery: replayed in ${replaySeconds.toFixed(1)} s, hash ${match ? 'matches' : 'DIFFERS'}`);
  for (const [scenario, snaps] of [['restart-journal', undefined], ['restart-snapshot', snapDir]] as const) {
    const rs = await timeRestart(writer.path, snaps);
    const ok = rs.hash === live;
    if (!ok) log(`WARNING ${scenario}: restarted hash ${rs.hash} differs from live ${live}`);
    log(`${scenario}: ${rs.seconds.toFixed(2)} s (snapshot seq ${rs.snapshotSeq ?? 'none'}, ${rs.replayed.toLocaleString('en-US')} records replayed), hash ${ok ? 'matches' : 'DIFFERS'}`);
    rows.push({ scenario, runner: 'inline', markets: MARKETS, commands: s.length, passes: 1, seconds: Number(rs.seconds.toFixed(3)),
      snapshot_seq: rs.snapshotSeq ?? 0, replayed: rs.replayed, state_hash: rs.hash, hashes_match: ok, ...machine });
  }
  await rm(snapDir, { recursive: true, force: true });
  await rm(writer.path, { force: true });
  gcNow();
  const t2 = performance.now();
  const restored = restoreEngine(await readSnapshotFile(snap.file));
  const loadMs = performance.now() - t2;
  const snapHash = restored.stateHash();
  if (snapHash !== live) log(`WARNING snapshot: restored hash ${snapHash} differs from live ${live}`);
  log(`snapshot: capture ${snap.captureMs.toFixed(0)} ms, capture + write ${snap.writeMs.toFixed(0)} ms, load ${loadMs.toFixed(0)} ms, ${(snap.bytes / 2 ** 20).toFixed(1)} MiB`);
  await rm(snap.file, { force: true });
  rows.push({ scenario: 'snapshot-write', markets: MARKETS, commands: s.length, passes: 1, snapshot_bytes: snap.bytes,
    capture_ms: Number(snap.captureMs.toFixed(1)), write_ms: Number(snap.writeMs.toFixed(1)), state_hash: live, hashes_match: true, ...machine });
  rows.push({ scenario: 'snapshot-load', markets: MARKETS, commands: s.length, passes: 1, snapshot_bytes: snap.bytes,
    load_ms: Number(loadMs.toFixed(1)), state_hash: snapHash, hashes_match: snapHash === live, ...machine });
  const common = { markets: MARKETS, commands: s.length, passes: 1, journal_bytes: bytes, state_hash: live, hashes_match: match };
  rows.push({ scenario: 'recovery-write', runner: 'inline', shards: 0, journal: true, fsync: 'never', ...common,
    commands_per_sec: Math.round(s.length / writeSeconds), seconds: Number(writeSeconds.toFixed(3)), ...machine });
  rows.push({ scenario: 'recovery-replay', runner: 'inline', shards: 0, journal: true, ...common,
    commands_per_sec: Math.round(s.length / replaySeconds), seconds: Number(replaySeconds.toFixed(3)),
    records: r.report.records, replayed_state_hash: hash, ...machine });
}

async function runRing(): Promise<void> {
  const script = fileURLToPath(new URL('./ring.bench.ts', import.meta.url));
  const [cmd, ...cmdArgs] = nodeCommand(script, ['--json', ...(QUICK ? ['--quick'] : [])], ['--expose-gc']);
  const child = spawn(cmd!, cmdArgs, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => { text += d; });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) {
    log(`WARNING ring.bench exited with ${code}; no ring rows`);
    return;
  }
  for (const r of JSON.parse(text) as Row[]) rows.push({ ...r, scenario: `ring-${r.scenario}` });
}

const fmt = (x: unknown): string => (typeof x === 'number' ? Math.round(x).toLocaleString('en-US') : '-');

function table(): string {
  const engineRows = rows.filter((r) => r.scenario.startsWith('ec-'));
  const head = ['scenario', 'runner', 'shards', 'journal', 'commands', 'cmds/s', 'vs inline', 'p50 ns', 'p99 ns', 'p99.9 ns', 'hash', 'hashes'];
  const body = engineRows.map((r) => [r.scenario, String(r.runner), String(r.shards),
    r.journal === true ? `batch/${String(r.flush_every)} d${String(r.flush_depth)}` : 'off', fmt(r.commands), fmt(r.commands_per_sec),
    `${(r.vs_inline as number).toFixed(2)}×`, fmt(r.p50_ns), fmt(r.p99_ns), fmt(r.p999_ns), String(r.state_hash).slice(0, 12),
    r.hashes_match === true ? 'ok' : 'MISMATCH']);
  for (const r of rows.filter((x) => x.scenario.startsWith('recovery-'))) {
    body.push([r.scenario, 'inline', '0', r.scenario === 'recovery-write' ? 'never' : 'replay', fmt(r.commands), fmt(r.commands_per_sec),
      '', '', '', '', String(r.state_hash).slice(0, 12), r.hashes_match === true ? 'ok' : 'MISMATCH']);
  }
  for (const r of rows.filter((x) => x.scenario.startsWith('restart-'))) {
    body.push([r.scenario, 'inline', '0', r.scenario === 'restart-snapshot' ? `snap@${fmt(r.snapshot_seq)}` : 'journal', fmt(r.commands),
      `${(r.seconds as number).toFixed(2)} s`, '', '', '', '', String(r.state_hash).slice(0, 12), r.hashes_match === true ? 'ok' : 'MISMATCH']);
  }
  for (const r of rows.filter((x) => x.scenario.startsWith('snapshot-'))) {
    const ms = r.scenario === 'snapshot-write' ? `capture ${fmt(r.capture_ms)} ms, total ${fmt(r.write_ms)} ms` : `${fmt(r.load_ms)} ms`;
    body.push([r.scenario, 'inline', '0', `${fmt((r.snapshot_bytes as number) / 2 ** 10)} KiB`, fmt(r.commands), ms,
      '', '', '', '', String(r.state_hash).slice(0, 12), r.hashes_match === true ? 'ok' : 'MISMATCH']);
  }
  const lines = grid(head, body, 4);
  const ring = rows.filter((r) => r.scenario.startsWith('ring-'));
  if (ring.length > 0) {
    lines.push('');
    lines.push(...grid(['scenario', 'transport', 'batch', 'msgs/s', 'p50 ns', 'p99 ns', 'ring ×'], ring.map((r) => [r.scenario, String(r.transport),
      String(r.batch), fmt(r.messages_per_sec), fmt(r.p50_ns), fmt(r.p99_ns), typeof r.ring_ratio === 'number' ? `${r.ring_ratio.toFixed(1)}×` : '']), 2));
  }
  return lines.join('\n');
}

function grid(head: string[], body: string[][], firstNumeric: number): string[] {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c]!.length)));
  const line = (cells: string[]): string => cells.map((x, c) => (c >= firstNumeric ? x.padStart(widths[c]!) : x.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
}

function notes(): string[] {
  // The targets are the spot pipeline's; the futures scenario is reported beside it.
  const eng = rows.filter((r) => r.scenario.startsWith('ec-ledger-'));
  const fut = rows.filter((r) => r.scenario === 'ec-futures-1contract');
  const rate = (r: Row | undefined): number => (r?.commands_per_sec as number | undefined) ?? 0;
  const bestThreaded = eng.filter((r) => r.runner === 'threaded' && r.journal === false).sort((a, b) => rate(b) - rate(a))[0];
  const costs = eng.filter((r) => r.journal === true && r.flush_depth === PIPELINE_DEPTH).map((r) => {
    const off = eng.find((x) => x.scenario === r.scenario && x.runner === r.runner && x.shards === r.shards && x.journal === false);
    return { r, cost: 1 - rate(r) / rate(off) };
  });
  const worstCost = costs.sort((a, b) => b.cost - a.cost)[0];
  const serial = eng.filter((r) => r.flush_depth === 1).map((r) => {
    const off = eng.find((x) => x.scenario === r.scenario && x.runner === 'inline' && x.journal === false);
    return `${r.scenario} ${(100 * (1 - rate(r) / rate(off))).toFixed(0)}%`;
  });
  const replay = rows.find((r) => r.scenario === 'recovery-replay');
  const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  const out = bestThreaded === undefined ? [`reference: ${EC_REFERENCE}`, `reference: ${EC_LATENCY}`, 'target threaded: not run (--only)'] : [
    `reference: ${EC_REFERENCE}; best threaded row here ${fmt(rate(bestThreaded))} commands/s = ${(rate(bestThreaded) / EC_REFERENCE_OPS).toFixed(2)}× of it`,
    `reference: ${EC_LATENCY}`,
    `target threaded ≥ ${fmt(TARGETS.threadedPerSec)} commands/s: ${met(rate(bestThreaded) >= TARGETS.threadedPerSec)} `
      + `(best: ${bestThreaded.scenario} ×${String(bestThreaded.shards)}, ${fmt(rate(bestThreaded))})`,
  ];
  out.push(
    worstCost === undefined ? 'target journal: not run (--only)'
      : `target journal (fsync per ${FLUSH_EVERY}) costs ≤ ${TARGETS.journalCost * 100}%: ${met(worstCost.cost <= TARGETS.journalCost)} `
      + `(pipelined, worst ${(100 * worstCost.cost).toFixed(0)}% on ${worstCost.r.scenario} ${String(worstCost.r.runner)} ×${String(worstCost.r.shards)}; `
      + `awaited per batch: ${serial.join(', ')})`,
    replay === undefined ? 'target replay: not run (--only)'
      : `target replay ≥ ${fmt(TARGETS.replayPerSec)} commands/s: ${met(rate(replay) >= TARGETS.replayPerSec)} (${fmt(rate(replay))})`,
    'latency: inline = one submit; threaded = submit → callback with ≤ 16 in flight; journal rows exclude the wait for the flush.',
  );
  const futInline = fut.find((r) => r.runner === 'inline' && r.journal === false);
  const spotInline = eng.find((r) => r.scenario === 'ec-ledger-1market' && r.runner === 'inline' && r.journal === false);
  if (futInline !== undefined && spotInline !== undefined) {
    out.push(`futures: the same stream on a perpetual runs ${fmt(rate(futInline))} commands/s inline = `
      + `${(rate(futInline) / rate(spotInline)).toFixed(2)}× the spot 1-market row (positions, margin and PnL on every fill)`);
    const futThreaded = fut.find((r) => r.runner === 'threaded' && r.journal === false);
    if (futThreaded !== undefined) out.push(`futures threaded: ${fmt(rate(futThreaded))} commands/s (the contract's book on the ledger thread)`);
  }
  const delInline = rows.find((r) => r.scenario === 'ec-delivery-1contract' && r.runner === 'inline' && r.journal === false);
  if (delInline !== undefined && futInline !== undefined) {
    const ratio = rate(delInline) / rate(futInline);
    out.push(`delivery: the same stream on a dated contract runs ${fmt(rate(delInline))} commands/s inline = ${ratio.toFixed(3)}× the `
      + `perpetual (target within 10 %: ${met(ratio >= 0.9)})`);
  }
  return out;
}

async function main(): Promise<void> {
  const header = [
    `ringmatch engine benchmark (${QUICK ? 'quick' : 'full'}): ledger + books, inline and threaded runners, journal, recovery, ring`,
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gib} GiB; Node ${machine.node}; ${machine.platform}; load ${machine.loadavg_1m}`,
    `date: ${machine.date}; command: ${machine.command}; journal dir: ${BASE_DIR}`,
  ].join('\n');
  log(header);
  if (!hasGc) log('WARNING: gc() is not exposed; run with node --expose-gc for comparable figures');
  dir = await mkdtemp(path.join(BASE_DIR, 'ringmatch-engine-bench-'));
  try {
    const market = defineMarket(ecDefinition(1).markets[0]!);
    const commands = Math.max(CFG.single, CFG.perMarket, CFG.recoveryPerMarket);
    const t0 = performance.now();
    const g = generateEc(market, { seed: SEED, commands, targetOrders: 1000, users: 1000, semantics: 'native', stp: false });
    log(`EC generator: ${commands.toLocaleString('en-US')} commands in ${((performance.now() - t0) / 1000).toFixed(1)} s; `
      + `start price ${g.startPrice}, band ${g.minPrice}–${g.maxPrice}; ${((100 * g.tradedCommands) / commands).toFixed(1)}% of commands trade `
      + `(exchange-core README: 9% GTC, 3% IOC, 6% cancel, 82% move, ~6% trading)`);
    if (wanted(SCENARIOS[0])) await runScenario(SCENARIOS[0], g, 1, CFG.single, QUICK ? SHARDS.slice(0, 1) : SHARDS);
    if (wanted(SCENARIOS[1])) await runScenario(SCENARIOS[1], g, MARKETS, CFG.perMarket, SHARDS);
    if (wanted(SCENARIOS[2])) await runScenario(SCENARIOS[2], g, 1, CFG.single, [1], true);
    if (wanted(SCENARIOS[3])) await runScenario(SCENARIOS[3], g, 1, CFG.single, [1], true, true);
    if (wanted('recovery')) await runRecovery(g);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (wanted('ring')) await runRing();
  const lines = notes();
  rows.push({ scenario: 'notes', reference_ops_per_sec: EC_REFERENCE_OPS, reference: EC_REFERENCE, reference_latency: EC_LATENCY, notes: lines, ...machine });
  log(`done in ${((Date.now() - START) / 1000).toFixed(1)} s`);
  if (JSON_OUT) {
    log(`\n${table()}\n${lines.join('\n')}`);
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } else {
    process.stdout.write(`${header}\n\n${table()}\n\n${lines.join('\n')}\n`);
  }
}

await main();
