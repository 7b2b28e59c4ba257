/**
 * The pass machinery the engine-clock services share (futures-services.ts, options-services.ts): one pass at a
 * time, each command a pass yields submitted after the previous one completed (so each decision reads current
 * state), a wall-clock timer that gives the due check a chance, and `poll()` / `ready()` that run what is due.
 * What a pass does and when one is due belong to the service (the `ServicePass` it gives).
 *
 * Contracts: `poll()` with a synchronous host (the inline gateway) has run every due pass when it returns; with
 * the threaded one it starts at most one. `ready()` resolves once nothing is due and every command issued
 * completed. Both stop after `maxPasses` passes (each pass is bounded; this only stops a condition that never
 * clears). Costs: per command one closure for the host's answer; nothing else per pass beyond the generator.
 */
import type { Command } from '../core/command.js';
import { ResultCode } from '../core/result-code.js';

/** Where a pass's commands go: an ExchangeGateway (either runner). */
export interface CommandSink {
  submit(cmd: Command, done: (code: ResultCode) => void): void;
}

/** What a service gives the runner. */
export interface ServicePass {
  /** False while the service has nothing to serve (no contracts): no pass starts. */
  active(): boolean;
  /** Some step is due now. */
  due(): boolean;
  /** Called as a pass starts (counts it). */
  started(): void;
  /** The commands of one pass; each yield answers with the command's result code. */
  steps(): Generator<Command, void, ResultCode>;
}

export class ServicePasses {
  readonly #sink: CommandSink;
  readonly #pass: ServicePass;
  readonly #maxPasses: number;
  #running = false;
  #idle: (() => void)[] = [];
  #timer: NodeJS.Timeout | undefined;

  /** `checkMs` > 0 and an active service: a due check every `checkMs` of wall clock (unref'd). */
  constructor(sink: CommandSink, pass: ServicePass, maxPasses: number, checkMs: number) {
    this.#sink = sink;
    this.#pass = pass;
    this.#maxPasses = maxPasses;
    if (checkMs > 0 && pass.active()) {
      this.#timer = setInterval(() => this.#poll(), checkMs);
      this.#timer.unref();
    }
  }

  /** Starts what is due, synchronously (see the contracts above). */
  poll(): void {
    for (let i = 0; i < this.#maxPasses; i++) {
      if (this.#running || !this.#pass.due()) return;
      this.#poll();
    }
  }

  /** Runs what is due until nothing is (bounded); resolves once every command it issued completed. */
  async ready(): Promise<void> {
    for (let i = 0; i < this.#maxPasses; i++) {
      await this.#whenIdle();
      if (!this.#pass.due()) return;
      this.#poll();
    }
  }

  /** Stops the timer; a pass in flight completes. */
  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #whenIdle(): Promise<void> {
    return this.#running ? new Promise((resolve) => { this.#idle.push(resolve); }) : Promise.resolve();
  }

  /** Starts a pass when one is due and none runs. */
  #poll(): void {
    if (this.#running || !this.#pass.active() || !this.#pass.due()) return;
    this.#running = true;
    this.#pass.started();
    this.#drive(this.#pass.steps(), () => {
      this.#running = false;
      const waiting = this.#idle;
      this.#idle = [];
      for (const w of waiting) w();
    });
  }

  /** Submits each command the generator yields after the previous one completed; `done` at its end. */
  #drive(gen: Generator<Command, void, ResultCode>, done: () => void): void {
    const step = (code: ResultCode): void => {
      for (;;) {
        const r = gen.next(code);
        if (r.done === true) return done();
        let sync = true;
        let answered: ResultCode | undefined;
        this.#sink.submit(r.value, (c) => {
          if (sync) answered = c;
          else step(c);
        });
        sync = false;
        if (answered === undefined) return;
        code = answered;
      }
    };
    step(ResultCode.Ok);
  }
}
