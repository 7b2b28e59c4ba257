/**
 * `node --expose-gc --import tsx bench/engine/journal.bench.ts [--json] [--quick] [--dir PATH]`
 *
 * Journal throughput, on the file system of `--dir` (default: the OS temp dir; fsync figures mean
 * nothing on tmpfs, so the file system type is not guessed: say where it ran).
 *
 * Scenarios
 * - `encode+frame`: what `append` does per record (FlatBuffers encode, copy, CRC-32 + frame) into a
 *   fixed 1 MiB buffer that wraps, no I/O: the CPU cost per record.
 * - `closed <policy>`: closed loop of `batch` appends then `await flush()`, as a sequencer that waits
 *   for durability before taking more; fsync `batch`, `interval` (everyMs 5) and `never`.
 * - `pipelined <policy>`: `batch` appends then `flush()` without waiting, at most PIPELINE flushes
 *   outstanding (the oldest is awaited first), as a sequencer that keeps sequencing while replies
 *   wait: this is where group commit (several flushes sharing one fsync) shows.
 * - `replay`: `readJournal` of an N-record journal (10M; --quick 1M) decoded into one reused Command,
 *   with the page cache warm (written just before), so it measures CRC + decode, not the disk.
 * Commands are seeded PlaceOrder/Cancel mixes with realistic magnitudes, text on 1 in 8.
 * Output: a table on stdout, or with `--json` exactly one JSON document on stdout; logs on stderr.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, CommandType } from '../../src/core/command.js';
import { Prng } from '../../src/core/prng.js';
import { FRAME_BYTES, writeFrame } from '../../src/engine/journal/format.js';
import { readJournal } from '../../src/engine/journal/reader.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import type { FsyncPolicy } from '../../src/engine/journal/writer.js';
import { encodeRecordInto } from '../../src/protocol/codec.js';
import type { JournalHeaderData } from '../../src/protocol/codec.js';
import { machineInfo } from '../machine.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';

exitWithUsage(BENCH_USAGE.journal);

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const QUICK = args.includes('--quick');
const dirArg = args.indexOf('--dir');
const BASE_DIR = dirArg >= 0 ? args[dirArg + 1] ?? os.tmpdir() : os.tmpdir();
const CFG = QUICK
  ? { batch: 256, pipeline: 16, encode: 1_000_000, perPolicy: { batch: 51_200, interval: 128_000, never: 512_000 }, replay: 1_000_000, replayPasses: 1 }
  : { batch: 256, pipeline: 16, encode: 5_000_000, perPolicy: { batch: 256_000, interval: 640_000, never: 2_560_000 }, replay: 10_000_000, replayPasses: 3 };
const REPLAY_FLUSH_EVERY = 65_536;

const START = Date.now();
const log = (line: string): void => void process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`);
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);

const machine = { ...machineInfo(), dir: BASE_DIR };

const HEADER: JournalHeaderData = {
  formatVersion: 1,
  createdTime: Date.now() * 1000,
  markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 6 }],
  currencies: [{ code: 'BTC', scale: 8 }, { code: 'USDT', scale: 6 }],
  configJson: '{}',
};

/** Fills `c` with the i-th command of a seeded order-flow-like stream. */
function nextCommand(r: Prng, i: number, c: Command): Command {
  c.clear();
  c.seq = i + 1;
  c.time = 1_700_000_000_000_000 + i * 10;
  c.uid = 1 + r.nextInt(100_000);
  c.market = 0;
  if (r.chance(0.3)) {
    c.type = CommandType.CancelOrder;
    c.orderId = 1 + r.nextInt(i + 1);
  } else {
    c.type = CommandType.PlaceOrder;
    c.orderId = i + 1;
    c.side = 1 + r.nextInt(2);
    c.orderType = 1;
    c.tif = 1;
    c.price = 600_000 + r.nextInt(20_000);
    c.amount = 1 + r.nextInt(5_000_000);
    if (r.chance(0.125)) c.text = 't-bench-order';
  }
  return c;
}

interface AppendRow { scenario: string; records: number; batch: number; seconds: number; records_per_sec: number; mb_per_sec: number }

function encodeRun(n: number): AppendRow {
  const buf = new Uint8Array(1 << 20);
  const r = new Prng(1);
  const c = new Command();
  let at = 0;
  let bytes = 0;
  gc();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    let len = encodeRecordInto(nextCommand(r, i, c), buf, at + FRAME_BYTES);
    if (len < 0) {
      at = 0;
      len = encodeRecordInto(c, buf, FRAME_BYTES);
    }
    writeFrame(buf, at, len);
    at += FRAME_BYTES + len;
    bytes += FRAME_BYTES + len;
  }
  const seconds = (performance.now() - t0) / 1000;
  return { scenario: 'encode+frame', records: n, batch: 0, seconds, records_per_sec: Math.round(n / seconds), mb_per_sec: +(bytes / 2 ** 20 / seconds).toFixed(1) };
}

