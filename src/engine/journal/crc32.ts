/**
 * CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): the same value as `zlib.crc32`, computed over a
 * byte range of an array, so a checksum never needs a `subarray` view (no allocation per record).
 * Slicing-by-4 over 4 KiB of tables built once at load. Typed-array reads use `!`: indexes are masked
 * to 0..255 or bounded by `end ≤ bytes.length`.
 */
const T = new Int32Array(4 * 256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  T[n] = c;
}
for (let n = 0; n < 256; n++) {
  for (let t = 1; t < 4; t++) T[t * 256 + n] = (T[(t - 1) * 256 + n]! >>> 8) ^ T[T[(t - 1) * 256 + n]! & 0xff]!;
}

/** CRC-32 of `bytes[start, end)`, continuing from `crc` (0 to start). Returns an unsigned 32-bit value. */
export function crc32(bytes: Uint8Array, start: number, end: number, crc = 0): number {
  let c = ~crc;
  let i = start;
  const end4 = end - 3;
  for (; i < end4; i += 4) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c = T[768 + (c & 0xff)]! ^ T[512 + ((c >>> 8) & 0xff)]! ^ T[256 + ((c >>> 16) & 0xff)]! ^ T[c >>> 24]!;
  }
  for (; i < end; i++) c = T[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
