/**
 * The replay report: one JSON document. Everything except `events_per_sec` and `timing` is a pure function
 * of the inputs, the configuration and the seed, so two runs on the same inputs print the same bytes once
 * those two fields are removed (`deterministicJson`). Key order is fixed by construction (objects are built
 * field by field, never from a Map or a hash's iteration order).
 */

export interface Timing {
  /** Wall time of the replay loop, milliseconds. */
  readonly wall_ms: number;
  readonly events_per_sec: number;
  /** Time spent reading and parsing input, when separately measured. */
  readonly [extra: string]: number;
}

export interface ReplayReport {
  readonly format: string;
  /** Events replayed: journal records, or market-data rows plus simulated order events. */
  readonly events: number;
  /** Same as timing.events_per_sec (top level, as the command line promises). */
  readonly events_per_sec: number;
  /** The final state hash (engine, and the rebuilt public books for market-data replays). */
  readonly state_hash: string;
  /** The deterministic results (inputs, models, counts, PnL, series). */
  readonly result: Readonly<Record<string, unknown>>;
  readonly timing: Timing;
}

/** Builds a report; `wallMs` from a monotonic clock around the replay loop. */
export function makeReport(format: string, events: number, stateHash: string, result: Readonly<Record<string, unknown>>,
  wallMs: number, extraTiming: Readonly<Record<string, number>> = {}): ReplayReport {
  const eps = wallMs > 0 ? Math.round(events / (wallMs / 1000)) : 0;
  return {
    format, events, events_per_sec: eps, state_hash: stateHash, result,
    timing: { wall_ms: Number(wallMs.toFixed(3)), events_per_sec: eps, ...extraTiming },
  };
}

/** The report as printed by `--json` (one line, then a newline). */
export function reportJson(r: ReplayReport): string {
  return `${JSON.stringify(r)}\n`;
}

/** The report without its timing fields: byte-identical across runs of the same inputs and seed. */
export function deterministicJson(r: ReplayReport): string {
  const rest: Record<string, unknown> = { ...r };
  delete rest.events_per_sec;
  delete rest.timing;
  return JSON.stringify(rest);
}
