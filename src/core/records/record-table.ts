/**
 * The records the fronts keep beside the ledger (API keys, accounts and sub-account profiles, wallet
 * records, transfer ids, price triggers, countdown timers, the simulated clock …), held by the exchange so
 * that they are sequenced, journaled, replayed, snapshotted and covered by the state hash like every
 * other piece of state. The core does not interpret them: each is a JSON value under a string key; the
 * front that owns a key prefix defines its shape and rebuilds its indexes from `rows(prefix)` after a
 * restart.
 *
 * A command carries records in `Command.record`: the text of one JSON object `{"key": value, …}`. They
 * are applied, in the object's key order, when and only when the command succeeds (in R1 for commands that
 * complete there, in R2 for orders, amends and cancels the book accepted), so that a record lands with the
 * ledger change it describes (a withdrawal's record with its hold, a fired trigger's with its order) or not
 * at all. A `null` value is kept as a tombstone (a deleted API key from the config stays deleted). Each row
 * remembers the seq of the command that put it and, for a PlaceOrder, the id of the order it placed (0
 * otherwise: a price trigger's record finds the order it fired that way).
 *
 * Costs: one JSON.parse of the object per command that carries records (never on the matching path);
 * `rows` scans every row (start-up only); `hashInto` sorts the keys (state hashes are not hot).
 */
import type { StateHasher } from '../state-hash.js';

export interface RecordRow {
  /** The value as JSON text ('null' for a tombstone). */
  readonly value: string;
  readonly seq: number;
  readonly orderId: number;
}

/** Parsed records of one command: [key, value as JSON text] in order. */
export type RecordPuts = readonly (readonly [string, string])[];

/** The records in `text` (a JSON object), or undefined when it is not one. @allocates */
export function parseRecords(text: string): RecordPuts | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const out: [string, string][] = [];
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    if (k === '') return undefined;
    out.push([k, JSON.stringify(value ?? null)]);
  }
  return out;
}

/** Exported rows, in table order (snapshots). */
export type RecordTableData = readonly (readonly [key: string, value: string, seq: number, orderId: number])[];

export class RecordTable {
  readonly #rows = new Map<string, RecordRow>();

  get size(): number {
    return this.#rows.size;
  }

  get(key: string): RecordRow | undefined {
    return this.#rows.get(key);
  }

  /** Puts every record of one command (see the module header). */
  apply(puts: RecordPuts, seq: number, orderId: number): void {
    for (const [k, value] of puts) this.#rows.set(k, { value, seq, orderId });
  }

  /** The rows whose key starts with `prefix`, in the order they were first put, values parsed. @allocates */
  rows(prefix: string): { key: string; value: unknown; seq: number; orderId: number }[] {
    const out: { key: string; value: unknown; seq: number; orderId: number }[] = [];
    for (const [key, r] of this.#rows) {
      if (key.startsWith(prefix)) out.push({ key, value: JSON.parse(r.value) as unknown, seq: r.seq, orderId: r.orderId });
    }
    return out;
  }

  /** Mixes every row, by key order, into `h`; an empty table mixes nothing (older hashes stay valid). @allocates */
  hashInto(h: StateHasher): void {
    if (this.#rows.size === 0) return;
    const keys = [...this.#rows.keys()].sort();
    h.add(keys.length);
    for (const k of keys) {
      const r = this.#rows.get(k)!;
      h.addString(k).addString(r.value).add(r.seq).add(r.orderId);
    }
  }

  /** @allocates */
  exportData(): RecordTableData {
    return [...this.#rows].map(([k, r]) => [k, r.value, r.seq, r.orderId] as const);
  }

  /** Restores exported rows into an empty table, in their order. */
  importData(data: RecordTableData): void {
    for (const [k, value, seq, orderId] of data) this.#rows.set(k, { value, seq, orderId });
  }
}
