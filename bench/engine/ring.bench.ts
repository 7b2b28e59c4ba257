/**
 * `node --expose-gc --import tsx bench/engine/ring.bench.ts [--json] [--quick]`
 *
 * One-to-one transport between the main thread and one worker thread, SpscRing beside postMessage, in
 * the same process and run (Disruptor perftest naming: OneToOne throughput, PingPong latency).
 *
 * Scenarios
 * - `one-way` (throughput): the main thread produces N messages of 4 Int32 words; the worker consumes.
 *   sab-ring: claim/publish `batch` slots at a time (batch 1 = one cursor store per message); both
 *   sides use SpinThenBlockWait (consumer when empty, producer when full; blocking the bench's main
 *   thread is acceptable here, not in the API thread), so a descheduled peer costs a sleep, not a
 *   spinning time slice; the consumer releases once per drained batch; timed from the first claim until the consumer cursor
 *   reaches the last sequence. postMessage: one `[a, b, c, d]` array per postMessage (batch 1), or
 *   `batch` messages packed in one Float64Array (structured-clone copy); timed until the worker's count.
 * - `ping-pong` (latency): one 4-word message to the worker and back, K times, closed loop; a hop is
 *   half a round trip, timed with `performance.now()` on the main thread only (so no cross-thread clock
 *   alignment), which adds its own ~tens of ns. sab-ring: both sides BusySpin. postMessage: the main
 *   thread awaits each reply on its event loop.
 * Each scenario: warm-up passes, `gc()`, then the median of measured passes (latency: all samples of
 * the measured passes pooled). Both threads spin in the ring scenarios: on a 2-core machine that uses
 * both cores, so any other load on the machine (printed as `load`) depresses the ring figures most. Output: a table and ratios on stdout, or with `--json` exactly one JSON array of rows on
 * stdout; logs on stderr. `--quick`: smaller counts, well under 15 s.
 */
import type { Worker } from 'node:worker_threads';
import { NO_SEQ, SpscRing } from '../../src/engine/ring/spsc-ring.js';
import { SpinThenBlockWait } from '../../src/engine/ring/wait-strategy.js';
import { spawnWorker } from '../../src/engine/workers/spawn-worker.js';
import type { BenchWorkerData } from './ring-worker.js';
import { machineInfo } from '../machine.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';

exitWithUsage(BENCH_USAGE.ring);

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const QUICK = args.includes('--quick');
const CFG = QUICK
  ? { warmup: 1, passes: 3, ringMsgs: 2_000_000, pmMsgs: 100_000, pmBatchMsgs: 1_000_000, pingPongs: 10_000, batches: [1, 256] }
  : { warmup: 2, passes: 5, ringMsgs: 10_000_000, pmMsgs: 500_000, pmBatchMsgs: 5_000_000, pingPongs: 100_000, batches: [1, 32, 256] };
const CAPACITY = 4096;
const SLOT_WORDS = 4;
const PM_BATCH = 256;
const WORKER_URL = new URL('./ring-worker.js', import.meta.url);

