/**
 * Leadership of the replicated log: a lease in the KV bucket `<stream>-lease`, key `leader`, value
 * `{node, address, epoch, until}` (until: wall-clock ms). Changes are compare-and-set on the entry's
 * revision (`kv.create` when absent, `kv.update(rev)` otherwise), so two candidates never both win.
 *
 * - A candidate takes the lease when it is absent or expired (`until` passed), with `epoch` one above the
 *   highest it knows (the lease's and the stream's).
 * - The holder renews it every `ttlMs / 3`; a renewal whose revision is stale (someone took it) or that
 *   cannot reach the server before `until` loses it: `onLost` is told once, and the holder must stop
 *   writing. The stream's expected-sequence check fences any publish it still had in flight.
 * - `release` sets `until` to 0 on a clean shutdown, so a follower takes over at once.
 * Lease times are wall-clock on each node: skew between machines shortens or lengthens the lease, never
 * lets two writers append (the stream refuses the stale one).
 */
import type { KV } from '@nats-io/kv';

export interface LeaseValue {
  readonly node: string;
  readonly address: string;
  readonly epoch: number;
  readonly until: number;
}

const KEY = 'leader';

export class LeaderLease {
  readonly #kv: KV;
  readonly #node: string;
  readonly #address: string;
  readonly ttlMs: number;
  #revision = 0;
  #held: LeaseValue | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lost = false;

  constructor(kv: KV, node: string, address: string, ttlMs: number) {
    this.#kv = kv;
    this.#node = node;
    this.#address = address;
    this.ttlMs = ttlMs;
  }

  /** The lease as stored now and its revision (undefined when none was ever taken). */
  async read(): Promise<{ value: LeaseValue; revision: number } | undefined> {
    const e = await this.#kv.get(KEY);
    if (e === null || e.operation !== 'PUT' || e.length === 0) return undefined;
    return { value: e.json<LeaseValue>(), revision: e.revision };
  }

  /** The lease this node holds, if any. */
  get held(): LeaseValue | undefined { return this.#lost ? undefined : this.#held; }

  /**
   * Takes the lease if it is absent or expired, with an epoch above `minEpoch` and the stored one; returns
   * the new epoch, or undefined when someone holds it (or won the race).
   */
  async tryAcquire(minEpoch: number): Promise<number | undefined> {
    const now = Date.now();
    const cur = await this.read();
    if (cur !== undefined && cur.value.until > now && cur.value.node !== this.#node) return undefined;
    const epoch = Math.max(minEpoch, cur?.value.epoch ?? 0) + 1;
    const value: LeaseValue = { node: this.#node, address: this.#address, epoch, until: now + this.ttlMs };
    try {
      this.#revision = cur === undefined ? await this.#kv.create(KEY, JSON.stringify(value)) : await this.#kv.update(KEY, JSON.stringify(value), cur.revision);
    } catch {
      return undefined;
    }
    this.#held = value;
    this.#lost = false;
    return epoch;
  }

  /** Renews the held lease every third of its time until it is lost or released; `onLost` once. */
  keep(onLost: (why: string) => void): void {
    const renew = async (): Promise<void> => {
      const h = this.#held;
      if (h === undefined || this.#lost) return;
      const value: LeaseValue = { ...h, until: Date.now() + this.ttlMs };
      try {
        this.#revision = await this.#kv.update(KEY, JSON.stringify(value), this.#revision);
        this.#held = value;
      } catch (e) {
        if (this.#timer === undefined) return;
        // A renewal that fails while the lease still runs is retried; once it ran out, it is lost.
        if (Date.now() < h.until && !/wrong last sequence/i.test((e as Error).message)) return;
        this.#lost = true;
        this.stop();
        onLost(`lease of epoch ${h.epoch} lost: ${(e as Error).message}`);
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
