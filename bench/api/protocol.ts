/**
 * What the HTTP benchmark's processes say to each other over their IPC channels, and the Gate requests the
 * load generator sends: built and signed (Gate's HMAC-SHA512 scheme, computed here with node:crypto) as raw
 * HTTP/1.1 bytes before any timing starts.
 */
import { createHash, createHmac } from 'node:crypto';

export const PAIR = 'BTC_USDT';

export interface BenchKey {
  readonly key: string;
  readonly secret: string;
}

/** The simulator's benchmark users (sim-server.ts), one key each. */
export const BENCH_KEYS: readonly BenchKey[] = [1, 2, 3, 4].map((i) => ({ key: `bench-key-${i}`, secret: `bench-secret-${i}` }));

/** hello: `GET /`. orders: signed limit-order placements interleaved with signed cancels. order_book: public depth. */
export type WorkloadKind = 'hello' | 'orders' | 'order_book';

export interface Workload {
  readonly kind: WorkloadKind;
  /** orders only: the funded users' keys; order j belongs to keys[j % keys.length]. */
  readonly keys?: readonly BenchKey[];
}

export interface PhaseSpec {
  readonly port: number;
  readonly workload: Workload;
  readonly connections: number;
  /** closed: every connection sends its next request when the previous answer arrives. open: a fixed schedule. */
  readonly mode: 'closed' | 'open';
  /** open only: requests per second. */
  readonly rate?: number;
  readonly warmupS: number;
  readonly durationS: number;
  /** Hard bound on requests sent in the phase (warm-up included). */
  readonly maxRequests: number;
}

export interface LatencySummary {
  readonly count: number;
  readonly p50_us: number;
  readonly p99_us: number;
  readonly p999_us: number;
  readonly max_us: number;
}

export interface PhaseResult {
  /** Answers completed inside the measured window, per second of it. */
  readonly requests_per_sec: number;
  /** Measured window, seconds. */
  readonly duration_s: number;
  readonly completed: number;
  /** Answers that were not 2xx, or requests unanswered at the phase's deadline (measured window). */
  readonly errors: number;
  readonly first_error?: string;
  /** closed: service time per request; open: from the scheduled send time to the complete answer. */
  readonly latency: LatencySummary;
  /** orders only: the same, split by request type. */
  readonly by_type?: Readonly<Record<string, LatencySummary>>;
  /** open only: how late the generator itself sent, p99 (µs), a check on the generator. */
  readonly send_lag_p99_us?: number;
}

export type ToGenerator =
  | { readonly type: 'phase'; readonly spec: PhaseSpec }
  | { readonly type: 'exit' };

export type FromGenerator =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly result: PhaseResult }
  | { readonly type: 'failed'; readonly message: string };

export type FromServer = { readonly type: 'listening'; readonly port: number };

/** Gate's signature: hex HMAC-SHA512 of `METHOD\npath\nquery\nhex(SHA512(body))\ntimestamp`. */
export function gateSign(secret: string, method: string, path: string, query: string, body: string, ts: string): string {
  const bodyHash = createHash('sha512').update(body).digest('hex');
  return createHmac('sha512', secret).update([method, path, query, bodyHash, ts].join('\n')).digest('hex');
}

function rawRequest(method: string, target: string, headers: readonly string[], body: string): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers];
  if (body !== '') lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
}

function signedRequest(k: BenchKey, method: string, path: string, query: string, body: string, ts: string): Buffer {
  const sign = gateSign(k.secret, method, path, query, body, ts);
  return rawRequest(method, query === '' ? path : `${path}?${query}`, [`KEY: ${k.key}`, `Timestamp: ${ts}`, `SIGN: ${sign}`], body);
}

export const helloRequest = (): Buffer => rawRequest('GET', '/', [], '');

export const orderBookRequest = (): Buffer => rawRequest('GET', `/api/v4/spot/order_book?currency_pair=${PAIR}&limit=10`, [], '');

/**
 * Order j of the ring: a GTC limit that rests (buys 40,000–44,990, sells 60,000–64,990, so never crossing),
 * sides alternating, identified by its client text so that its cancel can be signed before it exists.
 */
export function placeRequest(keys: readonly BenchKey[], j: number, ts: string): Buffer {
  const buy = j % 2 === 0;
  const price = (buy ? 40_000 : 60_000) + (j % 500) * 10;
  const body = JSON.stringify({ text: `t-b${j}`, currency_pair: PAIR, type: 'limit', account: 'spot',
    side: buy ? 'buy' : 'sell', amount: '0.001', price: String(price), time_in_force: 'gtc' });
  return signedRequest(keys[j % keys.length]!, 'POST', '/api/v4/spot/orders', '', body, ts);
}

export function cancelRequest(keys: readonly BenchKey[], j: number, ts: string): Buffer {
  return signedRequest(keys[j % keys.length]!, 'DELETE', `/api/v4/spot/orders/t-b${j}`, `currency_pair=${PAIR}`, '', ts);
}

/** Summary of latency samples in µs (sorted in place). */
export function summarize(samples: Float64Array): LatencySummary {
  samples.sort();
  const at = (q: number): number => (samples.length === 0 ? Number.NaN
    : Math.round(samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)]!));
  return { count: samples.length, p50_us: at(0.5), p99_us: at(0.99), p999_us: at(0.999), max_us: at(1) };
}
