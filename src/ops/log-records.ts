/**
 * The fields of the edge's log records (ops/log.ts), built from what is safe to show: addresses, markets, engine
 * settings and each API key's uid, id and permissions. A key's secret is never read here.
 */
import type { RestartReport } from '../engine/restart.js';
import type { SimulatorConfig } from '../sim/config-file.js';

/** The `listening` record: where the server answers and what it serves. @allocates (once, at start) */
export function listeningRecord(config: SimulatorConfig, host: string, port: number, runner: string, restart: RestartReport | undefined): Record<string, unknown> {
  return {
    event: 'listening', host, port, rest: `http://${host}:${port}/api/v4`, websocket: `ws://${host}:${port}/ws/v4/`,
    dashboard: `http://${host}:${port}/ui/`,
    markets: config.currency_pairs.map((p) => p.id),
    contracts: (config.futures?.contracts ?? []).map((c) => `${c.name}:${c.settle}`),
    runner, clock: config.clock?.type ?? 'wall', rate_limits: config.rate_limits !== false,
    journal: config.engine?.journal ?? null,
    ...(restart === undefined ? {} : { restart: { replayed: restart.replayed, last_seq: restart.lastSeq, snapshot_seq: restart.snapshotSeq ?? null } }),
    keys: (config.users ?? []).flatMap((u) => (u.keys ?? []).map((k) => ({
      uid: u.uid, key: k.key,
      perms: k.perms === undefined || k.perms === 'all' ? 'all' : k.perms.map((p) => `${p.name}${p.read_only === true ? ':ro' : ''}`).join(','),
    }))),
  };
}
