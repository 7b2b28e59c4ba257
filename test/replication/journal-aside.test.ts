// A node of the replicated log moves its local journal aside at every start and step-down (it is never
// replayed: the stream is the truth). Retention: the two newest journals moved aside are kept with their
// segments; older ones are deleted; two moves in the same millisecond never share a directory.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor } from '../../src/engine/recovery.js';
import { ASIDE_KEPT, journalsAside, moveJournalAside } from '../../src/engine/replication/bootstrap.js';
import { simulatorSetup } from '../../src/sim/simulator-setup.js';
import { TEST_CONFIG } from '../api/http-helpers.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-aside-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const header = headerFor(simulatorSetup(TEST_CONFIG).definition, 0);

describe('journals moved aside', () => {
  it('keeps the newest two, each whole, and deletes the older ones', async () => {
    const path = join(dir, 'node.journal');
    const lines: string[] = [];
    const moved: string[] = [];
    for (let i = 0; i < 5; i++) {
      const j = await JournalWriter.open(path, header, { fsync: 'never' });
      await j.close();
      await moveJournalAside(path, (m) => lines.push(m));
      moved.push(/aside to (\S+);/.exec(lines.filter((l) => l.includes('aside to')).at(-1)!)![1]!);
    }
    expect(new Set(moved).size).toBe(5);
    const kept = await journalsAside(path);
    expect(kept).toEqual(moved.slice(-ASIDE_KEPT));
    for (const d of kept) expect(await readdir(d)).toEqual([basename(path)]);
    expect(lines.filter((l) => l.includes('deleted'))).toHaveLength(5 - ASIDE_KEPT);
    expect((await readdir(dir)).filter((n) => n.startsWith('node.journal')).sort()).toEqual(kept.map((d) => basename(d)).sort());
    // No journal: nothing moved, nothing deleted.
    await moveJournalAside(path, (m) => lines.push(m));
    expect(await journalsAside(path)).toEqual(kept);
  });
});
