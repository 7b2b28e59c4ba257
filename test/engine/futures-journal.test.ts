// Same commands, same state, for futures: a seeded futures stream (test/core/futures/futures-stream.ts: orders of
// every kind, amends, cancels, leverage, margin, risk limits, dual mode, prices, funding, liquidations, ADL)
// journaled by the inline runner replays to the live state hash; a snapshot taken mid-stream (its futures_json
// encoded and decoded) restores to the hash at that point and, fed the rest of the stream, reaches the live end.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from '../../src/core/command.js';
import { Prng } from '../../src/core/prng.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { captureSnapshot, restoreEngine } from '../../src/engine/snapshot/capture.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/protocol/snapshot-codec.js';
import { FuturesStream, openStream, STREAM_USERS } from '../core/futures/futures-stream.js';
import { FuturesDriver, futuresDefinition, T0 } from '../support/futures-driver.js';
import { StepClock } from '../support/pipeline-stream.js';

const STEP = 60_000_000;
const DEF = futuresDefinition(STREAM_USERS.length);
const dirs: string[] = [];
afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

describe('futures in the journal and in snapshots', () => {
  it('a journaled stream replays to the live state hash; a mid-stream snapshot restores and continues to it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringmatch-futures-'));
    dirs.push(dir);
    const path = join(dir, 'futures.journal');
    const journal = await JournalWriter.open(path, headerFor(DEF, T0), { fsync: 'batch' });
    const d = new FuturesDriver(DEF, { clock: new StepClock(T0, STEP), journal, record: true });
    openStream(d);
    const s = new FuturesStream(d, new Prng(21));
    // Snapshot at a point in the middle of the stream (after the command that crosses 1500).
    let snapAt = -1;
    let snapHash = '';
    let snapshot: Uint8Array | undefined;
    for (let i = 0; i < 3000; i++) {
      s.step();
      if (snapAt < 0 && d.sent.length >= 1500) {
        snapAt = d.sent.length;
        snapHash = d.engine.stateHash();
        snapshot = encodeSnapshot(captureSnapshot(d.engine));
      }
      if (i % 200 === 0) await d.engine.flush();
    }
    await d.engine.flush();
    await journal.close();
    const live = d.engine.stateHash();
    expect(s.stats.liquidate?.[0] ?? 0).toBeGreaterThan(0);
    expect(s.stats.funding?.[0] ?? 0).toBeGreaterThan(0);
    expect(d.ex.futures.positions.openRows().length).toBeGreaterThan(0);

    const recovered = await recoverFromJournal(path);
    expect(recovered.engine.stateHash()).toBe(live);
    expect(recovered.engine.exchange.futures.exportData()).toEqual(d.ex.futures.exportData());

    const decoded = decodeSnapshot(snapshot!);
    expect(decoded.exchange.futures).toBeDefined();
    const restored = restoreEngine(decoded, { clock: new StepClock(T0 + STEP * snapAt, STEP) });
    expect(restored.stateHash()).toBe(snapHash);
    for (const c of d.sent.slice(snapAt)) restored.submit(new Command().copyFrom(c));
    expect(restored.stateHash()).toBe(live);
    expect(restored.exchange.futures.exportData()).toEqual(d.ex.futures.exportData());
  });
});
