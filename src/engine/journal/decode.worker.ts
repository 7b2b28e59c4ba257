/**
 * A journal decode worker: reads one journal file, checks and decodes its records (reader.ts scanRecords, the
 * loop `readJournal` runs) and writes them into the ring it was given (decoded-ring.ts), then an end slot with
 * the scan's report, then closes the ring. The replaying thread (pipelined-reader.ts) applies them meanwhile.
 *
 * Backpressure: a full ring makes it publish what it wrote and wait until the reader frees a quarter of the ring;
 * nothing is dropped. It waits by polling the reader's cursor every POLL_MS (a timed Atomics.wait nobody
 * notifies) rather than by sleeping until notified: a notify from the replaying thread cost it about a
 * millisecond per release (V8's futex emulation), which polling spares. It publishes at the end of every chunk
 * and whenever it must wait.
 * Failure: an exception (an I/O error) ends the thread with an 'error' event; the reader stops with it.
 * The file's start (magic, version, header) was checked by the reader before it started this worker.
 */
import { open } from 'node:fs/promises';
import { workerData } from 'node:worker_threads';
import type { Command } from '../../core/command.js';
import { H_CONSUMED, H_STATE, RingState, seqDiff, seqLt } from '../ring/layout.js';
import { NO_SEQ, SpscRing } from '../ring/spsc-ring.js';
import { DECODED_SLOT_WORDS, slotsFor, unitsView, writeDecoded, writeEnd } from './decoded-ring.js';
import { RecordScanner, scanRecords } from './reader.js';

export interface DecodeWorkerData {
  readonly path: string;
  /** File offset of the first record (after the header). */
  readonly start: number;
  readonly fileBytes: number;
  readonly sab: SharedArrayBuffer;
  readonly capacity: number;
}

const data = workerData as DecodeWorkerData;
const ring = SpscRing.attach(data.sab, { capacity: data.capacity, slotWords: DECODED_SLOT_WORDS });
const units = unitsView(ring);
/** Poll period of a full ring, ms. */
const POLL_MS = 0.2;
/** A word nobody notifies, for timed sleeps (never shared with another thread). */
const nap = new Int32Array(new SharedArrayBuffer(4));

/** Waits until the reader's cursor reaches `need`; false when the reader closed the ring first. */
function waitConsumed(need: number): boolean {
  const h = ring.header;
  while (seqLt(Atomics.load(h, H_CONSUMED), need)) {
    if (Atomics.load(h, H_STATE) === RingState.Closed) return false;
    Atomics.wait(nap, 0, 0, POLL_MS);
  }
  return true;
}

/** Claims `n` slots, publishing what is written and waiting for the reader while the ring is full. */
function claim(n: number): number {
  for (;;) {
    const first = ring.tryClaim(n);
    if (first !== NO_SEQ) return first;
    if (ring.published !== ring.claimed) ring.publish(ring.claimed);
    // Free slots needed: the reader must have consumed up to claimed + n − capacity; waiting for a quarter of
    // the ring more (where that much is claimed) spares a wake-up per release of the reader.
    let need = (ring.claimed + n - ring.capacity) | 0;
    const roomier = (need + (ring.capacity >> 2)) | 0;
    if (seqDiff(ring.claimed, roomier) >= 0) need = roomier;
    if (!waitConsumed(need)) throw new Error('the journal reader closed the ring');
  }
}

const fh = await open(data.path, 'r');
try {
  const scanner = new RecordScanner(data.start);
  await scanRecords(fh, data.fileBytes, scanner, (c: Command, end: number) => {
    writeDecoded(ring, units, claim(slotsFor(c)), c, end);
  }, { chunkBytes: 4 << 20, afterChunk: () => {
    if (ring.published !== ring.claimed) ring.publish(ring.claimed);
    return Promise.resolve();
  } });
  const end = claim(1);
  writeEnd(ring, end, scanner.records, scanner.validEnd, data.fileBytes, scanner.reason);
  ring.publish(end);
  ring.close();
} finally {
  await fh.close();
}
