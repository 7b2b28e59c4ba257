/**
 * Leadership of the replicated log: a lease in the KV bucket `<stream>-lease`, key `leader`, value
 * `{node, address, epoch, until}`. Changes are compare-and-set on the entry's revision (`kv.create` when
 * absent, `kv.update(rev)` otherwise). The lease chooses who should write; it is not what keeps two writers
 * apart: that is the stream's expected-sequence check on every publish (log-publisher.ts), so the lease may
 * err on the side of keeping a leader without risking a second writer.
 *
 * Expiry is judged by each candidate on its own clock, from what it observes, not from the holder's `until`:
 * - a lease is free when it is absent, released (`until` 0), or when this candidate has read the same
 *   revision continuously for a whole `ttlMs` (every read succeeded, none showed a renewal);
 * - a failed read restarts that observation. While the NATS servers elect a new leader for the lease's
 *   stream (several seconds when a cluster loses a server), nobody can renew or take the lease; once they
 *   answer again, the holder renews within a third of the lease, long before a candidate has watched one
 *   revision for a whole lease, so a NATS failover does not move the leadership.
 * So clock skew between machines plays no part, and a leader whose process died is replaced between `ttlMs`
 * and `ttlMs` + a third of it (+ one check) after its last renewal.
 *
 * The holder renews every `ttlMs / 3`, one renewal at a time. A renewal that fails for want of an answer
 * (a timeout, no stream leader) keeps the lease and is retried; the holder loses it only when a renewal is
 * refused because the entry changed, and the entry is not its own (a renewal that landed but whose answer
 * was lost leaves the holder's own value there: the holder adopts its revision). `onLost` is told once.
 * `release` sets `until` to 0 on a clean shutdown, so a candidate takes over at once.
 * `until` (holder's wall clock + ttl) is kept for people reading the lease (GET /sim/replication).
 */
import type { KV } from '@nats-io/kv';

export interface LeaseValue {
  readonly node: string;
  readonly address: string;
  readonly epoch: number;
  readonly until: number;
}

export interface LeaseEntry { readonly value: LeaseValue; readonly revision: number }

const KEY = 'leader';

export class LeaderLease {
  readonly #kv: KV;
  readonly #node: string;
  readonly #address: string;
  readonly ttlMs: number;
  #revision = 0;
  #held: LeaseValue | undefined;
  #timer: NodeJS.Timeout | undefined;
  #renewing = false;
  #lost = false;
  /** The revision this candidate has been reading since `#seenSince` (local clock), without a failed read. */
  #seenRevision = -1;
  #seenSince = 0;

  constructor(kv: KV, node: string, address: string, ttlMs: number) {
    this.#kv = kv;
    this.#node = node;
    this.#address = address;
    this.ttlMs = ttlMs;
  }

  /** The lease as stored now and its revision (undefined when none was ever taken). Throws when NATS does not answer. */
  async read(): Promise<LeaseEntry | undefined> {
    const e = await this.#kv.get(KEY);
    if (e === null || e.operation !== 'PUT' || e.length === 0) return undefined;
    return { value: e.json<LeaseValue>(), revision: e.revision };
  }

  /**
   * Reads the lease and records the observation; `free` says whether a candidate may take it now, `since`
   * from when it counts as free (for failover timings). A failed read answers not free and restarts the
   * observation.
   */
  async observe(now = Date.now()): Promise<{ entry: LeaseEntry | undefined; free: boolean; freeSince: number; reachable: boolean }> {
    let entry: LeaseEntry | undefined;
    try {
      entry = await this.read();
    } catch {
      this.#seenRevision = -1;
      return { entry: undefined, free: false, freeSince: 0, reachable: false };
    }
    if (entry === undefined || entry.value.until === 0) {
      this.#seenRevision = -1;
      return { entry, free: true, freeSince: now, reachable: true };
    }
    if (entry.revision !== this.#seenRevision) {
      this.#seenRevision = entry.revision;
      this.#seenSince = now;
    }
    const freeSince = this.#seenSince + this.ttlMs;
    return { entry, free: now >= freeSince, freeSince, reachable: true };
  }

  /** The lease this node holds, if any. */
  get held(): LeaseValue | undefined { return this.#lost ? undefined : this.#held; }

  /**
   * Takes the lease `seen` (as `observe` returned it, found free), with an epoch above `minEpoch` and the
   * stored one; returns the new epoch, or undefined when someone changed it meanwhile (or NATS did not answer).
   */
  async tryAcquire(seen: LeaseEntry | undefined, minEpoch: number): Promise<number | undefined> {
    const epoch = Math.max(minEpoch, seen?.value.epoch ?? 0) + 1;
    const value: LeaseValue = { node: this.#node, address: this.#address, epoch, until: Date.now() + this.ttlMs };
    try {
      this.#revision = seen === undefined ? await this.#kv.create(KEY, JSON.stringify(value)) : await this.#kv.update(KEY, JSON.stringify(value), seen.revision);
    } catch {
      return undefined;
    }
    this.#held = value;
    this.#lost = false;
    this.#seenRevision = -1;
    return epoch;
  }

  /** Renews the held lease every third of its time until it is lost or released; `onLost` once. */
  keep(onLost: (why: string) => void): void {
    const renew = async (): Promise<void> => {
      const h = this.#held;
      if (h === undefined || this.#lost || this.#renewing) return;
      this.#renewing = true;
      const value: LeaseValue = { ...h, until: Date.now() + this.ttlMs };
      try {
        this.#revision = await this.#kv.update(KEY, JSON.stringify(value), this.#revision);
        this.#held = value;
      } catch (e) {
        if (this.#timer === undefined || !/wrong last sequence/i.test((e as Error).message)) return; // No answer: kept, retried.
        // Refused: the entry changed. Still this holder's own value (an earlier renewal landed, its answer was lost)?
        const now = await this.read().catch(() => null);
        if (now === null) return; // Unknown: decided by the next renewal.
        if (now !== undefined && now.value.node === this.#node && now.value.epoch === h.epoch && now.value.until !== 0) {
          this.#revision = now.revision;
          this.#held = now.value;
          return;
        }
        this.#lost = true;
        this.stop();
        onLost(`lease of epoch ${h.epoch} lost: ${now === undefined ? 'deleted' : `now held by ${now.value.node} (epoch ${now.value.epoch})`}`);
      } finally {
        this.#renewing = false;
      }
    };
    this.#timer = setInterval(() => void renew(), Math.max(50, Math.floor(this.ttlMs / 3)));
    this.#timer.unref();
  }

  /** Stops renewing (the lease then expires by itself). */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Stops renewing and marks the lease expired (a clean step-down), if this node still holds it. */
  async release(): Promise<void> {
    this.stop();
    const h = this.#held;
    if (h === undefined || this.#lost) return;
    this.#held = undefined;
    await this.#kv.update(KEY, JSON.stringify({ ...h, until: 0 }), this.#revision).catch(() => undefined);
  }
}
