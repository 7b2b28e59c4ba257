// A shard worker dies mid-stream: the threaded engine stops taking commands (Busy), reports the failure once,
// never answers the commands it lost, and a restart (restart.ts) rebuilds it from the journal to the state
// an inline run of the journaled prefix reaches; the recovered engine then tracks an inline engine fed the
// same continuation.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/core/result-code.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { planRestart, restartThreaded } from '../../src/engine/restart.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { type EngineFailure, ShardFailure, ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { CRASH_DEFINITION, CRASH_T0, TickClock, crashPrefix } from '../support/crash-stream.js';

const SEED = 29;
const BEFORE = 6_000;
const AFTER = 4_000;

/** Inline reference over the first `n` commands: per-seq result codes and the hash after n. */
function inlineRun(n: number): { codes: ResultCode[]; hash: string; engine: InlineEngine } {
  const engine = new InlineEngine(CRASH_DEFINITION, { clock: new TickClock() });
  const codes = crashPrefix(SEED, n).map((c) => engine.submit(c));
  return { codes, hash: engine.stateHash(), engine };
}

describe('ThreadedEngine worker failure', () => {
  let dir = '';
  afterEach(async () => { if (dir !== '') await rm(dir, { recursive: true, force: true }); });

  it('stops intake, reports, keeps lost callbacks silent, and recovers from the journal', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ringmatch-wcrash-'));
    const path = join(dir, 'engine.journal');
    const journal = await JournalWriter.open(path, headerFor(CRASH_DEFINITION, CRASH_T0), { fsync: 'never' });
    const failures: EngineFailure[] = [];
    let reported!: () => void;
    const failed = new Promise<void>((resolve) => { reported = resolve; });
    const engine = ThreadedEngine.start(CRASH_DEFINITION, {
      clock: new TickClock(), shards: 2, journal, commandRing: 256, eventRing: 512, intake: 1024,
      onFailure: (f) => { failures.push(f); reported(); },
    });
    const answered = new Map<number, ResultCode>();
    let answeredAfterFailure = 0;
    const commands = crashPrefix(SEED, BEFORE + 2_000);
    let i = 0;
    try {
      const deadline = Date.now() + 20_000;
      // Half the stream completes; then the crash is queued behind in-flight work and submission goes on.
      while (i < BEFORE) {
        expect(Date.now()).toBeLessThan(deadline);
        const ok = engine.submit(commands[i]!, (code, cmd) => {
          if (engine.failure !== undefined) answeredAfterFailure++;
          answered.set(cmd.seq, code);
        });
        if (ok === ResultCode.Busy) { await engine.run(); continue; }
        i++;
        if (i === BEFORE / 2) await engine.run();
        if (i < BEFORE / 2) { engine.pump(); engine.poll(); }
      }
      engine.pump();
      expect(engine.crashShardForTesting(1)).toBe(true);
      const raced = await Promise.race([failed.then(() => 'failed'), new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
      expect(raced).toBe('failed');
      expect(failures).toHaveLength(1);
      expect(failures[0]).toBeInstanceOf(ShardFailure);
      expect((failures[0] as ShardFailure).shard).toBe(1);
      expect(failures[0]!.message).toMatch(/crash requested/);
      expect(engine.failure).toBe(failures[0]);
      expect(engine.submit(commands[i]!)).toBe(ResultCode.Busy);
      await expect(engine.run()).rejects.toBe(failures[0]);
      await expect(engine.stateHash()).rejects.toBe(failures[0]);
      expect(engine.pump() + engine.poll()).toBe(0);
      expect(answeredAfterFailure).toBe(0);
      expect(engine.outstanding).toBeGreaterThan(0);
    } finally {
      await engine.close();
      await journal.close();
    }
    expect(failures).toHaveLength(1);
    // Everything stamped was journaled; what was answered before the crash agrees with the inline runner.
    const stamped = engine.sequencer.lastSeq;
    expect(answered.size).toBeLessThan(stamped);
    const ref = inlineRun(stamped);
    for (const [seq, code] of answered) expect(code, `seq ${seq}`).toBe(ref.codes[seq - 1]);

    const plan = (await planRestart(path, undefined, () => undefined))!;
    expect(plan.repaired?.truncatedAt).toBeUndefined();
    const { engine: recovered, report, journal: reopened } = await restartThreaded(plan, path, new TickClock(stamped), { fsync: 'batch' },
      { shards: 2, commandRing: 256, eventRing: 512, intake: 1024 });
    try {
      expect(report.replayed).toBe(stamped);
      expect(recovered.sequencer.lastSeq).toBe(stamped);
      expect(await recovered.stateHash()).toBe(ref.hash);

      // Continue on both: same commands, same codes, same hash.
      const more = crashPrefix(SEED, stamped + AFTER).slice(stamped);
      const codes = new Array<number>(AFTER).fill(-1);
      let k = 0;
      const deadline = Date.now() + 20_000;
      while (k < AFTER) {
        expect(Date.now()).toBeLessThan(deadline);
        const at = k;
        if (recovered.submit(more[at]!, (code) => { codes[at] = code; }) === ResultCode.Busy) { await recovered.run(); continue; }
        recovered.pump();
        recovered.poll();
        k++;
      }
      await recovered.run();
      await recovered.sequencer.flush();
      const expected = crashPrefix(SEED, stamped + AFTER).slice(stamped).map((c) => ref.engine.submit(c));
      expect(codes).toEqual(expected);
      const hash = await recovered.stateHash();
      expect(hash).toBe(ref.engine.stateHash());
      expect(recovered.sequencer.lastSeq).toBe(stamped + AFTER);
    } finally {
      await recovered.close();
      await reopened?.close();
    }
    // The reopened journal holds both parts and replays inline to the same state.
    const again = await recoverFromJournal(path);
    expect(again.report.records).toBe(stamped + AFTER);
    expect(again.engine.stateHash()).toBe(ref.engine.stateHash());
  });
});
