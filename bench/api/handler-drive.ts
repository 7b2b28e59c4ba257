/**
 * The HTTP front without sockets: the benchmark's signed place + cancel requests (protocol.ts) fed straight into
 * the simulator's request handler (`server.onRequest`) through stand-ins for uWebSockets.js's request and
 * response, so what our JavaScript costs per request is measured apart from the kernel and uWS's native side.
 *
 *   npm run bench:handler -- [--requests=N]   (default 200,000)
 *
 * Prints: CPU µs per request (process.cpuUsage over the timed loop), GCs and their pauses, heap bytes
 * allocated per request (V8's sampling heap profiler over a separate pass, by function), and the uWS calls a
 * request makes (forEach, writeHeader, cork, …). The same server configuration as sim-server.ts (inline).
 */
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { startSimulator } from '../../src/main.js';
import { BENCH_KEYS, cancelRequest, placeRequest } from './protocol.js';
import { config } from './sim-config.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';

exitWithUsage(BENCH_USAGE.handler);

const N = Number(process.argv.find((a) => a.startsWith('--requests='))?.slice('--requests='.length) ?? 200_000);
const LAG = 256;

interface Parsed { method: string; url: string; query: string; headers: Map<string, string>; body: ArrayBuffer }

function parse(raw: Buffer): Parsed {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const [start, ...lines] = text.slice(0, end).split('\r\n');
  const [method, target] = start!.split(' ') as [string, string];
  const q = target.indexOf('?');
  const headers = new Map(lines.map((l) => { const i = l.indexOf(':'); return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()] as [string, string]; }));
  const body = Buffer.from(text.slice(end + 4), 'latin1');
  return { method: method.toLowerCase(), url: q < 0 ? target : target.slice(0, q), query: q < 0 ? '' : target.slice(q + 1), headers,
    body: body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) };
}

const calls = new Map<string, number>();
const count = (name: string): void => { calls.set(name, (calls.get(name) ?? 0) + 1); };
let status = '';
let errors = 0;

function drive(onRequest: (res: HttpResponse, req: HttpRequest) => void, p: Parsed): void {
  const req = {
    getMethod: () => { count('getMethod'); return p.method; },
    getUrl: () => { count('getUrl'); return p.url; },
    getQuery: () => { count('getQuery'); return p.query; },
    getHeader: (k: string) => { count('getHeader'); return p.headers.get(k) ?? ''; },
    forEach: (cb: (key: string, value: string) => void) => { count('forEach'); for (const [k, v] of p.headers) cb(k, v); },
  } as unknown as HttpRequest;
  let onData: ((chunk: ArrayBuffer, last: boolean) => void) | undefined;
  const res = {
    onAborted: () => { count('onAborted'); return res; },
    onData: (cb: (chunk: ArrayBuffer, last: boolean) => void) => { count('onData'); onData = cb; return res; },
    cork: (f: () => void) => { count('cork'); f(); return res; },
    writeStatus: (s: string) => { count('writeStatus'); status = s; return res; },
    writeHeader: () => { count('writeHeader'); return res; },
    end: () => { count('end'); if (!status.startsWith('2')) errors++; return res; },
    endWithoutBody: () => { count('endWithoutBody'); return res; },
    getRemoteAddressAsText: () => { count('getRemoteAddressAsText'); return new TextEncoder().encode('127.0.0.1').buffer; },
  } as unknown as HttpResponse;
  onRequest(res, req);
  if (onData !== undefined) onData(p.body, true);
}

/** Requests i = 0…: place of order i + LAG, then cancel of order i, as the load generator's ring. */
function requests(from: number, n: number): Parsed[] {
  const ts = String(Math.floor(Date.now() / 1000));
  const out: Parsed[] = [];
  for (let i = from; out.length < n; i++) {
    out.push(parse(placeRequest(BENCH_KEYS, i + LAG, ts)));
    if (out.length < n) out.push(parse(cancelRequest(BENCH_KEYS, i, ts)));
  }
  return out;
}

const sim = await startSimulator(config('inline'), { host: '127.0.0.1', port: 0 });
const onRequest = sim.server.onRequest;
const gc = (globalThis as { gc?: () => void }).gc;
try {
  const ts0 = String(Math.floor(Date.now() / 1000));
  for (let j = 0; j < LAG; j++) drive(onRequest, parse(placeRequest(BENCH_KEYS, j, ts0)));
  // Warm-up, then the timed pass.
  let next = 0;
  const batch = (n: number): Parsed[] => { const r = requests(next, n); next += n / 2; return r; };
  for (const p of batch(20_000)) drive(onRequest, p);
  await sim.gateway.settled();
  const timed = batch(N);
  gc?.();
  // GC entries reach observers a turn after the collection: let those of building the batch (seen by any observer
  // already registered, such as GET /metrics') go by before this one starts counting.
  await new Promise((r) => setTimeout(r, 20));
  const heap0 = process.memoryUsage().heapUsed;
  const pauses: number[] = [];
  const kinds = new Map<number, [number, number]>();
  const obs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      pauses.push(e.duration);
      const k = (e as unknown as { detail: { kind: number } }).detail.kind;
      const v = kinds.get(k) ?? [0, 0];
      kinds.set(k, [v[0] + 1, v[1] + e.duration]);
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  calls.clear();
  errors = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (const p of timed) drive(onRequest, p);
  await sim.gateway.settled();
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  gc?.();
  const retained = process.memoryUsage().heapUsed - heap0;
  pauses.sort((a, b) => a - b);
  const perReq = Object.fromEntries([...calls].map(([k, v]) => [k, Math.round((v / N) * 100) / 100]));
  console.log(`${N} signed requests (place + cancel alternating), errors ${errors}`);
  console.log(`wall ${(wallUs / N).toFixed(2)} µs/request; CPU ${(cpu.user / N).toFixed(2)} user + ${(cpu.system / N).toFixed(2)} system µs/request`);
  console.log(`GC: ${pauses.length} collections, total ${pauses.reduce((s, x) => s + x, 0).toFixed(1)} ms, max ${(pauses.at(-1) ?? 0).toFixed(2)} ms`);
  const KIND: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
  console.log(`GC by kind: ${[...kinds].map(([k, [n, ms]]) => `${KIND[k] ?? k} ${n} (${ms.toFixed(1)} ms)`).join(', ')}`);
  console.log(`heap retained after gc: ${Math.round(retained / N)} bytes/request (finished orders kept for their retention time, histories)`);
  console.log(`uWS calls per request: ${JSON.stringify(perReq)}`);

  // Allocation by function: a separate pass under the sampling heap profiler (skipped with --no-allocations,
  // e.g. under --cpu-prof, where the sampler's cost would distort the profile).
  if (process.argv.includes('--no-allocations')) process.exit(0);
  const allocPass = batch(Math.min(N, 50_000));
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  for (const p of allocPass) drive(onRequest, p);
  await sim.gateway.settled();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
  const by = new Map<string, number>();
  let total = 0;
  const walk = (n: Node): void => {
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}`;
    by.set(key, (by.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  console.log(`allocated ≈ ${Math.round(total / allocPass.length)} bytes/request (sampled), by function:`);
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${String(Math.round(v / allocPass.length)).padStart(6)} B  ${k}`);
} finally {
  await sim.close();
}
