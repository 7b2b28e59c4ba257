/**
 * Gate's APIv4 request signature (seed part 5, reference A.2):
 *
 *   SIGN = hex(HMAC-SHA512(secret, METHOD \n PATH \n QUERY \n hex(SHA512(body)) \n TIMESTAMP))
 *
 * PATH is the request path as received (with `/api/v4`); QUERY the query string percent-decoded, in URL
 * order ('' when none); the body hash covers the raw bytes as received ('' hashes to cf83e1…).
 * Cost: one SHA-512 of the body plus one HMAC per query form tried (at most three on a mismatch).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const sha512Hex = (text: string): string => createHash('sha512').update(text).digest('hex');

/** The signature string of a request. */
export function signaturePayload(method: string, path: string, query: string, body: string, timestamp: string): string {
  return `${method}\n${path}\n${query}\n${sha512Hex(body)}\n${timestamp}`;
}

/** SIGN for a request (what clients compute). */
export function signRequest(secret: string, method: string, path: string, query: string, body: string, timestamp: string): string {
  return createHmac('sha512', secret).update(signaturePayload(method, path, query, body, timestamp)).digest('hex');
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
  const out: string[] = [];
  for (const q of [decode(rawQuery.replace(/\+/g, '%20')), decode(rawQuery), rawQuery]) {
    if (q !== undefined && !out.includes(q)) out.push(q);
  }
  return out;
}

/** True when `sign` (lower-case hex) matches the request under one of the query forms. */
export function verifySignature(secret: string, method: string, path: string, rawQuery: string, body: string,
  timestamp: string, sign: string): boolean {
  if (!/^[0-9a-fA-F]{128}$/.test(sign)) return false;
  const given = Buffer.from(sign.toLowerCase(), 'hex');
  const bodyHash = sha512Hex(body);
  for (const q of queryCandidates(rawQuery)) {
    const mac = createHmac('sha512', secret).update(`${method}\n${path}\n${q}\n${bodyHash}\n${timestamp}`).digest();
    if (timingSafeEqual(mac, given)) return true;
  }
  return false;
}
