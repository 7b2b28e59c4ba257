// Kill -9 cycles against the real server (`src/cli.ts start --config …` in a child process), shared by the
// CI test (test/integration/http-kill9.it.test.ts) and `npm run soak:crash`.
//
// One cycle: start (or restart) the server on the journal, put it under concurrent load of every write kind
// the server journals (orders placed, amended, cancelled; users added with opening balances; sub-accounts,
// their locks and API keys; deposits; withdrawals; transfers with client_order_id; price triggers), SIGKILL
// it at a random moment while requests are in flight, restart it, and check, as a user would:
// - every acknowledged write of the cycle is present and readable through its route;
// - nothing unacknowledged is half-present (checked from the ledger and records of an inline replay of the
//   journal: a control-plane user has all of its opening balances or does not exist; a sub-account has its
//   profile and account record);
// - the restarted server's state hash equals the inline replay's.
// Every loop is bounded in count and time.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayJournal } from '../../src/backtest/journal-replay.js';
import type { Exchange } from '../../src/core/exchange/exchange.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { Prng } from '../../src/core/prng.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { call } from './signed-call.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * How to run the server: from sources under tsx (tests), or the transpiled CLI beside this file when this module
 * itself runs transpiled (`npm run soak:crash` runs dist/soak/crash.js, whose ROOT is dist/).
 */
const SERVER = import.meta.url.endsWith('.js') ? ['src/cli.js'] : ['--import', 'tsx', 'src/cli.ts'];
const START_LIMIT_MS = 30_000;
/** Balances every control-plane user of the load asks for (they never trade: the ledger must show exactly these). */
const USER_BALANCES = { USDT: '777', BTC: '0.5' } as const;

type J = Record<string, unknown>;
const USERS = [
  { uid: 30001, key: 'ck1', secret: 'cs1' }, { uid: 30002, key: 'ck2', secret: 'cs2' },
  { uid: 30003, key: 'ck3', secret: 'cs3' }, { uid: 30004, key: 'ck4', secret: 'cs4' },
] as const;
type User = { readonly uid: number; readonly key: string; readonly secret: string };

/** The server's config: four funded main users, chains for deposits and withdrawals, a journal, snapshots. */
export function crashConfig(journal: string, runner: 'inline' | 'threaded'): SimulatorConfig {
  return {
    currency_pairs: [
      { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4, min_base_amount: '0.0001', fee: '0.2', maker_fee_rate: '0.1' },
      { id: 'ETH_USDT', base: 'ETH', quote: 'USDT', precision: 2, amount_precision: 3, min_base_amount: '0.001', fee: '0.2' },
    ],
    users: USERS.map((u) => ({ uid: u.uid, keys: [{ key: u.key, secret: u.secret }], balances: { spot: { USDT: '1000000', BTC: '100', ETH: '1000' } } })),
    chains: {
      USDT: [{ chain: 'TRX', decimals: 6, min_confirms: 1, block_time_ms: 200, withdraw_step_ms: 200, withdraw_fix: '1', withdraw_amount_mini: '2' }],
      BTC: [{ chain: 'BTC', decimals: 6, min_confirms: 1, block_time_ms: 200, withdraw_step_ms: 200, withdraw_fix: '0.0001' }],
      ETH: [{ chain: 'ETH', decimals: 6, min_confirms: 1, block_time_ms: 200 }],
    },
    rate_limits: false,
    market_maker: false,
    engine: { runner, journal, fsync: 'batch', snapshots: { every_commands: 300, every_seconds: 0, keep: 2 } },
  };
}

/** A started server child: its port and the process. */
interface Server { readonly child: ChildProcess; readonly port: number; stderr: string }

async function startServer(configPath: string): Promise<Server> {
  const child = spawn(process.execPath, [...SERVER, 'start', '--config', configPath, '--port', '0', '--host', '127.0.0.1'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, port: 0, stderr: '' };
  child.stderr.on('data', (d: Buffer) => { server.stderr += d.toString(); });
  let out = '';
  server.port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${START_LIMIT_MS} ms: ${server.stderr}`)), START_LIMIT_MS);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/api\/v4/.exec(out);
      if (m !== null) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}) before listening: ${server.stderr}`)); });
  });
  return server;
}

/** An acknowledged write and how to read it back. */
interface Ack { readonly kind: string; readonly check: (port: number) => Promise<string | undefined> }

