/** soak:server's report: the tables it prints and the failures that make it exit 1. @allocates */
import type { MachineInfo } from '../bench/machine.js';
import type { MemoryVerdict } from './memory-verdict.js';
import type { LoadCounts, MemorySample, PhaseResult, ServerCheck } from './protocol.js';
import { formatTable } from './table.js';

export interface SoakReport {
  machine: MachineInfo;
  runner: string;
  journal: boolean;
  journal_bytes: number;
  connections: number;
  probe: { seconds: number; max_answers_per_sec: number; errors: number };
  open_loop: PhaseResult & LoadCounts & { minutes: number; load: number; target_per_sec: number; sent_per_sec: number;
    answered_per_sec: number;
    /** Orders the server accepted per second over the open loop (the market maker's included), from its samples. */
    server_orders_per_sec: number };
  health: { status: number; body: unknown };
  check: ServerCheck;
  memory: MemoryVerdict;
  last: MemorySample;
  samples: MemorySample[];
  heap_snapshots: string[];
}

const n = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const mb = (v: number): string => (v / 2 ** 20).toFixed(1);

export function report(r: SoakReport): { text: string; failures: string[] } {
  const failures: string[] = [];
  const o = r.open_loop;
  if (r.health.status !== 200) failures.push(`GET /sim/health answered ${r.health.status}: ${JSON.stringify(r.health.body)}`);
  if (r.check.stopped !== null) failures.push(`the engine stopped: ${r.check.stopped}`);
  if (r.check.invariant_error !== null) failures.push(`invariant: ${r.check.invariant_error}`);
  for (const c of r.check.conservation) if (!c.exact) failures.push(`${c.currency}: accounts ${c.accounts} ≠ credits ${c.credits} − debits ${c.debits}`);
  if (r.memory.verdict === 'growing') failures.push(`heapUsed grows ${n(r.memory.heap_used_per_1k)} B per 1,000 orders`);

  const rates = formatTable(['phase', 'seconds', 'target req/s', 'generator sent/s', 'server answered/s', 'server orders/s', '2xx',
    'errors', 'backlog at end', 'p50 / p99 / max ms'], [
    ['closed loop (maximum)', String(r.probe.seconds), '', '', n(r.probe.max_answers_per_sec), '', '', n(r.probe.errors), '', ''],
    [`open loop (${r.open_loop.load} × maximum)`, n(o.seconds), n(o.target_per_sec), n(o.sent_per_sec), n(o.answered_per_sec),
      n(o.server_orders_per_sec),
      n(o.ok), n(o.answered - o.ok), n(o.backlog), `${(o.p50_us / 1000).toFixed(1)} / ${(o.p99_us / 1000).toFixed(1)} / ${(o.max_us / 1000).toFixed(0)}`],
  ], 1);
  const kinds = Object.entries(o.by_kind).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${n(v)}`).join(', ');
  const errors = Object.entries(o.errors).sort((a, b) => b[1] - a[1]);
  const errorTable = errors.length === 0 ? 'error answers: none'
    : formatTable(['error label (open loop)', 'answers', 'share', 'first (request kind: answer)'], errors.map(([k, v]) => [k, n(v),
      `${(100 * v / Math.max(1, o.answered)).toFixed(2)} %`, (o.first_errors[k] ?? '').slice(0, 110)]), 1, 3);
  const samples = formatTable(['t s', 'orders placed', 'open', 'finished window', 'order slots', 'trades', 'heapUsed MB', 'heapTotal MB', 'rss MB', 'external MB', 'arrayBuffers MB'],
    r.samples.map((s) => [n(s.t_ms / 1000), n(s.orders_placed), n(s.orders_open), `${n(s.sizes.finished_orders ?? 0)}${s.window_full ? ' (full)' : ''}`,
      n(s.sizes.order_slots ?? 0), n(s.trades), mb(s.heap_used), mb(s.heap_total), mb(s.rss), mb(s.external), mb(s.array_buffers)]), 0);
  const conservation = formatTable(['currency', 'all accounts', 'of which fee account', 'of which lending pool', 'credits', 'debits', 'exact'],
    r.check.conservation.map((c) => [c.currency, c.accounts, c.fee_account, c.lending_pool, c.credits, c.debits, c.exact ? 'yes' : 'NO']), 1);
  const m = r.memory;
  const memory = m.verdict === 'unknown'
    ? `memory: no verdict: ${m.samples} sample(s) and ${n(m.orders)} orders after the finished-order window filled (need 3 and 50,000)`
    : `memory per 1,000 orders after the finished-order window filled (${m.samples} samples, ${n(m.orders)} orders): heapUsed ${n(m.heap_used_per_1k)} B, `
      + `rss ${n(m.rss_per_1k)} B, external ${n(m.external_per_1k)} B, arrayBuffers ${n(m.array_buffers_per_1k)} B: `
      + `${m.verdict === 'flat' ? 'flat' : 'GROWING'} (threshold ${n(m.threshold_per_1k)} B)`;
  const base = r.samples[0];
  const full = r.samples.find((x) => x.window_full);
  const d = (f: (x: MemorySample) => number): string => (base === undefined || full === undefined ? '–' : `${f(full) >= f(base) ? '+' : ''}${mb(f(full) - f(base))}`);
  const warmup = full === undefined ? '' : `warm-up, from the baseline (${n(base!.orders_placed)} orders) to the first sample with the window full `
    + `(${n(full.orders_placed)} orders), MB: rss ${d((x) => x.rss)}, heapTotal ${d((x) => x.heap_total)}, heapUsed ${d((x) => x.heap_used)}, `
    + `arrayBuffers ${d((x) => x.array_buffers)}`;
  const healthLine = `engine: GET /sim/health ${r.health.status} ${JSON.stringify(r.health.body)}; invariants ${r.check.invariant_error === null ? 'hold' : `FAIL: ${r.check.invariant_error}`}`;
  const text = [rates, `requests by kind (open loop): ${kinds}`, '', errorTable, '', samples, '', warmup, memory, '', healthLine, '',
    conservation, r.journal ? `journal: ${n(r.journal_bytes)} bytes` : '', ...r.heap_snapshots.map((p) => `heap snapshot: ${p}`),
    r.heap_snapshots.length > 0 ? 'rss after the first heap snapshot includes what writing it took (hundreds of MB): judge rss on a run without' : '', '',
    failures.length === 0 ? 'passed' : `FAILED:\n  ${failures.join('\n  ')}`].filter((x, i, a) => x !== '' || a[i - 1] !== '').join('\n');
  return { text, failures };
}
