/**
 * Opens the engine behind a front from the simulator's engine settings: the threaded runner (default) or the
 * inline one, optionally journaling to a file. With a journal that already holds records, the exchange is
 * rebuilt from it (a torn tail cut first) and keeps appending to it; the caller then skips the opening
 * balances, which the journal already holds. A journal written for another exchange definition is refused.
 *
 * Durability: commands are appended to the journal as they are sequenced, before their results are known;
 * the fsync policy decides when they reach the disk, and replies do not wait for it (`batch` syncs each
 * append batch as soon as it is written, `interval` every N ms, `never` leaves it to the OS).
 */
import type { Clock } from '../core/clock.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { ConfigError } from '../core/invariant.js';
import { type ExchangeGateway, InlineGateway } from './gateway.js';
import { type FsyncPolicy, JournalWriter } from './journal/writer.js';
import { headerFor, openInlineJournal } from './recovery.js';
import type { ShardFailure } from './threaded-engine.js';
import { ThreadedGateway } from './threaded-gateway.js';
import { stat } from 'node:fs/promises';

export interface EngineSpec {
  readonly runner: 'threaded' | 'inline';
  readonly shards?: number | undefined;
  /** Journal file; absent: nothing is journaled. */
  readonly journal?: string | undefined;
  readonly fsync?: FsyncPolicy | undefined;
  readonly onFailure?: ((failure: ShardFailure) => void) | undefined;
}

export interface OpenedGateway {
  readonly gateway: ExchangeGateway;
  /** The journal being appended to (close it after the gateway). */
  readonly journal: JournalWriter | undefined;
  /** Records replayed from an existing journal (0 for a fresh start). */
  readonly resumedRecords: number;
  /** Time of the last replayed record, µs (0 for a fresh start). */
  readonly lastTimeUs: number;
}

const DEFAULT_FSYNC: FsyncPolicy = { fsync: 'interval', everyMs: 20 };

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
  const threadedOptions = { shards: spec.shards, onFailure: spec.onFailure };
  if (spec.journal === undefined) {
    const gateway = spec.runner === 'inline' ? new InlineGateway(def, clock) : new ThreadedGateway(def, clock, threadedOptions);
    return { gateway, journal: undefined, resumedRecords: 0, lastTimeUs: 0 };
  }
  const path = spec.journal;
  const fsync = spec.fsync ?? DEFAULT_FSYNC;
  if (spec.runner === 'inline') {
    const r = await openInlineJournal(path, def, clock, fsync);
    try {
      sameDefinition(path, def, r.definition);
    } catch (e) {
      await r.journal.close();
      throw e;
    }
    return { gateway: new InlineGateway(def, clock, undefined, r.engine), journal: r.journal, resumedRecords: r.report.records, lastTimeUs: r.lastTimeUs };
  }
  if (await sizeOf(path) === 0) {
    const journal = await JournalWriter.open(path, headerFor(def, clock.nowUs()), fsync);
    return { gateway: new ThreadedGateway(def, clock, { ...threadedOptions, journal }), journal, resumedRecords: 0, lastTimeUs: 0 };
  }
  const r = await ThreadedGateway.recover(path, clock, fsync, threadedOptions);
  try {
    sameDefinition(path, def, r.definition);
  } catch (e) {
    await r.gateway.close();
    await r.journal?.close();
    throw e;
  }
  return { gateway: r.gateway, journal: r.journal, resumedRecords: r.records, lastTimeUs: r.lastTimeUs };
}
