/**
 * `npm run bench:core`: the core order book against nodejs-order-book 10.1.1, and an exchange-core mirror.
 *
 * Runs in one Node process (`--expose-gc`), single-threaded, book only: no ledger, no worker, no I/O.
 * Every command stream is generated before timing starts (see stream.ts), with the seeded Prng.
 *
 * Scenarios
 * - S1–S5 (`nob-*`): the peer's own benchmark cases (nob-scenarios.ts), side by side.
 * - S6 `ec-steady`: exchange-core's generator (ec-generator.ts) in steady state, ~1,000 resting orders,
 *   side by side. The peer's `modify` cancels and re-inserts the order as GTC (losing time priority), so our
 *   book gets the same semantics here: move = cancel + place (same id, new price, remaining lots), reduce =
 *   cancel + place (same id and price, reduced lots); a reduce of everything is a cancel. IOC orders are limit
 *   IOC at the band edge and FOK-budget orders are plain FOK limits at the band edge in both books; there are
 *   no market buys (ours take a quote budget, the peer's a base size).
 * - S7 `ec-steady-stp`: S6 with STP: 1,000 accounts drawn uniformly, every order in its owner's group (ours:
 *   stpId = userId, stpAct CancelOld; peer: accountId + stpMode EXPIRE_MAKER on every order). Both remove a
 *   same-account maker and keep matching, so IOC, GTC and re-placed orders match alike. Two peer behaviours
 *   differ from ours and are kept out of the stream: (1) `modify` re-inserts without account or STP mode, so
 *   moves and reduces are sent to the peer as cancel + limit with the order's account and EXPIRE_MAKER (our
 *   cancel + place with the group, as in S6); (2) the peer's FOK check counts the volume of same-account makers
 *   that STP will remove, and a FOK that then falls short rests on the book, while ours counts exactly what
 *   would fill; so FOK orders carry no account/group in S7 (in both books).
 * - `ec-mirror`: the same generator with our native semantics (move = amend(id, price, 0), reduce =
 *   amend(id, 0, newTotal) keeping queue position), seed 1, ringmatch only. Checked against the generator's
 *   reference book (NaiveOrderBook): equal state hash and a clean invariant check. The published
 *   exchange-core single-book figure (5M ops/s, Xeon X5690, Java, see the reference row) is printed alongside.
 * - `memory-1m-resting` and `memory-steady-3m` (memory.ts).
 *
 * Isolated rows (isolated.ts): every side-by-side scenario and ec-mirror also run each engine in child processes
 * of their own (two per engine, alternating, the same stream and warm-up, half the passes each), reported beside
 * the in-process figures as `isolated_ops_per_sec` / `isolated_speedup`; `--no-isolated` skips them.
 *
 * Output: a table (stdout), or with `--json` exactly one JSON array on stdout and everything else on stderr.
 * `--quick`: smaller counts and fewer passes (well under a minute). `--only=name,…` runs the named scenarios.
 */
import type { EcResult } from './ec-generator.js';
import { PAIR_NAMES, SEED, benchConfig, ecMirrorStream, market, oursDriver, pairScenario } from './drivers.js';
import { EC_MIRROR, type IsolatedOutcome, runIsolated } from './isolated.js';
import { type PairResult, gcNow, hasGc, latencyPass, median, runSideBySide, timePass, timerOverheadNs } from './measure.js';
import { oursRestingMemory, oursSteadyMemory, peerRestingMemory, restingStream } from './memory.js';
import { OURS_IMPL, type OursRunner } from './ours-adapter.js';
import type { PeerRunner } from './peer-adapter.js';
import { type CommandStream, KIND_NAMES, type Kind, kindCounts } from './stream.js';
import { machineInfo, machineLines } from '../machine.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';

exitWithUsage(BENCH_USAGE.core);

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const QUICK = args.includes('--quick');
const ISOLATED = !args.includes('--no-isolated');
const ONLY = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',') ?? null;

const CFG = benchConfig(QUICK);
/** Child processes per engine in the isolated rows; each runs half the in-process passes after the same warm-up. */
const ISOLATED_CHILDREN = 2;

const EC_REFERENCE_OPS = 5_000_000;
const EC_REFERENCE = 'exchange-core README: single order book, 5M ops/s, Intel Xeon X5690 (2011), Java 8, matching + risk';

