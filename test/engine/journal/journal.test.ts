import { readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Command } from '../../../src/core/command.js';
import { Prng } from '../../../src/core/prng.js';
import { JournalFormatError } from '../../../src/engine/journal/format.js';
import { readJournal, repairJournal } from '../../../src/engine/journal/reader.js';
import { JournalWriter } from '../../../src/engine/journal/writer.js';
import type { FsyncPolicy } from '../../../src/engine/journal/writer.js';
import { randomCommand } from '../../protocol/random-command.js';
import { HEADER, recordOffsets, tempDirs } from './journal-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const plain = (c: Command): Record<string, unknown> => ({ ...c });

/** Writes `n` seeded random commands (flushing every `batch`); returns them as plain objects. */
async function writeRandom(file: string, n: number, policy: FsyncPolicy, seed = 1, batch = 256): Promise<Record<string, unknown>[]> {
  const w = await JournalWriter.open(file, HEADER, policy);
  const r = new Prng(seed);
  const cmd = new Command();
  const written: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    randomCommand(r, cmd);
    cmd.seq = i + 1;
    w.append(cmd);
    written.push(plain(cmd));
    if ((i + 1) % batch === 0) await w.flush();
  }
  await w.close();
  return written;
}

async function readAll(file: string, chunkBytes?: number): Promise<{ cmds: Record<string, unknown>[]; report: Awaited<ReturnType<typeof readJournal>> }> {
  const cmds: Record<string, unknown>[] = [];
  const report = await readJournal(file, (c) => cmds.push(plain(c)), chunkBytes === undefined ? {} : { chunkBytes });
  return { cmds, report };
}

