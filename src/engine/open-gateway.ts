/**
 * Opens the engine behind a front from the simulator's engine settings: the threaded runner (default) or the
 * inline one, optionally journaling to a file. With a journal that already holds records, the exchange is
 * rebuilt from it (a torn tail cut first) and keeps appending to it; the caller then skips the opening
 * balances, which the journal already holds. A journal written for another exchange definition is refused.
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
import { type ExchangeGateway, InlineGateway } from './gateway.js';
import { type FsyncPolicy, JournalWriter } from './journal/writer.js';
import { headerFor, openInlineJournal } from './recovery.js';
import { ThreadedGateway } from './threaded-gateway.js';
import { stat } from 'node:fs/promises';

export interface EngineSpec {
  readonly runner: 'threaded' | 'inline';
  readonly shards?: number | undefined;
  /** Journal file; absent: nothing is journaled. */
  readonly journal?: string | undefined;
  readonly fsync?: FsyncPolicy | undefined;
}

export interface OpenedGateway {
  /** The gateway, owning the journal (if any): `gateway.journal`, closed by `gateway.close()`. */
  readonly gateway: ExchangeGateway;
  /** Records replayed from an existing journal (0 for a fresh start). */
  readonly resumedRecords: number;
  /** Time of the last replayed record, µs (0 for a fresh start). */
  readonly lastTimeUs: number;
}

/** With a journal and no policy given: sync before every reply, with group commit. */
export const DEFAULT_FSYNC: FsyncPolicy = { fsync: 'batch' };

const sizeOf = (path: string): Promise<number> => stat(path).then((s) => s.size, (e: unknown) => {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
  throw e;
});

function sameDefinition(path: string, expected: ExchangeDefinition, stored: ExchangeDefinition): void {
  if (JSON.stringify(stored) !== JSON.stringify(expected)) {
    throw new ConfigError(`engine.journal: ${path} was written for another exchange definition (markets, currencies or `
      + 'configured users differ): start with the config it was written for, or move the file away');
  }
}

/** @allocates */
export async function openGateway(def: ExchangeDefinition, clock: Clock, spec: EngineSpec): Promise<OpenedGateway> {
  const shards = spec.shards;
  if (spec.journal === undefined) {
    const gateway = spec.runner === 'inline' ? new InlineGateway(def, clock) : new ThreadedGateway(def, clock, { shards });
    return { gateway, resumedRecords: 0, lastTimeUs: 0 };
  }
  const path = spec.journal;
  const fsync = spec.fsync ?? DEFAULT_FSYNC;
  if (spec.runner === 'inline') {
    const r = await openInlineJournal(path, def, clock, fsync);
    const gateway = new InlineGateway(def, clock, { engine: r.engine, journal: r.journal });
    await refuseOther(gateway, path, def, r.definition);
    return { gateway, resumedRecords: r.report.records, lastTimeUs: r.lastTimeUs };
  }
  if (await sizeOf(path) === 0) {
    const journal = await JournalWriter.open(path, headerFor(def, clock.nowUs()), fsync);
    return { gateway: new ThreadedGateway(def, clock, { shards, journal }), resumedRecords: 0, lastTimeUs: 0 };
  }
  const r = await ThreadedGateway.recover(path, clock, fsync, { shards });
  await refuseOther(r.gateway, path, def, r.definition);
  return { gateway: r.gateway, resumedRecords: r.records, lastTimeUs: r.lastTimeUs };
}

/** Closes `gateway` and throws when the journal was written for another definition. */
async function refuseOther(gateway: ExchangeGateway, path: string, expected: ExchangeDefinition, stored: ExchangeDefinition): Promise<void> {
  try {
    sameDefinition(path, expected, stored);
  } catch (e) {
    await gateway.close();
    throw e;
  }
}
