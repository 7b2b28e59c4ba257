// Feeding a command list to the threaded runner the way the runner-equivalence tests do: each command submitted
// in order, a Busy answer (intake full) waits for the runner to drain and submits the same command again, the
// runner pumped and polled after each accepted one. Returns the result codes by position once all completed.
import { Command } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import type { ThreadedEngine } from '../../src/engine/threaded-engine.js';

/**
 * Submits `count` commands, the k-th given by `commandAt(k)` (called again when k is retried after Busy: move a
 * clock there), and resolves with their codes once the runner drained. Throws past `deadlineMs` of wall clock.
 */
export async function submitThreaded(engine: ThreadedEngine, count: number, commandAt: (k: number) => Command,
  deadlineMs: number): Promise<number[]> {
  const got = new Array<number>(count).fill(1);
  const deadline = Date.now() + deadlineMs;
  let i = 0;
  while (i < count) {
    if (Date.now() >= deadline) throw new Error(`threaded replay past ${deadlineMs} ms at command ${i} of ${count}`);
    const k = i;
    if (engine.submit(commandAt(k), (code) => { got[k] = code; }) === ResultCode.Busy) {
      await engine.run();
      continue;
    }
    engine.pump();
    engine.poll();
    i++;
  }
  await engine.run();
  return got;
}

/** `submitThreaded` of fresh copies of recorded commands (a driver's `sent`: the runner stamps what it gets). */
export const replayThreaded = (engine: ThreadedEngine, sent: readonly Command[], deadlineMs: number): Promise<number[]> =>
  submitThreaded(engine, sent.length, (k) => new Command().copyFrom(sent[k]!), deadlineMs);

/** Wraps `d.submit` so every code it answers is pushed onto the returned list (the inline oracle's codes). */
export function recordCodes(d: { submit(c: Command): ResultCode }): number[] {
  const codes: number[] = [];
  const submit = d.submit.bind(d);
  d.submit = (c) => {
    const code = submit(c);
    codes.push(code);
    return code;
  };
  return codes;
}
