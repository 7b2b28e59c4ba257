/**
 * Inline SVG line charts for the HTML report, bounded whatever the data's size: a report may hold millions
 * of samples and fills, and neither the page nor the renderer may grow with them.
 *
 * - Ranges are found by loops (never by spreading values into Math.min/Math.max, which throws RangeError
 *   past about 10^5 arguments).
 * - Each line is reduced to its first, lowest, highest and last point in every pixel column (M4
 *   aggregation), in index order: the polyline drawn is the one the full data would rasterize to, with at
 *   most 4 points per column.
 * - Fill marks keep, per pixel column and side, the lowest and highest fill, joined by a thin bar when they
 *   differ: at most 2 triangles per column and side.
 *
 * Cost: two passes over each line and one over the marks, O(columns) memory; the SVG text is O(columns).
 * Values that are not finite are left out.
 */

export const W = 860;
export const H = 220;
export const PAD = 44;
/** Pixel columns of the plot area: one bucket each. */
export const COLUMNS = W - 2 * PAD;
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2'];

/** A series read by index (no copy of the data): `n` points (x(i), y(i)), x ascending (time, µs). */
export interface Line {
  readonly name: string;
  readonly n: number;
  x(i: number): number;
  y(i: number): number;
}

/** Fill marks read by index: `n` marks at (x(i), y(i)), a buy (▲) or a sell (▼). */
export interface Marks {
  readonly n: number;
  x(i: number): number;
  y(i: number): number;
  buy(i: number): boolean;
}

export const esc = (v: unknown): string => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (v: number): string => (Math.abs(v) >= 1e6 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : Number(v.toPrecision(7)).toString());

/** Lines from arrays (x and y of the same length). */
export function arrayLine(name: string, xs: ArrayLike<number>, ys: ArrayLike<number>): Line {
  return { name, n: Math.min(xs.length, ys.length), x: (i) => xs[i]!, y: (i) => ys[i]! };
}

const NO_MARKS: Marks = { n: 0, x: () => 0, y: () => 0, buy: () => false };

/** The data ranges a chart maps onto its plot area. */
export interface Range { x0: number; x1: number; y0: number; y1: number }

/** The ranges of every finite point of `lines` and `marks`; undefined when there is none. */
export function range(lines: readonly Line[], marks: Marks = NO_MARKS): Range | undefined {
  let x0 = Infinity; let x1 = -Infinity; let y0 = Infinity; let y1 = -Infinity;
  const see = (x: number, y: number): void => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  };
  for (const l of lines) for (let i = 0; i < l.n; i++) see(l.x(i), l.y(i));
  for (let i = 0; i < marks.n; i++) see(marks.x(i), marks.y(i));
  if (x0 > x1) return undefined;
  if (x1 === x0) x1 = x0 + 1;
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  return { x0, x1, y0, y1 };
}

/** Column of `x` in [0, COLUMNS). */
function column(r: Range, x: number): number {
  return Math.min(COLUMNS - 1, Math.floor(((x - r.x0) / (r.x1 - r.x0)) * COLUMNS));
}

/**
 * Indexes of the points of `l` to draw: per column its first, lowest, highest and last point, in index
 * order (M4). Exported for tests. @allocates O(COLUMNS)
 */
export function m4(l: Line, r: Range): number[] {
  const first = new Int32Array(COLUMNS).fill(-1);
  const last = new Int32Array(COLUMNS);
  const lo = new Int32Array(COLUMNS);
  const hi = new Int32Array(COLUMNS);
  for (let i = 0; i < l.n; i++) {
    const x = l.x(i);
    const y = l.y(i);
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const c = column(r, x);
    if (first[c] === -1) { first[c] = i; lo[c] = i; hi[c] = i; }
    else if (y < l.y(lo[c]!)) lo[c] = i;
    else if (y > l.y(hi[c]!)) hi[c] = i;
    last[c] = i;
  }
  const out: number[] = [];
  for (let c = 0; c < COLUMNS; c++) {
    if (first[c] === -1) continue;
    const four = [first[c]!, lo[c]!, hi[c]!, last[c]!].sort((a, b) => a - b);
    for (let k = 0; k < 4; k++) if (k === 0 || four[k] !== four[k - 1]) out.push(four[k]!);
  }
  return out;
}

