/**
 * The HTML report: one self-contained file (inline CSS and SVG, no script, nothing fetched) with the
 * charts of a market-data replay — equity and position per user over time, the price with our fills marked
 * — and tables of fill ratios, fees, PnL, queue and latency statistics. Order-flow replays (journal,
 * LOBSTER) get the summary tables. Chart values are floats for drawing; the tables print the report's exact
 * decimal strings.
 */
import type { ReplayReport } from './report.js';

const W = 860;
const H = 220;
const PAD = 44;
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2'];

const esc = (v: unknown): string => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (v: number): string => (Math.abs(v) >= 1e6 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : Number(v.toPrecision(7)).toString());

interface Line { readonly name: string; readonly xs: readonly number[]; readonly ys: readonly number[] }
interface Mark { readonly x: number; readonly y: number; readonly buy: boolean }

/** An SVG line chart with time on x (µs) and optional fill markers. */
export function lineChart(title: string, lines: readonly Line[], marks: readonly Mark[] = []): string {
  const xs = lines.flatMap((l) => l.xs).concat(marks.map((m) => m.x));
  const ys = lines.flatMap((l) => l.ys).concat(marks.map((m) => m.y));
  if (xs.length === 0) return `<h3>${esc(title)}</h3><p class="muted">no data</p>`;
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs, x0 + 1);
  let y0 = Math.min(...ys);
  let y1 = Math.max(...ys);
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const sx = (x: number): number => PAD + ((x - x0) / (x1 - x0)) * (W - 2 * PAD);
  const sy = (y: number): number => H - PAD / 2 - ((y - y0) / (y1 - y0)) * (H - PAD);
  const paths = lines.map((l, k) => {
    const d = l.xs.map((x, i) => `${i === 0 ? 'M' : 'L'}${sx(x).toFixed(1)},${sy(l.ys[i]!).toFixed(1)}`).join('');
    return `<path d="${d}" fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="1.5"/>`;
  }).join('');
  const dots = marks.map((m) => {
    const x = sx(m.x);
    const y = sy(m.y);
    return m.buy
      ? `<path d="M${x.toFixed(1)},${(y - 5).toFixed(1)}l4,7h-8z" fill="#059669"/>`
      : `<path d="M${x.toFixed(1)},${(y + 5).toFixed(1)}l4,-7h-8z" fill="#dc2626"/>`;
  }).join('');
  const legend = lines.map((l, k) => `<tspan fill="${COLORS[k % COLORS.length]}">■ ${esc(l.name)}</tspan>`).join('  ');
  const seconds = ((x1 - x0) / 1e6).toFixed(1);
  return `<h3>${esc(title)}</h3><svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(title)}">`
    + `<rect x="${PAD}" y="${PAD / 2}" width="${W - 2 * PAD}" height="${H - PAD}" fill="#fafafa" stroke="#ddd"/>`
    + `<text x="4" y="${PAD / 2 + 10}" class="ax">${esc(num(y1))}</text><text x="4" y="${H - PAD / 2}" class="ax">${esc(num(y0))}</text>`
    + `<text x="${PAD}" y="${H - 4}" class="ax">0 s</text><text x="${W - PAD - 40}" y="${H - 4}" class="ax">${seconds} s</text>`
    + `${paths}${dots}<text x="${PAD + 4}" y="${PAD / 2 + 14}" class="ax">${legend}</text></svg>`;
}

/** A table from rows of [label, value] or a header and rows. */
function table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(typeof c === 'object' && c !== null ? JSON.stringify(c) : c)}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

interface MdResult {
  market: { id: string; price_precision: number; amount_precision: number };
  series: { t: number[]; mid: number[]; users: { uid: number; base: number[]; quote: number[] }[] };
  fills: { t: number; uid: number; side: number; price: number; lots: number; role: string }[];
  users: Record<string, unknown>[];
  models: { latency: Record<string, { spec: unknown; draws: number; mean_us: number; min_us: number; max_us: number }> } & Record<string, unknown>;
  execution: Record<string, unknown>;
  public: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

function marketCharts(r: MdResult): string {
  const s = r.series;
  const pp = 10 ** r.market.price_precision;
  const bs = 10 ** r.market.amount_precision;
  const qs = 10 ** (r.market.price_precision + r.market.amount_precision);
  const equity = s.users.map((u) => ({ name: `uid ${u.uid}`, xs: s.t, ys: s.t.map((_, i) => u.quote[i]! / qs + (u.base[i]! / bs) * s.mid[i]!) }));
  const position = s.users.map((u) => ({ name: `uid ${u.uid}`, xs: s.t, ys: u.base.map((b) => b / bs) }));
  const marks = r.fills.map((f) => ({ x: f.t, y: f.price / pp, buy: f.side === 1 }));
  return lineChart(`Equity (${r.market.id.split('_')[1]}; base marked at mid)`, equity)
    + lineChart('Position (base)', position)
    + lineChart('Mid price with our fills (▲ buy, ▼ sell)', [{ name: 'mid', xs: s.t, ys: s.mid }], marks);
}

function marketTables(r: MdResult): string {
  const users = r.users;
  const get = (u: Record<string, unknown>, k: string): unknown => u[k];
  const lat = Object.entries(r.models.latency).map(([leg, v]) => [leg, v.spec, v.draws, v.mean_us, v.min_us, v.max_us]);
  return '<h2>Users</h2>'
    + table(['uid', 'orders', 'rejected', 'placed', 'filled', 'fill ratio', 'maker fills', 'taker fills', 'fees', 'PnL', 'position change'],
      users.map((u) => ['uid', 'orders', 'rejected', 'placed', 'filled', 'fill_ratio', 'maker_fills', 'taker_fills', 'fees', 'pnl', 'position_change'].map((k) => get(u, k))))
    + '<h2>Queue and execution</h2>' + table(['statistic', 'value'], Object.entries(r.execution))
    + '<h2>Latency (µs)</h2>' + table(['leg', 'model', 'draws', 'mean', 'min', 'max'], lat)
    + '<h2>Public market</h2>' + table(['field', 'value'], Object.entries(r.public))
    + '<h2>Inputs</h2>' + table(['field', 'value'], Object.entries(r.inputs));
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
