/**
 * Request rates of Gate's seed section 8.1, as fixed windows counted per key:
 *
 *   public            per IP and endpoint        200 / 10 s
 *   spot-place        per UID and currency pair  10 / 1 s   (create, batch create, amend, batch amend)
 *   spot-cancel       per UID                    200 / 1 s  (single, batch and cancel-all)
 *   spot, wallet      per UID and endpoint       200 / 10 s
 *   wallet-funds      per UID and endpoint       80 / 10 s  (transfers, sub-account transfers and balances)
 *   sub-accounts      per UID and endpoint       80 / 10 s  (every /sub_accounts route)
 *   unified-loans     per UID and endpoint       15 / 10 s  (POST /unified/loans)
 *   private           per UID and endpoint       150 / 10 s (every other private group)
 *
 * `scale` multiplies every limit (tests, load generation); a disabled limiter admits everything.
 * Cost: one Map lookup per key; the map is cleared when it passes `maxKeys` (a flood of distinct IPs
 * cannot grow it without bound).
 */
export type LimitClass = 'public' | 'spot-place' | 'spot-cancel' | 'spot' | 'wallet' | 'private' | 'wallet-funds' | 'sub-accounts' | 'unified-loans';

const RULES: Readonly<Record<LimitClass, { limit: number; windowMs: number }>> = {
  public: { limit: 200, windowMs: 10_000 },
  'spot-place': { limit: 10, windowMs: 1_000 },
  'spot-cancel': { limit: 200, windowMs: 1_000 },
  spot: { limit: 200, windowMs: 10_000 },
  wallet: { limit: 200, windowMs: 10_000 },
  private: { limit: 150, windowMs: 10_000 },
  'wallet-funds': { limit: 80, windowMs: 10_000 },
  'sub-accounts': { limit: 80, windowMs: 10_000 },
  'unified-loans': { limit: 15, windowMs: 10_000 },
};

export interface RateLimitOptions {
  readonly enabled: boolean;
  /** Multiplier of every limit; default 1. */
  readonly scale?: number | undefined;
  readonly maxKeys?: number | undefined;
}

interface Window { start: number; count: number }

export class RateLimiter {
  readonly #enabled: boolean;
  readonly #scale: number;
  readonly #maxKeys: number;
  readonly #windows = new Map<string, Window>();

  constructor(options: RateLimitOptions) {
    this.#enabled = options.enabled;
    this.#scale = options.scale ?? 1;
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Counts one request of class `cls` under `key`; false when it is over the limit (nothing counted then). */
  take(cls: LimitClass, key: string, nowMs: number): boolean {
    if (!this.#enabled) return true;
    const rule = RULES[cls];
    const id = `${cls}|${key}`;
    let w = this.#windows.get(id);
    if (w === undefined || nowMs - w.start >= rule.windowMs) {
      if (w === undefined && this.#windows.size >= this.#maxKeys) this.#windows.clear();
      w = { start: nowMs, count: 0 };
      this.#windows.set(id, w);
    }
    if (w.count >= Math.max(1, Math.floor(rule.limit * this.#scale))) return false;
    w.count++;
    return true;
  }
}
