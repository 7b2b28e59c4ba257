// HTML report charts on real-size data: the drawn polyline keeps every pixel column's first, lowest,
// highest and last point, and a report with 10M samples and 1M fills renders to a bounded page quickly.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { arrayLine, COLUMNS, lineChart, m4, range } from '../../src/backtest/chart.js';
import { renderHtml } from '../../src/backtest/html-report.js';
import { makeReport } from '../../src/backtest/report.js';
import { Prng } from '../../src/core/prng.js';

describe('M4 downsampling', () => {
  it('keeps, per pixel column, the first, lowest, highest and last point, in order, at most 4 each', () => {
    const r = new Prng(11);
    for (const n of [1, 5, 700, 20_000]) {
      const xs: number[] = [];
      const ys: number[] = [];
      let t = 0;
      for (let i = 0; i < n; i++) { t += 1 + r.nextInt(100); xs.push(t); ys.push(r.nextGaussian()); }
      const line = arrayLine('y', xs, ys);
      const rg = range([line])!;
      const drawn = m4(line, rg);
      expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
      const col = (x: number): number => Math.min(COLUMNS - 1, Math.floor(((x - rg.x0) / (rg.x1 - rg.x0)) * COLUMNS));
      const byCol = new Map<number, number[]>();
      xs.forEach((x, i) => { const c = col(x); byCol.set(c, [...(byCol.get(c) ?? []), i]); });
      for (const [c, idx] of byCol) {
        const kept = drawn.filter((i) => col(xs[i]!) === c);
        expect(kept.length).toBeLessThanOrEqual(4);
        expect(kept).toContain(idx[0]);
        expect(kept).toContain(idx[idx.length - 1]);
        const vals = idx.map((i) => ys[i]!);
        expect(Math.min(...kept.map((i) => ys[i]!))).toBe(Math.min(...vals));
        expect(Math.max(...kept.map((i) => ys[i]!))).toBe(Math.max(...vals));
      }
      expect(drawn.length).toBeLessThanOrEqual(Math.min(n, 4 * COLUMNS));
    }
  });

  it('draws nothing for no finite point and skips values that are not finite', () => {
    expect(lineChart('t', [arrayLine('a', [], [])])).toContain('no data');
    const svg = lineChart('t', [arrayLine('a', [0, 1, 2, 3], [1, Number.NaN, 3, Number.POSITIVE_INFINITY])]);
    expect(svg).not.toContain('NaN');
    expect(svg.match(/[ML][0-9.]+,[0-9.]+/g)).toHaveLength(2);
  });
});

describe('a report of real size', () => {
  it('renders 10M samples and 1M fills to a bounded page, keeping the extremes', () => {
    const N = 10_000_000;
    const FILLS = 1_000_000;
    const T0 = 1_767_225_600_000_000;
    const r = new Prng(5);
    const t: number[] = [];
    const mid: number[] = [];
    const base: number[] = [];
    const quote: number[] = [];
    let m = 600_000;
    for (let i = 0; i < N; i++) {
      m += r.nextInt(3) - 1;
      t.push(T0 + i * 1_000_000);
      // Prices (ticks / 10); one spike far above everything else: the chart must still reach it.
      mid.push(i === 7_777_777 ? 90_000 : m / 10);
      base.push(10_000 + (i % 1000));
      quote.push(1e10 - (i % 777));
    }
    const fills: { t: number; uid: number; side: number; price: number; lots: number; role: string }[] = [];
    for (let k = 0; k < FILLS; k++) fills.push({ t: T0 + k * 10_000_000, uid: 10001, side: 1 + (k & 1), price: 590_000 + r.nextInt(20_000), lots: 1, role: 'maker' });
    const result = {
      inputs: { batches: N }, market: { id: 'BTC_USDT', price_precision: 1, amount_precision: 3 },
      models: { latency: {} }, public: {}, execution: {}, users: [{ uid: 10001, pnl: '0' }],
      series: { t, mid, users: [{ uid: 10001, base, quote }] }, fills,
    };
    const t0 = performance.now();
    const html = renderHtml(makeReport('tardis', N, '0', result, 1));
    const ms = performance.now() - t0;
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html.length).toBeLessThan(1_000_000);
    expect(html).toContain('drawn: ');
    expect(html).toContain('of 10,000,000 points, ');
    expect(html).toContain('marks for 1,000,000 fills');
    // The mid chart's top label is the spike (90,000.0), and its path reaches the top of the plot (y = 22).
    const midChart = html.slice(html.indexOf('Mid price'));
    expect(midChart).toContain('>90000<');
    expect(midChart).toMatch(/L[0-9.]+,22\.0/);
    // Bounded time: two passes per line, one per marks (a few seconds on a loaded shared machine at most).
    expect(ms).toBeLessThan(20_000);
  });
});
