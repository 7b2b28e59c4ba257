/**
 * Plain columns for exporting state (snapshots): typed arrays that own their buffers (so they can be
 * transferred to another thread without a copy) plus sparse string lists for the rare non-numeric rows.
 *
 * - AmountColumn: `num[i]` is row i's amount, unless i appears in `wideIndex` (ascending): then row i is the
 *   BigInt whose decimal digits are the matching `wideText` entry (a wide currency's amount, even 0n).
 * - TextColumn: row `index[k]` (ascending) holds `text[k]`; every other row is ''.
 * Cost: packing is O(rows) and allocates the columns; unpacking allocates one array of rows.
 */
import type { Amount } from './amount.js';

/** Amounts of `n` rows; see the module header. */
export interface AmountColumn {
  readonly num: Float64Array;
  readonly wideIndex: Int32Array;
  readonly wideText: readonly string[];
}

/** Strings of `n` rows, sparse; see the module header. */
export interface TextColumn {
  readonly index: Int32Array;
  readonly text: readonly string[];
}

/** Packs `n` amounts read by `at(i)`. @allocates */
export function packAmounts(n: number, at: (i: number) => Amount): AmountColumn {
  const num = new Float64Array(n);
  const wide: number[] = [];
  const wideText: string[] = [];
  for (let i = 0; i < n; i++) {
    const v = at(i);
    if (typeof v === 'number') num[i] = v;
    else {
      wide.push(i);
      wideText.push(v.toString());
    }
  }
  return { num, wideIndex: Int32Array.from(wide), wideText };
}

/** The rows of an AmountColumn as Amounts (numbers, BigInt for the wide rows). @allocates */
export function unpackAmounts(c: AmountColumn): Amount[] {
  const out: Amount[] = Array.from(c.num);
  for (let k = 0; k < c.wideIndex.length; k++) out[c.wideIndex[k]!] = BigInt(c.wideText[k]!);
  return out;
}

/** Packs `n` strings read by `at(i)`, keeping only the non-empty ones. @allocates */
export function packText(n: number, at: (i: number) => string): TextColumn {
  const index: number[] = [];
  const text: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = at(i);
    if (s !== '') {
      index.push(i);
      text.push(s);
    }
  }
  return { index: Int32Array.from(index), text };
}

/** The `n` rows of a TextColumn. @allocates */
export function unpackText(c: TextColumn, n: number): string[] {
  const out = new Array<string>(n).fill('');
  for (let k = 0; k < c.index.length; k++) out[c.index[k]!] = c.text[k]!;
  return out;
}
