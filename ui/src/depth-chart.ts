/**
 * The depth chart: cumulative size against price, bids (green) rising to the left of the mid price and asks
 * (red) to the right, drawn as step areas on a canvas. Floats are used for geometry only; the book table shows
 * the exact figures.
 */

/** A price level: [price, size] as decimal strings. */
export type Level = readonly [string, string];

const BID = { line: '#1fa67a', fill: 'rgba(31, 166, 122, 0.22)' };
const ASK = { line: '#e0565b', fill: 'rgba(224, 86, 91, 0.22)' };

function cumulative(levels: readonly Level[]): [number, number][] {
  let sum = 0;
  return levels.map(([p, s]) => [Number(p), (sum += Number(s))]);
}

/** Draws `bids` (best first) and `asks` (best first) on `canvas`, sized to its CSS box. */
export function drawDepth(canvas: HTMLCanvasElement, bids: readonly Level[], asks: readonly Level[]): void {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const g = canvas.getContext('2d');
  if (g === null) return;
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const b = cumulative(bids);
  const a = cumulative(asks);
  const pad = { left: 8, right: 8, top: 18, bottom: 22 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  g.font = '11px system-ui, sans-serif';
  g.fillStyle = '#8a93a6';
  if (b.length === 0 && a.length === 0) {
    g.fillText('empty book', width / 2 - 30, height / 2);
    return;
  }
  const prices = [...b.map((x) => x[0]), ...a.map((x) => x[0])];
  let lo = Math.min(...prices);
  let hi = Math.max(...prices);
  if (hi === lo) { lo -= 1; hi += 1; }
  // A margin beyond the outermost levels, so the last step of each side shows as a plateau.
  const margin = (hi - lo) * 0.04;
  lo -= margin;
  hi += margin;
  const top = Math.max(b.at(-1)?.[1] ?? 0, a.at(-1)?.[1] ?? 0) * 1.08 || 1;
  const x = (p: number): number => pad.left + ((p - lo) / (hi - lo)) * plotW;
  const y = (v: number): number => pad.top + plotH - (v / top) * plotH;

  const side = (pts: [number, number][], colour: { line: string; fill: string }, edge: number): void => {
    if (pts.length === 0) return;
    g.beginPath();
    g.moveTo(x(pts[0]![0]), y(0));
    let prev = 0;
    for (const [p, v] of pts) {
      g.lineTo(x(p), y(prev));
      g.lineTo(x(p), y(v));
      prev = v;
    }
    g.lineTo(edge, y(prev));
    g.strokeStyle = colour.line;
    g.lineWidth = 1.5;
    g.stroke();
    g.lineTo(edge, y(0));
    g.closePath();
    g.fillStyle = colour.fill;
    g.fill();
  };
  side(b, BID, pad.left);
  side(a, ASK, pad.left + plotW);

  // Axis: the lowest, middle and highest price; the largest cumulative size.
  g.fillStyle = '#8a93a6';
  g.strokeStyle = '#2a3142';
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(pad.left, pad.top + plotH + 0.5);
  g.lineTo(pad.left + plotW, pad.top + plotH + 0.5);
  g.stroke();
  const label = (p: number): string => p.toLocaleString('en-US', { maximumFractionDigits: 8 });
  g.textBaseline = 'top';
  g.textAlign = 'left';
  g.fillText(label(lo), pad.left, pad.top + plotH + 5);
  g.textAlign = 'center';
  g.fillText(label((lo + hi) / 2), pad.left + plotW / 2, pad.top + plotH + 5);
  g.textAlign = 'right';
  g.fillText(label(hi), pad.left + plotW, pad.top + plotH + 5);
  g.textAlign = 'left';
  g.fillText(`Σ ${(top / 1.08).toLocaleString('en-US', { maximumFractionDigits: 6 })}`, pad.left, 3);
}