const START = Date.now();
const log = (line: string): void => {
  process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`);
};
const wanted = (name: string): boolean => ONLY === null || ONLY.some((o) => name.startsWith(o));

interface Row {
  scenario: string;
  engine: 'ringmatch' | 'nodejs-order-book';
  ops_per_sec: number | null;
  p50_ns: number | null;
  p99_ns: number | null;
  p999_ns: number | null;
  books_match: boolean;
  [extra: string]: unknown;
}

const rows: Row[] = [];

function pairRows(scenario: string, s: CommandStream, reps: number, res: PairResult, ours: OursRunner, peer: PeerRunner,
  warmup: number, passes: number, extra: Record<string, unknown>, iso: [Record<string, unknown>, Record<string, unknown>]): void {
  const [o, p] = res.outcomes;
  if (o === undefined || p === undefined) return;
  if (!res.booksMatch) log(`WARNING ${scenario}: books do not match (${res.mismatch})`);
  const commands = s.length - s.prefill;
  const common = { books_match: res.booksMatch, commands, reps, warmup, passes, prefill: s.prefill, ...extra };
  rows.push({
    scenario, engine: 'ringmatch', impl: OURS_IMPL, ops_per_sec: Math.round(o.opsPerSec),
    p50_ns: o.latency.p50, p99_ns: o.latency.p99, p999_ns: o.latency.p999, max_ns: o.latency.max,
    trades: o.fills, speedup: round2(o.opsPerSec / p.opsPerSec), rejected: ours.rejected,
    pass_ops: o.passOps.map(Math.round), ...common, ...iso[0],
  });
  rows.push({
    scenario, engine: 'nodejs-order-book', impl: 'nodejs-order-book@10.1.1', ops_per_sec: Math.round(p.opsPerSec),
    p50_ns: p.latency.p50, p99_ns: p.latency.p99, p999_ns: p.latency.p999, max_ns: p.latency.max,
    trades: p.fills, speedup: 1, peer_errors: peer.errors, pass_ops: p.passOps.map(Math.round), ...common, ...iso[1],
  });
  if (res.booksMatch && ours.rejected > 0) log(`note ${scenario}: ${ours.rejected} commands rejected by ringmatch over all passes`);
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function mixLine(g: EcResult): Record<string, unknown> {
  const s = g.stream;
  const n = s.length - s.prefill;
  const counts = kindCounts(s, s.prefill, s.length);
  const pct = (k: number): string => `${((k / n) * 100).toFixed(2)}%`;
  const order: Kind[] = [1, 2, 3, 4, 5, 6];
  const parts = order.map((k) => `${KIND_NAMES[k]}:${pct(counts.get(KIND_NAMES[k]) ?? 0)}`);
  log(`  realized mix over ${n} commands: ${parts.join(' ')} traded:${pct(g.tradedCommands)} (fills ${g.fills}); `
    + `pre-fill ${s.prefill} commands; start price ${g.startPrice}, band ${g.minPrice}–${g.maxPrice}; final book ${g.referenceSize} orders`);
  const mix: Record<string, number> = {};
  for (const k of order) mix[KIND_NAMES[k]] = round2(((counts.get(KIND_NAMES[k]) ?? 0) / n) * 100);
  return { mix_pct: mix, traded_pct: round2((g.tradedCommands / n) * 100), start_price: g.startPrice };
}

/** Fields of the isolated figures on a pair's two rows (isolated.ts); the books must match across processes too. */
function isolatedFields(iso: Map<string, IsolatedOutcome>): [Record<string, unknown>, Record<string, unknown>] {
  const o = iso.get('ringmatch')!;
  const p = iso.get('nodejs-order-book')!;
  const match = o.l2Hash === p.l2Hash && o.fills === p.fills;
  const common = { isolated_books_match: match, isolated_children: ISOLATED_CHILDREN };
  return [
    { isolated_ops_per_sec: Math.round(o.opsPerSec), isolated_pass_ops: o.passOps.map(Math.round), isolated_speedup: round2(o.opsPerSec / p.opsPerSec), ...common },
    { isolated_ops_per_sec: Math.round(p.opsPerSec), isolated_pass_ops: p.passOps.map(Math.round), isolated_speedup: 1, ...common },
  ];
}

async function runPairs(): Promise<void> {
  for (const name of PAIR_NAMES) {
    if (!wanted(name)) continue;
    const sc = pairScenario(name, QUICK);
    log(`${name}: ${sc.title}, ${sc.stream.length} commands × ${sc.reps} books per pass`);
    const extra: Record<string, unknown> = sc.ec !== undefined ? mixLine(sc.ec) : { title: sc.title };
    const res = runSideBySide([sc.ours, sc.peer], sc.opsPerRep, sc.reps, sc.warmup, sc.passes, log);
    if (sc.ec !== undefined) {
      const check = sc.ours.fresh();
      sc.ours.prefill(check);
      sc.ours.run(check);
      if (sc.ours.l2(check) !== `${sc.ec.referenceL2.bids}|${sc.ec.referenceL2.asks}`) {
        res.booksMatch = false;
        res.mismatch ||= 'ringmatch final L2 differs from the generator reference book';
      }
    }
    let iso: [Record<string, unknown>, Record<string, unknown>] = [{}, {}];
    if (ISOLATED) {
      const out = await runIsolated(name, ['ringmatch', 'nodejs-order-book'], sc.warmup, Math.ceil(sc.passes / ISOLATED_CHILDREN),
        ISOLATED_CHILDREN, QUICK, log);
      iso = isolatedFields(out);
      if (iso[0].isolated_books_match !== true) log(`WARNING ${name}: isolated passes ended with different books`);
    }
    pairRows(name, sc.stream, sc.reps, res, sc.ours.runner, sc.peer.runner, sc.warmup, sc.passes, extra, iso);
  }
}

async function runEcMirror(): Promise<EcResult | null> {
  if (!wanted('ec-mirror') && !wanted('memory-steady')) return null;
  log(`ec-mirror: generating ${CFG.ecCommands} commands (exchange-core rules, seed ${SEED}, native amend semantics)…`);
  const g = ecMirrorStream(QUICK);
  const extra = mixLine(g);
  if (!wanted('ec-mirror')) return g;
  const d = oursDriver(g.stream, 'native');
  const ops: number[] = [];
  let selfCheck = true;
  let fills = 0;
  for (let p = 0; p < CFG.warmup + CFG.passes; p++) {
    gcNow();
    const res = timePass(d, 1);
    fills = res.fills;
    if (p >= CFG.warmup) ops.push((g.stream.length - g.stream.prefill) / res.seconds);
  }
  const check = d.fresh();
  d.prefill(check);
  d.run(check);
  try {
    check.assertInvariants();
  } catch (e) {
    selfCheck = false;
    log(`WARNING ec-mirror: invariant check failed: ${String(e)}`);
  }
  if (check.stateHash() !== g.referenceHash || fills !== g.fills) {
    selfCheck = false;
    log(`WARNING ec-mirror: final state differs from the reference book (fills ${fills} vs ${g.fills})`);
  }
  gcNow();
  const lat = latencyPass(d);
  const opsPerSec = median(ops);
  let iso: Record<string, unknown> = {};
  if (ISOLATED) {
    const out = (await runIsolated(EC_MIRROR, ['ringmatch'], CFG.warmup, Math.ceil(CFG.passes / ISOLATED_CHILDREN), ISOLATED_CHILDREN, QUICK, log)).get('ringmatch')!;
    const same = out.fills === fills;
    if (!same) selfCheck = false;
    iso = { isolated_ops_per_sec: Math.round(out.opsPerSec), isolated_pass_ops: out.passOps.map(Math.round), isolated_children: ISOLATED_CHILDREN,
      isolated_vs_reference: round2(out.opsPerSec / EC_REFERENCE_OPS) };
  }
  rows.push({
    scenario: 'ec-mirror', engine: 'ringmatch', impl: OURS_IMPL, ops_per_sec: Math.round(opsPerSec),
    p50_ns: lat.p50, p99_ns: lat.p99, p999_ns: lat.p999, max_ns: lat.max, books_match: selfCheck,
    commands: g.stream.length - g.stream.prefill, prefill: g.stream.prefill, warmup: CFG.warmup, passes: CFG.passes,
    trades: fills, rejected: d.runner.rejected, pass_ops: ops.map(Math.round),
    reference_ops_per_sec: EC_REFERENCE_OPS, reference: EC_REFERENCE, vs_reference: round2(opsPerSec / EC_REFERENCE_OPS),
    ...extra, ...iso,
  });
  return g;
}

async function runMemory(ec: EcResult | null): Promise<void> {
  if (wanted('memory-1m-resting')) {
    const n = CFG.resting;
    log(`memory-1m-resting: ${n} resting orders…`);
    const s = restingStream(n, SEED);
    const o = oursRestingMemory(market, s);
    rows.push({
      scenario: 'memory-1m-resting', engine: 'ringmatch', impl: OURS_IMPL, ops_per_sec: null, p50_ns: null, p99_ns: null,
      p999_ns: null, books_match: o.resting === n, resting_orders: n, bytes_per_order: Math.round(o.bytesPerOrder),
      total_bytes: o.totalBytes, empty_book_bytes: o.emptyBookBytes, fill_seconds: round2(o.seconds),
    });
    gcNow();
    const p = peerRestingMemory(s);
    rows.push({
      scenario: 'memory-1m-resting', engine: 'nodejs-order-book', impl: 'nodejs-order-book@10.1.1', ops_per_sec: null,
      p50_ns: null, p99_ns: null, p999_ns: null, books_match: true, resting_orders: n,
      bytes_per_order: Math.round(p.bytesPerOrder), total_bytes: p.totalBytes, empty_book_bytes: p.emptyBookBytes,
      fill_seconds: round2(p.seconds),
    });
  }
  if (wanted('memory-steady') && ec !== null) {
    log(`memory-steady-3m: ${ec.stream.length - ec.stream.prefill} EC-mirror commands on one book…`);
    gcNow();
    const m = await oursSteadyMemory(market, ec.stream);
    rows.push({
      scenario: 'memory-steady-3m', engine: 'ringmatch', impl: OURS_IMPL, ops_per_sec: null, p50_ns: null, p99_ns: null,
      p999_ns: null, books_match: true, commands: m.commands, heap_growth_bytes: m.retainedBytes,
      heap_growth_before_gc_bytes: m.grossBytes, gc_events_during_run: m.gcEvents,
      allocated: m.gcEvents > 0 || m.grossBytes > 1 << 20, seconds: round2(m.seconds),
    });
  }
}

function fmtNum(x: unknown): string {
  if (typeof x !== 'number') return '-';
  return Math.round(x).toLocaleString('en-US');
}

function table(): string {
  const head = ['scenario', 'engine', 'ops/s', 'isolated ops/s', 'p50 ns', 'p99 ns', 'p99.9 ns', 'speedup', 'isolated', 'trades', 'books', 'notes'];
  const body = rows.map((r) => {
    let notes = '';
    if (typeof r.bytes_per_order === 'number') notes = `${r.bytes_per_order} B/order (empty book ${fmtNum(r.empty_book_bytes)} B)`;
    if (typeof r.heap_growth_bytes === 'number') {
      notes = `heap growth ${fmtNum(r.heap_growth_bytes)} B after gc, ${fmtNum(r.heap_growth_before_gc_bytes)} B before gc, `
        + `${String(r.gc_events_during_run)} GCs during run`;
    }
    if (r.scenario === 'ec-mirror') notes = `exchange-core published: ${fmtNum(r.reference_ops_per_sec)} ops/s (X5690, Java)`;
    const ours = r.engine === 'ringmatch';
    return [r.scenario, r.engine, fmtNum(r.ops_per_sec), fmtNum(r.isolated_ops_per_sec), fmtNum(r.p50_ns), fmtNum(r.p99_ns), fmtNum(r.p999_ns),
      typeof r.speedup === 'number' && ours ? `${r.speedup}×` : '', typeof r.isolated_speedup === 'number' && ours ? `${r.isolated_speedup}×` : '',
      fmtNum(r.trades), r.books_match && r.isolated_books_match !== false ? 'ok' : 'MISMATCH', notes];
  });
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c]!.length)));
  const line = (cells: string[]): string => cells.map((x, c) => (c >= 2 && c <= 9 ? x.padStart(widths[c]!) : x.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const header = `ringmatch core benchmark (${QUICK ? 'quick' : 'full'}), measured book: ${OURS_IMPL}\n${machineLines(machineInfo())}`;
  log(header);
  if (!hasGc) log('WARNING: gc() is not exposed; run with node --expose-gc for comparable figures');
  const timerNs = timerOverheadNs();
  log(`timer: one hrtime.bigint() pair costs ~${timerNs.toFixed(0)} ns (included in every latency sample)`);
  const t0 = Date.now();
  await runPairs();
  const ec = await runEcMirror();
  await runMemory(ec);
  const seconds = (Date.now() - t0) / 1000;
  log(`done in ${seconds.toFixed(1)} s`);
  for (const r of rows) {
    r.timer_overhead_ns = Math.round(timerNs);
  }
  const allMatch = rows.every((r) => r.books_match);
  if (!allMatch) log('WARNING: at least one scenario failed its correctness gate (books_match: false)');
  if (JSON_OUT) {
    log(table());
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } else {
    process.stdout.write(`${header}\n\n${table()}\n`);
  }
}

await main();
