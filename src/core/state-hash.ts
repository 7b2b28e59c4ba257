/**
 * A 64-bit (two-lane FNV-1a style) hash over a sequence of numbers, for state hashes that must agree across
 * implementations and threads. Numbers are fed as safe integers (or small enums); each is split into its low
 * 32 bits and the rest, so every safe integer hashes distinctly. Not cryptographic.
 * Allocation: none until `digest()`, which returns a 16-hex-digit string.
 */
const TWO_32 = 4294967296;

export class StateHasher {
  #a = 0x811c9dc5 | 0;
  #b = 0x01000193 ^ 0x5bd1e995;

  reset(): this {
    this.#a = 0x811c9dc5 | 0;
    this.#b = 0x01000193 ^ 0x5bd1e995;
    return this;
  }

  /** Mixes one number (safe integer expected; negative values hash by their two's-complement halves). */
  add(n: number): this {
    const lo = n | 0;
    const hi = Math.floor(n / TWO_32) | 0;
    this.#a = Math.imul(this.#a ^ lo, 0x01000193);
    this.#a = Math.imul(this.#a ^ hi, 0x01000193);
    this.#b = Math.imul(this.#b ^ hi, 0x5bd1e995);
    this.#b ^= this.#b >>> 15;
    this.#b = Math.imul(this.#b ^ lo, 0x5bd1e995);
    this.#b ^= this.#b >>> 13;
    return this;
  }

  /** Mixes a string (for ids such as market names). */
  addString(s: string): this {
    this.add(s.length);
    for (let i = 0; i < s.length; i++) this.add(s.charCodeAt(i));
    return this;
  }

  digest(): string {
    return (this.#a >>> 0).toString(16).padStart(8, '0') + (this.#b >>> 0).toString(16).padStart(8, '0');
  }
}
