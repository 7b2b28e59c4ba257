// Writes a journal by running seeded random commands through a live inline engine; returns the live hash.
import { SimClock } from '../../src/core/clock.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor } from '../../src/engine/recovery.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';

export const T0 = 1_767_225_600_000_000;

/** Runs `n` commands (after the opening credits) with a journal at `path`; returns the live state hash and count. */
export async function writeLiveJournal(path: string, n: number, seed: number): Promise<{ hash: string; records: number }> {
  const clock = new SimClock(T0);
  const journal = await JournalWriter.open(path, headerFor(ENGINE_DEFINITION, T0), { fsync: 'never' });
  const engine = new InlineEngine(ENGINE_DEFINITION, { clock, journal });
  const s = new EngineStream(seed);
  for (const c of s.openings()) engine.submit(c);
  for (let i = 0; i < n; i++) {
    clock.advanceBy(1 + (i % 3));
    engine.submit(s.next());
    if (i % 1000 === 0) await engine.flush();
  }
  await engine.flush();
  await journal.close();
  return { hash: engine.stateHash(), records: engine.sequencer.lastSeq };
}