/** What one load worker does: random writes of every kind until `stop()`; acknowledged ones are kept. */
async function worker(port: number, rng: Prng, tag: string, acks: Ack[], counts: Record<string, number>, stopped: () => boolean): Promise<void> {
  const orders: { id: string; text: string; user: User; pair: string }[] = [];
  const subs: { uid: number; main: User }[] = [];
  let n = 0;
  const count = (k: string): void => { counts[k] = (counts[k] ?? 0) + 1; };
  while (!stopped() && n < 100_000) {
    n++;
    const user = USERS[rng.nextInt(USERS.length)]!;
    const roll = rng.nextInt(100);
    if (roll < 40) {
      const pair = rng.chance(0.5) ? 'BTC_USDT' : 'ETH_USDT';
      const buy = rng.chance(0.5);
      const mid = pair === 'BTC_USDT' ? 60_000 : 3_000;
      const price = (mid * (1 + (buy ? -1 : 1) * (0.01 + rng.nextInt(50) / 10_000))).toFixed(pair === 'BTC_USDT' ? 1 : 2);
      const text = `t-${tag}-${n}`;
      const r = await call(port, 'POST', '/api/v4/spot/orders', { user, body: { currency_pair: pair, side: buy ? 'buy' : 'sell', amount: pair === 'BTC_USDT' ? '0.001' : '0.01', price, text } });
      count(`place ${r.status}`);
      if (r.status !== 201) continue;
      const id = (r.body as J).id as string;
      orders.push({ id, text, user, pair });
      acks.push({ kind: 'place', check: async (p) => {
        const g = await call(p, 'GET', `/api/v4/spot/orders/${id}`, { user, query: `currency_pair=${pair}` });
        return g.status === 200 && (g.body as J).text === text ? undefined : `order ${id} (${text}): ${g.status} ${JSON.stringify(g.body)}`;
      } });
    } else if (roll < 50 && orders.length > 0) {
      const o = orders[rng.nextInt(orders.length)]!;
      const r = await call(port, 'PATCH', `/api/v4/spot/orders/${o.id}`, { user: o.user, query: `currency_pair=${o.pair}`, body: { amount: o.pair === 'BTC_USDT' ? '0.002' : '0.02' } });
      count(`amend ${r.status}`);
      if (r.status === 200) acks.push({ kind: 'amend', check: async (p) => {
        const g = await call(p, 'GET', `/api/v4/spot/orders/${o.id}`, { user: o.user, query: `currency_pair=${o.pair}` });
        return g.status === 200 && (g.body as J).amount !== undefined ? undefined : `amended order ${o.id}: ${g.status}`;
      } });
    } else if (roll < 58 && orders.length > 0) {
      const o = orders.splice(rng.nextInt(orders.length), 1)[0]!;
      const r = await call(port, 'DELETE', `/api/v4/spot/orders/${o.id}`, { user: o.user, query: `currency_pair=${o.pair}` });
      count(`cancel ${r.status}`);
      if (r.status === 200) acks.push({ kind: 'cancel', check: async (p) => {
        const g = await call(p, 'GET', `/api/v4/spot/orders/${o.id}`, { user: o.user, query: `currency_pair=${o.pair}` });
        return g.status === 200 && (g.body as J).status !== 'open' ? undefined : `cancelled order ${o.id}: ${g.status} ${JSON.stringify(g.body)}`;
      } });
    } else if (roll < 64) {
      const r = await call(port, 'POST', '/sim/users', { body: { balances: { spot: USER_BALANCES } } });
      count(`user ${r.status}`);
      if (r.status === 200) {
        const u = r.body as { uid: number; key: string; secret: string };
        acks.push({ kind: 'user', check: async (p) => {
          const g = await call(p, 'GET', '/api/v4/spot/accounts', { user: u });
          const rows = g.body as { currency: string; available: string }[];
          const ok = g.status === 200 && rows.find((x) => x.currency === 'USDT')?.available === USER_BALANCES.USDT
            && rows.find((x) => x.currency === 'BTC')?.available === USER_BALANCES.BTC;
          return ok ? undefined : `user ${u.uid}: ${g.status} ${JSON.stringify(g.body)}`;
        } });
      }
    } else if (roll < 69) {
      const login = `s${tag.replace(/\W/g, '')}_${n}`;
      const r = await call(port, 'POST', '/api/v4/sub_accounts', { user, body: { login_name: login, remark: 'crash' } });
      count(`sub_account ${r.status}`);
      if (r.status === 201) {
        const uid = (r.body as J).user_id as number;
        subs.push({ uid, main: user });
        acks.push({ kind: 'sub_account', check: async (p) => {
          const g = await call(p, 'GET', `/api/v4/sub_accounts/${uid}`, { user });
          return g.status === 200 && (g.body as J).login_name === login ? undefined : `sub-account ${uid}: ${g.status}`;
        } });
      }
    } else if (roll < 73 && subs.length > 0) {
      const s = subs[rng.nextInt(subs.length)]!;
      if (rng.chance(0.3)) {
        const r = await call(port, 'POST', `/api/v4/sub_accounts/${s.uid}/lock`, { user: s.main });
        count(`lock ${r.status}`);
        if (r.status === 204) acks.push({ kind: 'lock', check: async (p) => {
          const g = await call(p, 'GET', `/api/v4/sub_accounts/${s.uid}`, { user: s.main });
          return g.status === 200 && (g.body as J).state === 2 ? undefined : `locked sub-account ${s.uid}: ${JSON.stringify(g.body)}`;
        } });
      } else {
        const r = await call(port, 'POST', `/api/v4/sub_accounts/${s.uid}/keys`, { user: s.main, body: { name: `k${n}`, perms: [{ name: 'spot' }] } });
        count(`sub_key ${r.status}`);
        if (r.status === 200) {
          const key = (r.body as J).key as string;
          acks.push({ kind: 'sub_key', check: async (p) => {
            const g = await call(p, 'GET', `/api/v4/sub_accounts/${s.uid}/keys/${key}`, { user: s.main });
            return g.status === 200 ? undefined : `key ${key} of ${s.uid}: ${g.status}`;
          } });
        }
      }
    } else if (roll < 79) {
      const r = await call(port, 'POST', '/sim/deposits', { body: { uid: user.uid, currency: 'USDT', amount: String(5 + rng.nextInt(50)), chain: 'TRX' } });
      count(`deposit ${r.status}`);
      if (r.status === 200) {
        const id = (r.body as J).id as string;
        acks.push({ kind: 'deposit', check: async (p) => {
          const g = await call(p, 'GET', '/api/v4/wallet/deposits', { user, query: 'currency=USDT&limit=500' });
          return g.status === 200 && (g.body as J[]).some((d) => d.id === id) ? undefined : `deposit ${id}: missing`;
        } });
      }
    } else if (roll < 84) {
      const r = await call(port, 'POST', '/api/v4/withdrawals', { user, body: { currency: 'USDT', chain: 'TRX', amount: '10', address: `Tcrash${tag}${n}` } });
      count(`withdrawal ${r.status}`);
      if (r.status === 200) {
        const id = (r.body as J).id as string;
        acks.push({ kind: 'withdrawal', check: async (p) => {
          const g = await call(p, 'GET', '/api/v4/wallet/withdrawals', { user, query: `withdraw_id=${id}` });
          return g.status === 200 && (g.body as J[]).some((w) => w.id === id) ? undefined : `withdrawal ${id}: missing`;
        } });
      }
    } else if (roll < 92) {
      const cid = `c${tag.replace(/\W/g, '')}${n}`;
      const r = await call(port, 'POST', '/api/v4/wallet/transfers', { user, body: { currency: 'USDT', from: 'spot', to: 'cross_margin', amount: '1', client_order_id: cid } });
      count(`transfer ${r.status}`);
      if (r.status === 200 || r.status === 204) acks.push({ kind: 'transfer', check: async (p) => {
        const g = await call(p, 'GET', '/api/v4/wallet/order_status', { user, query: `client_order_id=${cid}` });
        return g.status === 200 ? undefined : `transfer ${cid}: ${g.status} ${JSON.stringify(g.body)}`;
      } });
    } else {
      const r = await call(port, 'POST', '/api/v4/spot/price_orders', { user, body: {
        trigger: { price: '90000', rule: '>=', expiration: 86_400 },
        put: { type: 'limit', side: 'sell', price: '90000', amount: '0.001', account: 'normal', time_in_force: 'gtc' },
        market: 'BTC_USDT',
      } });
      count(`price_order ${r.status}`);
      if (r.status === 201) {
        const id = (r.body as J).id as number;
        acks.push({ kind: 'price_order', check: async (p) => {
          const g = await call(p, 'GET', `/api/v4/spot/price_orders/${id}`, { user });
          return g.status === 200 ? undefined : `price order ${id}: ${g.status}`;
        } });
      }
    }
  }
}

