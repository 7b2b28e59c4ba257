/**
 * Gate's APIv4 request signature (seed part 5, reference A.2):
 *
 *   SIGN = hex(HMAC-SHA512(secret, METHOD \n PATH \n QUERY \n hex(SHA512(body)) \n TIMESTAMP))
 *
 * PATH is the request path as received (with `/api/v4`); QUERY the query string percent-decoded, in URL
 * order ('' when none); the body hash covers the raw bytes as received ('' hashes to cf83e1…).
 *
 * Verification computes HMAC from its definition (RFC 2104) with node's one-shot `hash`: the secret's inner
 * and outer pad blocks are derived once per secret and kept (bounded cache; each pad buffer has room for
 * the message or digest after it), so a request costs one SHA-512 of the body plus two SHA-512 calls per
 * query form tried (at most three on a mismatch), and no Hmac object. Allocates the hash outputs only.
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';

/** SHA-512's block size in bytes (the HMAC key pad length). */
const BLOCK = 128;
/** Secrets whose pads are kept; past this the cache starts over (keys are few; a flood cannot grow it). */
const PAD_CACHE_MAX = 4096;

export const sha512Hex = (text: string): string => hash('sha512', text, 'hex');

/** The signature string of a request. */
export function signaturePayload(method: string, path: string, query: string, body: string, timestamp: string): string {
  return `${method}\n${path}\n${query}\n${sha512Hex(body)}\n${timestamp}`;
}

/** SIGN for a request (what clients compute; the reference implementation the fast path is tested against). */
export function signRequest(secret: string, method: string, path: string, query: string, body: string, timestamp: string): string {
  return createHmac('sha512', secret).update(signaturePayload(method, path, query, body, timestamp)).digest('hex');
}

interface Pads {
  /** key ⊕ 0x36, one block, followed by room for the message (grown on demand). */
  inner: Buffer;
  /** key ⊕ 0x5c, one block, followed by room for the inner digest. */
  readonly outer: Buffer;
}

const pads = new Map<string, Pads>();

function padsOf(secret: string): Pads {
  let p = pads.get(secret);
  if (p !== undefined) return p;
  let key = Buffer.from(secret, 'utf8');
  if (key.length > BLOCK) key = hash('sha512', key, 'buffer');
  const inner = Buffer.alloc(BLOCK + 1024, 0x36);
  const outer = Buffer.alloc(BLOCK + 64, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i] = key[i]! ^ 0x36;
    outer[i] = key[i]! ^ 0x5c;
  }
  if (pads.size >= PAD_CACHE_MAX) pads.clear();
  pads.set(secret, p = { inner, outer });
  return p;
}

/** HMAC-SHA512(secret, message) as raw bytes. The message is written after the secret's inner pad in place. */
export function hmacSha512(secret: string, message: string): Buffer {
  const p = padsOf(secret);
  const need = BLOCK + Buffer.byteLength(message, 'utf8');
  if (need > p.inner.length) {
    const grown = Buffer.alloc(need * 2);
    p.inner.copy(grown, 0, 0, BLOCK);
    p.inner = grown;
  }
  p.inner.write(message, BLOCK, 'utf8');
  const inner = hash('sha512', p.inner.subarray(0, need), 'buffer');
  inner.copy(p.outer, BLOCK);
  return hash('sha512', p.outer, 'buffer');
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The query forms a client may have signed, most likely first: decoded with `+` as a space (form encoding),
 * decoded literally, and as received. Duplicates are dropped.
 */
export function queryCandidates(rawQuery: string): string[] {
  if (rawQuery === '') return [''];
  const out: string[] = [];
  for (const q of [decode(rawQuery.replace(/\+/g, '%20')), decode(rawQuery), rawQuery]) {
    if (q !== undefined && !out.includes(q)) out.push(q);
  }
  return out;
}

/** True when `sign` (hex) matches the request under one of the query forms. */
export function verifySignature(secret: string, method: string, path: string, rawQuery: string, body: string,
  timestamp: string, sign: string): boolean {
  if (sign.length !== 128) return false;
  // Hex decoding stops at the first non-hex character, so 64 bytes means 128 valid digits.
  const given = Buffer.from(sign, 'hex');
  if (given.length !== 64) return false;
  const bodyHash = sha512Hex(body);
  for (const q of queryCandidates(rawQuery)) {
    if (timingSafeEqual(hmacSha512(secret, `${method}\n${path}\n${q}\n${bodyHash}\n${timestamp}`), given)) return true;
  }
  return false;
}
