// What the fronts keep beside the ledger survives a restart of a journaled server, on both runners, after a
// graceful close and after SIGKILL: price triggers (fired, failed, cancelled one by one and all at once,
// expired, open), countdown cancel timers (run out, disarmed, armed), the margin auto_repay preference and a
// moved simulated clock. After the restart every read route answers exactly as before, the state hash is the
// one before and the one `npm run replay` reaches from the file; open triggers still fire (once) and expire,
// armed countdowns still run out when the clock passes them, and trigger ids continue.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch, signedFetch, startTestSimulator } from '../api/http-helpers.js';

const CHILD = fileURLToPath(new URL('../support/sim-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLOCK = { type: 'sim', start_ms: Date.UTC(2026, 6, 1) } as const;

type J = Record<string, unknown>;
type Res = { status: number; body: J & J[] };
const ALICE: [string, string] = ['k1', 's1'];
const BOB: [string, string] = ['k2', 's2'];

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-front-records-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** The routes of one server, by port. */
function client(port: number) {
  const call = async (method: string, path: string, body?: unknown, query = '', key = ALICE): Promise<Res> =>
    await signedFetch(port, { method, path: `/api/v4${path}`, query, body: body === undefined ? '' : JSON.stringify(body), key: key[0], secret: key[1] }) as Res;
  const sim = async (path: string, body?: unknown): Promise<Res> => await plainFetch(port, path, body === undefined ? undefined
    : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }) as Res;
  const ok = async (r: Promise<Res>, status = 200): Promise<J & J[]> => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  /** A trade at `price` on BTC_USDT: alice sells 0.001, bob takes it. */
  const tradeAt = async (price: string): Promise<void> => {
    await ok(call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'sell', amount: '0.001', price }), 201);
    const buy = await ok(call('POST', '/spot/orders', { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price, time_in_force: 'ioc' }, '', BOB), 201);
    expect(buy.finish_as).toBe('filled');
  };
  const trigger = async (market: string, price: string, rule: string, put: J, expiration = 0, key = ALICE): Promise<number> =>
    (await ok(call('POST', '/spot/price_orders', { market, trigger: { price, rule, expiration },
      put: { type: 'limit', account: 'normal', time_in_force: 'gtc', ...put } }, '', key), 201)).id as number;
  const order = async (key: [string, string], pair: string, side: string, price: string, amount: string, text: string): Promise<void> => {
    await ok(call('POST', '/spot/orders', { currency_pair: pair, side, price, amount, text }, '', key), 201);
  };
  const countdown = async (key: [string, string], timeout: number, pair?: string): Promise<number> =>
    (await ok(call('POST', '/spot/countdown_cancel_all', { timeout, ...(pair === undefined ? {} : { currency_pair: pair }) }, '', key))).triggerTime as number;
  const advance = async (ms: number): Promise<void> => { await ok(sim('/sim/clock', { advance_ms: ms })); };
  const hash = async (): Promise<string> => (await ok(sim('/sim/state_hash'))).state_hash as string;
  const openTexts = async (key: [string, string], pair: string): Promise<string[]> =>
    (await ok(call('GET', '/spot/orders', undefined, `status=open&currency_pair=${pair}`, key))).map((o) => o.text as string);
  return { call, ok, tradeAt, trigger, order, countdown, advance, hash, openTexts };
}

interface Made {
  /** Ids of alice's triggers by role. */
  readonly ids: Record<'fired' | 'failed' | 'cancelled' | 'cancelledAll' | 'expired' | 'fallsLater' | 'expiresLater', number>;
  readonly bobOpen: number;
}

