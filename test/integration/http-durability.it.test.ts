// Replies wait for the journal: under every fsync policy and on both runners, the moment a write's reply
// arrives its command is already in the journal file (read back independently); a market maker's commands
// reach the file with no reply to wait on; the journal file is private (0600). A journal whose file handle
// fails mid-run stops intake: writes answer 503 TOO_BUSY (JournalFailed), reads keep working, health says
// why, and a restart recovers exactly what was durable.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandType } from '../../src/core/command.js';
import { readJournal } from '../../src/engine/journal/reader.js';
import type { Simulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch, signedFetch, startTestSimulator } from '../api/http-helpers.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-durability-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const CLOCK = { type: 'sim', start_ms: Date.UTC(2026, 3, 1) } as const;
type J = Record<string, unknown>;

const order = (s: Simulator, body: J) =>
  signedFetch(s.server.port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify({ currency_pair: 'BTC_USDT', ...body }) });

/** The texts of the PlaceOrder records in the journal file, as a reader of the file sees them now. */
async function journaledTexts(path: string): Promise<string[]> {
  const texts: string[] = [];
  await readJournal(path, (c) => { if (c.type === CommandType.PlaceOrder) texts.push(c.text); });
  return texts;
}

describe('replies wait for the journal', () => {
  for (const runner of ['inline', 'threaded'] as const) {
    for (const fsync of ['batch', 'never', 20] as const) {
      it(`${runner} runner, fsync ${fsync}: every acknowledged order is in the file when its reply arrives`, async () => {
        const path = join(dir, `${runner}-${fsync}.journal`);
        const sim = await startTestSimulator({ clock: CLOCK, engine: { runner, journal: path, fsync } });
        try {
          expect((await stat(path)).mode & 0o777).toBe(0o600);
          // Concurrent writers: each checks the file the moment its own reply arrives.
          await Promise.all(Array.from({ length: 8 }, async (_, w) => {
            for (let i = 0; i < 6; i++) {
              const text = `t-w${w}-${i}`;
              const r = await order(sim, { side: i % 2 === 0 ? 'buy' : 'sell', amount: '0.001', price: i % 2 === 0 ? '50000' : '70000', text });
              expect(r.status).toBe(201);
              expect(await journaledTexts(path)).toContain(text);
            }
          }));
        } finally {
          await sim.close();
        }
      });
    }
  }

  it('commands no one replies to (the market maker) reach the file without a request', async () => {
    const path = join(dir, 'mm.journal');
    const config: Partial<SimulatorConfig> = {
      engine: { journal: path },
      users: [{ uid: 10000, balances: { spot: { USDT: '1000000', BTC: '100' } } }, { uid: 9999, balances: { spot: { USDT: '1000000', BTC: '10' } } }],
      market_maker: { uid: 10000, taker_uid: 9999, seed: 3, markets: [{ market: 'BTC_USDT', price: '60000', size: '0.01' }] },
    };
    const sim = await startTestSimulator(config);
    try {
      const deadline = Date.now() + 10_000;
      let places = 0;
      while (places === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        places = (await journaledTexts(path)).length;
      }
      expect(places).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });
});

describe('a journal that fails mid-run', () => {
  for (const runner of ['inline', 'threaded'] as const) {
    it(`${runner} runner: stops writes with 503, keeps reads, says why, and restarts from what was durable`, async () => {
      const path = join(dir, `fail-${runner}.journal`);
      const config: Partial<SimulatorConfig> = { clock: CLOCK, engine: { runner, journal: path, fsync: 'batch' } };
      const sim = await startTestSimulator(config);
      let durableHash: string;
      try {
        expect((await order(sim, { side: 'sell', amount: '0.01', price: '61000', text: 't-before' })).status).toBe(201);
        durableHash = ((await plainFetch(sim.server.port, '/sim/state_hash')).body as J).state_hash as string;
        const errors: unknown[] = [];
        const log = console.error;
        console.error = (...a: unknown[]) => { errors.push(a); };
        try {
          sim.gateway.journal!.failNextIoForTesting('ENOSPC');
          const refused = await order(sim, { side: 'sell', amount: '0.01', price: '62000', text: 't-lost' });
          expect(refused.status).toBe(503);
          expect(refused.body).toMatchObject({ label: 'TOO_BUSY' });
          expect((refused.body as J).message).toMatch(/journal/);
          const later = await order(sim, { side: 'sell', amount: '0.01', price: '63000', text: 't-after' });
          expect(later.status).toBe(503);
          expect((later.body as J).message).toMatch(/journal/);
        } finally {
          console.error = log;
        }
        expect(errors.some((e) => /ENOSPC/.test(String(e)) && String(e).includes(path))).toBe(true);
        // Reads keep working.
        const book = await plainFetch(sim.server.port, '/api/v4/spot/order_book?currency_pair=BTC_USDT');
        expect(book.status).toBe(200);
        const accounts = await signedFetch(sim.server.port, { path: '/api/v4/spot/accounts', query: 'currency=BTC' });
        expect(accounts.status).toBe(200);
        const health = await plainFetch(sim.server.port, '/sim/health');
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({ status: 'stopped', label: 'TOO_BUSY' });
        expect((health.body as J).reason).toMatch(/ENOSPC/);
        expect(((health.body as J).journal as J).failure).toMatch(/ENOSPC/);
        expect((await plainFetch(sim.server.port, '/sim/state_hash')).status).toBe(503);
      } finally {
        await sim.close();
      }
      expect(await journaledTexts(path)).toEqual(['t-before']);
      const again = await startTestSimulator(config);
      try {
        expect(((await plainFetch(again.server.port, '/sim/state_hash')).body as J).state_hash).toBe(durableHash);
        expect((await plainFetch(again.server.port, '/sim/health')).status).toBe(200);
        expect((await order(again, { side: 'sell', amount: '0.01', price: '64000', text: 't-restarted' })).status).toBe(201);
      } finally {
        await again.close();
      }
    });
  }
});