const START = Date.now();
const log = (line: string): void => void process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`);
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);

const machine = { ...machineInfo() };

interface Row {
  transport: 'sab-ring' | 'postMessage';
  scenario: 'one-way' | 'ping-pong';
  batch: number;
  messages: number;
  passes: number;
  messages_per_sec: number;
  p50_ns: number | null;
  p99_ns: number | null;
  p999_ns: number | null;
  ring_ratio: number | null;
}

const median = (xs: number[]): number => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 === 1 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
};

const pct = (sorted: Float64Array, p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function withWorker<T>(data: BenchWorkerData, body: (w: Worker) => Promise<T> | T): Promise<T> {
  const w = spawnWorker(WORKER_URL, data);
  await new Promise<void>((resolve, reject) => {
    w.once('online', resolve);
    w.once('error', reject);
  });
  try {
    return await body(w);
  } finally {
    await w.terminate();
  }
}

const nextMessage = <T>(w: Worker): Promise<T> => new Promise((resolve) => w.once('message', resolve));

/** Produces `count` messages in claims of `batch`, spinning while the ring is full; returns elapsed ms once all are consumed. */
function ringPass(ring: SpscRing, count: number, batch: number): number {
  const s32 = ring.slots32;
  const full = new SpinThenBlockWait();
  const t0 = performance.now();
  let sent = 0;
  while (sent < count) {
    const n = Math.min(batch, count - sent);
    const first = ring.tryClaim(n);
    if (first === NO_SEQ) {
      full.waitForConsumed(ring, (ring.claimed + n - ring.capacity) | 0);
      continue;
    }
    for (let i = 0; i < n; i++) {
      const w = ring.wordOffset((first + i) | 0);
      s32[w] = sent + i;
      s32[w + 1] = first;
      s32[w + 2] = n;
      s32[w + 3] = i;
    }
    ring.publish((first + n - 1) | 0);
    sent += n;
  }
  while (ring.freeSlots() !== ring.capacity);
  return performance.now() - t0;
}

async function ringOneWay(batch: number): Promise<Row> {
  const ring = SpscRing.create({ capacity: CAPACITY, slotWords: SLOT_WORDS });
  const data: BenchWorkerData = { mode: 'ring-sink', capacity: CAPACITY, slotWords: SLOT_WORDS, inSab: ring.sab };
  const rates: number[] = [];
  await withWorker(data, async (w) => {
    const done = nextMessage<{ count: number }>(w);
    for (let p = 0; p < CFG.warmup + CFG.passes; p++) {
      gc();
      const ms = ringPass(ring, CFG.ringMsgs, batch);
      if (p >= CFG.warmup) rates.push(CFG.ringMsgs / (ms / 1000));
    }
    ring.close();
    const { count } = await done;
    if (count !== CFG.ringMsgs * (CFG.warmup + CFG.passes)) throw new Error(`ring-sink counted ${count}`);
  });
  return row('sab-ring', 'one-way', batch, CFG.ringMsgs, median(rates), null);
}

async function ringPingPong(): Promise<Row> {
  const geometry = { capacity: 64, slotWords: SLOT_WORDS };
  const input = SpscRing.create(geometry);
  const output = SpscRing.create(geometry);
  const data: BenchWorkerData = { mode: 'ring-echo', ...geometry, inSab: input.sab, outSab: output.sab };
  const warm = Math.ceil(CFG.pingPongs / 5);
  const lat = new Float64Array(CFG.pingPongs);
  let totalMs = 0;
  await withWorker(data, () => {
    gc();
    for (let k = -warm; k < CFG.pingPongs; k++) {
      const t0 = performance.now();
      const seq = input.tryClaim(1);
      input.slots32[input.wordOffset(seq)] = k;
      input.publish(seq);
      const want = (output.consumed + 1) | 0;
      while (output.available() !== want);
      if (output.slots32[output.wordOffset(want)] !== k) throw new Error(`echo mismatch at ${k}`);
      output.release(want);
      const rtt = performance.now() - t0;
      if (k >= 0) {
        lat[k] = (rtt * 1e6) / 2;
        totalMs += rtt;
      }
    }
    input.close();
  });
  return latencyRow('sab-ring', lat, totalMs);
}

async function pmOneWay(batch: number): Promise<Row> {
  const count = batch === 1 ? CFG.pmMsgs : Math.ceil(CFG.pmBatchMsgs / batch) * batch;
  const data: BenchWorkerData = { mode: batch === 1 ? 'pm-sink' : 'pm-batch', capacity: CAPACITY, slotWords: SLOT_WORDS, every: count };
  const rates: number[] = [];
  await withWorker(data, async (w) => {
    const packed = new Float64Array(batch * 4);
    for (let p = 0; p < CFG.warmup + CFG.passes; p++) {
      gc();
      const done = nextMessage<number>(w);
      const t0 = performance.now();
      if (batch === 1) for (let i = 0; i < count; i++) w.postMessage([i, p, 1, i]);
      else for (let i = 0; i < count; i += batch) w.postMessage((packed.fill(i), packed));
      await done;
      if (p >= CFG.warmup) rates.push(count / ((performance.now() - t0) / 1000));
    }
  });
  return row('postMessage', 'one-way', batch, count, median(rates), null);
}

async function pmPingPong(): Promise<Row> {
  const n = Math.ceil(CFG.pingPongs / 2);
  const warm = Math.ceil(n / 5);
  const lat = new Float64Array(n);
  let totalMs = 0;
  await withWorker({ mode: 'pm-echo', capacity: CAPACITY, slotWords: SLOT_WORDS }, async (w) => {
    gc();
    for (let k = -warm; k < n; k++) {
      const t0 = performance.now();
      const reply = nextMessage<number[]>(w);
      w.postMessage([k, 0, 0, 0]);
      if ((await reply)[0] !== k) throw new Error(`echo mismatch at ${k}`);
      const rtt = performance.now() - t0;
      if (k >= 0) {
        lat[k] = (rtt * 1e6) / 2;
        totalMs += rtt;
      }
    }
  });
  return latencyRow('postMessage', lat, totalMs);
}

function row(transport: Row['transport'], scenario: Row['scenario'], batch: number, messages: number, rate: number, lat: Float64Array | null): Row {
  return {
    transport,
    scenario,
    batch,
    messages,
    passes: scenario === 'one-way' ? CFG.passes : 1,
    messages_per_sec: Math.round(rate),
    p50_ns: lat === null ? null : Math.round(pct(lat, 0.5)),
    p99_ns: lat === null ? null : Math.round(pct(lat, 0.99)),
    p999_ns: lat === null ? null : Math.round(pct(lat, 0.999)),
    ring_ratio: null,
  };
}

/** Hops per second = 2 × round trips / time. */
function latencyRow(transport: Row['transport'], lat: Float64Array, totalMs: number): Row {
  const hops = lat.length * 2;
  return row(transport, 'ping-pong', 1, hops, hops / (totalMs / 1000), lat.sort());
}

const describeMachine = (): string =>
  `${machine.cpu} · ${machine.cores} cores · Node ${machine.node} · ${machine.platform} · load ${machine.loadavg_1m} · ${machine.date}`;

async function main(): Promise<void> {
  log(`ring.bench ${QUICK ? '--quick ' : ''}· ${describeMachine()}`);
  const rows: Row[] = [];
  for (const batch of CFG.batches) {
    log(`sab-ring one-way batch=${batch}`);
    rows.push(await ringOneWay(batch));
  }
  log('sab-ring ping-pong');
  rows.push(await ringPingPong());
  for (const batch of [1, PM_BATCH]) {
    log(`postMessage one-way batch=${batch}`);
    rows.push(await pmOneWay(batch));
  }
  log('postMessage ping-pong');
  rows.push(await pmPingPong());

  for (const r of rows) {
    if (r.transport !== 'postMessage') continue;
    const ring = rows.find((x) => x.transport === 'sab-ring' && x.scenario === r.scenario && x.batch === r.batch)!;
    r.ring_ratio = r.scenario === 'one-way' ? ring.messages_per_sec / r.messages_per_sec : (r.p50_ns ?? 0) / (ring.p50_ns ?? 1);
  }
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify(rows.map((r) => ({ ...r, ...machine })), null, 2)}\n`);
    return;
  }
  const out = (s: string): void => void process.stdout.write(`${s}\n`);
  out(describeMachine());
  out('transport    scenario   batch      msgs/s   p50 ns   p99 ns  p99.9 ns  ring ×');
  const num = (v: number | null, w: number): string => (v === null ? '-' : v.toLocaleString('en-US')).padStart(w);
  for (const r of rows) {
    const ratio = r.ring_ratio === null ? '' : `${r.ring_ratio.toFixed(1)}×`.padStart(7);
    out(`${r.transport.padEnd(12)} ${r.scenario.padEnd(9)} ${String(r.batch).padStart(6)} ${num(r.messages_per_sec, 11)} ${num(r.p50_ns, 8)} ${num(r.p99_ns, 8)} ${num(r.p999_ns, 9)} ${ratio}`);
  }
  out('ring × : one-way = sab-ring msgs/s at the same batch ÷ this row; ping-pong = this p50 ÷ sab-ring p50.');
}

await main();