async function appendRun(dir: string, name: string, policy: FsyncPolicy, n: number, pipeline: number): Promise<AppendRow> {
  const file = path.join(dir, `${name.replace(/\W+/g, '-')}.log`);
  const w = await JournalWriter.open(file, HEADER, policy);
  const r = new Prng(1);
  const c = new Command();
  const inFlight: Promise<void>[] = [];
  gc();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    w.append(nextCommand(r, i, c));
    if ((i + 1) % CFG.batch === 0) {
      inFlight.push(w.flush());
      if (inFlight.length >= pipeline) await inFlight.shift();
    }
  }
  inFlight.push(w.flush());
  await Promise.all(inFlight);
  const seconds = (performance.now() - t0) / 1000;
  const bytes = w.bytes;
  await w.close();
  await rm(file, { force: true });
  return {
    scenario: name, records: n, batch: CFG.batch, seconds,
    records_per_sec: Math.round(n / seconds), mb_per_sec: +(bytes / 2 ** 20 / seconds).toFixed(1),
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(BASE_DIR, 'ringmatch-journal-bench-'));
  try {
    log(`machine ${machine.cpu} ×${machine.cores}, node ${machine.node}, dir ${dir}`);
    const append: AppendRow[] = [];
    append.push(encodeRun(CFG.encode));
    log('encode+frame done');
    const policies: [keyof typeof CFG.perPolicy, FsyncPolicy][] = [
      ['batch', { fsync: 'batch' }], ['interval', { fsync: 'interval', everyMs: 5 }], ['never', { fsync: 'never' }],
    ];
    for (const [mode, pipeline] of [['closed', 1], ['pipelined', CFG.pipeline]] as const) {
      for (const [key, policy] of policies) {
        append.push(await appendRun(dir, `${mode} ${key}`, policy, CFG.perPolicy[key], pipeline));
        log(`${mode} ${key} done`);
      }
    }

    const file = path.join(dir, 'replay.log');
    const w = await JournalWriter.open(file, HEADER, { fsync: 'never' });
    const r = new Prng(2);
    const c = new Command();
    for (let i = 0; i < CFG.replay; i++) {
      w.append(nextCommand(r, i, c));
      if ((i + 1) % REPLAY_FLUSH_EVERY === 0) await w.flush();
    }
    await w.close();
    const fileBytes = (await stat(file)).size;
    log(`replay journal written: ${CFG.replay} records, ${(fileBytes / 2 ** 20).toFixed(0)} MiB`);
    const passes: number[] = [];
    let check = 0;
    for (let p = 0; p < CFG.replayPasses; p++) {
      gc();
      const t0 = performance.now();
      const rep = await readJournal(file, (cmd) => { check += cmd.amount; });
      const s = (performance.now() - t0) / 1000;
      if (rep.records !== CFG.replay || rep.reason !== undefined) throw new Error(`replay read ${rep.records} records (${rep.reason ?? 'ok'})`);
      passes.push(s);
      log(`replay pass ${p + 1}: ${(CFG.replay / s / 1e6).toFixed(2)} M records/s`);
    }
    const best = Math.min(...passes);
    const replay = {
      records: CFG.replay, file_mib: +(fileBytes / 2 ** 20).toFixed(1), bytes_per_record: +(fileBytes / CFG.replay).toFixed(1),
      passes: passes.map((s) => +s.toFixed(3)), best_seconds: +best.toFixed(3),
      records_per_sec: Math.round(CFG.replay / best), mb_per_sec: +(fileBytes / 2 ** 20 / best).toFixed(1), checksum: check,
    };
    const command = `node --expose-gc --import tsx bench/engine/journal.bench.ts ${args.join(' ')}`.trim();
    if (JSON_OUT) {
      process.stdout.write(`${JSON.stringify({ bench: 'journal', command, machine, config: CFG, append, replay })}\n`);
    } else {
      console.log(`journal bench — ${machine.cpu} ×${machine.cores}, ${machine.memory_gib} GiB, node ${machine.node}, ${machine.platform}, ${machine.date}`);
      console.log(`dir ${BASE_DIR}; ${command}\n`);
      console.log('scenario                 records   batch   records/s      MB/s');
      for (const a of append) {
        console.log(`${a.scenario.padEnd(22)} ${String(a.records).padStart(9)} ${String(a.batch).padStart(7)} ${a.records_per_sec.toLocaleString('en').padStart(11)} ${String(a.mb_per_sec).padStart(9)}`);
      }
      console.log(`\nreplay ${replay.records.toLocaleString('en')} records (${replay.file_mib} MiB, ${replay.bytes_per_record} B/record): ` +
        `${replay.records_per_sec.toLocaleString('en')} records/s, ${replay.mb_per_sec} MB/s (best of ${passes.length})`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
