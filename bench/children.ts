/**
 * Child processes of the end-to-end benchmarks (servers, load generators, clients): started with tsx and an
 * IPC channel, pinned to CPUs with `taskset` where the machine has it and two or more cores, awaited message
 * by message with a timeout, and stopped by closing the channel (SIGKILL after a grace period).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';

/** Whether `startChild` pins (taskset present, at least two cores). */
export const PIN = existsSync('/usr/bin/taskset') && os.cpus().length >= 2;

/**
 * The command that runs a TypeScript entry: its compiled sibling (`x.js` beside `x.ts` under dist/, see
 * scripts/ensure-build.mjs) with plain node when there is one, else the source under tsx.
 */
export function nodeCommand(file: string, args: readonly string[] = [], nodeFlags: readonly string[] = []): string[] {
  const js = file.replace(/\.ts$/, '.js');
  return js !== file && existsSync(js) ? [process.execPath, ...nodeFlags, js, ...args] : [process.execPath, ...nodeFlags, '--import', 'tsx', file, ...args];
}

/** Runs `file` (a TypeScript entry, compiled where built) with `args`; `cpus` is a taskset list ("0", "1-3") used when PIN. */
export function startChild(file: string, cpus: string, args: readonly string[] = [], nodeFlags: readonly string[] = []): ChildProcess {
  const node = nodeCommand(file, args, nodeFlags);
  const [cmd, ...rest] = PIN ? ['/usr/bin/taskset', '-c', cpus, ...node] : node;
  return spawn(cmd!, rest, { stdio: ['ignore', 2, 2, 'ipc'] });
}

/** The child's next IPC message passing `pred`; rejects when it exits or `timeoutMs` passes first. */
export function nextMessage<T>(child: ChildProcess, what: string, timeoutMs: number, pred: (m: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${what}: no answer in ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (m: T): void => { if (pred(m)) done(undefined, m); };
    const onExit = (code: number | null): void => done(new Error(`${what}: exited (${code})`));
    function done(err: Error | undefined, m?: T): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err === undefined) resolve(m!);
      else reject(err);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Closes the child's channel (its cue to exit) and waits for it; SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.disconnect();
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(t);
}
