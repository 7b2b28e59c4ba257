/**
 * JournalWriter: appends framed Commands (format in ./format.ts) to a journal file.
 *
 * CONTRACT: a reply for a command may be sent only once the writer reports it durable (`durableSeq` has
 * reached its seq, or a `flush()` called after its `append()` has resolved). What "durable" means is the
 * policy's:
 * - `{ fsync: 'batch' }`: written, then `datasync`ed: survives a power loss. Group commit: one write and one
 *   sync cover every record appended while the previous ones were in progress.
 * - `{ fsync: 'interval', everyMs }`: written to the OS: survives a process crash. A `datasync` runs at most
 *   once per `everyMs` in the background, so a power loss loses at most the last `everyMs` of records.
 * - `{ fsync: 'never' }`: written to the OS (survives a process crash); syncing is left to the OS.
 * No policy counts a record durable before its bytes are handed to the OS. With a tap (JournalTap: the
 * replicated log), a record is durable only once the replica also acknowledged it.
 *
 * Mechanics: `append` encodes into a reusable in-memory buffer (synchronous, no allocation for a command
 * without text once the buffer has grown to its working size) and schedules a flush for the end of the
 * current event-loop turn, so records reach the file without anyone asking; `flush` asks at once. Writes are
 * async FileHandle writes that never block the event loop, one at a time (file order = append order);
 * appends during a write fill a second buffer; a sync may run beside the next write.
 * Progress is reported in counts (`appended`, `written`, `synced`, `durable`) and in sequence numbers
 * (`appendedSeq`: the last record appended; `durableSeq`: the last record durable that ends a group or
 * belongs to none), and to the watcher (`watch`).
 *
 * Failure: the first write or sync error (disk full, I/O error) fails the writer for good: pending and later
 * flushes reject with a JournalWriteError naming the file and the errno, the watcher's `failed` is told
 * once, and later appends are dropped (the owner stops intake when told; nothing it appends after a
 * failure can become durable).
 *
 * `open` creates the file (preamble + header, synced) or, when it already exists and is non-empty,
 * validates its start and appends at its end, keeping the stored header (the `header` argument is
 * then unused; compare `writer.header` if it matters). An existing file must end on a whole record:
 * run `repairJournal` first (recovery replays the journal anyway). A new file is created with mode 0600:
 * records may carry secrets (API keys of users added at run time).
 */
import { open, rename } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from '../../core/command.js';
import { InvariantError } from '../../core/invariant.js';
import { encodeHeader, encodeRecordInto } from '../../protocol/codec.js';
import type { JournalHeaderData } from '../../protocol/codec.js';
import { FRAME_BYTES, MAX_RECORD_BYTES, encodeFileStart, writeFrame } from './format.js';
import { readFileStart } from './reader.js';

export type FsyncPolicy = { readonly fsync: 'batch' } | { readonly fsync: 'interval'; readonly everyMs: number } | { readonly fsync: 'never' };

/** What a policy survives, for logs and docs. */
export function policySurvives(p: FsyncPolicy): string {
  if (p.fsync === 'batch') return 'a power loss (every reply waits for its fdatasync)';
  if (p.fsync === 'interval') return `a process crash; a power loss loses at most the last ${p.everyMs} ms`;
  return 'a process crash; on a power loss, what the OS had not yet written';
}

/** Told of the writer's progress: `durable(seq)` after each advance of `durableSeq`; `failed` once. */
export interface JournalWatcher {
  durable(seq: number): void;
  failed(error: JournalWriteError): void;
}

/**
 * Replication of the journal (engine/replication): told of every buffer of framed records as its write to
 * the file starts, so the same bytes can be shipped elsewhere beside the local write. `bytes` is valid during
 * the call only (copy it); `tailSeq` is the seq of its last record and `boundarySeq` of its last record that
 * ends a group (they differ when the buffer ends inside a group). While a tap is set, `durableSeq` is the
 * lesser of the local policy's and what the tap reported replicated (`replicated`).
 */
export interface JournalTap {
  batch(bytes: Uint8Array, tailSeq: number, boundarySeq: number): void;
}

