// The inline engine keeps ledger and book invariants on random streams, is independent of the book
// implementation, and a journal of the run replays to the same state hash.
import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { ResultCode } from '../../src/core/result-code.js';
import { NaiveOrderBook } from '../../src/core/matching/naive-order-book.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';

const T0 = 1_767_225_600_000_000;
const dirs: string[] = [];
afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

describe('InlineEngine', () => {
  it.each([1, 2, 3])('keeps conservation and holds = open orders after every command (seed %i)', (seed) => {
    const clock = new SimClock(T0);
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock });
    const s = new EngineStream(seed);
    for (const c of s.openings()) expect(engine.submit(c)).toBe(ResultCode.Ok);
    const seen = new Set<number>();
    for (let i = 0; i < 4000; i++) {
      clock.advanceBy(1 + (i % 7));
      seen.add(engine.submit(s.next()));
      engine.assertInvariants();
    }
    expect(engine.exchange.trades.count).toBeGreaterThan(100);
    expect(seen.has(ResultCode.BalanceNotEnough)).toBe(true);
    expect(seen.has(ResultCode.OrderNotFound)).toBe(true);
  });

  it('reaches the same state hash with the reference book as with the fast book', () => {
    const run = (naive: boolean): string => {
      const clock = new SimClock(T0);
      const engine = new InlineEngine(ENGINE_DEFINITION, { clock, bookFactory: naive ? (m) => new NaiveOrderBook(m) : undefined });
      const s = new EngineStream(42);
      for (const c of s.openings()) engine.submit(c);
      for (let i = 0; i < 5000; i++) { clock.advanceBy(3); engine.submit(s.next()); }
      return engine.stateHash();
    };
    expect(run(true)).toBe(run(false));
  });

  it('replays its journal to the live state hash', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringmatch-journal-'));
    dirs.push(dir);
    const path = join(dir, 'engine.journal');
    const clock = new SimClock(T0);
    const journal = await JournalWriter.open(path, headerFor(ENGINE_DEFINITION, T0), { fsync: 'batch' });
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock, journal });
    const s = new EngineStream(5);
    for (const c of s.openings()) engine.submit(c);
    for (let i = 0; i < 3000; i++) {
      clock.advanceBy(2);
      engine.submit(s.next());
      if (i % 100 === 0) await engine.flush();
    }
    await engine.flush();
    await journal.close();
    const recovered = await recoverFromJournal(path);
    expect(recovered.report.truncatedAt).toBeUndefined();
    expect(recovered.report.records).toBe(engine.sequencer.lastSeq);
    expect(recovered.engine.stateHash()).toBe(engine.stateHash());
    expect(recovered.engine.sequencer.lastSeq).toBe(engine.sequencer.lastSeq);
  });

  it('reports where a repair cut a torn tail, and recovers the whole records before it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringmatch-journal-'));
    dirs.push(dir);
    const path = join(dir, 'torn.journal');
    const clock = new SimClock(T0);
    const journal = await JournalWriter.open(path, headerFor(ENGINE_DEFINITION, T0), { fsync: 'batch' });
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock, journal });
    const s = new EngineStream(9);
    for (const c of s.openings()) engine.submit(c);
    for (let i = 0; i < 500; i++) { clock.advanceBy(2); engine.submit(s.next()); }
    await engine.flush();
    await journal.close();
    const whole = (await stat(path)).size;
    await appendFile(path, Buffer.from([200, 0, 0, 0, 1, 2, 3]));
    const recovered = await recoverFromJournal(path, { repair: true });
    expect(recovered.report.truncatedAt).toBe(whole);
    expect(recovered.report.reason).toBeDefined();
    expect((await stat(path)).size).toBe(whole);
    expect(recovered.engine.stateHash()).toBe(engine.stateHash());
  });
});

