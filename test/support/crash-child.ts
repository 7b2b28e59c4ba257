// The process the crash test kills: runs an engine (inline, or threaded with two shards) with a journal under
// fsync 'batch', driven as fast as it goes by the seeded crash stream, and acknowledges commands only after
// the journal flush that covers them has resolved.
//
// Usage: node --import tsx test/support/crash-child.ts <inline|threaded> <journal> <acks> <seed>
//
// The acks file gets, per flushed batch and with one write each (a killed process leaves whole writes):
//   a <seq>          command <seq> was acknowledged (its flush resolved)
//   h <seq> <hash>   the engine's live state hash with everything up to <seq> applied; written after the flush
//                    covering <seq>, so <seq> is durable when the line exists
// Exits by itself (code 0) after MAX_MS; the test kills it long before that.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Command } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor } from '../../src/engine/recovery.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { CRASH_DEFINITION, CRASH_T0, TickClock, crashStream } from './crash-stream.js';

const MAX_MS = 15_000;
const BATCH = 256;
/** Wall time between hash checkpoints (the first follows the first batch); each one drains the engine. */
const CHECKPOINT_MS = 150;
/** Flushes allowed in flight before the driver waits for the oldest (group commit under load). */
const FLUSHES_IN_FLIGHT = 4;

const [kind, journalPath, ackPath, seedArg] = process.argv.slice(2);
if ((kind !== 'inline' && kind !== 'threaded') || journalPath === undefined || ackPath === undefined || seedArg === undefined) {
  throw new Error('usage: crash-child.ts <inline|threaded> <journal> <acks> <seed>');
}

/** One driver per runner: feed one batch, then report what completed and the state hash when asked. */
interface Driver {
  /** Resolves once the runner can take load (the threaded one: every shard worker answered). */
  ready(): Promise<unknown>;
  /** Submits `cmds` in order; returns the seqs completed meanwhile (their callbacks ran). */
  batch(cmds: Command[]): Promise<number[]>;
  /** Completes everything submitted; returns [last seq, state hash] and the seqs completed meanwhile. */
  checkpoint(): Promise<{ seq: number; hash: string; completed: number[] }>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

function inlineDriver(journal: JournalWriter): Driver {
  const engine = new InlineEngine(CRASH_DEFINITION, { clock: new TickClock(), journal });
  return {
    ready: () => Promise.resolve(),
    batch: (cmds) => Promise.resolve(cmds.map((c) => { engine.submit(c); return c.seq; })),
    checkpoint: () => Promise.resolve({ seq: engine.sequencer.lastSeq, hash: engine.stateHash(), completed: [] }),
    flush: () => engine.flush(),
    close: () => Promise.resolve(),
  };
}

function threadedDriver(journal: JournalWriter): Driver {
  const engine = ThreadedEngine.start(CRASH_DEFINITION, {
    clock: new TickClock(), shards: 2, journal,
    onFailure: (f) => { process.stderr.write(`${f.stack ?? f.message}\n`); process.exit(3); },
  });
  let completed: number[] = [];
  const done = (_code: ResultCode, cmd: Command): void => { completed.push(cmd.seq); };
  const take = (): number[] => { const out = completed; completed = []; return out; };
  return {
    ready: () => engine.stateHash(),
    async batch(cmds) {
      for (const c of cmds) {
        while (engine.submit(c, done) === ResultCode.Busy) await engine.run();
        engine.pump();
        engine.poll();
      }
      return take();
    },
    async checkpoint() {
      // The hash at a quiet point and the seq it covers: a command stamped but waiting to retry (BalanceNotEnough
      // behind commands in flight) is in sequencer.lastSeq and not yet in the state, so lastSeq is not that seq.
      const { hash, seq } = await engine.stateAt();
      return { seq, hash, completed: take() };
    },
    flush: () => engine.sequencer.flush(),
    close: () => engine.close(),
  };
}

async function main(): Promise<void> {
  const journal = await JournalWriter.open(journalPath!, headerFor(CRASH_DEFINITION, CRASH_T0), { fsync: 'batch' });
  const driver = kind === 'inline' ? inlineDriver(journal) : threadedDriver(journal);
  await driver.ready();
  const acks = openSync(ackPath!, 'a');
  const stream = crashStream(Number(seedArg));
  const flushes: Promise<void>[] = [];
  const end = Date.now() + MAX_MS;
  let nextCheckpoint = 0;
  while (Date.now() < end) {
    const cmds = Array.from({ length: BATCH }, () => stream.next().value as Command);
    const completed = await driver.batch(cmds);
    let line = '';
    if (Date.now() >= nextCheckpoint) {
      nextCheckpoint = Date.now() + CHECKPOINT_MS;
      const cp = await driver.checkpoint();
      completed.push(...cp.completed);
      line = `h ${cp.seq} ${cp.hash}\n`;
    }
    const text = completed.map((s) => `a ${s}\n`).join('') + line;
    // Acknowledge only after a flush called after these commands were appended (the writer's contract).
    flushes.push(driver.flush().then(() => { if (text !== '') writeSync(acks, text); }));
    if (flushes.length >= FLUSHES_IN_FLIGHT) await flushes.shift();
  }
  await Promise.all(flushes);
  await driver.close();
  await journal.close();
  closeSync(acks);
}

await main();
