/**
 * `readJournal` with the reading, checking and decoding on another thread: a decode worker (decode.worker.ts)
 * streams decoded records through an SPSC ring (decoded-ring.ts) while this thread only hands them to
 * `onCommand`. Same contract and report as `readJournal` (reader.ts): the same records in the same order, a
 * group only whole, the valid prefix and the defect that ended it (test/engine/journal/pipelined-reader.test.ts
 * holds the two to each other). On two cores this takes the decode (a CRC pass and a FlatBuffers read, ~170 ns a
 * record) off the replaying thread.
 *
 * Waiting: this thread never blocks its event loop (AsyncWait: Atomics.waitAsync); it releases slots every
 * RELEASE_EVERY slots so the worker keeps going. Costs: a worker start (tens of milliseconds, more the first
 * time from sources), so `readJournalAuto` uses it only for files of PIPELINE_MIN_BYTES or more.
 * Failure: an exception from `onCommand` stops the worker and is rethrown; a worker that fails (an I/O error)
 * rejects with its error.
 */
import { open, stat } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { Command } from '../../core/command.js';
import { RingState, seqDiff } from '../ring/layout.js';
import { SpscRing } from '../ring/spsc-ring.js';
import { AsyncWait } from '../ring/wait-strategy.js';
import { spawnWorker } from '../workers/spawn-worker.js';
import { DECODED_SLOT_WORDS, readDecoded, readEnd, recordEnd, SlotKind, slotKind, unitsView } from './decoded-ring.js';
import type { DecodeWorkerData } from './decode.worker.js';
import { type JournalReport, type ReadOptions, type RecordCallback, readFileStart, readJournal } from './reader.js';

/** Files from this size on are read through a decode worker by `readJournalAuto` (about 150,000 records). */
export const PIPELINE_MIN_BYTES = 16 << 20;
/** Ring slots: 16,384 × 128 B = 2 MiB. */
const CAPACITY = 1 << 14;
/** Slots handed out between releases (a quarter of the ring): each release may wake the worker (a futex call), so rarely. */
const RELEASE_EVERY = CAPACITY >> 2;

/** `readJournal` through a decode worker (see the module header). */
export async function readJournalPipelined(path: string, onCommand: RecordCallback): Promise<JournalReport> {
  const fh = await open(path, 'r');
  let header;
  let start;
  let fileBytes;
  try {
    fileBytes = (await fh.stat()).size;
    ({ header, end: start } = await readFileStart(fh, path));
  } finally {
    await fh.close();
  }
  const ring = SpscRing.create({ capacity: CAPACITY, slotWords: DECODED_SLOT_WORDS });
  const units = unitsView(ring);
  const init: DecodeWorkerData = { path, start, fileBytes, sab: ring.sab, capacity: CAPACITY };
  const worker = spawnWorker(new URL('./decode.worker.js', import.meta.url), init);
  let failure: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    worker.once('error', (e) => { failure = e; ring.close(); });
    worker.once('exit', () => { ring.close(); resolve(); });
  });
  try {
    const end = await consume(ring, units, onCommand, () => failure);
    const reason = end.reason;
    return reason === undefined
      ? { header, records: end.records, validBytes: end.validBytes, fileBytes: end.fileBytes }
      : { header, records: end.records, validBytes: end.validBytes, fileBytes: end.fileBytes, truncatedAt: end.validBytes, reason };
  } catch (e) {
    await stopWorker(worker, ring);
    throw e;
  } finally {
    await exited;
  }
}

/**
 * `readJournal`, through a decode worker when the file is PIPELINE_MIN_BYTES or larger and the caller needs no
 * chunk hook (`afterChunk`, `chunkBytes`: those read in this thread).
 */
export async function readJournalAuto(path: string, onCommand: RecordCallback, options: ReadOptions = {}): Promise<JournalReport> {
  if (options.afterChunk !== undefined || options.chunkBytes !== undefined || (await stat(path)).size < PIPELINE_MIN_BYTES) {
    return readJournal(path, onCommand, options);
  }
  return readJournalPipelined(path, onCommand);
}

interface End { readonly records: number; readonly validBytes: number; readonly fileBytes: number; readonly reason: JournalReport['reason'] }

async function consume(ring: SpscRing, units: Uint16Array, onCommand: RecordCallback, failed: () => Error | undefined): Promise<End> {
  const wait = new AsyncWait({ timeoutMs: 50 });
  const cmd = new Command();
  let next = (ring.consumed + 1) | 0;
  for (;;) {
    const published = ring.available();
    if (seqDiff(published, next) < 0) {
      const error = failed();
      if (error !== undefined) throw error;
      if (ring.state !== RingState.Running && seqDiff(ring.available(), next) < 0) throw new Error('journal decode worker stopped before the end of the file');
      await wait.waitFor(ring, next);
      continue;
    }
    let handed = 0;
    while (seqDiff(published, next) >= 0) {
      if (slotKind(ring, next) === SlotKind.End) {
        const end = readEnd(ring, next);
        ring.release(next);
        return end;
      }
      const n = readDecoded(ring, units, next, cmd);
      onCommand(cmd, recordEnd(ring, next));
      next = (next + n) | 0;
      handed += n;
      if (handed >= RELEASE_EVERY) {
        ring.release((next - 1) | 0);
        handed = 0;
      }
    }
    ring.release((next - 1) | 0);
  }
}

/** Ends the worker after a failure of this side: the ring closed (its waits return), then terminated. */
async function stopWorker(worker: Worker, ring: SpscRing): Promise<void> {
  ring.markClosed();
  await worker.terminate();
}
