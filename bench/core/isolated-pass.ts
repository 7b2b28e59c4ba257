/**
 * One engine's passes of one scenario in a process of its own: the child side of bench:core's isolated rows.
 *
 *   node --expose-gc --import tsx bench/core/isolated-pass.ts <scenario> <engine> <warmup> <passes> [--quick]
 *
 * Builds the same stream as the parent (drivers.ts, same seed), runs `warmup` discarded passes and `passes`
 * timed ones exactly as the in-process run does (measure.ts timePass: pre-fill untimed, gc, one timer pair per
 * replay), and sends `IsolatedResult` over IPC. Nothing else runs in this process, so the figure carries no
 * interference from the other engine's heap, JIT state or garbage.
 */
import { createHash } from 'node:crypto';
import { EC_MIRROR, type IsolatedResult } from './isolated.js';
import { ecMirrorStream, oursDriver, pairScenario } from './drivers.js';
import { type EngineDriver, gcNow, timePass } from './measure.js';

const [name, engine, warmupArg, passesArg] = process.argv.slice(2);
const quick = process.argv.includes('--quick');
const warmup = Number(warmupArg);
const passes = Number(passesArg);

function driverOf(): { d: EngineDriver<unknown>; reps: number; opsPerRep: number } {
  if (name === EC_MIRROR) {
    const g = ecMirrorStream(quick);
    return { d: oursDriver(g.stream, 'native'), reps: 1, opsPerRep: g.stream.length - g.stream.prefill };
  }
  const sc = pairScenario(name!, quick);
  const d = (engine === 'ringmatch' ? sc.ours : sc.peer) as EngineDriver<unknown>;
  return { d, reps: sc.reps, opsPerRep: sc.opsPerRep };
}

const { d, reps, opsPerRep } = driverOf();
const ops: number[] = [];
let fills = 0;
let l2 = '';
for (let p = 0; p < warmup + passes; p++) {
  gcNow();
  const res = timePass(d, reps);
  fills = res.fills;
  l2 = res.l2;
  if (p >= warmup) ops.push((opsPerRep * reps) / res.seconds);
}
const result: IsolatedResult = { ops, fills, l2Hash: createHash('sha256').update(l2).digest('hex') };
process.send!(result, () => process.disconnect());