/** A write or sync error of the journal file: `path`, the errno `code` (ENOSPC, EIO…) and the cause. */
export class JournalWriteError extends Error {
  override readonly name = 'JournalWriteError';
  constructor(readonly path: string, readonly code: string, cause: unknown) {
    super(`journal ${path}: ${code}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

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
  #fh: FileHandle;
  #front = new Uint8Array(INITIAL_BUFFER);
  #back = new Uint8Array(INITIAL_BUFFER);
  #frontLen = 0;
  #frontRecords = 0;
  #frontLastSeq = 0;
  #pos: number;
  #inFlight = 0;
  #appended = 0;
  #appendedSeq = 0;
  #written = 0;
  #writtenSeq = 0;
  #synced = 0;
  #syncedSeq = 0;
  #requested = 0;
  #writing = false;
  #syncing = false;
  #autoFlush = false;
  #lastSyncStart = -Infinity;
  #timer: NodeJS.Timeout | null = null;
  #waiters: Waiter[] = [];
  #watcher: JournalWatcher | undefined;
  #error: JournalWriteError | null = null;
  #closed = false;
  #closing = false;
  #injected: string | undefined;
  #rotating = false;
  /** Seq of the last record in the buffer being filled, and whether it leaves a group open. */
  #frontTailSeq = 0;
  #frontTailOpen = false;
  /** Seq of the last record written, and whether it left a group open (the next segment may not start there). */
  #writtenTailSeq = 0;
  #writtenTailOpen = false;
  #segmentFirstSeq: number;
  #tap: JournalTap | undefined;
  /** With a tap: the last group-closing seq the replica acknowledged. */
  #replicatedSeq = Infinity;

  private constructor(path: string, fh: FileHandle, header: JournalHeaderData, policy: FsyncPolicy, pos: number, lastSeq?: number) {
    this.path = path;
    this.#fh = fh;
    this.header = header;
    this.policy = policy;
    this.#pos = pos;
    this.#segmentFirstSeq = header.firstSeq ?? 1;
    // What the file already holds counts as written and synced (it was read back from the disk).
    const last = lastSeq ?? this.#segmentFirstSeq - 1;
    this.#appendedSeq = last;
    this.#writtenSeq = last;
    this.#syncedSeq = last;
    this.#writtenTailSeq = last;
    this.#frontLastSeq = last;
  }

  /**
   * Creates or reopens the journal at `path` (see the module contract). `lastSeq`: the seq of the last
   * record an existing file holds (its reader knows it; default: none beyond its header's first seq).
   * @allocates
   */
  static async open(path: string, header: JournalHeaderData, policy: FsyncPolicy, lastSeq?: number): Promise<JournalWriter> {
    if (policy.fsync === 'interval' && !(policy.everyMs >= 0)) throw new RangeError('fsync interval must be ≥ 0 ms');
    const fh = await open(path, 'wx+', 0o600).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      return open(path, 'r+');
    });
    try {
      const size = (await fh.stat()).size;
      if (size > 0) {
        const { header: stored } = await readFileStart(fh, path);
        return new JournalWriter(path, fh, stored, policy, size, lastSeq);
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
  /** Records handed to the OS so far. */
  get written(): number { return this.#written; }
  /** Records synced to the disk so far. */
  get synced(): number { return this.#synced; }
  /** Records durable under the policy so far (synced for `batch`, written otherwise). */
  get durable(): number { return this.policy.fsync === 'batch' ? this.#synced : this.#written; }
  /** Seq of the last record appended (0 before the first). */
  get appendedSeq(): number { return this.#appendedSeq; }
  /** Seq of the last record durable under the policy (0 before the first). */
  get durableSeq(): number {
    const local = this.policy.fsync === 'batch' ? this.#syncedSeq : this.#writtenSeq;
    return local < this.#replicatedSeq ? local : this.#replicatedSeq;
  }
  /** File size once everything appended is written. */
  get bytes(): number { return this.#pos + this.#inFlight + this.#frontLen; }
  /** The error that failed the writer, if any. */
  get failure(): JournalWriteError | null { return this.#error; }

  /**
   * Ships every buffer written from now on to `tap` (see JournalTap); what the file holds already counts as
   * replicated. From now on `durableSeq` also waits for `replicated(seq)`. One tap per writer.
   */
  tap(tap: JournalTap): void {
    if (this.#tap !== undefined) throw new InvariantError('the journal already has a tap');
    this.#tap = tap;
    this.#replicatedSeq = this.#appendedSeq;
  }

  /** The tap's replica acknowledged every record up to the group-closing `seq`: releases what waits on it. */
  replicated(seq: number): void {
    if (seq <= this.#replicatedSeq || this.#error !== null) return;
    this.#replicatedSeq = seq;
    this.#watcher?.durable(this.durableSeq);
  }

  /**
   * The replica refused or lost a batch (a deposed leader, a broken connection): fails the writer for good,
   * as a local write error would (`code` names why, e.g. EFENCED), so intake stops and nothing held is sent.
   */
  replicaFailed(code: string, cause: unknown): void {
    if (this.#error === null) this.#fail(Object.assign(new Error(cause instanceof Error ? cause.message : String(cause)), { code }));
  }

  /** Sets the one watcher of this writer's progress (see JournalWatcher); a later call replaces it. */
  /** Told how long each flush took: kind 0 a write of buffered records, 1 an fdatasync (api/metrics.ts). */
  flushObserver: ((kind: 0 | 1, seconds: number) => void) | undefined = undefined;

  watch(watcher: JournalWatcher | undefined): void {
    this.#watcher = watcher;
  }

  /**
   * Buffers one framed record of `cmd` and schedules a flush at the end of this event-loop turn. After a
   * failure the record is dropped (see the module contract); after `close` it throws. `continues`: the
   * next record appended belongs to the same group (format.ts); `durableSeq` only ever names the last
   * record of a group, so nothing waiting on a record inside a group is released before the whole group.
   */
  append(cmd: Command, continues = false): void {
    if (this.#closed || this.#closing) throw new InvariantError('journal writer is closed');
    if (this.#error !== null) return;
    const at = this.#frontLen;
    let n = encodeRecordInto(cmd, this.#front, at + FRAME_BYTES);
    while (n < 0) {
      const bigger = new Uint8Array(this.#front.length * 2);
      bigger.set(this.#front.subarray(0, at));
      this.#front = bigger;
      n = encodeRecordInto(cmd, this.#front, at + FRAME_BYTES);
    }
    if (n > MAX_RECORD_BYTES) throw new InvariantError('journal record above MAX_RECORD_BYTES');
    writeFrame(this.#front, at, n, continues);
    this.#frontLen = at + FRAME_BYTES + n;
    this.#frontRecords++;
    if (!continues) this.#frontLastSeq = cmd.seq;
    this.#frontTailSeq = cmd.seq;
    this.#frontTailOpen = continues;
    this.#appended++;
    this.#appendedSeq = cmd.seq;
    if (!this.#autoFlush) {
      this.#autoFlush = true;
      setImmediate(this.#flushAppended);
    }
  }

  /** Resolves when the record with seq `seq` (the last of its group) is durable under the policy. */
  async waitDurable(seq: number): Promise<void> {
    while (this.durableSeq < seq) {
      if (this.#error !== null) throw this.#error;
      await this.flush();
      if (this.durableSeq < seq) await new Promise((r) => setImmediate(r));
    }
  }

  /** Resolves when every record appended before this call is durable under the policy. */
  flush(): Promise<void> {
    if (this.#error !== null) return Promise.reject(this.#error);
    const target = this.#appended;
    if (target <= this.durable) return Promise.resolve();
    const p = new Promise<void>((resolve, reject) => this.#waiters.push({ target, resolve, reject }));
    this.#request(target);
    return p;
  }

  /**
   * Starts a new segment (segments.ts): waits until everything appended is durable and ends outside a group
   * (so no group spans two files), syncs and closes the file, renames it to `archivePath`, and opens a new
   * file at `path` whose header says the next record's seq. Records appended meanwhile go to the new file
   * (their replies wait for it). Resolves with the archived segment's first seq. One rotation at a time.
   */
  async rotate(archivePath: (firstSeq: number) => string): Promise<number> {
    if (this.#closed || this.#closing) throw new InvariantError('journal writer is closed');
    if (this.#rotating) throw new InvariantError('journal rotation already in progress');
    // Wait for a moment when no write or sync is in flight and what was written ends outside a group;
    // records still in the buffer then belong to the new segment.
    for (;;) {
      if (this.#error !== null) throw this.#error;
      if (!this.#writing && !this.#syncing && !this.#writtenTailOpen) break;
      if (this.#writtenTailOpen && !this.#writing) await this.flush();
      else await new Promise((r) => setImmediate(r));
    }
    this.#rotating = true;
    const firstSeq = this.#segmentFirstSeq;
    try {
      if (this.#synced < this.#written) await this.#fh.datasync();
      await this.#fh.close();
      await rename(this.path, archivePath(firstSeq));
      const next = this.#writtenTailSeq + 1;
      const fh = await open(this.path, 'wx+', 0o600);
      const start = encodeFileStart(encodeHeader({ ...this.header, firstSeq: next }));
      await writeAll(fh, start, start.length, 0);
      await fh.datasync();
      await syncDir(this.path);
      this.#fh = fh;
      this.#pos = start.length;
      this.#segmentFirstSeq = next;
      this.#synced = this.#written;
      this.#syncedSeq = this.#writtenSeq;
    } catch (e) {
      this.#fail(e);
      throw this.#error!;
    } finally {
      this.#rotating = false;
    }
    this.#pump();
    return firstSeq;
  }

  /** Seq of the first record of the current segment (the header's `firstSeq`). */
  get segmentFirstSeq(): number { return this.#segmentFirstSeq; }

  /** Writes and syncs everything appended (every policy), then closes the file. Further appends throw. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
    try {
      await this.flush();
      if (this.#error === null && this.#synced < this.#written) await this.#syncNow();
    } finally {
      this.#closed = true;
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#timer = null;
      await this.#fh.close();
    }
  }

  /**
   * TEST ONLY (fault injection): the next write or sync of the file fails with errno `code` (ENOSPC, EIO…),
   * as a full or broken disk would make it; the writer then fails as described in the module header.
   */
  failNextIoForTesting(code: string): void {
    this.#injected = code;
  }

  /** Throws the injected fault, once. */
  #faultPoint(): void {
    const code = this.#injected;
    if (code === undefined) return;
    this.#injected = undefined;
    throw Object.assign(new Error(`${code} (injected)`), { code });
  }

  readonly #flushAppended = (): void => {
    this.#autoFlush = false;
    this.#request(this.#appended);
  };

  #request(target: number): void {
    if (target > this.#requested) this.#requested = target;
    this.#pump();
  }

  #pump(): void {
    if (this.#error !== null || this.#closed || this.#rotating) return;
    if (!this.#writing && this.#frontLen > 0 && this.#written < this.#requested) void this.#write();
    if (!this.#syncing && this.#written > this.#synced && this.policy.fsync !== 'never') this.#scheduleSync();
  }

  async #write(): Promise<void> {
    const buf = this.#front;
    const len = this.#frontLen;
    const records = this.#frontRecords;
    const lastSeq = this.#frontLastSeq;
    const tailSeq = this.#frontTailSeq;
    const tailOpen = this.#frontTailOpen;
    this.#front = this.#back;
    this.#back = buf;
    this.#frontLen = 0;
    this.#frontRecords = 0;
    // A buffer may end inside a group: its last boundary is what the write makes durable.
    this.#frontLastSeq = lastSeq;
    this.#writing = true;
    this.#inFlight = len;
    const t0 = performance.now();
    this.#tap?.batch(buf.subarray(0, len), tailSeq, lastSeq);
    try {
      this.#faultPoint();
      await writeAll(this.#fh, buf, len, this.#pos);
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.flushObserver?.(0, (performance.now() - t0) / 1000);
    this.#pos += len;
    this.#inFlight = 0;
    this.#written += records;
    this.#writtenSeq = lastSeq;
    this.#writtenTailSeq = tailSeq;
    this.#writtenTailOpen = tailOpen;
    this.#writing = false;
    if (this.policy.fsync !== 'batch') this.#settle();
    this.#pump();
  }

  #scheduleSync(): void {
    const wait = this.policy.fsync === 'interval' ? this.#lastSyncStart + this.policy.everyMs - performance.now() : 0;
    if (wait <= 0 || this.#closing) {
      void this.#sync();
    } else if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#pump();
      }, Math.ceil(wait));
      // A background sync alone must not keep the process alive (close() syncs what is left).
      this.#timer.unref();
    }
  }

  async #sync(): Promise<void> {
    const target = this.#written;
    const targetSeq = this.#writtenSeq;
    this.#syncing = true;
    this.#lastSyncStart = performance.now();
    try {
      this.#faultPoint();
      await this.#fh.datasync();
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.flushObserver?.(1, (performance.now() - this.#lastSyncStart) / 1000);
    this.#syncing = false;
    this.#synced = target;
    this.#syncedSeq = targetSeq;
    if (this.policy.fsync === 'batch') this.#settle();
    this.#pump();
  }

  /** A final sync at close, whatever the policy (waits for one in progress first). */
  async #syncNow(): Promise<void> {
    while (this.#syncing) await new Promise((r) => setImmediate(r));
    if (this.#error === null && this.#synced < this.#written) await this.#sync();
  }

  #settle(): void {
    const durable = this.durable;
    let i = 0;
    while (i < this.#waiters.length && this.#waiters[i]!.target <= durable) this.#waiters[i++]!.resolve();
    if (i > 0) this.#waiters.splice(0, i);
    this.#watcher?.durable(this.durableSeq);
  }

  #fail(e: unknown): void {
    const error = new JournalWriteError(this.path, (e as NodeJS.ErrnoException).code ?? 'EIO', e);
    this.#error = error;
    this.#writing = false;
    this.#syncing = false;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    for (const w of this.#waiters) w.reject(error);
    this.#waiters.length = 0;
    this.#watcher?.failed(error);
  }
}
