/**
 * JournalWriter: appends framed Commands (format in ./format.ts) to a journal file.
 *
 * CONTRACT: a reply for a command may be sent only after a `flush()` called after its `append()` has
 * resolved. What "durable" means is the policy's:
 * - `{ fsync: 'batch' }`: each flush writes what is buffered, then `datasync`s; resolves after the sync.
 * - `{ fsync: 'interval', everyMs }`: each flush writes at once; `datasync` runs at most once per
 *   `everyMs` and a flush resolves after the first sync that started after its records were written.
 *   Group commit: many flushes share one sync.
 * - `{ fsync: 'never' }`: resolves once the bytes are written to the OS (survives a process crash, not
 *   a power loss).
 * A write or sync error fails the writer: pending and later flushes reject, appends throw.
 *
 * Mechanics: `append` encodes into a reusable in-memory buffer (synchronous, no allocation for a
 * command without text once the buffer has grown to its working size); `flush` hands the buffer to the
 * OS with async FileHandle writes, never blocking the event loop. One write at a time (file order =
 * append order); appends during a write fill a second buffer. A sync may run beside the next write.
 *
 * `open` creates the file (preamble + header, synced) or, when it already exists and is non-empty,
 * validates its start and appends at its end, keeping the stored header (the `header` argument is
 * then unused; compare `writer.header` if it matters). An existing file must end on a whole record:
 * run `repairJournal` first (recovery replays the journal anyway).
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from '../../core/command.js';
import { InvariantError } from '../../core/invariant.js';
import { encodeHeader, encodeRecordInto } from '../../protocol/codec.js';
import type { JournalHeaderData } from '../../protocol/codec.js';
import { FRAME_BYTES, MAX_RECORD_BYTES, encodeFileStart, writeFrame } from './format.js';
import { readFileStart } from './reader.js';

export type FsyncPolicy = { readonly fsync: 'batch' } | { readonly fsync: 'interval'; readonly everyMs: number } | { readonly fsync: 'never' };

interface Waiter { readonly target: number; readonly resolve: () => void; readonly reject: (e: Error) => void }

const INITIAL_BUFFER = 256 << 10;

async function writeAll(fh: FileHandle, buf: Uint8Array, len: number, at: number): Promise<void> {
  let done = 0;
  while (done < len) {
    const { bytesWritten } = await fh.write(buf, done, len - done, at + done);
    done += bytesWritten;
  }
}

async function syncDir(path: string): Promise<void> {
  try {
    const dir = await open(dirname(path), 'r');
    try { await dir.sync(); } finally { await dir.close(); }
  } catch {
    // Some platforms cannot fsync a directory; the file's own sync still holds.
  }
}

export class JournalWriter {
  readonly path: string;
  /** The header stored in the file (the given one for a new file). */
  readonly header: JournalHeaderData;
  readonly policy: FsyncPolicy;
  readonly #fh: FileHandle;
  #front = new Uint8Array(INITIAL_BUFFER);
  #back = new Uint8Array(INITIAL_BUFFER);
  #frontLen = 0;
  #frontRecords = 0;
  #pos: number;
  #inFlight = 0;
  #appended = 0;
  #written = 0;
  #durable = 0;
  #requested = 0;
  #writing = false;
  #syncing = false;
  #lastSyncStart = -Infinity;
  #timer: NodeJS.Timeout | null = null;
  #waiters: Waiter[] = [];
  #error: Error | null = null;
  #closed = false;

  private constructor(path: string, fh: FileHandle, header: JournalHeaderData, policy: FsyncPolicy, pos: number) {
    this.path = path;
    this.#fh = fh;
    this.header = header;
    this.policy = policy;
    this.#pos = pos;
  }

  /** Creates or reopens the journal at `path` (see the module contract). @allocates */
  static async open(path: string, header: JournalHeaderData, policy: FsyncPolicy): Promise<JournalWriter> {
    if (policy.fsync === 'interval' && !(policy.everyMs >= 0)) throw new RangeError('fsync interval must be ≥ 0 ms');
    const fh = await open(path, 'wx+').catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      return open(path, 'r+');
    });
    try {
      const size = (await fh.stat()).size;
      if (size > 0) {
        const { header: stored } = await readFileStart(fh, path);
        return new JournalWriter(path, fh, stored, policy, size);
      }
      const start = encodeFileStart(encodeHeader(header));
      await writeAll(fh, start, start.length, 0);
      if (policy.fsync !== 'never') {
        await fh.datasync();
        await syncDir(path);
      }
      return new JournalWriter(path, fh, header, policy, start.length);
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  /** Records appended so far (by this writer). */
  get appended(): number { return this.#appended; }
  /** Records durable under the policy so far. */
  get durable(): number { return this.#durable; }
  /** File size once everything appended is written. */
  get bytes(): number { return this.#pos + this.#inFlight + this.#frontLen; }

  /** Buffers one framed record of `cmd`; nothing reaches the file until `flush`. */
  append(cmd: Command): void {
    if (this.#closed || this.#error !== null) throw new InvariantError('journal writer is closed or failed');
    const at = this.#frontLen;
    let n = encodeRecordInto(cmd, this.#front, at + FRAME_BYTES);
    while (n < 0) {
      const bigger = new Uint8Array(this.#front.length * 2);
      bigger.set(this.#front.subarray(0, at));
      this.#front = bigger;
      n = encodeRecordInto(cmd, this.#front, at + FRAME_BYTES);
    }
    if (n > MAX_RECORD_BYTES) throw new InvariantError('journal record above MAX_RECORD_BYTES');
    writeFrame(this.#front, at, n);
    this.#frontLen = at + FRAME_BYTES + n;
    this.#frontRecords++;
    this.#appended++;
  }

  /** Resolves when every record appended before this call is durable under the policy. */
  flush(): Promise<void> {
    if (this.#error !== null) return Promise.reject(this.#error);
    const target = this.#appended;
    if (target <= this.#durable) return Promise.resolve();
    this.#requested = target;
    const p = new Promise<void>((resolve, reject) => this.#waiters.push({ target, resolve, reject }));
    this.#pump();
    return p;
  }

  /** Flushes, then closes the file. Further appends throw. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#timer = null;
      await this.#fh.close();
    }
  }

  #pump(): void {
    if (this.#error !== null) return;
    if (!this.#writing && this.#frontLen > 0 && this.#written < this.#requested) void this.#write();
    if (!this.#syncing && this.#written > this.#durable && this.policy.fsync !== 'never') this.#scheduleSync();
  }

  async #write(): Promise<void> {
    const buf = this.#front;
    const len = this.#frontLen;
    const records = this.#frontRecords;
    this.#front = this.#back;
    this.#back = buf;
    this.#frontLen = 0;
    this.#frontRecords = 0;
    this.#writing = true;
    this.#inFlight = len;
    try {
      await writeAll(this.#fh, buf, len, this.#pos);
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.#pos += len;
    this.#inFlight = 0;
    this.#written += records;
    this.#writing = false;
    if (this.policy.fsync === 'never') this.#settle(this.#written);
    this.#pump();
  }

  #scheduleSync(): void {
    const wait = this.policy.fsync === 'interval' ? this.#lastSyncStart + this.policy.everyMs - performance.now() : 0;
    if (wait <= 0) {
      void this.#sync();
    } else if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#pump();
      }, Math.ceil(wait));
    }
  }

  async #sync(): Promise<void> {
    const target = this.#written;
    this.#syncing = true;
    this.#lastSyncStart = performance.now();
    try {
      await this.#fh.datasync();
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.#syncing = false;
    this.#settle(target);
    this.#pump();
  }

  #settle(durable: number): void {
    this.#durable = durable;
    let i = 0;
    while (i < this.#waiters.length && this.#waiters[i]!.target <= durable) this.#waiters[i++]!.resolve();
    if (i > 0) this.#waiters.splice(0, i);
  }

  #fail(e: unknown): void {
    const error = e instanceof Error ? e : new Error(String(e));
    this.#error = error;
    this.#writing = false;
    this.#syncing = false;
    for (const w of this.#waiters) w.reject(error);
    this.#waiters.length = 0;
  }
}
