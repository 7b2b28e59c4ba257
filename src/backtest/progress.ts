/**
 * A one-line progress bar on a terminal (stderr): percentage, events/s and ETA, redrawn at most every
 * 200 ms. It writes nothing when the stream is not a TTY or when disabled (`--json`), so piped output and
 * JSON reports stay clean. `tick` is cheap: it reads the clock only every 65,536 events.
 */
import { performance } from 'node:perf_hooks';

export interface ProgressSink {
  readonly isTTY?: boolean;
  write(s: string): boolean;
}

const CHECK_MASK = 0xffff;
const REDRAW_MS = 200;
const WIDTH = 30;

/** "1:02:03" or "2:03" for a duration in seconds. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** "1.23M" style rate. */
export function formatRate(perSec: number): string {
  if (perSec >= 1e6) return `${(perSec / 1e6).toFixed(2)}M`;
  if (perSec >= 1e3) return `${(perSec / 1e3).toFixed(1)}k`;
  return perSec.toFixed(0);
}

/** The bar's text for `fraction` done (0..1). */
export function renderBar(fraction: number, events: number, elapsedS: number): string {
  const f = Math.min(1, Math.max(0, fraction));
  const filled = Math.round(f * WIDTH);
  const rate = elapsedS > 0 ? events / elapsedS : 0;
  const eta = f > 0 ? (elapsedS * (1 - f)) / f : NaN;
  return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(f * 100).toFixed(1).padStart(5)}%  `
    + `${formatRate(rate)} ev/s  ${events} events  ETA ${formatDuration(eta)}`;
}

export class Progress {
  readonly #sink: ProgressSink | undefined;
  readonly #start = performance.now();
  #lastDraw = 0;
  #drawn = false;

  /** `enabled` false (or a sink that is not a TTY) makes every call a no-op. */
  constructor(sink: ProgressSink | undefined, enabled: boolean) {
    this.#sink = enabled && sink?.isTTY === true ? sink : undefined;
  }

  get active(): boolean {
    return this.#sink !== undefined;
  }

  /** Call once per event; `fraction()` is evaluated only when a redraw is due. */
  tick(events: number, fraction: () => number): void {
    if (this.#sink === undefined || (events & CHECK_MASK) !== 0) return;
    this.update(events, fraction());
  }

  update(events: number, fraction: number): void {
    if (this.#sink === undefined) return;
    const now = performance.now();
    if (now - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = now;
    this.#drawn = true;
    this.#sink.write(`\r${renderBar(fraction, events, (now - this.#start) / 1000)}`);
  }

  /** Draws the final state and ends the line. */
  done(events: number): void {
    if (this.#sink === undefined) return;
    this.#lastDraw = 0;
    this.update(events, 1);
    if (this.#drawn) this.#sink.write('\n');
  }
}