/** Every kind of front state, reached through the routes (the same calls whichever process serves them). */
async function populate(port: number): Promise<Made> {
  const c = client(port);
  await c.tradeAt('60000');
  const fired = await c.trigger('BTC_USDT', '61000', '>=', { side: 'sell', price: '65000', amount: '0.001', text: 't-fired' });
  const failed = await c.trigger('BTC_USDT', '61000', '>=', { side: 'buy', price: '61000', amount: '50' });
  await c.tradeAt('61000');
  expect((await c.ok(c.call('GET', `/spot/price_orders/${failed}`))).reason).toBe('BALANCE_NOT_ENOUGH');
  const cancelled = await c.trigger('BTC_USDT', '70000', '>=', { side: 'buy', price: '70000', amount: '0.001' });
  await c.ok(c.call('DELETE', `/spot/price_orders/${cancelled}`));
  const cancelledAll = await c.trigger('ETH_USDT', '4000', '>=', { side: 'buy', price: '4000', amount: '0.01' });
  await c.ok(c.call('DELETE', '/spot/price_orders', undefined, 'market=ETH_USDT'));
  const expired = await c.trigger('BTC_USDT', '70001', '>=', { side: 'buy', price: '70001', amount: '0.001' }, 60);
  const fallsLater = await c.trigger('BTC_USDT', '55000', '<=', { side: 'buy', price: '54000', amount: '0.001', text: 't-fell' });
  const expiresLater = await c.trigger('BTC_USDT', '80000', '>=', { side: 'buy', price: '80000', amount: '0.001' }, 3600);
  const bobOpen = await c.trigger('BTC_USDT', '50000', '<=', { side: 'buy', price: '49000', amount: '0.001' }, 0, BOB);
  // Countdowns: bob's ETH_USDT one runs out before the restart, alice's "all" one is disarmed.
  await c.order(BOB, 'ETH_USDT', 'buy', '2000', '0.01', 't-cd-bob-eth');
  await c.countdown(BOB, 10, 'ETH_USDT');
  await c.countdown(ALICE, 30);
  expect(await c.countdown(ALICE, 0)).toBe(0);
  await c.advance(61_000);
  expect(await c.openTexts(BOB, 'ETH_USDT')).toEqual([]);
  expect((await c.ok(c.call('GET', `/spot/price_orders/${expired}`))).status).toBe('expired');
  // Armed across the restart: alice's BTC_USDT timer (her ETH_USDT order stays), bob's timer of every pair.
  await c.order(ALICE, 'BTC_USDT', 'buy', '40000', '0.001', 't-cd-alice');
  await c.order(ALICE, 'ETH_USDT', 'buy', '2000', '0.01', 't-cd-alice-eth');
  await c.order(BOB, 'BTC_USDT', 'buy', '40000', '0.001', 't-cd-bob');
  const now = (await c.ok(c.call('GET', '/spot/time'))).server_time as number;
  expect(await c.countdown(ALICE, 120, 'BTC_USDT')).toBe(now + 120_000);
  await c.countdown(BOB, 300);
  expect((await c.ok(c.call('POST', '/margin/auto_repay', undefined, 'status=off'))).status).toBe('off');
  await c.advance(5_000);
  return { ids: { fired, failed, cancelled, cancelledAll, expired, fallsLater, expiresLater }, bobOpen };
}

/** Everything the read routes answer about that state, and the state hash. */
async function reads(port: number, made: Made): Promise<J> {
  const c = client(port);
  const out: J = { time: (await c.ok(c.call('GET', '/spot/time'))).server_time, hash: await c.hash() };
  for (const [who, key] of [['alice', ALICE], ['bob', BOB]] as const) {
    for (const q of ['status=open', 'status=finished', 'status=open&market=ETH_USDT', 'status=finished&market=BTC_USDT']) {
      out[`${who} ${q}`] = await c.ok(c.call('GET', '/spot/price_orders', undefined, q, key));
    }
    for (const pair of ['BTC_USDT', 'ETH_USDT']) {
      out[`${who} orders ${pair}`] = await c.ok(c.call('GET', '/spot/orders', undefined, `status=open&currency_pair=${pair}`, key));
      out[`${who} finished ${pair}`] = await c.ok(c.call('GET', '/spot/orders', undefined, `status=finished&currency_pair=${pair}`, key));
    }
    out[`${who} auto_repay`] = await c.ok(c.call('GET', '/margin/auto_repay', undefined, '', key));
  }
  for (const id of [...Object.values(made.ids), made.bobOpen]) {
    out[`trigger ${id}`] = (await c.call('GET', `/spot/price_orders/${id}`, undefined, '', id === made.bobOpen ? BOB : ALICE)).body;
  }
  return out;
}

/** The state before the restart must hold what `populate` did (a check of the check). */
function expectPopulated(before: J, made: Made): void {
  const status = (id: number): unknown => (before[`trigger ${id}`] as J).status;
  const { ids } = made;
  expect([ids.fired, ids.failed, ids.cancelled, ids.cancelledAll, ids.expired, ids.fallsLater, ids.expiresLater, made.bobOpen].map(status))
    .toEqual(['finish', 'failed', 'canceled', 'canceled', 'expired', 'open', 'open', 'open']);
  expect((before[`trigger ${ids.fired}`] as J).fired_order_id).toBeGreaterThan(0);
  expect((before['alice auto_repay'] as J).status).toBe('off');
}

