/**
 * What `npm run replay` prints without `--json`: a few lines for a person reading a terminal. The speed and
 * state hash; per format the figures that say whether the run did what was meant (a strategy's PnL, fills,
 * fees, drawdown and fill ratio; the public market; journal and LOBSTER counts); rows skipped with
 * `--skip-invalid`, by reason, with the first of each; and where the reports were written. Everything shown
 * comes from the report (`--json` prints all of it).
 */
import type { SkippedRowsReport } from './csv/invalid-rows.js';
import type { ReplayReport } from './report.js';

/** Report files written by this run (`--out`, `--html`). */
export interface ReportFiles {
  readonly json?: string | undefined;
  readonly html?: string | undefined;
}

type Obj = Readonly<Record<string, unknown>>;

const n = (v: unknown): string => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v));

/** The human-readable summary of one replay. @allocates */
export function summary(r: ReplayReport, files: ReportFiles = {}): string {
  const lines = [
    `replay (${r.format}): ${n(r.events)} events in ${(r.timing.wall_ms / 1000).toFixed(3)} s (${n(r.events_per_sec)} events/s)`,
    `state hash: ${r.state_hash}`,
  ];
  const res = r.result;
  if (res.journal !== undefined) lines.push(journalLine(res));
  else if (res.messages_by_type !== undefined) lines.push(lobsterLine(res));
  else if (res.public !== undefined) for (const l of marketLines(res)) lines.push(l);
  if (res.perpetual !== undefined) for (const l of perpLines(res.perpetual as Obj)) lines.push(l);
  const skipped = res.skipped_rows as SkippedRowsReport | undefined;
  if (skipped !== undefined && skipped.total > 0) {
    const reasons = Object.entries(skipped.by_reason).map(([k, v]) => `${k} ${n(v)}`).join(', ');
    lines.push(`skipped rows: ${n(skipped.total)} (${reasons}); first of each:`);
    for (const e of skipped.examples) lines.push(`  ${e}`);
  }
  lines.push(reportsLine(files));
  return `${lines.join('\n')}\n`;
}

/** Where the reports are, or how to get them. */
export function reportsLine(files: ReportFiles): string {
  const written = [files.json === undefined ? '' : `JSON ${files.json}`, files.html === undefined ? '' : `HTML ${files.html}`].filter((s) => s !== '');
  return written.length > 0
    ? `reports: ${written.join(', ')}`
    : 'reports: none written (--html FILE for charts, --out FILE or --json for the full report)';
}

function journalLine(res: Obj): string {
  const j = res.journal as Obj;
  const cut = j.defect === undefined ? '' : `; a ${j.defect as string} record ends it at byte ${n(j.truncated_at)}`;
  return `journal: ${n(j.records)} records, ${n(res.trades)} trades, ${n(res.rejected)} rejected, ${n(res.open_orders)} open orders${cut}`;
}

function lobsterLine(res: Obj): string {
  return `messages: ${n((res.input as Obj).messages)}, ${n(res.engine_trades)} trades, ${n(res.resting_orders)} resting orders, `
    + `${n(res.unknown_orders)} about unknown orders, ${n(res.mismatched_executions)} mismatched executions, ${n(res.rejected)} rejected`;
}

/** A perpetual's prices, funding, liquidations and per user the futures PnL components (settle currency). */
function perpLines(p: Obj): string[] {
  const k = p.contract as Obj;
  const f = p.funding as Obj;
  const liq = p.liquidator as Obj;
  const ins = p.insurance as Obj;
  const cur = String(k.settle).toUpperCase();
  const out = [`perpetual ${String(k.name)}: mark ${String((p.prices as Obj).mark)}, funding ${n(f.applied)} paid of ${n(f.recorded)} recorded `
    + `(${n(f.refused)} refused), ${n(liq.liquidations)} liquidations, ${n(liq.adl)} auto-deleverages, insurance fund ${String(ins.open)} → ${String(ins.close)} ${cur}`];
  for (const u of (p.users ?? []) as Obj[]) {
    out.push(`uid ${String(u.uid)}: position ${n(u.position)} contracts, funding PnL ${String(u.funding_pnl)}, fees ${String(u.fees)}, `
      + `realised ${String(u.realised_pnl)}, unrealised ${String(u.unrealised_pnl)}, total ${String(u.total_pnl)} ${cur}, `
      + `max margin usage ${String(u.max_margin_usage)}, ${n(u.liquidations)} liquidations`);
  }
  return out;
}

function marketLines(res: Obj): string[] {
  const p = res.public as Obj;
  const m = res.market as Obj;
  const out = [`public ${String(m.id)}: ${n(p.trades)} trades, volume ${String(p.volume)}, best bid ${String(p.best_bid)}, best ask ${String(p.best_ask)}`];
  if (res.strategy === null || res.strategy === undefined) return out;
  for (const u of (res.users ?? []) as Obj[]) {
    const fees = Object.entries(u.fees as Record<string, string>).map(([c, v]) => `${v} ${c}`).join(' + ');
    out.push(`uid ${String(u.uid)}: PnL ${String(u.pnl)} ${String(u.pnl_currency)}, max drawdown ${String(u.max_drawdown)} ${String(u.pnl_currency)}, `
      + `${n(Number(u.maker_fills) + Number(u.taker_fills))} fills (${n(u.maker_fills)} maker, ${n(u.taker_fills)} taker), `
      + `fill ratio ${String(u.fill_ratio)}, fees ${fees}, ${n(u.orders)} orders (${n(u.rejected)} rejected)`);
  }
  return out;
}