/** An SVG line chart with time on x (µs) and optional fill marks. */
export function lineChart(title: string, lines: readonly Line[], marks: Marks = NO_MARKS): string {
  const r = range(lines, marks);
  if (r === undefined) return `<h3>${esc(title)}</h3><p class="muted">no data</p>`;
  const sx = (x: number): number => PAD + ((x - r.x0) / (r.x1 - r.x0)) * (W - 2 * PAD);
  const sy = (y: number): number => H - PAD / 2 - ((y - r.y0) / (r.y1 - r.y0)) * (H - PAD);
  let points = 0;
  let drawnPoints = 0;
  const paths = lines.map((l, k) => {
    const idx = m4(l, r);
    points += l.n;
    drawnPoints += idx.length;
    const d = idx.map((i, j) => `${j === 0 ? 'M' : 'L'}${sx(l.x(i)).toFixed(1)},${sy(l.y(i)).toFixed(1)}`).join('');
    return `<path d="${d}" fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="1.5"/>`;
  }).join('');
  const { svg: dots, drawn: drawnMarks } = markSvg(marks, r, sx, sy);
  const legend = lines.map((l, k) => `<tspan fill="${COLORS[k % COLORS.length]}">■ ${esc(l.name)}</tspan>`).join('  ');
  const seconds = ((r.x1 - r.x0) / 1e6).toFixed(1);
  const reduced = drawnPoints < points || drawnMarks < marks.n
    ? `<p class="muted">drawn: ${drawnPoints.toLocaleString('en-US')} of ${points.toLocaleString('en-US')} points`
      + `${marks.n > 0 ? `, ${drawnMarks.toLocaleString('en-US')} marks for ${marks.n.toLocaleString('en-US')} fills` : ''}`
      + ' (lowest and highest per pixel column)</p>'
    : '';
  return `<h3>${esc(title)}</h3><svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(title)}">`
    + `<rect x="${PAD}" y="${PAD / 2}" width="${W - 2 * PAD}" height="${H - PAD}" fill="#fafafa" stroke="#ddd"/>`
    + `<text x="4" y="${PAD / 2 + 10}" class="ax">${esc(num(r.y1))}</text><text x="4" y="${H - PAD / 2}" class="ax">${esc(num(r.y0))}</text>`
    + `<text x="${PAD}" y="${H - 4}" class="ax">0 s</text><text x="${W - PAD - 40}" y="${H - 4}" class="ax">${seconds} s</text>`
    + `${paths}${dots}<text x="${PAD + 4}" y="${PAD / 2 + 14}" class="ax">${legend}</text></svg>${reduced}`;
}

/** Per column and side the lowest and highest mark, joined by a bar when they differ. */
function markSvg(marks: Marks, r: Range, sx: (x: number) => number, sy: (y: number) => number): { svg: string; drawn: number } {
  if (marks.n === 0) return { svg: '', drawn: 0 };
  // Slots 2·column + side (0 buy, 1 sell): the index of the lowest and the highest mark.
  const lo = new Int32Array(2 * COLUMNS).fill(-1);
  const hi = new Int32Array(2 * COLUMNS).fill(-1);
  for (let i = 0; i < marks.n; i++) {
    const x = marks.x(i);
    const y = marks.y(i);
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const s = 2 * column(r, x) + (marks.buy(i) ? 0 : 1);
    if (lo[s] === -1) { lo[s] = i; hi[s] = i; }
    else if (y < marks.y(lo[s]!)) lo[s] = i;
    else if (y > marks.y(hi[s]!)) hi[s] = i;
  }
  const parts: string[] = [];
  let drawn = 0;
  for (let s = 0; s < 2 * COLUMNS; s++) {
    if (lo[s] === -1) continue;
    const buy = (s & 1) === 0;
    const fill = buy ? '#059669' : '#dc2626';
    const a = lo[s]!;
    const b = hi[s]!;
    const x = sx(marks.x(a)).toFixed(1);
    if (a !== b) parts.push(`<path d="M${x},${sy(marks.y(a)).toFixed(1)}V${sy(marks.y(b)).toFixed(1)}" stroke="${fill}" stroke-width="1"/>`);
    for (const i of a === b ? [a] : [a, b]) {
      const xi = sx(marks.x(i)).toFixed(1);
      const y = sy(marks.y(i));
      parts.push(buy
        ? `<path d="M${xi},${(y - 5).toFixed(1)}l4,7h-8z" fill="${fill}"/>`
        : `<path d="M${xi},${(y + 5).toFixed(1)}l4,-7h-8z" fill="${fill}"/>`);
      drawn++;
    }
  }
  return { svg: parts.join(''), drawn };
}