export interface CycleOptions {
  readonly runner: 'inline' | 'threaded';
  readonly dir: string;
  readonly cycles: number;
  readonly seed: number;
  /** Load before the kill, ms: [min, max). */
  readonly loadMs?: readonly [number, number];
  readonly workers?: number;
  readonly log?: (line: string) => void;
}

export interface CycleResult {
  readonly cycle: number;
  readonly acked: number;
  readonly byKind: Readonly<Record<string, number>>;
  readonly answers: Readonly<Record<string, number>>;
  readonly restartMs: number;
  readonly replayedRecords: number;
  readonly stateHash: string;
}

/** Runs `cycles` kill -9 cycles on one journal; throws with the details on the first violation. */
export async function runCrashCycles(o: CycleOptions): Promise<CycleResult[]> {
  const journal = join(o.dir, 'crash.journal');
  const configPath = join(o.dir, `crash-${o.runner}.json`);
  await writeFile(configPath, JSON.stringify(crashConfig(journal, o.runner)));
  const rng = new Prng(o.seed);
  const [minMs, maxMs] = o.loadMs ?? [300, 1200];
  const results: CycleResult[] = [];
  let server = await startServer(configPath);
  try {
    for (let cycle = 1; cycle <= o.cycles; cycle++) {
      const acks: Ack[] = [];
      const answers: Record<string, number> = {};
      let stop = false;
      const load = Promise.all(Array.from({ length: o.workers ?? 8 }, (_, w) =>
        worker(server.port, new Prng(o.seed * 1000 + cycle * 16 + w), `${o.runner[0]}${cycle}w${w}`, acks, answers, () => stop)));
      await new Promise((r) => setTimeout(r, minMs + rng.nextInt(Math.max(1, maxMs - minMs))));
      server.child.kill('SIGKILL');
      stop = true;
      await new Promise<void>((r) => { if (server.child.exitCode !== null || server.child.signalCode !== null) r(); else server.child.once('exit', () => r()); });
      await load;
      const t0 = Date.now();
      server = await startServer(configPath);
      const restartMs = Date.now() - t0;
      const problems: string[] = [];
      for (const a of acks) {
        const p = await a.check(server.port);
        if (p !== undefined) problems.push(`${a.kind}: ${p}`);
      }
      // The restarted server keeps working (deposits confirm on its clock): compare at the seq its hash covers.
      const at = (await call(server.port, 'GET', '/sim/state_hash')).body as { state_hash?: string; seq?: number } | undefined;
      const live = at?.state_hash;
      const replay = await replayJournal(journal, undefined, { untilSeq: at?.seq ?? 0 });
      if (live !== replay.report.state_hash) {
        problems.push(`state hash ${live} at seq ${at?.seq} after restart, ${replay.report.state_hash} by an inline replay of the journal to it`);
      }
      problems.push(...halfPresent(replay.engine.exchange));
      const byKind: Record<string, number> = {};
      for (const a of acks) byKind[a.kind] = (byKind[a.kind] ?? 0) + 1;
      const result = { cycle, acked: acks.length, byKind, answers, restartMs, replayedRecords: replay.report.events, stateHash: live ?? '' };
      o.log?.(`${o.runner} cycle ${cycle}: ${acks.length} acknowledged writes (${Object.entries(byKind).map(([k, v]) => `${k} ${v}`).join(', ')}), `
        + `restart ${restartMs} ms, ${problems.length === 0 ? 'all present' : `${problems.length} PROBLEMS`}`);
      if (problems.length > 0) throw new Error(`cycle ${cycle}: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? ` (+${problems.length - 10} more)` : ''}\n${server.stderr}`);
      results.push(result);
    }
  } finally {
    server.child.kill('SIGKILL');
  }
  return results;
}

