/**
 * Line-by-line CSV reading over a chunk source, by hand: each chunk is scanned once for '\n' and ',' and the
 * fields of each line handed to `row()` as byte ranges of the chunk (no string per line or field). A line
 * split across two chunks is reassembled in a small carry buffer. '\r' before '\n' is dropped; a missing
 * final newline is fine. Subclasses parse fields into their own columns.
 *
 * Usage: `while (await r.fill()) for (; r.i < r.count; r.i++) …` — `fill()` parses the next chunk's lines
 * into a fresh batch (at least one row unless the input is exhausted).
 *
 * Invalid rows: `row()` calls `fail(reason, why)`, which throws a ReplayDataError naming the file and line
 * (the default, strict), or, after `skipInvalidInto(rows)`, counts the row in `rows` and drops it: `row()`
 * must therefore append nothing before its last check (every reader appends as its final step).
 */
import type { ChunkSource } from './chunk-source.js';
import type { InvalidRows, RowDefect } from './invalid-rows.js';

export const MAX_FIELDS = 32;

/** Data that does not parse: the file, line and why. */
export class ReplayDataError extends Error {
  override readonly name = 'ReplayDataError';
}

/** Thrown by `fail` in skip mode and caught around `row()`; one instance, so skipping allocates no Error. */
const SKIPPED = new Error('row skipped');

export abstract class LineReader {
  /** Rows in the current batch, and the caller's cursor into it. */
  count = 0;
  i = 0;
  /** Lines seen so far (1-based number of the last line parsed). */
  line = 0;
  protected readonly starts = new Int32Array(MAX_FIELDS);
  protected readonly ends = new Int32Array(MAX_FIELDS);
  readonly #src: ChunkSource;
  readonly path: string;
  #carry = new Uint8Array(4096);
  #carryLen = 0;
  #done = false;
  #invalid: InvalidRows | undefined;

  constructor(src: ChunkSource, path: string) {
    this.#src = src;
    this.path = path;
  }

  /** Parses one line whose `n` fields are `starts[k]..ends[k]` of `b`. Appends rows via the subclass's columns. */
  protected abstract row(b: Uint8Array, n: number): void;
  /** Empties the batch columns (count = 0). */
  protected reset(): void {
    this.count = 0;
    this.i = 0;
  }

  get bytesRead(): number { return this.#src.bytesRead; }
  get fileBytes(): number { return this.#src.fileBytes; }

  /** Skips invalid rows from now on, counting them in `into` (undefined: strict again). */
  skipInvalidInto(into: InvalidRows | undefined): this {
    this.#invalid = into;
    into?.register(this.path);
    return this;
  }

  /** Refuses the current row: throws (strict), or counts it and abandons `row()` (skip mode). */
  fail(reason: RowDefect, why: string): never {
    if (this.#invalid !== undefined) {
      this.#invalid.add(reason, this.path, this.line, why);
      throw SKIPPED;
    }
    throw new ReplayDataError(`${this.path}:${this.line}: ${why} (--skip-invalid skips and counts such rows)`);
  }

  /** `row()`, dropping the row when `fail` skipped it. The strict path has no handler. */
  #row(b: Uint8Array, n: number): void {
    if (this.#invalid === undefined) { this.row(b, n); return; }
    try {
      this.row(b, n);
    } catch (e) {
      if (e !== SKIPPED) throw e;
    }
  }

  /** Parses the next batch; false when the input is exhausted and the batch is empty. */
  async fill(): Promise<boolean> {
    this.reset();
    while (this.count === 0 && !this.#done) {
      const chunk = await this.#src.next();
      if (chunk === null) {
        this.#done = true;
        this.#src.close();
        if (this.#carryLen > 0) { this.#line(this.#carry, 0, this.#carryLen); this.#carryLen = 0; }
        break;
      }
      this.#chunk(chunk);
    }
    return this.count > 0;
  }

  close(): void {
    this.#src.close();
  }

  #chunk(b: Uint8Array): void {
    const len = b.length;
    let s = 0;
    if (this.#carryLen > 0) {
      const nl = b.indexOf(10);
      const take = nl < 0 ? len : nl;
      this.#append(b, 0, take);
      if (nl < 0) return;
      this.#line(this.#carry, 0, this.#carryLen);
      this.#carryLen = 0;
      s = nl + 1;
    }
    const starts = this.starts;
    const ends = this.ends;
    let n = 0;
    let fs = s;
    for (let i = s; i < len; i++) {
      const c = b[i]!;
      if (c === 44) {
        if (n < MAX_FIELDS) { starts[n] = fs; ends[n] = i; n++; }
        fs = i + 1;
      } else if (c === 10) {
        let e = i;
        if (e > fs && b[e - 1] === 13) e--;
        if (n < MAX_FIELDS) { starts[n] = fs; ends[n] = e; n++; }
        this.line++;
        if (e > s) this.#row(b, n);
        n = 0;
        s = i + 1;
        fs = s;
      }
    }
    if (s < len) this.#append(b, s, len);
  }

  #append(b: Uint8Array, from: number, to: number): void {
    const need = this.#carryLen + (to - from);
    if (need > this.#carry.length) {
      const bigger = new Uint8Array(Math.max(need, this.#carry.length * 2));
      bigger.set(this.#carry.subarray(0, this.#carryLen));
      this.#carry = bigger;
    }
    this.#carry.set(b.subarray(from, to), this.#carryLen);
    this.#carryLen = need;
  }

  /** One whole line held in `b[from, to)` (the carry buffer). */
  #line(b: Uint8Array, from: number, to: number): void {
    let e = to;
    if (e > from && b[e - 1] === 13) e--;
    let n = 0;
    let fs = from;
    for (let i = from; i < e; i++) {
      if (b[i] === 44) {
        if (n < MAX_FIELDS) { this.starts[n] = fs; this.ends[n] = i; n++; }
        fs = i + 1;
      }
    }
    if (n < MAX_FIELDS) { this.starts[n] = fs; this.ends[n] = e; n++; }
    this.line++;
    if (e > from) this.#row(b, n);
  }
}

/** True when field `k` of `b` equals `text` (ASCII). */
export function fieldIs(b: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[start + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Field text (for error messages and headers). @allocates */
export function fieldText(b: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end && i < start + 64; i++) s += String.fromCharCode(b[i]!);
  return s;
}
