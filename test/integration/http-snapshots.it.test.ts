// Snapshots and restart in the server: a journaled simulator takes snapshots while it runs and rotates its
// journal into segments; a restart (either runner, from a snapshot either runner took) loads the newest
// snapshot and replays only what follows, ending at the state hash of before; a corrupt snapshot is skipped
// for an older one; with prune_journal the covered segments go and both the restart and the replay tool
// still work from the snapshot. A journal cut at every byte of its last record restarts to exactly the
// records before the cut.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import { recoverFromJournal } from '../../src/engine/recovery.js';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch, signedFetch, startTestSimulator } from '../api/http-helpers.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-snapshots-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

type J = Record<string, unknown>;
const CLOCK = { type: 'sim', start_ms: Date.UTC(2026, 3, 1) } as const;
const hashOf = async (s: Simulator): Promise<string> => ((await plainFetch(s.server.port, '/sim/state_hash')).body as J).state_hash as string;
const book = async (s: Simulator): Promise<unknown> => (await plainFetch(s.server.port, '/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=50')).body;

/** Places resting orders and cancels some, from two users, 4 at a time. */
async function trade(s: Simulator, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i += 4) {
    await Promise.all([0, 1, 2, 3].map(async (k) => {
      const j = i + k;
      const buy = j % 2 === 0;
      const [key, secret] = buy ? ['k2', 's2'] : ['k1', 's1'];
      const body = { currency_pair: 'BTC_USDT', side: buy ? 'buy' : 'sell', amount: '0.001', price: String(buy ? 50_000 - (j % 50) : 70_000 + (j % 50)), text: `t-o${j}` };
      const r = await signedFetch(s.server.port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify(body), key, secret });
      expect(r.status).toBe(201);
      if (j % 3 === 0) {
        const c = await signedFetch(s.server.port, { method: 'DELETE', path: `/api/v4/spot/orders/t-o${j}`, query: 'currency_pair=BTC_USDT', key, secret });
        expect(c.status).toBe(200);
      }
    }));
  }
}

