// Test helpers for the HTTP front: a simulator on 127.0.0.1 with an ephemeral port, and Gate-signed fetches
// whose signature is computed here with node:crypto (independently of src/api/auth).
import { createHash, createHmac } from 'node:crypto';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { type Simulator, startSimulator } from '../../src/main.js';

export const TEST_CONFIG: SimulatorConfig = {
  currency_pairs: [
    { id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6,
      min_base_amount: '0.0001', min_quote_amount: '1', fee: '0.2', maker_fee_rate: '0.1' },
    { id: 'ETH_USDT', base: 'ETH', quote: 'USDT', precision: 2, amount_precision: 4,
      min_base_amount: '0.001', min_quote_amount: '1', fee: '0.2', maker_fee_rate: '0.2' },
  ],
  users: [
    { uid: 10001, keys: [{ key: 'k1', secret: 's1', mode: 1, perms: 'all', ip_whitelist: [] }],
      balances: { spot: { USDT: '100000', BTC: '2', ETH: '10' } } },
    { uid: 10002, keys: [{ key: 'k2', secret: 's2', mode: 1, perms: 'all' }],
      balances: { spot: { USDT: '50000', BTC: '1', ETH: '10' } } },
    { uid: 10003, keys: [
      { key: 'ro', secret: 'ros', perms: [{ name: 'spot', read_only: true }] },
      { key: 'wallet-only', secret: 'ws', perms: [{ name: 'wallet' }] },
      { key: 'far', secret: 'fs', ip_whitelist: ['10.1.2.3'] },
    ], balances: { spot: { USDT: '10' } } },
    { uid: 10004, locked: true, keys: [{ key: 'locked', secret: 'ls' }] },
    { uid: 10005, main_uid: 10004, locked: true, keys: [{ key: 'sublocked', secret: 'sls' }] },
  ],
  stp_groups: [{ id: 7, name: 'desk', users: [10003] }],
  rate_limits: false,
};

export const startTestSimulator = (overrides: Partial<SimulatorConfig> = {}): Promise<Simulator> =>
  startSimulator({ ...TEST_CONFIG, ...overrides }, { host: '127.0.0.1', port: 0 });

export interface Signed {
  method?: string;
  path: string;
  query?: string;
  body?: string;
  key?: string;
  secret?: string;
  timestamp?: string;
  headers?: Record<string, string>;
}

/** Gate's signature, computed the way the clients do. */
export function gateSign(secret: string, method: string, path: string, query: string, body: string, ts: string): string {
  const bodyHash = createHash('sha512').update(body).digest('hex');
  return createHmac('sha512', secret).update([method, path, query, bodyHash, ts].join('\n')).digest('hex');
}

/** A signed request; `query` is signed decoded and sent encoded as given. */
export async function signedFetch(port: number, r: Signed): Promise<{ status: number; body: unknown; headers: Headers }> {
  const method = r.method ?? 'GET';
  const query = r.query ?? '';
  const body = r.body ?? '';
  const ts = r.timestamp ?? String(Math.floor(Date.now() / 1000));
  const key = r.key ?? 'k1';
  const secret = r.secret ?? 's1';
  const sign = gateSign(secret, method, r.path, decodeURIComponent(query), body, ts);
  const url = `http://127.0.0.1:${port}${r.path}${query === '' ? '' : `?${query}`}`;
  const headers: Record<string, string> = { KEY: key, Timestamp: ts, SIGN: sign, ...(body !== '' ? { 'Content-Type': 'application/json' } : {}), ...r.headers };
  const res = await fetch(url, { method, headers, body: body === '' ? undefined : body });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) as unknown, headers: res.headers };
}

export async function plainFetch(port: number, path: string, init?: RequestInit): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* non-JSON bodies are returned as text */ }
  return { status: res.status, body, headers: res.headers };
}
