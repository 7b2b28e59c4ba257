/**
 * Opens the engine behind a front from the simulator's engine settings: the threaded runner (default) or the
 * inline one, optionally journaling to a file. With a journal that already holds records, the exchange is
 * rebuilt from the newest usable snapshot and the journal after it (restart.ts: a torn tail cut first) and
 * keeps appending to it; the caller then skips the opening balances, which the journal already holds. A
 * journal written for another exchange definition is refused (except for relative option expirations resolved on
 * another day: the journaled ones are kept, restartDefinition). With `snapshots`, a GatewaySnapshots takes
 * them while the gateway runs (and rotates the journal into segments).
 *
 * Durability: commands are appended to the journal as they are sequenced, before their results are known,
 * and written by group commit; the gateway's OutputGate holds every reply and push until the journal covers
 * what it shows, under the fsync policy (journal/writer.ts: `batch`, the default, syncs before replying;
 * `interval` N writes before replying and syncs every N ms; `never` writes before replying). The gateway
 * owns the journal and closes it.
 */
import type { Clock } from '../core/clock.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { ResultCode } from '../core/result-code.js';
import { type ExchangeGateway, InlineGateway } from './gateway.js';
import { GatewaySnapshots, type SnapshotPolicy } from './gateway-snapshots.js';
import { type FsyncPolicy, JournalWriter } from './journal/writer.js';
import { headerFor } from './recovery.js';
import { planRestart, type RestartReport, restartInline, restartThreaded } from './restart.js';
import { ThreadedGateway } from './threaded-gateway.js';

export interface EngineSpec {
  readonly runner: 'threaded' | 'inline';
  readonly shards?: number | undefined;
  /** Journal file (the active segment); absent: nothing is journaled. */
  readonly journal?: string | undefined;
  readonly fsync?: FsyncPolicy | undefined;
  /** Snapshots of the running gateway (needs a journal); absent: none taken, none loaded. */
  readonly snapshots?: SnapshotPolicy | undefined;
  /** Where start-up reports what it repaired or skipped; default console.warn. */
  readonly log?: ((message: string) => void) | undefined;
  /**
   * Option underlyings whose expirations the config gives relatively (`expiration_days`): a journal keeps the
   * expirations it resolved, and a restart on another day uses those (restartDefinition).
   */
  readonly relativeExpirations?: readonly string[] | undefined;
}

export interface OpenedGateway {
  /** The gateway, owning the journal (if any): `gateway.journal`, closed by `gateway.close()`. */
  readonly gateway: ExchangeGateway;
  /** Records replayed from an existing journal (0 for a fresh start, or all covered by the snapshot). */
  readonly resumedRecords: number;
  /** Time of the last replayed record, µs (0 for a fresh start). */
  readonly lastTimeUs: number;
  /** True when a journal (or snapshot) already held state: the opening balances are in it. */
  readonly resumed: boolean;
  /** What the restart loaded and replayed, when it restarted. */
  readonly restart?: RestartReport | undefined;
  /** The snapshot taker, when `snapshots` is set: close it before the gateway. */
  readonly snapshots?: GatewaySnapshots | undefined;
}

/** With a journal and no policy given: sync before every reply, with group commit. */
export const DEFAULT_FSYNC: FsyncPolicy = { fsync: 'batch' };

/**
 * The definition a journal written for `stored` restarts with, given the config's `expected`: the same one; or,
 * when they differ only in the expirations of option underlyings the config lists relatively (`relative`: their
 * names; `expiration_days` resolve against the start's UTC day), the stored one, so a run restarted on another
 * day keeps the expirations it was journaled with. Anything else is refused (ConfigError).
 */
export function restartDefinition(path: string, expected: ExchangeDefinition, stored: ExchangeDefinition,
  relative: readonly string[] = []): ExchangeDefinition {
  if (JSON.stringify(stored) === JSON.stringify(expected)) return expected;
  const storedOptions = stored.options?.underlyings ?? [];
  const patched: ExchangeDefinition = expected.options === undefined ? expected : {
    ...expected,
    options: { ...expected.options, underlyings: expected.options.underlyings.map((u) => {
      const was = storedOptions.find((x) => x.name === u.name);
      return relative.includes(u.name) && was !== undefined ? { ...u, expirations: was.expirations } : u;
    }) },
  };
  if (relative.length > 0 && JSON.stringify(stored) === JSON.stringify(patched)) return stored;
  throw new ConfigError(`engine.journal: ${path} was written for another exchange definition (markets, currencies or `
    + 'configured users differ): start with the config it was written for, or move the file away');
}

/** @allocates */
export async function openGateway(configured: ExchangeDefinition, clock: Clock, spec: EngineSpec): Promise<OpenedGateway> {
  let def = configured;
  const shards = spec.shards;
  const path = spec.journal;
  if (path === undefined) {
    const gateway = spec.runner === 'inline' ? new InlineGateway(def, clock) : new ThreadedGateway(def, clock, { shards });
    return { gateway, resumedRecords: 0, lastTimeUs: 0, resumed: false };
  }
  const fsync = spec.fsync ?? DEFAULT_FSYNC;
  const log = spec.log ?? ((m: string) => console.warn(`ringmatch: ${m}`));
  const plan = await planRestart(path, spec.snapshots?.dir, log);
  let opened: OpenedGateway;
  if (plan === undefined) {
    const journal = await JournalWriter.open(path, headerFor(def, clock.nowUs()), fsync);
    const gateway = spec.runner === 'inline' ? new InlineGateway(def, clock, { journal }) : new ThreadedGateway(def, clock, { shards, journal });
    opened = { gateway, resumedRecords: 0, lastTimeUs: 0, resumed: false };
  } else {
    def = restartDefinition(path, def, plan.definition, spec.relativeExpirations);
    if (def !== configured) log(`${path}: restarting with the option expirations it was journaled with`);
    if (spec.runner === 'inline') {
      const r = await restartInline(plan, path, clock, fsync);
      opened = { gateway: new InlineGateway(def, clock, { engine: r.engine, journal: r.journal }), resumedRecords: r.report.replayed,
        lastTimeUs: r.report.lastTimeUs, resumed: true, restart: r.report };
    } else {
      // The engine reports failures from its start; the gateway it is given to exists only after the replay.
      const owner: { gateway?: ThreadedGateway } = {};
      const r = await restartThreaded(plan, path, clock, fsync, {
        shards: shards ?? 1, onFailure: (f) => owner.gateway?.stop(ResultCode.EngineStopped, f.message),
      });
      const gateway = new ThreadedGateway(def, clock, { shards, journal: r.journal }, { engine: r.engine, mirror: r.mirror });
      owner.gateway = gateway;
      if (r.engine.failure !== undefined) gateway.stop(ResultCode.EngineStopped, r.engine.failure.message);
      opened = { gateway, resumedRecords: r.report.replayed, lastTimeUs: r.report.lastTimeUs, resumed: true, restart: r.report };
    }
  }
  if (spec.snapshots === undefined) return opened;
  return { ...opened, snapshots: new GatewaySnapshots(opened.gateway, path, spec.snapshots, log) };
}
