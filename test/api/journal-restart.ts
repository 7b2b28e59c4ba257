// Shared by the journal-restart route tests (futures, delivery, options): a run of writes on one simulator whose
// engine journals to a file, then a second simulator started on the same config (so it recovers from that
// journal) must answer the same reads, state hash included.
import { join } from 'node:path';
import { expect } from 'vitest';
import { startSimulator, type Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import type { Call, J } from './futures-helpers.js';

export type Runner = 'threaded' | 'inline';

/** `base` with `runner` journaling (fsync batch) to `${runner}.journal` under `dir`. */
export const journaledConfig = (base: SimulatorConfig, runner: Runner, dir: string): SimulatorConfig =>
  ({ ...base, engine: { runner, journal: join(dir, `${runner}.journal`), fsync: 'batch' } });

/** Awaits a write and expects a 2xx answer (its body in the failure message). */
export async function expectOk(p: Promise<{ status: number; body: unknown }>): Promise<void> {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
}

/**
 * Adds to `out` the body of GET each of `paths` (`path?query`) for users k1 and k2, keyed `k1 path`; `pick`
 * keeps what of a body a restart must reproduce (default all of it).
 */
export async function readPaths(call: Call, paths: readonly string[], out: J,
  pick: (path: string, body: J & J[]) => unknown = (_p, body) => body): Promise<J> {
  for (const who of [['k1', 's1'], ['k2', 's2']] as [string, string][]) {
    for (const path of paths) {
      const [p, q] = path.split('?') as [string, string | undefined];
      out[`${who[0]} ${path}`] = pick(p, (await call('GET', p, { query: q, key: who })).body);
    }
  }
  return out;
}

/**
 * Starts a simulator on `config` (127.0.0.1), runs `writes` and takes `read`; closes it; starts another on the
 * same config and expects `read` to answer the same. Returns the first reading.
 */
export async function expectSameAfterRestart(config: SimulatorConfig, writes: (sim: Simulator) => Promise<void>,
  read: (sim: Simulator) => Promise<J>): Promise<J> {
  const first = await startSimulator(config, { host: '127.0.0.1', port: 0 });
  let before: J;
  try {
    await writes(first);
    before = await read(first);
  } finally {
    await first.close();
  }
  const again = await startSimulator(config, { host: '127.0.0.1', port: 0 });
  try {
    expect(await read(again)).toEqual(before);
  } finally {
    await again.close();
  }
  return before;
}
