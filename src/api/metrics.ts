/**
 * `GET /metrics`: the server's figures in Prometheus text format (prom-client's Registry renders them), access
 * controlled like the control plane (token or loopback, routes/sim-access.ts). docs/operations.md lists them.
 *
 * Cost contract: a request adds no allocation and no prom-client call. Each answer written bumps plain numbers
 * in preallocated typed arrays (HttpStats.sent: one status-table read, one bucket scan of 14 bounds, three
 * increments); the engine's command count is its sequencer's last sequence number, read at scrape time (no
 * observer: the gateway calls each observer through a fresh closure per command); GC pauses and journal flushes
 * are counted as they happen (off the request path). Everything is turned into prom-client values only when
 * /metrics is scraped (allocating then, per scrape).
 */
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { type Metric, Registry } from 'prom-client';
import type { ExchangeGateway } from '../engine/gateway.js';
import type { ReplySink } from './http/reply.js';
import type { Route } from './router.js';

/** Latency buckets, seconds (upper bounds; +Inf implied). */
const LATENCY_S = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
const LATENCY_US = LATENCY_S.map((s) => s * 1e6);
/** GC pause and journal flush buckets, seconds. */
const PAUSE_S = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
const NB = LATENCY_S.length + 1;
const NP = PAUSE_S.length + 1;

/** Statuses counted one by one; any other is counted under its class (`2xx` … `5xx`). */
const STATUSES = [200, 201, 202, 204, 400, 401, 403, 404, 405, 413, 415, 429, 500, 503];
const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
const NS = STATUSES.length + CLASSES.length;
/** Status → its column (filled once; out of range → the class columns). */
const STATUS_COLUMN = new Uint8Array(600);
for (let s = 100; s < 600; s++) STATUS_COLUMN[s] = STATUSES.length + Math.floor(s / 100) - 1;
STATUSES.forEach((s, i) => { STATUS_COLUMN[s] = i; });
const statusLabel = (col: number): string => (col < STATUSES.length ? String(STATUSES[col]) : CLASSES[col - STATUSES.length]!);

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/** A metric prom-client's Registry renders from `values()`, computed at scrape time. */
function lazyMetric(name: string, help: string, type: 'counter' | 'gauge' | 'histogram', values: () => Sample[]): Metric {
  const get = () => Promise.resolve({ name, help, type, aggregator: 'sum' as const, values: values() });
  return { name, help, type, aggregator: 'sum', get } as unknown as Metric;
}

/** Histogram samples (`_bucket` cumulative with `le`, `_sum`, `_count`) of one label set. */
function histogramSamples(name: string, labels: Record<string, string>, bounds: readonly number[], counts: Float64Array, base: number, sum: number): Sample[] {
  const out: Sample[] = [];
  let acc = 0;
  for (let b = 0; b <= bounds.length; b++) {
    acc += counts[base + b]!;
    out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: b < bounds.length ? bounds[b]! : '+Inf' }, value: acc });
  }
  out.push({ metricName: `${name}_sum`, labels, value: sum }, { metricName: `${name}_count`, labels, value: acc });
  return out;
}

/** Answers per route and status, and their latency (X-In-Time to X-Out-Time), in preallocated arrays. */
export class HttpStats implements ReplySink {
  /** Slot 0: requests that matched no route (NOT_FOUND, METHOD_NOT_ALLOWED, refused before routing). */
  readonly #slots = new Map<Route, number>();
  readonly #labels: { method: string; route: string }[] = [{ method: '', route: 'unmatched' }];
  #counts = new Float64Array(NS);
  #latency = new Float64Array(NB);
  #latencySum = new Float64Array(1);

