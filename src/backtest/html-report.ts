/**
 * The HTML report: one self-contained file (inline CSS and SVG, no script, nothing fetched) with the
 * charts of a market-data replay — equity and position per user over time, the price with our fills marked
 * — and tables of fill ratios, fees, PnL, queue and latency statistics. Order-flow replays (journal,
 * LOBSTER) get the summary tables. Chart values are floats for drawing; the tables print the report's exact
 * decimal strings. Charts stay bounded whatever the number of samples and fills (./chart.ts). A perpetual's
 * report gets its own charts and tables (./perp/perp-html.ts) in place of the spot equity and position charts.
 */
import { esc, lineChart, type Line } from './chart.js';
import type { SkippedRowsReport } from './csv/invalid-rows.js';
import { perpHtml, type PerpSection } from './perp/perp-html.js';
import type { ReplayReport } from './report.js';

/** A table from rows of [label, value] or a header and rows. */
function table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(typeof c === 'object' && c !== null ? JSON.stringify(c) : c)}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

interface MdResult {
  market: { id: string; price_precision: number; amount_precision: number };
  series: { t: ArrayLike<number>; mid: ArrayLike<number>; users: { uid: number; base: ArrayLike<number>; quote: ArrayLike<number> }[] };
  fills: ArrayLike<{ t: number; uid: number; side: number; price: number; lots: number; role: string }>;
  users: Record<string, unknown>[];
  models: { latency: Record<string, { spec: unknown; draws: number; mean_us: number; min_us: number; max_us: number }> } & Record<string, unknown>;
  execution: Record<string, unknown>;
  public: Record<string, unknown>;
  inputs: Record<string, unknown>;
  skipped_rows?: SkippedRowsReport;
  perpetual?: PerpSection;
}

/** Equity, position and mid-price charts, reading the report's arrays in place (./chart.ts bounds the output). */
function marketCharts(r: MdResult): string {
  const s = r.series;
  const pp = 10 ** r.market.price_precision;
  const bs = 10 ** r.market.amount_precision;
  const qs = 10 ** (r.market.price_precision + r.market.amount_precision);
  const n = s.t.length;
  const x = (i: number): number => s.t[i]!;
  const equity: Line[] = s.users.map((u) => ({ name: `uid ${u.uid}`, n, x, y: (i) => u.quote[i]! / qs + (u.base[i]! / bs) * s.mid[i]! }));
  const position: Line[] = s.users.map((u) => ({ name: `uid ${u.uid}`, n, x, y: (i) => u.base[i]! / bs }));
  const f = r.fills;
  const marks = { n: f.length, x: (i: number) => f[i]!.t, y: (i: number) => f[i]!.price / pp, buy: (i: number) => f[i]!.side === 1 };
  if (r.perpetual !== undefined) return perpHtml(r.perpetual, marks);
  return lineChart(`Equity (${r.market.id.split('_')[1]}; base marked at mid)`, equity)
    + lineChart('Position (base)', position)
    + lineChart('Mid price with our fills (▲ buy, ▼ sell)', [{ name: 'mid', n, x, y: (i) => s.mid[i]! }], marks);
}

function marketTables(r: MdResult): string {
  const users = r.users;
  const get = (u: Record<string, unknown>, k: string): unknown => u[k];
  const lat = Object.entries(r.models.latency).map(([leg, v]) => [leg, v.spec, v.draws, v.mean_us, v.min_us, v.max_us]);
  return '<h2>Users</h2>'
    + table(['uid', 'orders', 'rejected', 'placed', 'filled', 'fill ratio', 'maker fills', 'taker fills', 'fees', 'PnL', 'max drawdown', 'position change'],
      users.map((u) => ['uid', 'orders', 'rejected', 'placed', 'filled', 'fill_ratio', 'maker_fills', 'taker_fills', 'fees', 'pnl', 'max_drawdown',
        'position_change'].map((k) => get(u, k))))
    + '<h2>Queue and execution</h2>' + table(['statistic', 'value'], Object.entries(r.execution))
    + '<h2>Latency (µs)</h2>' + table(['leg', 'model', 'draws', 'mean', 'min', 'max'], lat)
    + '<h2>Public market</h2>' + table(['field', 'value'], Object.entries(r.public))
    + '<h2>Inputs</h2>' + table(['field', 'value'], Object.entries(r.inputs))
    + (r.skipped_rows === undefined || r.skipped_rows.total === 0 ? ''
      : '<h2>Skipped rows</h2>' + table(['reason', 'rows'], Object.entries(r.skipped_rows.by_reason))
        + table(['first of each reason'], r.skipped_rows.examples.map((e) => [e])));
}

/** The whole HTML document for a report. @allocates */
export function renderHtml(report: ReplayReport): string {
  const r = report.result as unknown as MdResult;
  const isMarket = r.series !== undefined && r.users !== undefined;
  const body = isMarket
    ? marketCharts(r) + marketTables(r)
    : '<h2>Result</h2>' + table(['field', 'value'], Object.entries(report.result));
  const summary = table(['format', 'events', 'events/s', 'state hash', 'wall ms'],
    [[report.format, report.events, report.events_per_sec, report.state_hash, report.timing.wall_ms]]);
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ringmatch replay report</title><style>'
    + 'body{font:14px system-ui,sans-serif;margin:24px auto;max-width:920px;color:#111}table{border-collapse:collapse;margin:8px 0 16px}'
    + 'td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top;font-size:13px}th{background:#f3f4f6}'
    + '.ax{font-size:11px;fill:#555}.muted{color:#777}h3{margin:18px 0 4px}</style></head><body>'
    + `<h1>Replay report</h1>${summary}${body}</body></html>\n`;
}