describe('journal write/read', () => {
  const policies: FsyncPolicy[] = [{ fsync: 'batch' }, { fsync: 'interval', everyMs: 5 }, { fsync: 'never' }];
  for (const policy of policies) {
    it(`round-trips 100k random commands with fsync ${policy.fsync}`, async () => {
      const file = path.join(await dirs.make(), 'j.log');
      const written = await writeRandom(file, 100_000, policy, 42, policy.fsync === 'batch' ? 2048 : 256);
      const { cmds, report } = await readAll(file);
      expect(report.truncatedAt).toBeUndefined();
      expect(report.reason).toBeUndefined();
      expect(report.records).toBe(100_000);
      expect(report.validBytes).toBe(report.fileBytes);
      expect(report.header).toStrictEqual(HEADER);
      expect(cmds).toEqual(written);
    });
  }

  it('reads the same with tiny chunks and records larger than a chunk', async () => {
    const file = path.join(await dirs.make(), 'j.log');
    const w = await JournalWriter.open(file, HEADER, { fsync: 'never' });
    const r = new Prng(9);
    const cmd = new Command();
    const written: Record<string, unknown>[] = [];
    for (let i = 0; i < 300; i++) {
      randomCommand(r, cmd);
      if (i % 7 === 0) cmd.text = 't-' + 'y'.repeat(i * 3);
      w.append(cmd);
      written.push(plain(cmd));
    }
    await w.close();
    const { cmds, report } = await readAll(file, 64);
    expect(report.reason).toBeUndefined();
    expect(cmds).toEqual(written);
  });

  it('batch: flush resolves only once the records can be read back from the file', async () => {
    const file = path.join(await dirs.make(), 'j.log');
    const w = await JournalWriter.open(file, HEADER, { fsync: 'batch' });
    const r = new Prng(4);
    const cmd = new Command();
    for (let round = 1; round <= 5; round++) {
      for (let i = 0; i < 100; i++) w.append(randomCommand(r, cmd));
      await w.flush();
      expect(w.durable).toBe(round * 100);
      const { report } = await readAll(file);
      expect(report.records).toBe(round * 100);
      expect(report.reason).toBeUndefined();
    }
    await w.close();
  });

  it('interval: a flush resolves once written; syncs run in the background at most once per interval', async () => {
    const file = path.join(await dirs.make(), 'j.log');
    const w = await JournalWriter.open(file, HEADER, { fsync: 'interval', everyMs: 60 });
    const cmd = new Command();
    const seen: number[] = [];
    w.watch({ durable: (seq) => seen.push(seq), failed: () => undefined });
    cmd.seq = 1;
    w.append(cmd);
    await w.flush();
    expect((await readAll(file)).report.records).toBe(1);
    expect(w.durableSeq).toBe(1);
    const t0 = performance.now();
    cmd.seq = 2;
    w.append(cmd);
    const a = w.flush();
    cmd.seq = 3;
    w.append(cmd);
    const b = w.flush();
    await Promise.all([a, b]);
    // Written (readable) without waiting for the next permitted sync…
    expect(performance.now() - t0).toBeLessThan(55);
    expect(w.durable).toBe(3);
    expect((await readAll(file)).report.records).toBe(3);
    expect(seen.at(-1)).toBe(3);
    // …which follows in the background, within the interval.
    const deadline = performance.now() + 2_000;
    while (w.synced < 3 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(w.synced).toBe(3);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(50);
    await w.close();
  });

  for (const fsync of ['batch', 'never'] as const) {
    it(`${fsync}: appended records reach the file within an event-loop turn or two, with no flush asked`, async () => {
      const file = path.join(await dirs.make(), 'j.log');
      const w = await JournalWriter.open(file, HEADER, { fsync });
      const cmd = new Command();
      const seen: number[] = [];
      w.watch({ durable: (seq) => seen.push(seq), failed: () => undefined });
      for (let i = 1; i <= 50; i++) {
        cmd.seq = i;
        w.append(cmd);
      }
      expect(w.appendedSeq).toBe(50);
      const deadline = performance.now() + 5_000;
      while (w.durableSeq < 50 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      expect(w.durableSeq).toBe(50);
      expect(seen.at(-1)).toBe(50);
      expect((await readAll(file)).report.records).toBe(50);
      await w.close();
    });
  }

  it('flush with nothing appended resolves at once; appending after close throws', async () => {
    const file = path.join(await dirs.make(), 'j.log');
    const w = await JournalWriter.open(file, HEADER, { fsync: 'batch' });
    await w.flush();
    await w.close();
    expect(() => w.append(new Command())).toThrow();
    const { report } = await readAll(file);
    expect(report.records).toBe(0);
    expect(report.validBytes).toBe(report.fileBytes);
  });
});

describe('journal damage', () => {
  it('a torn tail at every byte offset of the last record yields exactly the records before it', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'j.log');
    const written = await writeRandom(file, 40, { fsync: 'never' }, 5);
    const bytes = await readFile(file);
    const { offsets } = recordOffsets(bytes);
    const last = offsets[offsets.length - 1]!;
    expect(offsets).toHaveLength(40);
    const cut = path.join(dir, 'cut.log');
    for (let size = last; size < bytes.length; size++) {
      await writeFile(cut, bytes.subarray(0, size));
      const { cmds, report } = await readAll(cut);
      expect(report.records).toBe(39);
      expect(cmds).toEqual(written.slice(0, 39));
      expect(report.validBytes).toBe(last);
      if (size > last) {
        expect(report.truncatedAt).toBe(last);
        expect(report.reason).toBe('torn');
      } else {
        expect(report.truncatedAt).toBeUndefined();
      }
    }
  });

  it('a group is all or nothing: cut anywhere inside the last group, the log ends before it', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'g.log');
    const w = await JournalWriter.open(file, HEADER, { fsync: 'never' });
    const r = new Prng(21);
    const cmd = new Command();
    const written: Record<string, unknown>[] = [];
    // 10 single records, a group of 3, 5 singles, then a last group of 4.
    const shape = [...Array<number>(10).fill(1), 3, ...Array<number>(5).fill(1), 4];
    let seq = 0;
    for (const size of shape) {
      for (let i = 0; i < size; i++) {
        randomCommand(r, cmd);
        cmd.seq = ++seq;
        w.append(cmd, i < size - 1);
        written.push(plain(cmd));
      }
      if (size > 1) expect(w.appendedSeq).toBe(seq);
    }
    await w.close();
    expect(w.durableSeq).toBe(seq);
    const bytes = await readFile(file);
    const { offsets } = recordOffsets(bytes);
    expect(offsets).toHaveLength(22);
    const whole = await readAll(file);
    expect(whole.cmds).toEqual(written);
    expect(whole.report.reason).toBeUndefined();
    const groupStart = offsets[18]!;
    const cut = path.join(dir, 'gcut.log');
    for (let size = groupStart; size < bytes.length; size++) {
      await writeFile(cut, bytes.subarray(0, size));
      const { cmds, report } = await readAll(cut, 64);
      expect(report.records).toBe(18);
      expect(cmds).toEqual(written.slice(0, 18));
      expect(report.validBytes).toBe(groupStart);
      if (size > groupStart) {
        expect(report.truncatedAt).toBe(groupStart);
        expect(report.reason === 'group' || report.reason === 'torn').toBe(true);
        if (size >= offsets[19]!) expect(report.reason).toBe('group');
      }
    }
    // A repair cuts the half group away, and appending goes on after the last whole record.
    await writeFile(cut, bytes.subarray(0, offsets[20]! + 5));
    expect((await repairJournal(cut)).truncatedAt).toBe(groupStart);
    expect((await readFile(cut)).length).toBe(groupStart);
  });

  it('durableSeq never stops inside a group: a write that ends mid-group releases nothing of it', async () => {
    const file = path.join(await dirs.make(), 'd.log');
    const w = await JournalWriter.open(file, HEADER, { fsync: 'batch' });
    const cmd = new Command();
    cmd.seq = 1; w.append(cmd);
    cmd.seq = 2; w.append(cmd, true);
    await w.flush();
    expect(w.durable).toBe(2);
    expect(w.durableSeq).toBe(1);
    cmd.seq = 3; w.append(cmd);
    await w.flush();
    expect(w.durableSeq).toBe(3);
    await w.close();
  });

  it('a flipped payload byte is caught by the checksum and the log is cut there', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'j.log');
    const written = await writeRandom(file, 200, { fsync: 'never' }, 6);
    const bytes = await readFile(file);
    const { offsets } = recordOffsets(bytes);
    const r = new Prng(8);
    for (let trial = 0; trial < 30; trial++) {
      const k = r.nextInt(offsets.length);
      const start = offsets[k]!;
      const end = offsets[k + 1] ?? bytes.length;
      const at = start + 8 + r.nextInt(end - start - 8);
      const copy = Uint8Array.from(bytes);
      copy[at] = copy[at]! ^ (1 << r.nextInt(8));
      const bad = path.join(dir, `bad-${trial}.log`);
      await writeFile(bad, copy);
      const { cmds, report } = await readAll(bad);
      expect(report.reason).toBe('checksum');
      expect(report.truncatedAt).toBe(start);
      expect(report.records).toBe(k);
      expect(cmds).toEqual(written.slice(0, k));
    }
  });

  it('a zero-filled tail (length 0) is reported as bad-length', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'j.log');
    await writeRandom(file, 10, { fsync: 'never' }, 2);
    const bytes = await readFile(file);
    await writeFile(file, Buffer.concat([bytes, Buffer.alloc(4096)]));
    const { report } = await readAll(file);
    expect(report.records).toBe(10);
    expect(report.reason).toBe('bad-length');
    expect(report.truncatedAt).toBe(bytes.length);
  });

  it('repairJournal cuts the torn tail; appends then continue and everything reads back', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'j.log');
    const first = await writeRandom(file, 1000, { fsync: 'batch' }, 10);
    const bytes = await readFile(file);
    const { offsets } = recordOffsets(bytes);
    await truncate(file, offsets[999]! + 5);
    const report = await repairJournal(file);
    expect(report.reason).toBe('torn');
    expect(report.records).toBe(999);
    expect((await readFile(file)).length).toBe(offsets[999]);
    const second = await writeRandom(file, 500, { fsync: 'batch' }, 11);
    const { cmds, report: after } = await readAll(file);
    expect(after.reason).toBeUndefined();
    expect(after.records).toBe(1499);
    expect(cmds).toEqual([...first.slice(0, 999), ...second]);
    expect(after.header).toStrictEqual(HEADER);
    expect((await repairJournal(file)).truncatedAt).toBeUndefined();
  });

  it('an untrustworthy beginning throws JournalFormatError', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'j.log');
    await writeRandom(file, 3, { fsync: 'never' });
    const bytes = await readFile(file);
    const cases: Uint8Array[] = [bytes.subarray(0, 5), bytes.subarray(0, 20)];
    const badMagic = Uint8Array.from(bytes); badMagic[0] = 0;
    const badHeader = Uint8Array.from(bytes); badHeader[20] = badHeader[20]! ^ 1;
    cases.push(badMagic, badHeader);
    for (const [i, c] of cases.entries()) {
      const f = path.join(dir, `bad-${i}.log`);
      await writeFile(f, c);
      await expect(readJournal(f)).rejects.toThrow(JournalFormatError);
      await expect(JournalWriter.open(f, HEADER, { fsync: 'never' })).rejects.toThrow(JournalFormatError);
    }
  });
});
