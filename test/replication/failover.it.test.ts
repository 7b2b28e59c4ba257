// Failover of the replicated log with real processes (`src/cli.ts start`, `--follow`) on a real nats-server:
// - the leader is killed with SIGKILL under concurrent signed order load; the follower takes the lease,
//   reads the stream to its end and takes writes; every order acknowledged before the kill is in the stream
//   exactly once, nothing is in it twice, and a late follower that starts from the newest snapshot in the
//   object store plus the stream's tail reaches the new leader's state hash;
// - a leader frozen with SIGSTOP past its lease is deposed: after SIGCONT its writes are refused, it steps
//   down and follows the new leader, and the stream holds no record of its old epoch after the new one began.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { RecordScanner } from '../../src/engine/journal/reader.js';
import { openLogStream } from '../../src/engine/replication/log-stream.js';
import { type ReplicatedNode, startNode } from '../../src/sim/follower-node.js';
import { plainFetch, signedFetch, TEST_CONFIG } from '../api/http-helpers.js';
import { freePort, type NatsServer, startNatsServer } from '../support/nats-server.js';

type J = Record<string, unknown>;
const ROOT = new URL('../..', import.meta.url).pathname;
let nats: NatsServer;
let dir: string;
const children: ChildProcess[] = [];
const nodes: ReplicatedNode[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  dir = await mkdtemp(join(tmpdir(), 'ringmatch-failover-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) { c.kill('SIGCONT'); c.kill('SIGKILL'); }
  for (const n of nodes) await n.close().catch(() => undefined);
  await nats?.stop();
  await rm(dir, { recursive: true, force: true });
});

const engine = (name: string, stream: string, extra: J = {}): J => ({
  runner: 'inline', journal: join(dir, `${name}.journal`), fsync: 'batch',
  log: { type: 'jetstream', servers: [nats.url], stream, lease_ms: 1500, checkpoint_every: 50, snapshot_every: 0, ...extra },
});

interface Child { readonly proc: ChildProcess; readonly port: number; log: string }

/** `src/cli.ts start --config <file> [--follow]` as a user starts a node (the HTTP tests' config with engine.log). */
async function child(name: string, stream: string, follow: boolean, extra: J = {}): Promise<Child> {
  const port = await freePort();
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify({ ...TEST_CONFIG, port, engine: engine(name, stream, extra) }));
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', '--config', file, ...(follow ? ['--follow'] : [])],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  const c: Child = { proc, port, log: '' };
  proc.stderr.on('data', (d: Buffer) => { c.log = (c.log + d.toString()).slice(-20_000); });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${c.log}`)), 20_000);
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('replicated log: stream')) { clearTimeout(timer); resolve(); }
    });
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited ${code}: ${c.log}`)); });
  });
  return c;
}

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 15_000): Promise<number> {
  const t0 = Date.now();
  while (!(await Promise.resolve().then(ok).catch(() => false))) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - t0;
}

const replication = async (port: number): Promise<J> => (await plainFetch(port, '/sim/replication')).body as J;
const roleOf = async (port: number): Promise<unknown> => (await replication(port)).role;
const hashOf = async (port: number): Promise<J> => (await plainFetch(port, '/sim/state_hash')).body as J;
const order = (port: number, body: J, key = 'k1', secret = 's1') =>
  signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify({ currency_pair: 'BTC_USDT', ...body }), key, secret });

/** Every PlaceOrder text in the stream, and the epoch of every batch in stream order (after each epoch message). */
async function scanStream(stream: string): Promise<{ texts: string[]; epochs: { kind: string; epoch: number }[] }> {
  const ls = await openLogStream({ type: 'jetstream', servers: [nats.url], stream });
  try {
    const last = await ls.lastSeq();
    const texts: string[] = [];
    const epochs: { kind: string; epoch: number }[] = [];
    let scanner = new RecordScanner(0);
    for (let s = 2; s <= last; s++) {
      const m = (await ls.jsm.streams.getMessage(stream, { seq: s }))!;
      const kind = m.header.get('Rm-Kind');
      epochs.push({ kind, epoch: Number(m.header.get('Rm-Epoch')) });
      if (kind === 'epoch') scanner = new RecordScanner(0);
      if (kind !== 'batch') continue;
      scanner.scan(m.data, 0, m.data.length, 0, (c) => { if (c.type === CommandType.PlaceOrder) texts.push(new Command().copyFrom(c).text); });
    }
    return { texts, epochs };
  } finally {
    await ls.close();
  }
}

