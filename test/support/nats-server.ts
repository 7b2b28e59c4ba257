// Real nats-server processes for the replication tests: JetStream on a free loopback port with a temporary
// store. When the binary is missing it is installed with apt (as root, where apt can); otherwise the set-up
// fails with the command to run. Never skipped.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debianProgram } from './debian-package.js';

/** The nats-server binary, installed with apt when missing and possible. */
export function natsServerBinary(): string {
  return debianProgram({ names: ['nats-server'], paths: ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'],
    pkg: 'nats-server', otherwise: 'a nats-server 2.9+ binary' });
}

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ host: '127.0.0.1', port }, () => { c.end(); resolve(true); });
    c.on('error', () => resolve(false));
  });
}

/** Starts `nats-server -js` on a free loopback port with a fresh store; resolves once it takes connections (≤ 10 s). */
export async function startNatsServer(): Promise<NatsServer> {
  const bin = natsServerBinary();
  const dir = await mkdtemp(join(tmpdir(), 'ringmatch-nats-'));
  const port = await freePort();
  const child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  const until = Date.now() + 10_000;
  while (!(await reachable(port))) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`nats-server did not start on port ${port}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `nats://127.0.0.1:${port}`, port, dir, process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a JetStream cluster of `n` nats-server processes on free loopback ports (client and route ports),
 * each with its own store and server name (`rm-<i>`); resolves once every one takes connections (the caller
 * waits for JetStream's meta leader by retrying its first request).
 */
export async function startNatsCluster(n: number): Promise<NatsServer[]> {
  const bin = natsServerBinary();
  const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
  const routePorts = await Promise.all(Array.from({ length: n }, () => freePort()));
  const routes = routePorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const servers: NatsServer[] = [];
  for (let i = 0; i < n; i++) {
    const dir = await mkdtemp(join(tmpdir(), `ringmatch-nats-${i}-`));
    // RM_NATS_LOG=<dir>: each server logs there (`rm-<i>.log`, with -DV when RM_NATS_LOG_DV=1), for diagnosis.
    const logDir = process.env.RM_NATS_LOG;
    const logging = logDir === undefined ? [] : ['-l', join(logDir, `rm-${i}-${ports[i]}.log`), ...(process.env.RM_NATS_LOG_DV === '1' ? ['-DV'] : [])];
    const child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(ports[i]), '-sd', dir, '-n', `rm-${i}`, '--cluster_name', 'ringmatch',
      '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes, ...logging], { stdio: ['ignore', 'ignore', 'ignore'] });
    const port = ports[i]!;
    servers.push({
      url: `nats://127.0.0.1:${port}`, port, dir, process: child,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
        await rm(dir, { recursive: true, force: true });
      },
    });
  }
  const until = Date.now() + 15_000;
  for (const s of servers) {
    while (!(await reachable(s.port))) {
      if (s.process.exitCode !== null || Date.now() > until) {
        for (const x of servers) x.process.kill('SIGKILL');
        throw new Error(`nats-server cluster member on port ${s.port} did not start`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return servers;
}
