/**
 * A subscriber process of `bench:ws`: opens `count` WebSocket connections (the `ws` package), subscribes each
 * with the given frame, and counts pushes. Latency of a push = receipt wall time − the trade's
 * `create_time_ms` (the engine's match time, µs precision), read with a substring search rather than a full
 * JSON parse so the client stays cheap. Both clocks are the system wall clock read through
 * performance.timeOrigin + performance.now() in their own processes.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { type FromClient, LATENCY_BUCKETS, type ToClient } from './ws-bench-protocol.js';

interface Socket {
  on(event: 'message', cb: (data: Buffer) => void): void;
  on(event: 'open' | 'close', cb: () => void): void;
  on(event: 'error', cb: (e: Error) => void): void;
  send(data: string): void;
  terminate(): void;
}
const WebSocket = (createRequire(import.meta.url)('ws') as { WebSocket: new (url: string) => Socket }).WebSocket;

const counts = new Uint32Array(LATENCY_BUCKETS);
let received = 0;
let closed = 0;
let maxUs = 0;
let firstUs = 0;
let lastUs = 0;
const sockets: Socket[] = [];
const KEY = '"create_time_ms":"';
const send = (m: FromClient): void => { process.send?.(m); };

function onPush(data: Buffer): void {
  const text = data.toString('latin1');
  const at = text.indexOf(KEY);
  if (at < 0) return;
  received++;
  const end = text.indexOf('"', at + KEY.length);
  const sentUs = Number(text.slice(at + KEY.length, end)) * 1000;
  const nowUs = (performance.timeOrigin + performance.now()) * 1000;
  if (firstUs === 0) firstUs = nowUs;
  lastUs = nowUs;
  const us = Math.max(0, Math.round(nowUs - sentUs));
  if (us > maxUs) maxUs = us;
  counts[Math.min(us, LATENCY_BUCKETS - 1)]!++;
}

function connect(port: number, path: string, count: number, subscribe: string): void {
  let acked = 0;
  for (let i = 0; i < count; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    sockets.push(ws);
    let subscribed = false;
    ws.on('open', () => ws.send(subscribe));
    ws.on('message', (data) => {
      if (subscribed) return onPush(data);
      subscribed = true;
      if (++acked === count) send({ type: 'connected', count });
    });
    ws.on('close', () => { closed++; });
    ws.on('error', (e) => { process.stderr.write(`ws-bench-client: ${e.message}\n`); });
  }
}

process.on('message', (m: ToClient) => {
  if (m.type === 'connect') connect(m.port, m.path, m.count, m.subscribe);
  else if (m.type === 'reset') {
    counts.fill(0);
    received = 0;
    maxUs = 0;
    firstUs = 0;
    lastUs = 0;
  } else {
    const latency: [number, number][] = [];
    for (let i = 0; i < LATENCY_BUCKETS; i++) if (counts[i] !== 0) latency.push([i, counts[i]!]);
    send({ type: 'report', received, closed, latency, maxUs, firstUs, lastUs });
  }
});
process.on('disconnect', () => {
  for (const s of sockets) s.terminate();
  process.exit(0);
});
