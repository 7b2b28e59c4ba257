/**
 * soak:server's load generator: a child process (IPC) sending the seeded request mix of workload.ts over raw
 * keep-alive HTTP/1.1 connections (bench/api/http-conn.ts), one request in flight per connection. Requests
 * are built without waiting for answers and signed at send time (Gate's window is 60 s; a soak lasts longer).
 *
 * Phases
 * - closed: each connection sends its next request when its answer arrives, for `seconds`: the maximum rate.
 * - open: request i is due at t0 + i/rate whatever the server does; a due request waits for a free connection
 *   (the backlog, reported) and its latency runs from its due time. Every TICK_MS a timer sends what is due.
 * After `seconds`, nothing new is sent; answers still in flight are awaited up to DRAIN_MS.
 * The one workload (its text counters and resting orders) runs on across phases.
 */
import { performance } from 'node:perf_hooks';
import { type Conn, openAll } from '../bench/api/http-conn.js';
import { gateSign } from '../bench/api/protocol.js';
import { type FromGenerator, type LoadCounts, type PhaseResult, type PhaseSpec, SOAK_USERS, type ToGenerator } from './protocol.js';
import { type SoakRequest, SoakWorkload } from './workload.js';

const TICK_MS = 2;
const DRAIN_MS = 10_000;
/** Latency samples kept (reservoir sampling beyond it). */
const RESERVOIR = 1 << 18;

let workload: SoakWorkload | undefined;
let counts: LoadCounts = newCounts();

function newCounts(): LoadCounts {
  return { sent: 0, answered: 0, ok: 0, errors: {}, first_errors: {}, by_kind: {}, backlog: 0 };
}

/** The raw bytes of `q`, signed now. @allocates */
function encode(q: SoakRequest): Buffer {
  const k = SOAK_USERS[q.user]!;
  const ts = String(Math.floor(Date.now() / 1000));
  const sign = gateSign(k.secret, q.method, q.path, q.query, q.body, ts);
  const target = q.query === '' ? q.path : `${q.path}?${q.query}`;
  const lines = [`${q.method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', `KEY: ${k.key}`, `Timestamp: ${ts}`, `SIGN: ${sign}`];
  if (q.body !== '') lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(q.body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${q.body}`, 'utf8');
}

/** The `label` of an error answer's JSON body (else `HTTP <status>`), and the body's start. */
function labelOf(status: number, answer: Buffer, bodyAt: number): [string, string] {
  const body = answer.toString('utf8', bodyAt, bodyAt + 300);
  const m = /"label"\s*:\s*"([^"]*)"/.exec(body);
  return [m === null ? `HTTP ${status}` : m[1]!, body];
}

class Latencies {
  readonly #s = new Float64Array(RESERVOIR);
  #seen = 0;
  add(us: number): void {
    const i = this.#seen++;
    if (i < RESERVOIR) this.#s[i] = us;
    else {
      const j = Math.floor(Math.random() * (i + 1));
      if (j < RESERVOIR) this.#s[j] = us;
    }
  }
  summary(): { p50_us: number; p99_us: number; max_us: number } {
    const s = this.#s.slice(0, Math.min(this.#seen, RESERVOIR)).sort();
    const at = (q: number): number => (s.length === 0 ? 0 : Math.round(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!));
    return { p50_us: at(0.5), p99_us: at(0.99), max_us: at(1) };
  }
}

async function runPhase(spec: PhaseSpec): Promise<PhaseResult> {
  workload ??= new SoakWorkload(spec.seed, SOAK_USERS.length);
  const w = workload;
  counts = newCounts();
  const c = counts;
  const lat = new Latencies();
  let failed: Error | undefined;
  const conns = await openAll(spec.port, spec.connections, (e) => { failed ??= e; });
  for (const conn of conns) conn.sock.on('close', () => { failed ??= new Error('the server closed a connection'); });
  const t0 = performance.now() + 5;
  const tEnd = t0 + spec.seconds * 1000;
  const interval = spec.mode === 'open' ? 1000 / (spec.rate ?? 1) : 0;
  let head = 0;
  let inFlight = 0;
  const idle: Conn[] = [];
  /** The kind of each connection's request in flight. */
  const kinds = new Map<Conn, string>();
  const due = (now: number): number => (now >= tEnd ? Math.floor(spec.seconds * 1000 / interval) : Math.floor((now - t0) / interval) + 1);
  const send = (conn: Conn, at: number): void => {
    const q = w.next();
    c.sent++;
    c.by_kind[q.kind] = (c.by_kind[q.kind] ?? 0) + 1;
    inFlight++;
    kinds.set(conn, q.kind);
    conn.send(encode(q), at, 0);
  };
  const pump = (now: number): void => {
    if (spec.mode === 'closed') {
      while (now < tEnd && idle.length > 0) send(idle.pop()!, now);
      return;
    }
    const d = due(now);
    while (head < d && idle.length > 0) send(idle.pop()!, t0 + head++ * interval);
    c.backlog = d - head;
  };
  return new Promise<PhaseResult>((resolve, reject) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      for (const conn of conns) {
        conn.sock.removeAllListeners('close');
        conn.sock.destroy();
      }
      if (failed !== undefined) reject(failed);
      else resolve({ ...c, seconds: spec.seconds, ...lat.summary() });
    };
    for (const conn of conns) {
      conn.onAnswer = (status, answer, bodyAt) => {
        const now = performance.now();
        inFlight--;
        c.answered++;
        lat.add((now - conn.sentAt) * 1000);
        if (status >= 200 && status < 300) c.ok++;
        else {
          const [label, body] = labelOf(status, answer, bodyAt);
          c.errors[label] = (c.errors[label] ?? 0) + 1;
          c.first_errors[label] ??= `${kinds.get(conn) ?? '?'}: ${body}`;
        }
        idle.push(conn);
        if (now < tEnd) pump(now);
        else if (inFlight === 0) finish();
      };
    }
    const timer = setInterval(() => {
      const now = performance.now();
      if (failed !== undefined || now > tEnd + DRAIN_MS) return finish();
      if (now < tEnd) pump(now);
      else if (inFlight === 0) finish();
    }, TICK_MS);
    idle.push(...conns);
    if (spec.mode === 'closed') pump(performance.now());
  });
}

const reply = (m: FromGenerator): void => { process.send?.(m); };

process.on('message', (m: ToGenerator) => {
  if (m.type === 'exit') {
    process.disconnect();
    return;
  }
  if (m.type === 'counts') {
    reply({ type: 'counts', counts });
    return;
  }
  runPhase(m.spec).then((r) => reply({ type: 'result', result: r }),
    (e: unknown) => reply({ type: 'failed', message: e instanceof Error ? e.message : String(e) }));
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready' });