/** After the restart: open triggers fire once and expire, countdowns run out, ids continue. */
async function goOn(port: number, made: Made): Promise<void> {
  const c = client(port);
  const { ids } = made;
  const next = await c.trigger('BTC_USDT', '45000', '<=', { side: 'buy', price: '44000', amount: '0.001' }, 0, BOB);
  expect(next).toBe(made.bobOpen + 1);
  await c.tradeAt('55000');
  const fell = await c.ok(c.call('GET', `/spot/price_orders/${ids.fallsLater}`));
  expect(fell).toMatchObject({ status: 'finish' });
  expect((await c.ok(c.call('GET', `/spot/orders/${fell.fired_order_id as number}`, undefined, 'currency_pair=BTC_USDT'))).text).toBe('t-fell');
  await c.tradeAt('54500');
  expect((await c.openTexts(ALICE, 'BTC_USDT')).filter((t) => t === 't-fell')).toHaveLength(1);
  expect((await c.ok(c.call('GET', `/spot/price_orders/${ids.fallsLater}`))).fired_order_id).toBe(fell.fired_order_id);
  // alice's BTC_USDT countdown (armed 5 s before the restart, 120 s) runs out; bob's (300 s) not yet.
  expect(await c.openTexts(ALICE, 'BTC_USDT')).toContain('t-cd-alice');
  await c.advance(115_000);
  expect(await c.openTexts(ALICE, 'BTC_USDT')).toEqual([]);
  expect(await c.openTexts(ALICE, 'ETH_USDT')).toEqual(['t-cd-alice-eth']);
  expect(await c.openTexts(BOB, 'BTC_USDT')).toEqual(['t-cd-bob']);
  await c.advance(180_000);
  expect(await c.openTexts(BOB, 'BTC_USDT')).toEqual([]);
  // The countdowns ran out once: their records are gone, a later move cancels nothing new.
  await c.order(ALICE, 'BTC_USDT', 'buy', '40000', '0.001', 't-after');
  await c.advance(400_000);
  expect(await c.openTexts(ALICE, 'BTC_USDT')).toEqual(['t-after']);
  const later = await c.ok(c.call('GET', `/spot/price_orders/${ids.expiresLater}`));
  expect(later).toMatchObject({ status: 'open' });
  await c.advance(3_600_000);
  const gone = await c.ok(c.call('GET', `/spot/price_orders/${ids.expiresLater}`));
  expect(gone).toMatchObject({ status: 'expired', ftime: (later.ctime as number) + 3600 });
  expect((await c.ok(c.call('GET', `/spot/price_orders/${made.bobOpen}`, undefined, '', BOB))).status).toBe('open');
}

/** Starts the server in a child process; resolves with it and its port. */
async function spawnServer(overrides: Partial<SimulatorConfig>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(overrides)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /port (\d+)\n/.exec(out);
      if (m !== null) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${err}`)));
  });
  return { child, port };
}

describe('front records across a restart', () => {
  for (const runner of ['threaded', 'inline'] as const) {
    for (const stop of ['close', 'SIGKILL'] as const) {
      it(`${runner} runner, ${stop}: every read answers as before, and what was armed goes on`, async () => {
        const path = join(dir, `${runner}-${stop}.journal`);
        const config: Partial<SimulatorConfig> = { clock: CLOCK, engine: { runner, journal: path, fsync: 'batch' } };
        let made: Made;
        let before: J;
        if (stop === 'close') {
          const first = await startTestSimulator(config);
          try {
            made = await populate(first.server.port);
            before = await reads(first.server.port, made);
          } finally {
            await first.close();
          }
        } else {
          const { child, port } = await spawnServer(config);
          const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
          try {
            made = await populate(port);
            before = await reads(port, made);
          } finally {
            child.kill('SIGKILL');
          }
          expect(await exited).toBe('SIGKILL');
        }
        expectPopulated(before, made);
        expect((await replayJournal(path)).report.state_hash).toBe(before.hash);

        const again = await startTestSimulator(config);
        let final: string;
        try {
          expect(await reads(again.server.port, made)).toEqual(before);
          await goOn(again.server.port, made);
          final = await client(again.server.port).hash();
        } finally {
          await again.close();
        }
        expect((await replayJournal(path)).report.state_hash).toBe(final);
      }, 60_000);
    }
  }
});
