// Kill -9 during load, then recover: a child process runs an engine with a journal (fsync 'batch') and
// acknowledges commands only after their flush; the test SIGKILLs it at a seeded moment 0.3–1.2 s after its
// first acknowledgement and checks that
// recovery (a) lost no acknowledged command, (b) reaches the state of an independent inline run of the
// replayed prefix, and matches every live state hash the child logged, and (c) cuts and reports a torn tail.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { readJournal } from '../../src/engine/journal/reader.js';
import { recoverFromJournal } from '../../src/engine/recovery.js';
import { CRASH_DEFINITION, TickClock, crashStream } from '../support/crash-stream.js';

const CHILD = fileURLToPath(new URL('../support/crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Kill window, measured from the child's first acknowledgement (its engine is up and under load). */
const KILL_FROM_MS = 300;
const KILL_SPAN_MS = 900;
const FIRST_ACK_LIMIT_MS = 10_000;

interface Acks { readonly seqs: number[]; readonly hashes: [number, string][] }

/** Parses whole lines of the acks file (a line cut by the kill is ignored). */
function parseAcks(text: string): Acks {
  const lines = text.split('\n');
  lines.pop();
  const seqs: number[] = [];
  const hashes: [number, string][] = [];
  for (const l of lines) {
    const [tag, seq, hash] = l.split(' ');
    if (tag === 'a') seqs.push(Number(seq));
    else if (tag === 'h' && hash !== undefined) hashes.push([Number(seq), hash]);
    else throw new Error(`bad ack line ${JSON.stringify(l)}`);
  }
  return { seqs, hashes };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the child until the seeded moment after its first ack, SIGKILLs it; returns its stderr. */
async function runAndKill(kind: string, journal: string, acks: string, seed: number): Promise<{ killAtMs: number; stderr: string }> {
  const killAtMs = KILL_FROM_MS + new Prng(seed).nextInt(KILL_SPAN_MS);
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, kind, journal, acks, String(seed)], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  let exitedEarly = false;
  void exited.then(() => { exitedEarly = true; });
  try {
    for (;;) {
      if (exitedEarly) throw new Error(`child exited before its first ack: ${stderr}`);
      if (Date.now() - started > FIRST_ACK_LIMIT_MS) throw new Error(`no ack within ${FIRST_ACK_LIMIT_MS} ms: ${stderr}`);
      const size = await stat(acks).then((s) => s.size, () => 0);
      if (size > 0) break;
      await sleep(5);
    }
    await sleep(killAtMs);
    expect(exitedEarly, stderr).toBe(false);
  } finally {
    child.kill('SIGKILL');
  }
  expect(await exited).toBe('SIGKILL');
  return { killAtMs, stderr };
}

/** A truncated frame: a length field promising 64 bytes, a checksum, and only 10 of them (a torn write). */
const TORN_FRAME = Uint8Array.from([64, 0, 0, 0, 1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]);

/** Runs at most `n` of the returned function's tasks at a time (a freed slot passes straight to a waiter). */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) active--;
      else next();
    }
  };
}

/** Two kills at a time: one per core of the target machine, so a run's own timing stays meaningful. */
const slot = limiter(2);

describe('SIGKILL under load', () => {
  let dir = '';
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-crash-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it.concurrent.each([
    { kind: 'inline', seed: 101, tear: false },
    { kind: 'inline', seed: 202, tear: true },
    { kind: 'inline', seed: 303, tear: false },
    { kind: 'threaded', seed: 101, tear: false },
    { kind: 'threaded', seed: 202, tear: true },
    { kind: 'threaded', seed: 303, tear: false },
  ])('$kind runner, seed $seed (torn tail appended: $tear)', ({ kind, seed, tear }) => slot(async () => {
    const journal = join(dir, `${kind}-${seed}.journal`);
    const ackFile = join(dir, `${kind}-${seed}.acks`);
    const { stderr } = await runAndKill(kind, journal, ackFile, seed);
    const acks = parseAcks(await readFile(ackFile, 'utf8'));

    const killedSize = (await stat(journal)).size;
    if (tear) await appendFile(journal, TORN_FRAME);
    // What the file holds before recovery touches it (recoverFromJournal's own report describes the file
    // after its repair, so the damage is read here).
    const before = await readJournal(journal);
    const { engine, report } = await recoverFromJournal(journal, { repair: true });
    const lastSeq = engine.sequencer.lastSeq;

    // (c) a damaged tail, if any, is reported and cut at the last whole record; nothing whole is lost.
    if (tear) {
      expect(before.truncatedAt).toBeDefined();
      expect(before.truncatedAt!).toBeLessThanOrEqual(killedSize);
      // Unless the kill itself tore the last record, the cut is exactly at the appended partial frame.
      if (before.truncatedAt === killedSize) expect(before.reason).toBe('torn');
    }
    if (before.truncatedAt === undefined) expect(before.validBytes).toBe(before.fileBytes);
    else expect(before.validBytes).toBeLessThan(before.fileBytes);
    expect((await stat(journal)).size).toBe(before.validBytes);
    expect(report.records).toBe(before.records);
    // The recovery's own report says where and why the repair cut, as reading before it did.
    expect(report.truncatedAt).toBe(before.truncatedAt);
    expect(report.reason).toBe(before.reason);

    // (a) every acknowledged command is in the recovered log. Each seq is acknowledged at most once; the
    // threaded runner answers an R1 rejection before earlier book commands finish, so acks need not be a prefix.
    expect(acks.seqs.length, stderr).toBeGreaterThan(0);
    expect(new Set(acks.seqs).size).toBe(acks.seqs.length);
    expect(acks.seqs.reduce((a, b) => Math.min(a, b))).toBeGreaterThanOrEqual(1);
    expect(acks.seqs.reduce((a, b) => Math.max(a, b))).toBeLessThanOrEqual(lastSeq);
    expect(lastSeq).toBe(report.records);

    // (b) an independent inline run of the same stream prefix, with the same per-seq times, reaches the
    // recovered state, and the live hash the child logged at each checkpoint.
    const checkpoints = new Map(acks.hashes);
    for (const seq of checkpoints.keys()) expect(seq).toBeLessThanOrEqual(lastSeq);
    const ref = new InlineEngine(CRASH_DEFINITION, { clock: new TickClock() });
    let checked = 0;
    for (const c of crashStream(seed)) {
      if (ref.sequencer.lastSeq === lastSeq) break;
      ref.submit(c);
      const logged = checkpoints.get(ref.sequencer.lastSeq);
      if (logged !== undefined) { expect(ref.stateHash(), `checkpoint at seq ${ref.sequencer.lastSeq}`).toBe(logged); checked++; }
    }
    expect(checked).toBe(checkpoints.size);
    // The child logs a checkpoint with its first acknowledged batch, in the same write.
    expect(checked).toBeGreaterThan(0);
    expect(engine.stateHash()).toBe(ref.stateHash());
    engine.assertInvariants();
  }));
});