/** What an unacknowledged request could leave half-applied, checked from a replay's exchange. */
function halfPresent(ex: Exchange): string[] {
  const out: string[] = [];
  for (let uid = 100_000; uid < 100_000 + 100_000; uid++) {
    if (ex.ledger.mainOf(uid) < 0) {
      if (uid > 100_000 + 5_000) break;
      continue;
    }
    const usdt = ex.ledger.balanceText(uid, AccountKind.Spot, 0, 'USDT')?.available;
    const btc = ex.ledger.balanceText(uid, AccountKind.Spot, 0, 'BTC')?.available;
    if (usdt !== USER_BALANCES.USDT || btc !== USER_BALANCES.BTC) out.push(`user ${uid} exists with USDT ${usdt} and BTC ${btc}`);
    if (ex.records.get(`acct/${uid}`) === undefined) out.push(`user ${uid} exists without its account record`);
  }
  for (let uid = 2_000_000; uid < 2_000_000 + 100_000; uid++) {
    if (ex.ledger.mainOf(uid) < 0) {
      if (uid > 2_000_000 + 5_000) break;
      continue;
    }
    if (ex.records.get(`sub/${uid}`) === undefined || ex.records.get(`acct/${uid}`) === undefined) out.push(`sub-account ${uid} without its records`);
  }
  return out;
}
