// SpscRing between real threads (spawnWorker): the main thread produces, echo-worker.ts consumes with
// SpinThenBlockWait and echoes count and checksum back through a second ring. Every loop is bounded in
// iterations and in time. Indexing note: typed-array indices are in range by construction, hence `!`.
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { RingState } from '../../../src/engine/ring/layout.js';
import { NO_SEQ, SpscRing } from '../../../src/engine/ring/spsc-ring.js';
import { AsyncWait, STAT_BLOCKS, STAT_SPINS, STAT_WORDS } from '../../../src/engine/ring/wait-strategy.js';
import { spawnWorker } from '../../../src/engine/workers/spawn-worker.js';
import { ECHO_GEOMETRY, type EchoWorkerData, IN_GEOMETRY, ID_BASE, checksumStep } from './echo-protocol.js';

const WORKER_URL = new URL('./echo-worker.js', import.meta.url);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Echo {
  count: number;
  checksum: number;
  errors: number;
  final: boolean;
}

function start(extra: Partial<EchoWorkerData> = {}): { input: SpscRing; output: SpscRing; worker: Worker; exited: Promise<number> } {
  const input = SpscRing.create(IN_GEOMETRY);
  const output = SpscRing.create(ECHO_GEOMETRY);
  const data: EchoWorkerData = { inSab: input.sab, outSab: output.sab, spins: 1_000, timeoutMs: 200, ...extra };
  const worker = spawnWorker(WORKER_URL, data);
  const exited = new Promise<number>((resolve, reject) => {
    worker.once('exit', resolve);
    worker.once('error', reject);
  });
  running.push(worker);
  return { input, output, worker, exited };
}

/** Reads every available echo (consumer side of `out`); returns the last one, or `last` when none. */
function readEchoes(output: SpscRing, last: Echo, onEcho?: (e: Echo) => void): Echo {
  let latest = last;
  output.drain({
    onEvent(r, seq) {
      const w = r.wordOffset(seq);
      latest = { count: r.slots32[w]!, checksum: r.slots32[w + 1]!, errors: r.slots32[w + 2]!, final: r.slots32[w + 3] === 1 };
      onEcho?.(latest);
    },
  });
  return latest;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`timed out after ${ms} ms: ${what}`)))]);
}

const running: Worker[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.terminate()));
});

describe('SpscRing across threads', () => {
  it('delivers 1,000,000 messages in order to a worker, which echoes the exact count and checksum', async () => {
    const N = 1_000_000;
    const BATCH = 256;
    const { input, output, exited } = start();
    const deadline = Date.now() + 8_000;
    let echo: Echo = { count: 0, checksum: 0, errors: 0, final: false };
    let monotone = true;
    const track = (e: Echo): void => {
      if (e.count < echo.count) monotone = false;
    };
    let sent = 0;
    let expected = 0;
    while (sent < N && Date.now() < deadline) {
      const want = Math.min(BATCH, N - sent);
      let first = input.tryClaim(want);
      let n = want;
      if (first === NO_SEQ) {
        n = Math.min(want, input.freeSlots());
        first = n > 0 ? input.tryClaim(n) : NO_SEQ;
      }
      if (first !== NO_SEQ) {
        for (let i = 0; i < n; i++) {
          const seq = (first + i) | 0;
          input.slots32[input.wordOffset(seq)] = sent + i;
          input.slots64[input.f64Offset(seq) + 1] = ID_BASE + sent + i;
          expected = checksumStep(expected, sent + i);
        }
        sent += n;
        input.publish((first + n - 1) | 0);
      }
      echo = readEchoes(output, echo, track);
    }
    expect(sent).toBe(N);
    input.close();
    const wait = new AsyncWait({ timeoutMs: 100 });
    while (!echo.final && Date.now() < deadline) {
      await withTimeout(wait.waitFor(output, (output.consumed + 1) | 0), 5_000, 'final echo');
      echo = readEchoes(output, echo, track);
    }
    expect(echo).toEqual({ count: N, checksum: expected, errors: 0, final: true });
    expect(monotone).toBe(true);
    expect(await withTimeout(exited, 5_000, 'worker exit')).toBe(0);
    expect(input.state).toBe(RingState.Closed);
  });

  it('lets an idle consumer sleep (its spin count stops growing) and wakes it on publish', async () => {
    const stats = new Int32Array(new SharedArrayBuffer(STAT_WORDS * Int32Array.BYTES_PER_ELEMENT));
    // The wait timeout (10 s) is far above this test's bounds, so an echo proves the notify woke the worker.
    const spins = 1_000;
    const { input, output, exited } = start({ spins, timeoutMs: 10_000, stats });
    for (let i = 0; i < 500 && Atomics.load(stats, STAT_BLOCKS) === 0; i++) await sleep(10);
    expect(Atomics.load(stats, STAT_BLOCKS)).toBe(1);
    const spinsBefore = Atomics.load(stats, STAT_SPINS);
    expect(spinsBefore).toBeLessThanOrEqual(spins);
    await sleep(300);
    expect(Atomics.load(stats, STAT_SPINS)).toBe(spinsBefore);
    expect(Atomics.load(stats, STAT_BLOCKS)).toBe(1);

    const seq = input.tryClaim(1);
    input.slots32[input.wordOffset(seq)] = 0;
    input.slots64[input.f64Offset(seq) + 1] = ID_BASE;
    input.publish(seq);
    const wait = new AsyncWait();
    await withTimeout(wait.waitFor(output, (output.consumed + 1) | 0), 3_000, 'echo after wake-up');
    const echo = readEchoes(output, { count: 0, checksum: 0, errors: 0, final: false });
    expect(echo).toMatchObject({ count: 1, checksum: checksumStep(0, 0), errors: 0 });

    input.close();
    expect(await withTimeout(exited, 3_000, 'worker exit after close')).toBe(0);
  });
});
