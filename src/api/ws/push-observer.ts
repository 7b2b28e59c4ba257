/**
 * What every push class of the WebSocket endpoints is: an observer of the engine gateway. `attach` registers
 * `onResult`, which the gateway calls after each command is applied, in sequence order (register it after the
 * market-data feed it reads); a push that cannot be rendered is a bug of this layer and is logged, never thrown into
 * the engine's callbacks; `stop()` makes the observer inert (a gateway cannot unregister observers).
 */
import type { Command } from '../../core/command.js';
import type { BookEvents } from '../../core/matching/book-events.js';
import type { ResultCode } from '../../core/result-code.js';
import type { ExchangeGateway } from '../../engine/gateway.js';

export abstract class PushObserver {
  readonly #what: string;
  #stopped = false;

  /** `what` names the pushes in the log line of a failure. */
  constructor(what: string) {
    this.#what = what;
  }

  /** True once stopped: `onResult` returns at once. */
  protected get stopped(): boolean {
    return this.#stopped;
  }

  attach(gateway: Pick<ExchangeGateway, 'observe'>): this {
    gateway.observe((code, cmd, events) => {
      if (this.#stopped) return;
      try {
        this.onResult(code, cmd, events);
      } catch (e) {
        console.error(`ringmatch: ${this.#what} failed:`, e);
      }
    });
    return this;
  }

  stop(): void {
    this.#stopped = true;
  }

  /** One applied command, with its outcome and book events. */
  abstract onResult(code: ResultCode, cmd: Command, events: BookEvents): void;
}
