/** Temp dirs, headers and frame walking for journal tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FRAME_BYTES, LENGTH_MASK, PREAMBLE_BYTES, readU32 } from '../../../src/engine/journal/format.js';
import type { JournalHeaderData } from '../../../src/protocol/codec.js';

export const HEADER: JournalHeaderData = {
  formatVersion: 1,
  createdTime: 1_700_000_000_000_000,
  markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 6, min_quote_amount: '3' }],
  currencies: [{ code: 'BTC', scale: 8, maxSupply: '21000000' }, { code: 'USDT', scale: 6 }],
  configJson: '{"fees":{"maker":"0.001"}}',
};

/** Creates a temp dir; `cleanup()` removes every dir made so far. */
export function tempDirs(): { make: () => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    make: async () => {
      const d = await mkdtemp(path.join(os.tmpdir(), 'ringmatch-journal-'));
      made.push(d);
      return d;
    },
    cleanup: async () => {
      await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
    },
  };
}

/** Start offsets of the header frame's end and of every whole record frame in `bytes`. */
export function recordOffsets(bytes: Uint8Array): { first: number; offsets: number[] } {
  const first = PREAMBLE_BYTES + FRAME_BYTES + readU32(bytes, PREAMBLE_BYTES);
  const offsets: number[] = [];
  let at = first;
  while (at + FRAME_BYTES <= bytes.length) {
    const end = at + FRAME_BYTES + ((readU32(bytes, at) & LENGTH_MASK) >>> 0);
    if (end > bytes.length) break;
    offsets.push(at);
    at = end;
  }
  return { first, offsets };
}
