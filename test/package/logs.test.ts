// Structured logs at the edge (src/ops/log.ts): `ringmatch start --log json` writes pino records on stderr and
// nothing on stdout; a run with signed requests (good and bad signatures), control-plane calls with a token and a
// failing handler logs where it listens, the failure and the close, and never a key secret, a signature or the
// token.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/main.js';
import { createLogger } from '../../src/ops/log.js';
import { gateSign, signedFetch } from '../api/http-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ringmatch-logs-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

const TOKEN = 'tok-7c1d9e0b55aa';
const SECRETS = ['sec-alpha-93f1c2', 'sec-beta-0d8e77'];
const CONFIG = {
  currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
  users: [
    { uid: 1, keys: [{ key: 'key-alpha', secret: SECRETS[0]! }], balances: { spot: { USDT: '100000' } } },
    { uid: 2, keys: [{ key: 'key-beta', secret: SECRETS[1]!, perms: [{ name: 'spot', read_only: true }] }] },
  ],
  admin_token: TOKEN, market_maker: false,
};

/** Every signature a request of this test sent, to look for in the logs. */
const signatures: string[] = [];
async function signed(port: number, method: string, path: string, body: string, key: string, secret: string): Promise<number> {
  const ts = String(Math.floor(Date.now() / 1000));
  signatures.push(gateSign(secret, method, path, '', body, ts));
  return (await signedFetch(port, { method, path, body, key, secret, timestamp: ts })).status;
}

function noSecrets(text: string): void {
  for (const s of [...SECRETS, TOKEN, ...signatures]) expect(text).not.toContain(s);
}

describe('ringmatch start --log json', () => {
  it('logs JSON records on stderr, nothing on stdout, and no secret, signature or token', async () => {
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify(CONFIG));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', '--log', 'json', '--port', '0', '--config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    const listening = await new Promise<Record<string, unknown>>((done, fail) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        const line = stderr.split('\n').find((l) => l.includes('"listening"'));
        if (line !== undefined) done(JSON.parse(line) as Record<string, unknown>);
      });
      child.on('close', () => fail(new Error(`exited before listening: ${stderr}`)));
    });
    const port = listening.port as number;
    const order = JSON.stringify({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '50000' });
    expect(await signed(port, 'POST', '/api/v4/spot/orders', order, 'key-alpha', SECRETS[0]!)).toBe(201);
    expect(await signed(port, 'POST', '/api/v4/spot/orders', order, 'key-alpha', 'not-the-secret')).toBe(401);
    expect(await signed(port, 'POST', '/api/v4/spot/orders', order, 'key-beta', SECRETS[1]!)).toBe(403);
    expect((await fetch(`http://127.0.0.1:${port}/sim/users`, { method: 'POST', headers: { 'X-Sim-Token': TOKEN, 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { 'X-Sim-Token': TOKEN } })).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    clearTimeout(killer);

    expect(stdout).toBe('');
    const records = stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.event)).toEqual(['listening', 'closing', 'closed']);
    expect(listening).toMatchObject({ name: 'ringmatch', level: 30, host: '127.0.0.1', markets: ['BTC_USDT'], runner: expect.any(String) as unknown,
      dashboard: `http://127.0.0.1:${port}/ui/`,
      keys: [{ uid: 1, key: 'key-alpha', perms: 'all' }, { uid: 2, key: 'key-beta', perms: 'spot:ro' }] });
    noSecrets(stdout + stderr);
  });
});

describe('the server with a logger', () => {
  it('logs a failing handler with its route and error, and redacts secret fields given to it', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(...chunk.toString().split('\n').filter((l) => l !== '')); done(); } });
    const logger = createLogger({ destination: sink });
    const sim = await startSimulator(CONFIG, {
      host: '127.0.0.1', port: 0, logger,
      extraRoutes: [(router) => router.add({ method: 'GET', pattern: '/api/v4/boom', access: { kind: 'public' }, limit: 'public',
        handler: () => { throw new Error('kaboom'); } })],
    });
    try {
      const r = await fetch(`http://127.0.0.1:${sim.server.port}/api/v4/boom`);
      expect(r.status).toBe(500);
      expect(await r.json()).toEqual({ label: 'SERVER_ERROR', message: 'Internal server error' });
      logger.info({ user: { key: 'key-alpha', secret: SECRETS[0] }, headers: { sign: 'abc' }, admin_token: TOKEN }, 'a careless record');
    } finally {
      await sim.close();
    }
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const failed = records.find((r) => r.event === 'handler_failed')!;
    expect(failed).toMatchObject({ level: 50, method: 'GET', route: '/api/v4/boom', err: { message: 'kaboom', type: 'Error' } });
    expect(records.find((r) => r.msg === 'a careless record')).toMatchObject({ user: { key: 'key-alpha', secret: '[redacted]' }, headers: { sign: '[redacted]' }, admin_token: '[redacted]' });
    expect(records.map((r) => r.event).filter((e) => e !== undefined)).toEqual(['listening', 'handler_failed', 'closed']);
    noSecrets(lines.join('\n'));
  });
});
