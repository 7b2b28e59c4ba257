/** Rate-limit keys of order placement and amend: one per (UID, currency pair) the request names. */
import { bodyOrQuery, type ApiRequest } from '../http/api-request.js';

/** `${who}|${pair}` for each distinct pair of the body (object or array items) or query. @allocates */
export function placeLimitKeys(req: ApiRequest, who: string): string[] {
  const pairs = new Set<string>();
  if (Array.isArray(req.json)) {
    for (const item of req.json as unknown[]) {
      const p = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).currency_pair : undefined;
      pairs.add(typeof p === 'string' ? p : '');
    }
  } else {
    const p = bodyOrQuery(req, 'currency_pair');
    pairs.add(typeof p === 'string' ? p : '');
  }
  return [...pairs].map((p) => `${who}|${p}`);
}