describe('failover of the replicated log', () => {
  it('kill -9 of the leader under load: a follower takes over; no acknowledged order lost or applied twice', async () => {
    const leader = await child('a', 'fo_kill', false);
    await until('a to lead', async () => (await roleOf(leader.port)) === 'leader');
    const follower = await child('b', 'fo_kill', true, { snapshot_every: 40 });
    expect(await roleOf(follower.port)).toBe('follower');

    const acked: string[] = [];
    let killedAt = 0;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; i < 300 && killedAt === 0; i++) {
        const text = `t-${w}-${i}`;
        const sell = (w + i) % 2 === 0;
        try {
          const r = await order(leader.port, { side: sell ? 'sell' : 'buy', amount: '0.001', price: String(sell ? 60000 + (i % 5) : 60000 - (i % 3)), text },
            w % 2 === 0 ? 'k1' : 'k2', w % 2 === 0 ? 's1' : 's2');
          if (r.status === 201) acked.push(text);
        } catch {
          return; // The leader is gone.
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));
    await until('load', () => acked.length >= 150, 20_000);
    leader.proc.kill('SIGKILL');
    killedAt = Date.now();
    await load;

    const tookMs = await until('the follower to lead', async () => (await roleOf(follower.port)) === 'leader', 15_000);
    const after = await order(follower.port, { side: 'buy', amount: '0.001', price: '50000', text: 't-after' }, 'k2', 's2');
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    const failoverMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(15_000);

    const { texts, epochs } = await scanStream('fo_kill');
    const counts = new Map<string, number>();
    for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const t of acked) expect(counts.get(t), t).toBe(1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.get('t-after')).toBe(1);
    expect(epochs.filter((e) => e.kind === 'epoch').map((e) => e.epoch)).toEqual([1, 2]);

    // A late follower: newest snapshot from the object store plus the stream's tail, to the leader's hash.
    const port = await freePort();
    const lines: string[] = [];
    const late = await startNode({ ...TEST_CONFIG, port, engine: engine('c', 'fo_kill') },
      { host: '127.0.0.1', port, follow: true, log: (m) => lines.push(m) });
    nodes.push(late);
    const target = await hashOf(follower.port);
    await until('the late follower to catch up', async () => (await hashOf(port)).seq === target.seq);
    expect((await hashOf(port)).state_hash).toBe(target.state_hash);
    expect(lines.some((l) => /starting from snapshot/.test(l)), lines.join('\n')).toBe(true);
    console.log(`failover: ${acked.length} orders acknowledged before the kill; new leader took writes ${failoverMs} ms after it`);
  }, 90_000);

  it('a leader frozen past its lease is fenced: its writes are refused and it follows the new leader', async () => {
    const a = await child('fa', 'fo_fence', false);
    await until('fa to lead', async () => (await roleOf(a.port)) === 'leader');
    const b = await child('fb', 'fo_fence', true);
    expect((await order(a.port, { side: 'sell', amount: '0.001', price: '61000', text: 't-a1' })).status).toBe(201);

    a.proc.kill('SIGSTOP');
    await until('fb to lead', async () => (await roleOf(b.port)) === 'leader');
    expect((await order(b.port, { side: 'sell', amount: '0.001', price: '61001', text: 't-b1' })).status).toBe(201);
    a.proc.kill('SIGCONT');

    await until('fa to follow', async () => (await roleOf(a.port)) === 'follower');
    const refused = await order(a.port, { side: 'sell', amount: '0.001', price: '61002', text: 't-a2' });
    expect(refused.status).toBe(403);
    expect((refused.body as J).message).toContain(`http://127.0.0.1:${b.port}`);
    const hb = await hashOf(b.port);
    await until('fa to catch up', async () => (await hashOf(a.port)).seq === hb.seq);
    expect((await hashOf(a.port)).state_hash).toBe(hb.state_hash);
    expect(a.log).toMatch(/stepping down as leader of epoch 1/);

    const { texts, epochs } = await scanStream('fo_fence');
    expect(texts).toEqual(['t-a1', 't-b1']);
    const start2 = epochs.findIndex((e) => e.kind === 'epoch' && e.epoch === 2);
    expect(start2).toBeGreaterThan(0);
    expect(epochs.slice(start2).every((e) => e.epoch === 2)).toBe(true);
  }, 60_000);
});
