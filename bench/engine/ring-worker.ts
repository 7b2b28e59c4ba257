/**
 * Worker side of ring.bench.ts. Modes (workerData.mode):
 *
 *   ring-sink   SpinThenBlock consumer of `in`: sums word 0 of every slot, releases once per batch; when the
 *               ring is closed and drained, posts { count, sum } and exits.
 *   ring-echo   BusySpin ping-pong: copies word 0 of each `in` slot into an `out` slot and publishes it.
 *   pm-sink     counts messages ([a, b, c, d] arrays) and posts the count every `every` messages.
 *   pm-batch    counts messages packed 4 numbers each in Float64Arrays; posts the count every `every`.
 *   pm-echo     posts every message straight back.
 *
 * Control messages use postMessage and are never inside a timed region of the ring scenarios.
 * Indexing note: typed-array indices are in range by construction (ring offsets), hence `!`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type EventHandler, NO_SEQ, SpscRing } from '../../src/engine/ring/spsc-ring.js';
import { BusySpinWait, SpinThenBlockWait } from '../../src/engine/ring/wait-strategy.js';

export type BenchMode = 'ring-sink' | 'ring-echo' | 'pm-sink' | 'pm-batch' | 'pm-echo';

export interface BenchWorkerData {
  mode: BenchMode;
  capacity: number;
  slotWords: number;
  inSab?: SharedArrayBuffer;
  outSab?: SharedArrayBuffer;
  every?: number;
}

const data = workerData as BenchWorkerData;
const port = parentPort!;
const geometry = { capacity: data.capacity, slotWords: data.slotWords };
const wait = new BusySpinWait();

function ringSink(input: SpscRing): void {
  let count = 0;
  let sum = 0;
  const handler: EventHandler = {
    onEvent(r, seq) {
      sum = (sum + r.slots32[r.wordOffset(seq)]!) | 0;
      count++;
    },
  };
  const block = new SpinThenBlockWait();
  for (;;) {
    block.waitFor(input, (input.consumed + 1) | 0);
    if (input.drain(handler) === 0 && input.isDrained()) break;
  }
  input.markClosed();
  port.postMessage({ count, sum });
}

function ringEcho(input: SpscRing, output: SpscRing): void {
  for (;;) {
    const avail = wait.waitFor(input, (input.consumed + 1) | 0);
    if (input.isDrained()) break;
    for (let s = (input.consumed + 1) | 0; ; s = (s + 1) | 0) {
      let o = output.tryClaim(1);
      while (o === NO_SEQ) {
        wait.waitForConsumed(output, (output.claimed + 1 - output.capacity) | 0);
        o = output.tryClaim(1);
      }
      output.slots32[output.wordOffset(o)] = input.slots32[input.wordOffset(s)]!;
      output.publish(o);
      if (s === avail) break;
    }
    input.release(avail);
  }
  input.markClosed();
  output.close();
}

switch (data.mode) {
  case 'ring-sink':
    ringSink(SpscRing.attach(data.inSab!, geometry));
    break;
  case 'ring-echo':
    ringEcho(SpscRing.attach(data.inSab!, geometry), SpscRing.attach(data.outSab!, geometry));
    break;
  case 'pm-sink': {
    let count = 0;
    let sum = 0;
    const every = data.every!;
    port.on('message', (m: number[]) => {
      sum = (sum + m[0]!) | 0;
      if (++count % every === 0) port.postMessage(count);
    });
    break;
  }
  case 'pm-batch': {
    let count = 0;
    let sum = 0;
    const every = data.every!;
    port.on('message', (m: Float64Array) => {
      for (let i = 0; i < m.length; i += 4) sum = (sum + m[i]!) | 0;
      count += m.length >> 2;
      if (count % every === 0) port.postMessage(count);
    });
    break;
  }
  case 'pm-echo':
    port.on('message', (m: unknown) => port.postMessage(m));
    break;
}
