/**
 * Seeded pseudo-random numbers (sfc32: small, fast, 128-bit state), for everything that must replay
 * identically from a seed: generators in tests and benchmarks, the market maker, latency models.
 * Not cryptographic. Allocation: none per draw.
 */
export class Prng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    this.#a = 0x9e3779b9;
    this.#b = 0x243f6a88;
    this.#c = 0xb7e15162;
    this.#d = seed | 0;
    // Fold in the high part of seeds beyond 32 bits, then discard the first outputs (they correlate with the seed).
    this.#c ^= Math.floor(seed / 4294967296) | 0;
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  /** Uniform integer in [0, 2^32). */
  nextU32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1) with 53 random bits. */
  nextFloat(): number {
    return (this.nextU32() * 2097152 + (this.nextU32() >>> 11)) / 9007199254740992;
  }

  /** Uniform integer in [0, n) for 0 < n ≤ 2^53 (Java's Random.nextInt(n) role). */
  nextInt(n: number): number {
    return Math.floor(this.nextFloat() * n);
  }

  /** Uniform integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.nextInt(hi - lo + 1);
  }

  /** Standard normal draw (Box–Muller; uses two uniforms). */
  nextGaussian(): number {
    let u = this.nextFloat();
    while (u === 0) u = this.nextFloat();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.nextFloat());
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.nextFloat() < p;
  }
}
