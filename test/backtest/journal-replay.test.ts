// Journal replay ends at the live run's state hash (journal groups included); the report is deterministic apart
// from timing; the command line prints exactly one JSON document with --json.
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import { Progress, renderBar } from '../../src/backtest/progress.js';
import { parseReplayArgs } from '../../src/backtest/replay-args.js';
import { runReplay } from '../../src/backtest/replay-command.js';
import { deterministicJson } from '../../src/backtest/report.js';
import { SimClock } from '../../src/core/clock.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor } from '../../src/engine/recovery.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';
import { T0, writeLiveJournal } from './journal-fixture.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(async () => { await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))); });
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'ringmatch-replay-'));
  dirs.push(d);
  return d;
}

class Capture {
  text = '';
  constructor(readonly isTTY: boolean) {}
  write(s: string): boolean { this.text += s; return true; }
}

describe('journal replay', () => {
  it('ends at the live state hash and replays every record', async () => {
    const path = join(await tempDir(), 'live.journal');
    const live = await writeLiveJournal(path, 20_000, 11);
    const { engine, report } = await replayJournal(path);
    expect(report.state_hash).toBe(live.hash);
    expect(engine.stateHash()).toBe(live.hash);
    expect(report.events).toBe(live.records);
    expect(engine.sequencer.lastSeq).toBe(live.records);
    expect(report.result.journal).toMatchObject({ records: live.records });
    engine.assertInvariants();
  });

  it('gives the same report byte for byte apart from timing', async () => {
    const path = join(await tempDir(), 'live.journal');
    await writeLiveJournal(path, 5_000, 3);
    const a = await replayJournal(path);
    const b = await replayJournal(path);
    expect(deterministicJson(a.report)).toBe(deterministicJson(b.report));
    expect(deterministicJson(a.report)).not.toContain('wall_ms');
  });

  it('stops at a torn tail and reports it', async () => {
    const path = join(await tempDir(), 'torn.journal');
    const live = await writeLiveJournal(path, 1_000, 5);
    await appendFile(path, Buffer.from([40, 0, 0, 0, 9, 9]));
    const { report } = await replayJournal(path);
    expect(report.state_hash).toBe(live.hash);
    expect(report.result.journal).toMatchObject({ records: live.records, defect: 'torn' });
  });

  it('replays journal groups whole and cuts a group the file ends inside, as recovery does', async () => {
    const path = join(await tempDir(), 'groups.journal');
    const clock = new SimClock(T0);
    const journal = await JournalWriter.open(path, headerFor(ENGINE_DEFINITION, T0), { fsync: 'never' });
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock, journal });
    const s = new EngineStream(21);
    for (const c of s.openings()) engine.submit(c);
    // Groups of three commands (the first two carry the group flag), then one group left open.
    for (let i = 0; i < 300; i++) {
      clock.advanceBy(1);
      engine.submit(s.next(), i % 3 !== 2);
    }
    const whole = engine.stateHash();
    const records = engine.sequencer.lastSeq;
    engine.submit(s.next(), true);
    await engine.flush();
    await journal.close();
    const { report } = await replayJournal(path);
    expect(report.state_hash).toBe(whole);
    expect(report.result.journal).toMatchObject({ records, defect: 'group' });
    expect(report.result).toMatchObject({ last_seq: records });
  });

  it('prints one JSON document with --json and no progress bar, even on a terminal', async () => {
    const path = join(await tempDir(), 'live.journal');
    const live = await writeLiveJournal(path, 2_000, 8);
    const out = new Capture(false);
    const err = new Capture(true);
    await runReplay(parseReplayArgs(['--format', 'journal', '--journal', path, '--json']), { stdout: out, stderr: err });
    expect(err.text).toBe('');
    const doc = JSON.parse(out.text) as Record<string, unknown>;
    expect(out.text.trim().split('\n')).toHaveLength(1);
    expect(doc.state_hash).toBe(live.hash);
    expect(typeof doc.events).toBe('number');
    expect(typeof doc.events_per_sec).toBe('number');
  });

  it('draws the progress bar on a terminal stderr without --json, and prints a summary', async () => {
    const path = join(await tempDir(), 'live.journal');
    const live = await writeLiveJournal(path, 70_000, 4);
    const out = new Capture(false);
    const err = new Capture(true);
    await runReplay(parseReplayArgs(['--format', 'journal', '--journal', path]), { stdout: out, stderr: err });
    expect(err.text).toMatch(/\[#+\] 100\.0%.*ev\/s.*ETA/);
    expect(out.text).toContain(`state hash: ${live.hash}`);
  });

  it('runs from the command line', async () => {
    const path = join(await tempDir(), 'live.journal');
    const live = await writeLiveJournal(path, 500, 2);
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'replay', '--format', 'journal', '--journal', path, '--json']);
    const doc = JSON.parse(stdout) as { state_hash: string; events: number; events_per_sec: number };
    expect(doc.state_hash).toBe(live.hash);
    expect(doc.events).toBe(live.records);
    expect(stderr).toBe('');
  });

  it('replays the shipped demo journal whole, the same way twice', async () => {
    const a = await replayJournal('test/backtest/fixtures/demo.journal');
    const b = await replayJournal('test/backtest/fixtures/demo.journal');
    expect(a.report.result.journal).toEqual({ file_bytes: 114_936, valid_bytes: 114_936, records: 1018 });
    expect(b.report.state_hash).toBe(a.report.state_hash);
    a.engine.assertInvariants();
  });

  it('rejects bad flags with the usage line', () => {
    expect(() => parseReplayArgs(['--format', 'journal'])).toThrow(/needs --journal/);
    expect(() => parseReplayArgs(['--format', 'csv'])).toThrow(/--format must be/);
    expect(() => parseReplayArgs(['--format', 'journal', '--journal', 'x', '--bogus'])).toThrow(/unknown argument/);
  });
});

describe('progress bar', () => {
  it('draws percentage, rate and ETA on a terminal only', () => {
    expect(renderBar(0.5, 1000, 2)).toMatch(/50\.0%.*500 ev\/s.*ETA 0:02/);
    const tty = new Capture(true);
    const p = new Progress(tty, true);
    p.update(10, 0.1);
    p.done(100);
    expect(tty.text).toContain('100.0%');
    const pipe = new Capture(false);
    const q = new Progress(pipe, true);
    q.update(10, 0.1);
    q.done(100);
    expect(pipe.text).toBe('');
  });
});
