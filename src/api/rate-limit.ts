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
 *   futures-place     per UID                    100 / 1 s  (perpetual create, batch create, amend; fill-ratio tiers
 *                                                            raise it for VIP 14+: fill-ratio.ts)
 *   futures-cancel    per UID                    200 / 1 s  (perpetual single, batch, all and price-order cancels)
 *   futures           per UID and endpoint       200 / 10 s (every other private /futures/{settle} route)
 *   delivery-place    per UID                    500 / 10 s (delivery create)
 *   delivery-cancel   per UID                    500 / 10 s (delivery single, all and price-order cancels)
 *   delivery          per UID and endpoint       200 / 10 s (every other private /delivery/{settle} route)
 *   options-place     per UID                    200 / 1 s  (options order create)
 *   options-cancel    per UID                    200 / 1 s  (options single and cancel-all)
 *   private           per UID and endpoint       150 / 10 s (every other private group)
 *
 * `scale` multiplies every limit (tests, load generation); a disabled limiter admits everything.
 *
 * Every limited answer carries Gate's headers (written by Reply from these figures): X-Gate-RateLimit-Limit (the window's limit),
 * X-Gate-RateLimit-Requests-Remain (what is left in it after this request) and X-Gate-RateLimit-Reset-Timestamp
 * (ms: when the window ends if the limit was exceeded, otherwise the current time, as Gate documents). `take`
 * leaves these figures in `last` (one object, overwritten: no allocation per request).
 * Cost: one Map lookup per key; the map is cleared when it passes `maxKeys` (a flood of distinct IPs
 * cannot grow it without bound).
 */
export type LimitClass = 'public' | 'spot-place' | 'spot-cancel' | 'spot' | 'wallet' | 'private' | 'wallet-funds' | 'sub-accounts' | 'unified-loans'
  | 'futures-place' | 'futures-cancel' | 'futures' | 'delivery-place' | 'delivery-cancel' | 'delivery' | 'options-place'
  | 'options-cancel';

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
  // Gate's perpetual-futures limits: 100 places / s, 200 cancels / s, 200 other private requests / 10 s.
  'futures-place': { limit: 100, windowMs: 1_000 },
  'futures-cancel': { limit: 200, windowMs: 1_000 },
  futures: { limit: 200, windowMs: 10_000 },
  // Delivery: 500 places and 500 cancels per 10 s, 200 other private requests / 10 s.
  'delivery-place': { limit: 500, windowMs: 10_000 },
  'delivery-cancel': { limit: 500, windowMs: 10_000 },
  delivery: { limit: 200, windowMs: 10_000 },
  // Gate's options limits (seed 8.1): 200 places / s and 200 cancels / s per UID.
  'options-place': { limit: 200, windowMs: 1_000 },
  'options-cancel': { limit: 200, windowMs: 1_000 },
};

export interface RateLimitOptions {
  readonly enabled: boolean;
  /** Multiplier of every limit; default 1. */
  readonly scale?: number | undefined;
  readonly maxKeys?: number | undefined;
}

interface Window { start: number; count: number }

/** The figures of the last `take`: the window's limit, what remains, and the reset timestamp (ms). */
export interface RateFigures { limit: number; remain: number; resetMs: number }

export class RateLimiter {
  readonly #enabled: boolean;
  readonly #scale: number;
  readonly #maxKeys: number;
  readonly #windows = new Map<string, Window>();
  /** Figures of the last `take` (overwritten by the next). */
  readonly last: RateFigures = { limit: 0, remain: 0, resetMs: 0 };

  constructor(options: RateLimitOptions) {
    this.#enabled = options.enabled;
    this.#scale = options.scale ?? 1;
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /**
   * Counts one request of class `cls` under `key`; false when it is over the limit (nothing counted then).
   * `baseLimit` replaces the class's limit (before `scale`): the fill-ratio tier of a placement (fill-ratio.ts).
   */
  take(cls: LimitClass, key: string, nowMs: number, baseLimit?: number): boolean {
    if (!this.#enabled) return true;
    const rule = RULES[cls];
    const id = `${cls}|${key}`;
    let w = this.#windows.get(id);
    if (w === undefined || nowMs - w.start >= rule.windowMs) {
      if (w === undefined && this.#windows.size >= this.#maxKeys) this.#windows.clear();
      w = { start: nowMs, count: 0 };
      this.#windows.set(id, w);
    }
    const limit = Math.max(1, Math.floor((baseLimit ?? rule.limit) * this.#scale));
    const last = this.last;
    last.limit = limit;
    if (w.count >= limit) {
      last.remain = 0;
      last.resetMs = w.start + rule.windowMs;
      return false;
    }
    w.count++;
    last.remain = limit - w.count;
    last.resetMs = nowMs;
    return true;
  }
}

