// What the in-process replication tests share: a nats-server (or a caller's cluster) started before the file's
// tests and a temporary directory for the nodes' journals, both removed after them with every node started
// through `node`; and `until`, a bounded wait.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { LogConfig } from '../../src/sim/config-file.js';
import { type ReplicatedNode, startNode } from '../../src/sim/follower-node.js';
import { TEST_CONFIG } from '../api/http-helpers.js';
import { freePort, type NatsServer, startNatsServer } from '../support/nats-server.js';

export interface ReplicationEnv {
  /** The test NATS server's URLs (or the cluster's). */
  servers(): string[];
  readonly dir: string;
  /**
   * Starts a node (TEST_CONFIG's exchange, inline runner, `fsync: "batch"`, its journal in `dir`, lease 3000 ms,
   * checkpoints every 4 commands, no snapshots unless `log` says otherwise) on a free port, named `name` in the
   * lease; it is closed after the file's tests.
   */
  node(name: string, stream: string, follow: boolean, log?: Partial<LogConfig>, onLog?: (m: string) => void): Promise<[ReplicatedNode, number]>;
}

/**
 * Registers the set-up and tear-down of a test file; `start` gives its NATS servers (default: one nats-server
 * with JetStream) and returns them with how to stop them.
 */
export function replicationEnv(prefix: string, start: () => Promise<NatsServer[]> = async () => [await startNatsServer()]): ReplicationEnv {
  let nats: NatsServer[] = [];
  let dir = '';
  const nodes: ReplicatedNode[] = [];
  beforeAll(async () => {
    nats = await start();
    dir = await mkdtemp(join(tmpdir(), `ringmatch-${prefix}-`));
  });
  afterAll(async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    for (const s of nats) await s.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    servers: () => nats.map((s) => s.url),
    get dir() { return dir; },
    async node(name, stream, follow, log = {}, onLog = () => undefined) {
      const port = await freePort();
      const n = await startNode({ ...TEST_CONFIG, port, engine: { runner: 'inline', journal: join(dir, `${name}.journal`), fsync: 'batch',
        log: { type: 'jetstream', servers: nats.map((s) => s.url), stream, lease_ms: 3000, checkpoint_every: 4, snapshot_every: 0, ...log } } },
      { host: '127.0.0.1', port, follow, nodeId: name, log: onLog });
      nodes.push(n);
      return [n, port];
    },
  };
}

/** Resolves with the ms waited once `ok()` holds; throws naming `what` (and `detail()`) after `ms`. */
export async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 10_000, detail: () => string = () => ''): Promise<number> {
  const start = Date.now();
  while (!(await Promise.resolve().then(ok).catch(() => false))) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}${detail()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - start;
}
