/**
 * The HTTP benchmark's load generator: a child process of http.bench.ts (IPC), on its own core where it can
 * be pinned. It speaks HTTP/1.1 over raw `node:net` keep-alive sockets, one request in flight per connection,
 * with every request built and signed before the phase's clock starts, so that the generator's own cost per
 * request is one socket write and a small header parse (status line and Content-Length).
 *
 * Phases
 * - closed loop: each connection sends its next request as soon as the previous answer is complete; after a
 *   warm-up, answers completed in the measured window give requests/s, and their service times the latency.
 * - open loop: request i is due at t0 + i/rate whatever the server does; a due request waits for a free
 *   connection in the generator, and its latency runs from its scheduled time to its complete answer, so a
 *   stall is charged to every request it delays (no coordinated omission). Requests scheduled in the measured
 *   window count; those unanswered 5 s after it are errors.
 *
 * The orders workload is a ring of ORDER_RING orders: the stream alternates a placement of order j + LAG
 * with the cancel of order j, so the book holds about LAG resting orders. Before its first phase against a
 * server, orders 0..LAG-1 are placed (untimed). Each order is re-signed with a fresh timestamp before every
 * phase (the server's window is 60 s; a phase lasts at most ~11 s).
 */
import { performance } from 'node:perf_hooks';
import type { Conn} from './http-conn.js';
import { openAll } from './http-conn.js';
import { type FromGenerator, type PhaseResult, type PhaseSpec, type ToGenerator, type Workload, cancelRequest,
  helloRequest, orderBookRequest, placeRequest, summarize } from './protocol.js';

const ORDER_RING = 4096;
const LAG = 256;
const TYPE_NAMES = ['place', 'cancel'] as const;
const DEADLINE_GRACE_MS = 5000;

interface Source {
  /** Sets `buf` and `type` to the next request. */
  next(out: { buf: Buffer; type: number }): void;
}

class FixedSource implements Source {
  constructor(private readonly buf: Buffer) {}
  next(out: { buf: Buffer; type: number }): void {
    out.buf = this.buf;
    out.type = 0;
  }
}

