/**
 * How a front keeps its state durable: as records in the exchange's record table (core/records), put by
 * commands, so they are sequenced, journaled, replayed, snapshotted and hashed with everything else.
 *
 * The pattern every journaled store follows:
 * - Each entity the store keeps (an API key, a deposit, a price trigger …) is one record: its whole current
 *   state as JSON under `<prefix>/<id>` (null deletes it: a tombstone).
 * - A change is made by submitting a command that carries the new record: `putRecords` when nothing else
 *   changes, or the ledger command it goes with (`withRecords(cmd, puts)`: a withdrawal's record on its
 *   hold), so both land or neither. Commands of one request that must survive a crash together are a
 *   journal group (`ExchangeGateway.submitGroup`).
 * - The store changes its in-memory indexes only in the command's `done`, when the code is Ok, by the same
 *   function that rebuilds it at start-up from `recordRows(exchange, prefix)`: the live state and the
 *   restored state are one projection of the records.
 * - The reply leaves through the output gate like any other, so it never acknowledges a record the journal
 *   does not hold yet.
 *
 * Costs: a JSON.stringify per change here and a JSON.parse in R1; records never touch the matching path.
 */
import { Command, CommandType } from '../core/command.js';
import type { Exchange } from '../core/exchange/exchange.js';
import type { ResultCode } from '../core/result-code.js';
import type { ExchangeGateway } from './gateway.js';

/** Records to put: key → JSON-able value (null: a tombstone). */
export type RecordPutsMap = Readonly<Record<string, unknown>>;

/** Sets `cmd.record` so that it carries `puts` (applied iff the command succeeds); returns `cmd`. */
export function withRecords(cmd: Command, puts: RecordPutsMap): Command {
  cmd.record = JSON.stringify(puts);
  return cmd;
}

/** The PutRecords command of `puts` (a fresh object). @allocates */
export function putRecordsCommand(puts: RecordPutsMap): Command {
  const c = new Command();
  c.type = CommandType.PutRecords;
  return withRecords(c, puts);
}

/** Submits a PutRecords command carrying `puts`; `done` gets its code (Ok, or the gateway's stop code). */
export function putRecords(gateway: ExchangeGateway, puts: RecordPutsMap, done: (code: ResultCode) => void): void {
  gateway.submit(putRecordsCommand(puts), (code) => done(code));
}

/** The current rows under `prefix` (`<store>/`), values parsed, in the order they were first put. @allocates */
export function recordRows(exchange: Exchange, prefix: string): { key: string; value: unknown; seq: number; orderId: number }[] {
  return exchange.records.rows(prefix);
}
