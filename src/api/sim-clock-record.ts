/**
 * The simulated clock's journaled record (engine/records.ts): `sim/clock` = `{now_us}`, put by every move of
 * POST /sim/clock. A restart starts the clock at the later of this and the last journaled command's time, so a
 * clock moved forward and then restarted comes back where it was moved to, even when no command followed the
 * move.
 */
import type { SimClock } from '../core/clock.js';
import type { Exchange } from '../core/exchange/exchange.js';
import type { RecordPutsMap } from '../engine/records.js';

export const SIM_CLOCK_KEY = 'sim/clock';

/** The record of a move to `nowUs`. @allocates */
export const simClockRecord = (nowUs: number): RecordPutsMap => ({ [SIM_CLOCK_KEY]: { now_us: nowUs } });

/** Moves `clock` forward to the recorded time, if it is behind it. */
export function restoreSimClock(ex: Exchange, clock: SimClock): void {
  const row = ex.records.get(SIM_CLOCK_KEY);
  if (row === undefined) return;
  const v = JSON.parse(row.value) as { now_us?: unknown } | null;
  const us = v?.now_us;
  if (typeof us === 'number' && Number.isSafeInteger(us) && us > clock.nowUs()) clock.advanceTo(us);
}
