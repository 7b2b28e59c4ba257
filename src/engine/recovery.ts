/**
 * Recovery from a journal: rebuilds the exchange its header defines and replays every whole record through
 * the inline runner, in sequence order, with the recorded times. A torn or corrupt tail stops the replay at
 * the last whole record (the report says where and why; `repair` also truncates the file there), so a crash
 * mid-write loses only commands that were never acknowledged.
 */
import { open } from 'node:fs/promises';
import { SimClock } from '../core/clock.js';
import { Command } from '../core/command.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import type { JournalHeaderData } from '../protocol/codec.js';
import { type BookFactory, InlineEngine } from './inline-engine.js';
import { type JournalReport, readFileStart, readJournal, repairJournal } from './journal/reader.js';

export interface Recovered {
  readonly engine: InlineEngine;
  readonly report: JournalReport;
  readonly definition: ExchangeDefinition;
}

/** The journal header for an exchange definition (the whole definition travels in `configJson`). */
export function headerFor(def: ExchangeDefinition, createdTime: number): JournalHeaderData {
  return { formatVersion: 1, createdTime, markets: def.markets, currencies: def.currencies, configJson: JSON.stringify(def) };
}

/** Reads a journal's header. @allocates */
export async function readHeader(path: string): Promise<JournalHeaderData> {
  const fh = await open(path, 'r');
  try {
    return (await readFileStart(fh, path)).header;
  } finally {
    await fh.close();
  }
}

/**
 * Replays `path` into a fresh inline engine (no journal attached; its sequencer continues after the last
 * replayed record). With `repair`, a damaged tail is first truncated on disk.
 */
export async function recoverFromJournal(path: string, options: { repair?: boolean; bookFactory?: BookFactory } = {}): Promise<Recovered> {
  if (options.repair === true) await repairJournal(path);
  const header = await readHeader(path);
  const definition = JSON.parse(header.configJson) as ExchangeDefinition;
  const engine = new InlineEngine(definition, { clock: new SimClock(0), bookFactory: options.bookFactory });
  const cmd = new Command();
  const report = await readJournal(path, (c) => {
    engine.apply(cmd.copyFrom(c));
  });
  engine.sequencer.resumeAfter(cmd.seq);
  return { engine, report, definition };
}