class OrderRing implements Source {
  #pos = 0;
  #place: Buffer[] = [];
  #cancel: Buffer[] = [];
  constructor(private readonly workload: Workload) {}
  /** Signs every order of the ring with the current time. */
  sign(): void {
    const keys = this.workload.keys ?? [];
    const ts = String(Math.floor(Date.now() / 1000));
    this.#place = Array.from({ length: ORDER_RING }, (_, j) => placeRequest(keys, j, ts));
    this.#cancel = Array.from({ length: ORDER_RING }, (_, j) => cancelRequest(keys, j, ts));
  }
  prefill(): Source {
    let j = 0;
    return { next: (out) => { out.buf = this.#place[j++ % ORDER_RING]!; out.type = 0; } };
  }
  next(out: { buf: Buffer; type: number }): void {
    const s = this.#pos++;
    const p = s >> 1;
    if ((s & 1) === 0) {
      out.buf = this.#place[(p + LAG) % ORDER_RING]!;
      out.type = 0;
    } else {
      out.buf = this.#cancel[p % ORDER_RING]!;
      out.type = 1;
    }
  }
}

interface Samples {
  lat: Float64Array;
  types: Uint8Array;
  n: number;
  errors: number;
  firstError: string | undefined;
}

function record(s: Samples, status: number, answer: Buffer, bodyAt: number, latUs: number, type: number): void {
  if (status >= 200 && status < 300) {
    s.lat[s.n] = latUs;
    s.types[s.n] = type;
    s.n++;
  } else {
    s.errors++;
    s.firstError ??= `${status} ${answer.toString('utf8', bodyAt, bodyAt + 200)}`;
  }
}

function result(s: Samples, durationS: number, byType: boolean, extra: Partial<PhaseResult> = {}): PhaseResult {
  const lat = s.lat.subarray(0, s.n);
  const split: Record<string, ReturnType<typeof summarize>> = {};
  if (byType) {
    TYPE_NAMES.forEach((name, t) => {
      split[name] = summarize(Float64Array.from(lat.filter((_, i) => s.types[i] === t)));
    });
  }
  return { requests_per_sec: Math.round(s.n / durationS), duration_s: durationS, completed: s.n, errors: s.errors,
    ...(s.firstError === undefined ? {} : { first_error: s.firstError }), latency: summarize(Float64Array.from(lat)),
    ...(byType ? { by_type: split } : {}), ...extra };
}

function closedLoop(conns: Conn[], source: Source, spec: PhaseSpec, fail: Promise<never>): Promise<PhaseResult> {
  const t0 = performance.now();
  const tMeas = t0 + spec.warmupS * 1000;
  const tEnd = tMeas + spec.durationS * 1000;
  const s: Samples = { lat: new Float64Array(spec.maxRequests), types: new Uint8Array(spec.maxRequests), n: 0, errors: 0, firstError: undefined };
  const out = { buf: Buffer.alloc(0), type: 0 };
  let sent = 0;
  let idle = 0;
  let windowEnd = tEnd;
  const done = new Promise<PhaseResult>((resolve) => {
    const sendNext = (c: Conn, now: number): void => {
      source.next(out);
      sent++;
      c.send(out.buf, now, out.type);
    };
    for (const c of conns) {
      c.onAnswer = (status, answer, bodyAt) => {
        const now = performance.now();
        if (now >= tMeas && now < tEnd) record(s, status, answer, bodyAt, (now - c.sentAt) * 1000, c.type);
        if (now < tEnd && sent < spec.maxRequests) return sendNext(c, now);
        windowEnd = Math.min(windowEnd, now);
        if (++idle === conns.length) resolve(result(s, (windowEnd - tMeas) / 1000, spec.workload.kind === 'orders'));
      };
    }
    for (const c of conns) sendNext(c, performance.now());
  });
  return Promise.race([done, fail]);
}

function openLoop(conns: Conn[], source: Source, spec: PhaseSpec, fail: Promise<never>): Promise<PhaseResult> {
  const rate = spec.rate ?? 1;
  const interval = 1000 / rate;
  const total = Math.min(spec.maxRequests, Math.floor(rate * (spec.warmupS + spec.durationS)));
  const s: Samples = { lat: new Float64Array(total), types: new Uint8Array(total), n: 0, errors: 0, firstError: undefined };
  const lag = new Float64Array(total);
  let lagN = 0;
  const out = { buf: Buffer.alloc(0), type: 0 };
  const idle: Conn[] = [...conns];
  let head = 0;
  let answered = 0;
  let measured = 0;
  const t0 = performance.now() + 5;
  const tMeas = t0 + spec.warmupS * 1000;
  const tEnd = tMeas + spec.durationS * 1000;
  const done = new Promise<PhaseResult>((resolve) => {
    const finish = (): void => {
      clearTimeout(deadline);
      resolve(result(s, spec.durationS, spec.workload.kind === 'orders',
        { send_lag_p99_us: summarize(lag.subarray(0, lagN)).p99_us, errors: s.errors + (measured - s.n - s.errors) }));
    };
    const deadline = setTimeout(finish, tEnd - performance.now() + DEADLINE_GRACE_MS);
    const due = (now: number): number => Math.min(total, Math.floor((now - t0) / interval) + 1);
    const send = (c: Conn, now: number): void => {
      const at = t0 + head * interval;
      head++;
      if (at >= tMeas && at < tEnd) {
        measured++;
        lag[lagN++] = (now - at) * 1000;
      }
      source.next(out);
      c.send(out.buf, at, out.type);
    };
    for (const c of conns) {
      c.onAnswer = (status, answer, bodyAt) => {
        const now = performance.now();
        answered++;
        if (c.sentAt >= tMeas && c.sentAt < tEnd) record(s, status, answer, bodyAt, (now - c.sentAt) * 1000, c.type);
        if (head < due(now)) send(c, now);
        else idle.push(c);
        if (answered === total) finish();
      };
    }
    const pump = (): void => {
      const now = performance.now();
      const d = due(now);
      while (head < d && idle.length > 0) send(idle.pop()!, now);
      if (head < total) setImmediate(pump);
    };
    pump();
  });
  return Promise.race([done, fail]);
}

const rings = new Map<number, OrderRing>();

async function runPhase(spec: PhaseSpec): Promise<PhaseResult> {
  let reject: (e: Error) => void = () => undefined;
  const fail = new Promise<never>((_, r) => { reject = r; });
  fail.catch(() => undefined);
  const conns = await openAll(spec.port, spec.connections, (e) => reject(e));
  try {
    let source: Source;
    if (spec.workload.kind === 'orders') {
      let ring = rings.get(spec.port);
      if (ring === undefined) {
        ring = new OrderRing(spec.workload);
        ring.sign();
        const pre = await closedLoop(conns, ring.prefill(),
          { ...spec, mode: 'closed', warmupS: 0, durationS: 30, maxRequests: LAG }, fail);
        if (pre.errors > 0) throw new Error(`placing the first ${LAG} orders failed: ${pre.first_error}`);
        rings.set(spec.port, ring);
      }
      ring.sign();
      source = ring;
    } else {
      source = new FixedSource(spec.workload.kind === 'hello' ? helloRequest() : orderBookRequest());
    }
    (globalThis as { gc?: () => void }).gc?.();
    return await (spec.mode === 'closed' ? closedLoop(conns, source, spec, fail) : openLoop(conns, source, spec, fail));
  } finally {
    for (const c of conns) c.sock.destroy();
  }
}

const reply = (m: FromGenerator): void => { process.send?.(m); };

process.on('message', (m: ToGenerator) => {
  if (m.type === 'exit') {
    process.disconnect();
    return;
  }
  runPhase(m.spec).then((r) => reply({ type: 'result', result: r }),
    (e: unknown) => reply({ type: 'failed', message: e instanceof Error ? e.message : String(e) }));
});
reply({ type: 'ready' });
