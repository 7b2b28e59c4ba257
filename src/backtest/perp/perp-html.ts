/**
 * The perpetual part of the HTML report (./perp-driver.ts `report()`): equity, margin in use, position and
 * the mark price over time, and tables of each user's funding PnL, fees, realised and unrealised PnL, margin,
 * the funding events, liquidations and auto-deleverages. Charts are bounded (../chart.ts); tables print the
 * report's exact decimals.
 */
import { arrayLine, esc, lineChart, type Marks } from '../chart.js';

type Obj = Record<string, unknown>;

export interface PerpSection {
  contract: Obj & { settle: string };
  prices: Obj;
  funding: { recorded: number; applied: number; refused: number; events: { time_us: number; rate: string; applied: boolean; insurance_after: string }[] };
  liquidator: Obj;
  insurance: { open: string; close: string };
  users: Obj[];
  liquidations: Obj[];
  adl: Obj[];
  series: { t: number[]; mark: number[]; users: { uid: number; equity: number[]; margin: number[]; size: number[] }[] };
}

function table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(typeof c === 'object' && c !== null ? JSON.stringify(c) : c)}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

const iso = (us: number): string => new Date(Math.floor(us / 1000)).toISOString();

/** Charts and tables of a perpetual replay; `fills` marks our fills on the mark-price chart. @allocates */
export function perpHtml(p: PerpSection, fills: Marks): string {
  const s = p.series;
  const cur = p.contract.settle.toUpperCase();
  const per = (k: 'equity' | 'margin' | 'size'): ReturnType<typeof arrayLine>[] => s.users.map((u) => arrayLine(`uid ${u.uid}`, s.t, u[k]));
  const userCols = ['uid', 'position', 'funding_pnl', 'fees', 'realised_pnl', 'unrealised_pnl', 'total_pnl', 'equity', 'margin',
    'max_margin_usage', 'liquidations', 'adl'];
  return '<h2>Perpetual</h2>'
    + lineChart(`Equity (${cur}: futures total + unrealised PnL at the mark)`, per('equity'))
    + lineChart(`Margin in use (${cur}: position + order margin)`, per('margin'))
    + lineChart('Position (contracts)', per('size'))
    + lineChart('Mark price with our fills (▲ buy, ▼ sell)', [arrayLine('mark', s.t, s.mark)], fills)
    + `<h3>PnL and margin (${esc(cur)})</h3>` + table(userCols, p.users.map((u) => userCols.map((k) => u[k])))
    + '<h3>Funding</h3>' + table(['recorded', 'applied', 'refused'], [[p.funding.recorded, p.funding.applied, p.funding.refused]])
    + table(['time (UTC)', 'rate', 'applied', `insurance fund after (${cur})`],
      p.funding.events.map((e) => [iso(e.time_us), e.rate, e.applied, e.insurance_after]))
    + '<h3>Liquidations</h3>'
    + (p.liquidations.length === 0 ? '<p class="muted">none</p>'
      : table(['time (UTC)', 'uid', 'size', 'leverage', 'margin', 'entry', 'liquidation price', 'mark'],
        p.liquidations.map((l) => [iso(l.time_us as number), l.uid, l.size, l.leverage, l.margin, l.entry_price, l.liq_price, l.mark_price])))
    + (p.adl.length === 0 ? '' : '<h3>Auto-deleverages</h3>' + table(['time (UTC)', 'uid', 'closed', 'left', 'price'],
      p.adl.map((a) => [iso(a.time_us as number), a.uid, a.trade_size, a.position_size, a.fill_price])))
    + '<h3>Contract, prices, liquidator, insurance fund</h3>'
    + table(['field', 'value'], [...Object.entries(p.contract), ...Object.entries(p.prices), ...Object.entries(p.liquidator),
      ['insurance fund open', p.insurance.open], ['insurance fund close', p.insurance.close]]);
}