  /** Gives every route a slot (call once the route table is complete). @allocates */
  index(routes: readonly Route[]): void {
    for (const r of routes) {
      if (this.#slots.has(r)) continue;
      this.#slots.set(r, this.#labels.length);
      this.#labels.push({ method: r.method, route: r.pattern });
    }
    const n = this.#labels.length;
    const grow = (a: Float64Array, w: number): Float64Array<ArrayBuffer> => { const b = new Float64Array(n * w); b.set(a); return b; };
    this.#counts = grow(this.#counts, NS);
    this.#latency = grow(this.#latency, NB);
    this.#latencySum = grow(this.#latencySum, 1);
  }

  /** The route's slot (0 for an unknown one). One Map lookup. */
  slotOf(route: Route): number {
    return this.#slots.get(route) ?? 0;
  }

  sent(slot: number, status: number, inUs: number, outUs: number): void {
    this.#counts[slot * NS + (status >= 100 && status < 600 ? STATUS_COLUMN[status]! : NS - 1)]!++;
    const us = outUs - inUs;
    let b = 0;
    while (b < LATENCY_US.length && us > LATENCY_US[b]!) b++;
    this.#latency[slot * NB + b]!++;
    this.#latencySum[slot]! += us / 1e6;
  }

  /** @allocates (scrape time) */
  requests(): Sample[] {
    const out: Sample[] = [];
    for (let slot = 0; slot < this.#labels.length; slot++) {
      const l = this.#labels[slot]!;
      for (let c = 0; c < NS; c++) {
        const v = this.#counts[slot * NS + c]!;
        if (v > 0) out.push({ labels: { method: l.method, route: l.route, status: statusLabel(c) }, value: v });
      }
    }
    return out;
  }

  /** @allocates (scrape time) */
  durations(name: string): Sample[] {
    const out: Sample[] = [];
    for (let slot = 0; slot < this.#labels.length; slot++) {
      let n = 0;
      for (let b = 0; b < NB; b++) n += this.#latency[slot * NB + b]!;
      if (n === 0) continue;
      const l = this.#labels[slot]!;
      out.push(...histogramSamples(name, { method: l.method, route: l.route }, LATENCY_S, this.#latency, slot * NB, this.#latencySum[slot]!));
    }
    return out;
  }
}

/** A histogram of durations per kind (GC pauses by kind, journal write and sync). */
class PauseHistogram {
  readonly #counts: Float64Array;
  readonly #sums: Float64Array;
  constructor(readonly kinds: readonly string[]) {
    this.#counts = new Float64Array(kinds.length * NP);
    this.#sums = new Float64Array(kinds.length);
  }

  observe(kind: number, seconds: number): void {
    let b = 0;
    while (b < PAUSE_S.length && seconds > PAUSE_S[b]!) b++;
    this.#counts[kind * NP + b]!++;
    this.#sums[kind]! += seconds;
  }

  samples(name: string, label: string): Sample[] {
    return this.kinds.flatMap((k, i) => histogramSamples(name, { [label]: k }, PAUSE_S, this.#counts, i * NP, this.#sums[i]!));
  }
}

const GC_KINDS: readonly [number, string][] = [[constants.NODE_PERFORMANCE_GC_MINOR, 'minor'], [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'], [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weakcb']];

/** Every figure of /metrics for one server; `close()` stops the GC observer. */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly http = new HttpStats();
  readonly #gc = new PauseHistogram(GC_KINDS.map(([, k]) => k));
  readonly #journal = new PauseHistogram(['write', 'sync']);
  readonly #observer: PerformanceObserver;
  /** Open WebSocket connections (set by the composition root once the WebSocket host exists). */
  wsConnections: () => number = () => 0;

  constructor(gateway: ExchangeGateway) {
    // Both runners' gateways (InlineGateway, ThreadedGateway) hold their engine and its sequencer.
    const sequencer = (gateway as { engine?: { sequencer?: { lastSeq: number } } }).engine?.sequencer;
    const journal = gateway.journal;
    if (journal !== undefined) journal.flushObserver = (kind, seconds) => this.#journal.observe(kind, seconds);
    this.#observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) this.#gcEntry(e);
    });
    this.#observer.observe({ entryTypes: ['gc'] });
    const r = this.registry;
    r.registerMetric(lazyMetric('ringmatch_http_requests_total', 'HTTP answers written, by route pattern, method and status.', 'counter', () => this.http.requests()));
    r.registerMetric(lazyMetric('ringmatch_http_request_duration_seconds', 'Time from reading a request to writing its answer (X-In-Time to X-Out-Time), by route.',
      'histogram', () => this.http.durations('ringmatch_http_request_duration_seconds')));
    r.registerMetric(lazyMetric('ringmatch_engine_commands_total',
      'Commands the engine sequenced (accepted or rejected), its last sequence number: journaled ones of earlier runs included; rate() gives commands per second.',
      'counter', () => (sequencer === undefined ? [] : [{ labels: {}, value: sequencer.lastSeq }])));
    r.registerMetric(lazyMetric('ringmatch_journal_flush_duration_seconds', 'Journal flushes: each write of buffered records and each fdatasync (none without a journal).',
      'histogram', () => (journal === undefined ? [] : this.#journal.samples('ringmatch_journal_flush_duration_seconds', 'op'))));
    r.registerMetric(lazyMetric('ringmatch_websocket_connections', 'Open WebSocket connections (spot and futures endpoints).', 'gauge',
      () => [{ labels: {}, value: this.wsConnections() }]));
    r.registerMetric(lazyMetric('ringmatch_gc_pause_seconds', 'Garbage-collection pauses of the server thread, by kind.', 'histogram',
      () => this.#gc.samples('ringmatch_gc_pause_seconds', 'kind')));
    r.registerMetric(lazyMetric('ringmatch_process_memory_bytes', 'Process memory (rss, heap_used, heap_total, external, array_buffers).', 'gauge', () => {
      const m = process.memoryUsage();
      return [['rss', m.rss], ['heap_used', m.heapUsed], ['heap_total', m.heapTotal], ['external', m.external], ['array_buffers', m.arrayBuffers]]
        .map(([k, v]) => ({ labels: { type: k as string }, value: v as number }));
    }));
  }

  #gcEntry(e: PerformanceEntry): void {
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    const i = GC_KINDS.findIndex(([k]) => k === kind);
    this.#gc.observe(i < 0 ? 0 : i, e.duration / 1000);
  }

  /** The exposition text and its Content-Type. */
  async render(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  close(): void {
    this.#observer.disconnect();
  }
}
