// The real server (`src/cli.ts start`) killed with SIGKILL at random moments under concurrent load of every
// write kind, on both runners, then restarted: every acknowledged write is there, nothing unacknowledged is
// half-applied, and the state hash equals an inline replay of the journal (test/support/crash-cycles.ts).
// `npm run soak:crash -- --cycles N` runs the same cycles at length.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCrashCycles } from '../support/crash-cycles.js';

const dirs: string[] = [];
afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

describe('kill -9 of the server under load', () => {
  for (const [runner, seed] of [['threaded', 11], ['inline', 12]] as const) {
    it(`${runner} runner: 5 cycles lose no acknowledged write and leave nothing half-applied`, async () => {
      const dir = await mkdtemp(join(tmpdir(), `ringmatch-kill9-${runner}-`));
      dirs.push(dir);
      const results = await runCrashCycles({ runner, dir, cycles: 5, seed, loadMs: [250, 900], workers: 8 });
      expect(results).toHaveLength(5);
      const kinds = new Set(results.flatMap((r) => Object.keys(r.byKind)));
      for (const k of ['place', 'cancel', 'user', 'sub_account', 'deposit', 'transfer']) expect(kinds, k).toContain(k);
      expect(results.reduce((n, r) => n + r.acked, 0)).toBeGreaterThan(200);
    }, 120_000);
  }
});
