/**
 * What a measured server process spends during a phase: CPU time (user and kernel, `process.cpuUsage`) and
 * garbage collections (count and pauses, from a `perf_hooks` 'gc' observer). The benchmark resets it before a
 * phase and reads it after, over the server's IPC channel (`UsageRequest` → `UsageReport`).
 *
 * Allocates one number per GC event (the pause list), nothing per request.
 */
import { PerformanceObserver } from 'node:perf_hooks';

export type UsageRequest = { readonly type: 'usage-reset' } | { readonly type: 'usage-read' };

export interface UsageReport {
  readonly type: 'usage';
  /** µs of CPU since the reset. */
  readonly user_us: number;
  readonly system_us: number;
  readonly gc_count: number;
  /** GC pauses since the reset, ms. */
  readonly gc_pause_p99_ms: number;
  readonly gc_pause_max_ms: number;
  readonly gc_pause_total_ms: number;
}

/** Installs the observer and answers usage requests on this process's IPC channel. */
export function serveUsage(): void {
  let pauses: number[] = [];
  let cpu = process.cpuUsage();
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push(e.duration);
  });
  obs.observe({ entryTypes: ['gc'] });
  process.on('message', (m: UsageRequest) => {
    if (m.type === 'usage-reset') {
      pauses = [];
      cpu = process.cpuUsage();
    } else if (m.type === 'usage-read') {
      const d = process.cpuUsage(cpu);
      const sorted = [...pauses].sort((a, b) => a - b);
      const at = (q: number): number => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
      const report: UsageReport = {
        type: 'usage', user_us: d.user, system_us: d.system, gc_count: sorted.length,
        gc_pause_p99_ms: round3(at(0.99)), gc_pause_max_ms: round3(at(1)), gc_pause_total_ms: round3(sorted.reduce((s, x) => s + x, 0)),
      };
      process.send?.(report);
    }
  });
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
