// The pipelined journal reader against readJournal, its definition: through the decode worker and its ring,
// the same records (every field, text and front records of any length, groups handed out whole) in the same
// order with the same file offsets, and the same report, for a whole file, a torn tail and a corrupt frame;
// many more records than the ring has slots (the worker waits for the reader); an exception of the reader's
// callback rejects and stops the worker.
import { readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Command } from '../../../src/core/command.js';
import { Prng } from '../../../src/core/prng.js';
import { readJournalPipelined } from '../../../src/engine/journal/pipelined-reader.js';
import { readJournal } from '../../../src/engine/journal/reader.js';
import { JournalWriter } from '../../../src/engine/journal/writer.js';
import { randomCommand } from '../../protocol/random-command.js';
import { HEADER, recordOffsets, tempDirs } from './journal-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const RECORDS = ['', '', '', '{"k":"v"}', 'é🔑'.repeat(70), 'r'.repeat(1000)];

/** `n` seeded commands (a few with long front records, some in groups of 2–4), flushed every 512. */
async function write(file: string, n: number): Promise<void> {
  const w = await JournalWriter.open(file, HEADER, { fsync: 'never' });
  const r = new Prng(5);
  const c = new Command();
  let groupLeft = 0;
  for (let i = 0; i < n; i++) {
    randomCommand(r, c);
    c.seq = i + 1;
    c.record = RECORDS[r.nextInt(RECORDS.length)]!;
    if (groupLeft === 0 && r.chance(0.02)) groupLeft = 1 + r.nextInt(3);
    const continues = groupLeft > 0;
    if (groupLeft > 0) groupLeft--;
    w.append(c, continues && i < n - 1);
    if ((i + 1) % 512 === 0) await w.flush();
  }
  await w.close();
}

type Seen = { cmds: Record<string, unknown>[]; ends: number[] };

async function both(file: string): Promise<{ plain: Seen & { report: unknown }; piped: Seen & { report: unknown } }> {
  const collect = (): Seen & { on: (c: Command, end: number) => void } => {
    const s = { cmds: [] as Record<string, unknown>[], ends: [] as number[], on: (c: Command, end: number) => { s.cmds.push({ ...c }); s.ends.push(end); } };
    return s;
  };
  const a = collect();
  const b = collect();
  const ra = await readJournal(file, a.on);
  const rb = await readJournalPipelined(file, b.on);
  return { plain: { cmds: a.cmds, ends: a.ends, report: ra }, piped: { cmds: b.cmds, ends: b.ends, report: rb } };
}

describe('pipelined journal reader', () => {
  it('hands out what readJournal does for 40,000 records (far more slots than the ring holds)', async () => {
    const file = path.join(await dirs.make(), 'j.log');
    await write(file, 40_000);
    const { plain, piped } = await both(file);
    expect(plain.cmds).toHaveLength(40_000);
    expect(piped.report).toEqual(plain.report);
    expect(piped.ends).toEqual(plain.ends);
    expect(piped.cmds).toEqual(plain.cmds);
    expect(plain.cmds.some((c) => (c.record as string).length === 1000)).toBe(true);
  });

  it('reports a torn tail and a corrupt frame as readJournal does, with the same records before them', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'j.log');
    await write(file, 3000);
    const bytes = new Uint8Array(await readFile(file));
    const { offsets } = recordOffsets(bytes);
    await truncate(file, offsets[2500]! + 7);
    const torn = await both(file);
    expect((torn.plain.report as { reason?: string }).reason).toBeDefined();
    expect(torn.piped.report).toEqual(torn.plain.report);
    expect(torn.piped.cmds).toEqual(torn.plain.cmds);
    const corrupt = path.join(dir, 'c.log');
    const copy = bytes.slice();
    copy[offsets[1200]! + 12]! ^= 0xff;
    await writeFile(corrupt, copy);
    const bad = await both(corrupt);
    expect((bad.plain.report as { reason?: string }).reason).toBe('checksum');
    expect(bad.piped.report).toEqual(bad.plain.report);
    expect(bad.piped.cmds).toEqual(bad.plain.cmds);
  });

  it('rejects with the callback\'s exception and stops the worker', async () => {
    const file = path.join(await dirs.make(), 'j.log');
    await write(file, 30_000);
    let seen = 0;
    await expect(readJournalPipelined(file, () => {
      if (++seen === 20_000) throw new Error('stop here');
    })).rejects.toThrow('stop here');
    expect(seen).toBe(20_000);
  });
});
