// soak:server's memory verdict: slopes per 1,000 orders, fitted only once the finished-order window is full.
import { describe, expect, it } from 'vitest';
import { memoryVerdict, slope } from '../../soak/memory-verdict.js';
import type { MemorySample } from '../../soak/protocol.js';

const sample = (orders: number, heap: number, full: boolean): MemorySample => ({
  t_ms: orders, rss: 3 * heap, heap_used: heap, heap_total: 2 * heap, external: 1000, array_buffers: 500,
  orders_placed: orders, orders_open: 100, trades: orders / 2, window_full: full, sizes: {},
});

describe('memory verdict', () => {
  it('fits a straight line exactly', () => {
    expect(slope([1, 2, 3, 4], [10, 12, 14, 16])).toBe(2);
    expect(slope([5], [1])).toBeNaN();
  });

  it('ignores the window filling up, and calls a heap that then stays put flat', () => {
    const s = [sample(0, 10e6, false), sample(100_000, 40e6, false), // the window fills: 300 B per order
      ...[200_000, 300_000, 400_000, 500_000].map((o, i) => sample(o, 40e6 + (i % 2) * 1000, true))];
    const v = memoryVerdict(s, 2048);
    expect(v.samples).toBe(4);
    expect(v.orders).toBe(300_000);
    expect(Math.abs(v.heap_used_per_1k)).toBeLessThan(10);
    expect(v.verdict).toBe('flat');
  });

  it('calls 0.4 KB per order after the window is full growing, and reports rss beside it', () => {
    const s = [100_000, 200_000, 300_000].map((o) => sample(o, 40e6 + o * 400, true));
    const v = memoryVerdict(s, 2048);
    expect(v.heap_used_per_1k).toBe(400_000);
    expect(v.rss_per_1k).toBe(1_200_000);
    expect(v.verdict).toBe('growing');
  });

  it('gives no verdict on too few samples or orders', () => {
    expect(memoryVerdict([sample(100_000, 1, true), sample(200_000, 2, true)], 2048).verdict).toBe('unknown');
    expect(memoryVerdict([10, 20, 30].map((o) => sample(100_000 + o, 1, true)), 2048).verdict).toBe('unknown');
  });
});
