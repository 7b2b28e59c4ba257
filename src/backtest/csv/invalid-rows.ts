/**
 * Rows a reader refused, counted by reason, for `--skip-invalid`. Without it (the default) the first
 * invalid row stops the replay with its file, line and reason; with it, readers skip such rows and count
 * them here, and the report lists the counts and the first row of each reason in each file.
 *
 * Cost: nothing per valid row; per skipped row one counter increment (plus one example string the first
 * time a reason is met in a file). The report is deterministic: reasons are sorted, examples are ordered by
 * file (in the order readers registered) and line, whatever the chunk sizes or the interleaving of files.
 */
import { basename } from 'node:path';

/** Why a row was refused (the keys of `by_reason`). */
export type RowDefect =
  | 'field_count'          // fewer or more fields than the layout has
  | 'bad_timestamp'        // a time field that is not a non-negative number in the format's unit
  | 'bad_side'             // a side or direction code the format does not define
  | 'bad_action'           // a Gate book action other than set, make or take
  | 'bad_number'           // another integer field (LOBSTER type, order id) that does not parse
  | 'bad_price'            // a price that is not a decimal, or not positive
  | 'price_precision'      // a price with more decimals than the market's price precision
  | 'bad_amount'           // an amount that is not a decimal
  | 'amount_precision'     // an amount with more decimals than the market's amount precision
  | 'negative_amount'      // a book level with a negative absolute size
  | 'amount_not_positive'; // a trade (or a LOBSTER order message) of size zero or less

export interface SkippedRowsReport {
  /** Rows skipped in all files. */
  readonly total: number;
  /** Rows skipped per reason (sorted by reason). */
  readonly by_reason: Readonly<Record<string, number>>;
  /** The first skipped row of each reason in each file: "file:line: why". */
  readonly examples: readonly string[];
}

interface Example { readonly file: number; readonly line: number; readonly text: string }

export class InvalidRows {
  total = 0;
  readonly #counts = new Map<RowDefect, number>();
  readonly #examples = new Map<string, Example>();
  readonly #files: string[] = [];

  /** Counts one skipped row of `path` at `line`. @allocates the first time (path, reason) is met */
  add(reason: RowDefect, path: string, line: number, why: string): void {
    this.total++;
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
    let file = this.#files.indexOf(path);
    if (file < 0) file = this.#files.push(path) - 1;
    const key = `${file}\u0000${reason}`;
    if (!this.#examples.has(key)) this.#examples.set(key, { file, line, text: `${basename(path)}:${line}: ${why}` });
  }

  /** Registers `path` so that its examples sort before files registered later (readers call it on open). */
  register(path: string): void {
    if (!this.#files.includes(path)) this.#files.push(path);
  }

  /** Counts per reason (sorted), for the report and the summary. @allocates */
  report(): SkippedRowsReport {
    const by: Record<string, number> = {};
    for (const reason of [...this.#counts.keys()].sort()) by[reason] = this.#counts.get(reason)!;
    const examples = [...this.#examples.values()].sort((a, b) => a.file - b.file || a.line - b.line).map((e) => e.text);
    return { total: this.total, by_reason: by, examples };
  }
}

/** The report of a strict run (nothing skipped). */
export const NOTHING_SKIPPED: SkippedRowsReport = { total: 0, by_reason: {}, examples: [] };
