// The wallet and the transfers survive a restart: on each runner, a journaled simulator goes through a wallet
// history leaving records in every state (test/api/wallet-scenario.ts), closes, and restarts from its journal;
// every wallet, withdrawal and transfer read answers as before, the state hash is the same and `npm run
// replay`'s journal replay ends at it, a repeated client_order_id is still recognized, the 3-second withdrawal
// rule still holds, ids continue (a new withdrawal does not take a PENDING push's hold id), the walks go on from
// where they were, the switches and the manual push receiver hold, and an issued address still makes a
// withdrawal internal. Then the journal restarts on the other runner at the same hash. Last, the same history
// in a child process killed with SIGKILL right after its last acknowledged write restarts to the same reads.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import type { Simulator } from '../../src/main.js';
import { startSimulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { buildWallet, readAll, RESTART_CONFIG, type ScenarioIds } from '../api/wallet-scenario.js';
import { advance, get, label, post, send, spot, stateHash } from '../api/wallet-helpers.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'ringmatch-wallet-restart-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

type Runner = 'inline' | 'threaded';
type J = Record<string, unknown>;
const start = (config: SimulatorConfig): Promise<Simulator> => startSimulator(config, { host: '127.0.0.1', port: 0 });
const journaled = (runner: Runner, path: string): SimulatorConfig => ({ ...RESTART_CONFIG, engine: { runner, journal: path, fsync: 'batch' } });
const wNumber = (id: string): number => Number(id.slice(1));

/** After a restart: what must hold on top of equal reads (see the module header). */
async function continuesAfterRestart(port: number, ids: ScenarioIds): Promise<void> {
  const repeat = await send(port, 'POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'options', amount: '10', client_order_id: 'move-1' });
  expect(repeat.body).toEqual({ tx_id: ids.txIds[0] });
  const subRepeat = await send(port, 'POST', '/wallet/sub_account_transfers', { sub_account: '20001', currency: 'USDT', amount: '5', direction: 'to', client_order_id: 'sub-1' });
  expect(subRepeat.body).toEqual({ tx_id: ids.txIds[2] });
  expect(label(await send(port, 'POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'options', amount: '11', client_order_id: 'move-1' })))
    .toEqual([400, 'DUPLICATE_REQUEST']);
  const eth = { currency: 'USDT', chain: 'ETH', address: '0x3333333333333333333333333333333333333333' };
  expect(label(await send(port, 'POST', '/withdrawals', { ...eth, amount: '5', withdraw_order_id: 'wo-1' }))).toEqual([400, 'DUPLICATE_REQUEST']);
  // The last withdrawal and the last push were made 1 s of the clock ago.
  expect(label(await send(port, 'POST', '/withdrawals', { ...eth, amount: '5' }))).toEqual([429, 'TOO_FAST']);
  expect(label(await send(port, 'POST', '/withdrawals/push', { receive_uid: 10002, currency: 'USDT', amount: '1' }))).toEqual([429, 'TOO_FAST']);

  // The walks go on: TRACK → DONE (credited), DEP_CREDITED → DONE, PEND → DONE (settled); held ones stay.
  const alice0 = await spot(port, 'USDT');
  await advance(port, 10_000);
  const deposits = new Map([...(await get(port, '/wallet/deposits', '', 'k2', 's2')).body as J[], ...(await get(port, '/wallet/deposits')).body as J[]]
    .map((d) => [d.id as string, d.status]));
  const d = ids.deposits;
  expect([d.track, d.credited, d.manual, d.blocked, d.invalid].map((id) => deposits.get(id))).toEqual(['DONE', 'DONE', 'MANUAL', 'BLOCKED', 'INVALID']);
  const withdrawal = async (id: string): Promise<J> => ((await get(port, '/wallet/withdrawals', `withdraw_id=${id}`)).body as J[])[0]!;
  const w = ids.withdrawals;
  expect((await withdrawal(w.pending)).status).toBe('DONE');
  expect((await withdrawal(w.review)).status).toBe('REVIEW');
  expect((await withdrawal(w.manual)).status).toBe('MANUAL');
  const alice1 = await spot(port, 'USDT');
  expect(Number(alice1.available)).toBe(Number(alice0.available) + 20); // the TRACK deposit, credited
  expect(Number(alice1.locked)).toBe(Number(alice0.locked) - 10); // the pending withdrawal, settled

  // Ids continue; a new withdrawal does not take the PENDING push's hold id, which still receives.
  const allW = ((await get(port, '/wallet/withdrawals', 'from=1700000000&to=1700086400')).body as J[]).map((x) => wNumber(x.id as string));
  const next = await send(port, 'POST', '/withdrawals', { ...eth, amount: '5' });
  expect(next.status).toBe(200);
  expect(wNumber((next.body as J).id as string)).toBeGreaterThan(Math.max(...allW) + 1);
  const bob0 = await spot(port, 'USDT', 'k2', 's2');
  expect((await post(port, `/sim/pushes/${ids.pushes.pending}/status`, { status: 'RECEIVED' })).body).toMatchObject({ status: 'RECEIVED' });
  expect(Number((await spot(port, 'USDT', 'k2', 's2')).available)).toBe(Number(bob0.available) + 4);
  const dep = (await post(port, '/sim/deposits', { uid: 10002, currency: 'ETH', amount: '1' })).body as J;
  expect(Number((dep.id as string).slice(1))).toBeGreaterThan(Math.max(...Object.values(d).map((id) => Number(id.slice(1)))));
  const t = await send(port, 'POST', '/wallet/transfers', { currency: 'USDT', from: 'spot', to: 'options', amount: '1' });
  expect((t.body as J).tx_id).toBeGreaterThan(Math.max(...ids.txIds));

  // Settings hold: pushes to 10002 wait PENDING, TON withdrawals stop in REVIEW, bob's TON address is internal.
  expect(((await get(port, '/wallet/push', `id=${await pushId(port, '2')}`)).body as J[])[0]).toMatchObject({ status: 'PENDING' });
  await advance(port, 3000);
  const internal = await send(port, 'POST', '/withdrawals', { currency: 'USDT', chain: 'TON', amount: '2', address: ids.bobTon.address, memo: ids.bobTon.memo });
  expect(internal.body).toMatchObject({ status: 'DONE', type: 'internal', fee: '0' });
  await advance(port, 3000);
  expect(((await send(port, 'POST', '/withdrawals', { currency: 'USDT', chain: 'TON', amount: '2', address: 'EQx', memo: '1' })).body as J).status).toBe('REVIEW');
}

async function pushId(port: number, amount: string): Promise<number> {
  const r = await send(port, 'POST', '/withdrawals/push', { receive_uid: 10002, currency: 'USDT', amount });
  expect(r.status).toBe(200);
  return Number((r.body as J).id);
}

describe('the wallet and the transfers after a restart', () => {
  for (const runner of ['inline', 'threaded'] as const) {
    it(`${runner} runner: every read answers as before, the hash holds, ids and walks continue`, async () => {
      const path = join(dir, `${runner}.journal`);
      const first = await start(journaled(runner, path));
      let ids: ScenarioIds;
      let before: Record<string, unknown>;
      let hash: string;
      try {
        ids = await buildWallet(first.server.port);
        before = await readAll(first.server.port, ids);
        hash = await stateHash(first.server.port);
      } finally {
        await first.close();
      }
      expect((await replayJournal(path)).report.state_hash).toBe(hash);

      const again = await start(journaled(runner, path));
      let after: string;
      try {
        expect(await stateHash(again.server.port)).toBe(hash);
        expect(await readAll(again.server.port, ids)).toEqual(before);
        expect(await stateHash(again.server.port)).toBe(hash);
        await continuesAfterRestart(again.server.port, ids);
        again.gateway.exchange.assertInvariants();
        after = await stateHash(again.server.port);
      } finally {
        await again.close();
      }
      const other = await start(journaled(runner === 'inline' ? 'threaded' : 'inline', path));
      try {
        expect(await stateHash(other.server.port)).toBe(after);
      } finally {
        await other.close();
      }
      expect((await replayJournal(path)).report.state_hash).toBe(after);
    });
  }
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Starts `npm start`'s entry point on `configPath` in a child process; resolves its port once it serves. */
function startChild(configPath: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', '--config', configPath, '--port', '0'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (b: Buffer) => { err += b.toString(); });
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /http:\/\/127\.0\.0\.1:([0-9]+)\/api\/v4/.exec(out);
      if (m !== null) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`the simulator exited (${code}) before serving: ${err}`)));
  });
}

describe('the wallet after kill -9', () => {
  for (const runner of ['inline', 'threaded'] as const) {
    it(`${runner} runner: a SIGKILL after the last acknowledged write loses nothing`, async () => {
      const path = join(dir, `killed-${runner}.journal`);
      const config = { ...journaled(runner, path), host: '127.0.0.1' };
      const configPath = join(dir, `killed-${runner}.json`);
      await writeFile(configPath, JSON.stringify(config));
      const { child, port } = await startChild(configPath);
      let ids: ScenarioIds;
      let before: Record<string, unknown>;
      let hash: string;
      try {
        ids = await buildWallet(port);
        before = await readAll(port, ids);
        hash = await stateHash(port);
      } finally {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      const again = await start(config);
      try {
        expect(await stateHash(again.server.port)).toBe(hash);
        expect(await readAll(again.server.port, ids)).toEqual(before);
      } finally {
        await again.close();
      }
    });
  }
});
