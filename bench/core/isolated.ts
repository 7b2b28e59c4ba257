/**
 * Isolated passes: each engine's passes of a scenario also run in child processes of their own (isolated-pass.ts),
 * alternating engines child by child (A, B, B, A, …), each child with the same stream and the same warm-up as the
 * in-process run. The in-process rows put both engines in one heap and one JIT; these rows remove that
 * interference, so a difference between the two is measured rather than guessed.
 *
 * Costs: each child regenerates its scenario's stream (seconds for the full sizes) before it times anything.
 */
import { nextMessage, startChild, stopChild } from '../children.js';
import { median } from './measure.js';

export const EC_MIRROR = 'ec-mirror';

/** What one child reports. */
export interface IsolatedResult {
  /** Ops/s of each measured pass. */
  readonly ops: number[];
  /** Fills of the last pass and the SHA-256 of its final L2, compared across engines. */
  readonly fills: number;
  readonly l2Hash: string;
}

/** One engine's isolated figure. */
export interface IsolatedOutcome {
  readonly opsPerSec: number;
  readonly passOps: number[];
  readonly fills: number;
  readonly l2Hash: string;
}

const CHILD = new URL('./isolated-pass.ts', import.meta.url).pathname;

/** Runs `children` processes per engine (alternating order), each `warmup` + `passes`; the figure is the median of all passes. */
export async function runIsolated(scenario: string, engines: readonly string[], warmup: number, passes: number,
  children: number, quick: boolean, log: (line: string) => void): Promise<Map<string, IsolatedOutcome>> {
  const passOps = new Map<string, number[]>(engines.map((e) => [e, []]));
  const last = new Map<string, IsolatedResult>();
  for (let c = 0; c < children; c++) {
    const order = c % 2 === 0 ? [...engines] : [...engines].reverse();
    for (const engine of order) {
      const args = [scenario, engine, String(warmup), String(passes), ...(quick ? ['--quick'] : [])];
      const child = startChild(CHILD, '0', args, ['--expose-gc', '--max-old-space-size=8192']);
      try {
        const res = await nextMessage<IsolatedResult>(child, `${scenario}/${engine} isolated`, 600_000);
        passOps.get(engine)!.push(...res.ops);
        last.set(engine, res);
        log(`  isolated ${scenario} ${engine} child ${c + 1}/${children}: ${res.ops.map((x) => Math.round(x).toLocaleString('en-US')).join(', ')} ops/s`);
      } finally {
        await stopChild(child);
      }
    }
  }
  const out = new Map<string, IsolatedOutcome>();
  for (const engine of engines) {
    const r = last.get(engine)!;
    out.set(engine, { opsPerSec: median(passOps.get(engine)!), passOps: passOps.get(engine)!, fills: r.fills, l2Hash: r.l2Hash });
  }
  return out;
}