async function waitForSnapshots(s: Simulator, n: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  const snapDir = `${(s.config.engine as { journal: string }).journal}.snapshots`;
  for (;;) {
    const files = await readdir(snapDir).catch(() => [] as string[]);
    if (files.filter((f) => f.endsWith('.rms')).length >= n && s.snapshots?.last !== undefined) return;
    if (Date.now() > deadline) throw new Error('no snapshot in 20 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const segmentsOf = async (d: string, base: string): Promise<string[]> => (await readdir(d)).filter((f) => f.startsWith(`${base}.`) && /\.\d{16}$/.test(f)).sort();

describe('snapshots and restart in the server', () => {
  for (const [taker, restarter] of [['threaded', 'inline'], ['inline', 'threaded']] as const) {
    it(`a snapshot the ${taker} runner took restarts the ${restarter} one at the same state, replaying only the tail`, async () => {
      const d = join(dir, `${taker}-${restarter}`);
      await mkdir(d);
      const journal = join(d, 'x.journal');
      const config = (runner: string): Partial<SimulatorConfig> => ({ clock: CLOCK,
        engine: { runner: runner as 'inline', journal, snapshots: { every_commands: 120, every_seconds: 0, keep: 2 } } });
      const first = await startTestSimulator(config(taker));
      let hash: string;
      let depth: unknown;
      try {
        await trade(first, 200);
        await waitForSnapshots(first, 1);
        await trade(first, 120, 200);
        await waitForSnapshots(first, 2);
        await trade(first, 24, 320);
        hash = await hashOf(first);
        depth = await book(first);
      } finally {
        await first.close();
      }
      expect((await readdir(`${journal}.snapshots`)).filter((f) => f.endsWith('.rms')).length).toBe(2);
      expect((await segmentsOf(d, 'x.journal')).length).toBeGreaterThanOrEqual(2);
      const again = await startTestSimulator(config(restarter));
      try {
        expect(again.restart?.snapshotSeq).toBeGreaterThan(300);
        expect(again.restart?.replayed).toBeGreaterThan(0);
        expect(again.restart!.replayed).toBeLessThan(again.restart!.lastSeq - 300);
        expect(await hashOf(again)).toBe(hash);
        expect(await book(again)).toEqual(depth);
        // Carries on: orders still place and the journal still replays to the live hash.
        await trade(again, 8, 400);
        hash = await hashOf(again);
      } finally {
        await again.close();
      }
      expect((await replayJournal(journal)).report.state_hash).toBe(hash);
      expect((await replayJournal(d)).report.state_hash).toBe(hash);
    });
  }

  it('skips a corrupt snapshot for an older one; with prune_journal, restart and replay start from a snapshot', async () => {
    const d = join(dir, 'prune');
    await mkdir(d);
    const journal = join(d, 'p.journal');
    const config: Partial<SimulatorConfig> = { clock: CLOCK, engine: { runner: 'inline', journal,
      snapshots: { every_commands: 100, every_seconds: 0, keep: 2, prune_journal: true } } };
    const first = await startTestSimulator(config);
    let hash: string;
    try {
      for (let k = 0; k < 4; k++) {
        await trade(first, 100, k * 100);
        await waitForSnapshots(first, Math.min(2, k + 1));
      }
      await trade(first, 12, 500);
      hash = await hashOf(first);
    } finally {
      await first.close();
    }
    const segments = await segmentsOf(d, 'p.journal');
    expect(segments[0]).not.toBe(`p.journal.${'1'.padStart(16, '0')}`);
    const snaps = (await readdir(`${journal}.snapshots`)).filter((f) => f.endsWith('.rms')).sort();
    expect(snaps.length).toBe(2);
    // The newest snapshot is damaged: the older one (which the remaining segments still follow) is used.
    const newest = join(`${journal}.snapshots`, snaps.at(-1)!);
    const bytes = await readFile(newest);
    bytes[bytes.length >> 1]! ^= 0xff;
    await writeFile(newest, bytes);
    const logged: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => { logged.push(a.map(String).join(' ')); };
    try {
      const again = await startTestSimulator(config);
      try {
        expect(await hashOf(again)).toBe(hash);
      } finally {
        await again.close();
      }
    } finally {
      console.warn = warn;
    }
    expect(logged.join('\n')).toMatch(/skipping snapshot .*checksum/);
    expect((await replayJournal(journal)).report.state_hash).toBe(hash);
    // With every snapshot gone, the pruned journal cannot be replayed alone: start-up says so.
    await rm(`${journal}.snapshots`, { recursive: true });
    await expect(startTestSimulator(config)).rejects.toThrow(/no usable snapshot covers/);
  });

  it('a journal cut at every byte of its last record restarts to exactly the records before the cut', async () => {
    const d = join(dir, 'torn');
    await mkdir(d);
    const journal = join(d, 't.journal');
    const config: Partial<SimulatorConfig> = { clock: CLOCK, engine: { runner: 'inline', journal, snapshots: false } };
    const first = await startTestSimulator(config);
    try {
      await trade(first, 40);
    } finally {
      await first.close();
    }
    const bytes = await readFile(journal);
    const whole = await recoverFromJournal(journal);
    const cutPath = join(d, 'cut.journal');
    // The last record's frame: find where the journal's valid prefix without it ends.
    let lastStart = bytes.length - 1;
    for (; lastStart > 0; lastStart--) {
      await writeFile(cutPath, bytes.subarray(0, lastStart));
      const r = await recoverFromJournal(cutPath);
      if (r.report.records === whole.report.records - 1 && r.report.truncatedAt === undefined) break;
    }
    const before = (await recoverFromJournal(cutPath)).engine.stateHash();
    for (let size = lastStart; size < bytes.length; size += size < lastStart + 16 ? 1 : 5) {
      await writeFile(cutPath, bytes.subarray(0, size));
      const s = await startTestSimulator({ ...config, engine: { runner: 'inline', journal: cutPath, snapshots: false } });
      try {
        expect(await hashOf(s), `cut at ${size}`).toBe(before);
      } finally {
        await s.close();
      }
    }
  });
});
