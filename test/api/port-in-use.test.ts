// Two servers on one port: the second must fail clearly, not share the port. uWebSockets.js sets SO_REUSEPORT
// unless asked to listen exclusively, and then a second process on a port already served binds too and the
// kernel splits connections between two separate exchanges.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/invariant.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { TEST_CONFIG } from './http-helpers.js';

/** A port that was free a moment ago (a fixed port: the kernel does not share one it chose for port 0). */
const freePort = (): Promise<number> => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

let first: Simulator;
beforeAll(async () => { first = await startSimulator({ ...TEST_CONFIG, engine: { runner: 'inline' } }, { host: '127.0.0.1', port: await freePort() }); });
afterAll(async () => { await first.close(); });

describe('a port already in use', () => {
  it('stops a second npm start with one clear line and exit code 1', async () => {
    const port = first.server.port;
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('API keys')) child.kill('SIGTERM'); // it serves: the port was shared
      });
      child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (code) => { clearTimeout(timer); resolve({ code, out }); });
    });
    expect(r.out).not.toContain('ringmatch simulator:');
    expect(r.out.trim()).toBe(`ringmatch: cannot listen on 127.0.0.1:${port}: the address is already in use (another ringmatch or another `
      + `program serves 127.0.0.1:${port}); stop it, or choose another port with --port or PORT`);
    expect(r.code).toBe(1);
  });

  it('rejects a second simulator in the same process with a ConfigError, and the first keeps serving', async () => {
    const port = first.server.port;
    const second = startSimulator({ ...TEST_CONFIG, engine: { runner: 'inline' } }, { host: '127.0.0.1', port });
    await expect(second).rejects.toThrow(ConfigError);
    await expect(second).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: the address is already in use`);
    expect((await fetch(`http://127.0.0.1:${port}/api/v4/spot/currency_pairs`)).status).toBe(200);
  });
});
