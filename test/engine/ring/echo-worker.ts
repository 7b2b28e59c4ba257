// Worker fixture for spsc-ring.threads.test.ts: consumes the `in` ring with SpinThenBlockWait, checks
// order, and echoes its running count and checksum through the `out` ring (cumulative, so an echo is
// skipped when `out` is full; the final echo waits for room). Exits when `in` is closed and drained.
import { workerData } from 'node:worker_threads';
import { type EventHandler, NO_SEQ, SpscRing } from '../../../src/engine/ring/spsc-ring.js';
import { SpinThenBlockWait } from '../../../src/engine/ring/wait-strategy.js';
import { ECHO_GEOMETRY, type EchoWorkerData, IN_GEOMETRY, ID_BASE, checksumStep } from './echo-protocol.js';

const data = workerData as EchoWorkerData;
const input = SpscRing.attach(data.inSab, IN_GEOMETRY);
const output = SpscRing.attach(data.outSab, ECHO_GEOMETRY);
const wait = new SpinThenBlockWait({ spins: data.spins, timeoutMs: data.timeoutMs, ...(data.stats ? { stats: data.stats } : {}) });

let count = 0;
let checksum = 0;
let errors = 0;
const check: EventHandler = {
  onEvent(r, seq) {
    const v = r.slots32[r.wordOffset(seq)]!;
    if (v !== count || r.slots64[r.f64Offset(seq) + 1] !== ID_BASE + count) errors++;
    checksum = checksumStep(checksum, v);
    count++;
  },
};

function echo(final: boolean): void {
  let seq = output.tryClaim(1);
  if (seq === NO_SEQ && !final) return;
  while (seq === NO_SEQ) {
    wait.waitForConsumed(output, (output.claimed + 1 - output.capacity) | 0);
    seq = output.tryClaim(1);
  }
  const w = output.wordOffset(seq);
  output.slots32[w] = count;
  output.slots32[w + 1] = checksum;
  output.slots32[w + 2] = errors;
  output.slots32[w + 3] = final ? 1 : 0;
  output.publish(seq);
}

for (;;) {
  wait.waitFor(input, (input.consumed + 1) | 0);
  if (input.drain(check) > 0) echo(false);
  else if (input.isDrained()) break;
}
echo(true);
input.markClosed();
output.close();
