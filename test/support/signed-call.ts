// A Gate-signed HTTP request that never throws, for load generators and audits that outlive the servers they
// talk to (kill -9 cycles): a dead or unreachable server gives status 0. The signature is computed here with
// node:crypto, independently of src/api/auth.
import { createHash, createHmac } from 'node:crypto';

export interface CallUser { readonly uid: number; readonly key: string; readonly secret: string }
export interface CallResult { status: number; body: unknown }

/** Gate's APIv4 signature of a request. */
export function sign(secret: string, method: string, path: string, query: string, body: string, ts: string): string {
  const bodyHash = createHash('sha512').update(body).digest('hex');
  return createHmac('sha512', secret).update([method, path, query, bodyHash, ts].join('\n')).digest('hex');
}

/** `method path?query` on 127.0.0.1:`port`, signed as `user` when given; JSON in and out; 10 s at most. */
export async function call(port: number, method: string, path: string, opts: { query?: string; body?: unknown; user?: CallUser } = {}):
  Promise<CallResult> {
  const query = opts.query ?? '';
  const body = opts.body === undefined ? '' : JSON.stringify(opts.body);
  const headers: Record<string, string> = body === '' ? {} : { 'Content-Type': 'application/json' };
  if (opts.user !== undefined) {
    const ts = String(Math.floor(Date.now() / 1000));
    Object.assign(headers, { KEY: opts.user.key, Timestamp: ts, SIGN: sign(opts.user.secret, method, path, query, body, ts) });
  }
  try {
    const r = await fetch(`http://127.0.0.1:${port}${path}${query === '' ? '' : `?${query}`}`, {
      method, headers, body: body === '' ? undefined : body, signal: AbortSignal.timeout(10_000),
    });
    const text = await r.text();
    return { status: r.status, body: text === '' ? undefined : JSON.parse(text) as unknown };
  } catch {
    return { status: 0, body: undefined };
  }
}
