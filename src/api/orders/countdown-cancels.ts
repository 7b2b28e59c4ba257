/**
 * Countdown cancels (POST /spot/countdown_cancel_all): one timer per user and pair (or per user for every
 * pair), renewed by each call, disarmed by `timeout` 0; when it runs out, the user's open spot orders of its
 * pair (or of every pair) are cancelled.
 *
 * Time: a deadline is a point of the engine's clock (the clock that stamps commands and that GET /spot/time
 * answers), not of the wall clock. Under the wall clock the two agree; under a simulated clock a timer runs
 * out only when POST /sim/clock moves the clock past it, as a bot timing its heartbeats by the server's
 * time (the `triggerTime` answered is in that time) expects. The timers are checked every 250 ms and at once
 * when the simulated clock moves (the move's reply waits for the cancels).
 *
 * Durable (engine/records.ts): each armed timer is one record `countdown/<uid>/<pair | all>` =
 * `{user, currency_pair ("" for all), deadline_us}`; arming, renewing and disarming put it (null: disarmed),
 * and the reply waits for that command. Running out is one journal group: the cancels of its orders and the
 * record's removal, so after a crash either both happened or the timer is still armed (and runs out at
 * once, the deadline being past). A restart re-arms every timer the journal holds.
 *
 * Races: while a command for a timer is in flight nothing else decides for it (a check skips it); every
 * completion projects the timer from the row the table holds then, as start-up does.
 *
 * Costs: a check is O(1) until the earliest deadline, then one pass over the armed timers.
 */
import { type Exchange, spotMarketIndexes } from '../../core/exchange/exchange.js';
import { AccountKind } from '../../core/ledger/account-kinds.js';
import { ResultCode } from '../../core/result-code.js';
import type { GroupEntry } from '../../engine/gateway.js';
import { putRecords, putRecordsCommand, recordRows } from '../../engine/records.js';
import type { ApiDeps } from '../deps.js';
import { cancelAllCommands } from '../routes/order-actions.js';

export const COUNTDOWN_PREFIX = 'countdown/';

/** The record of an armed timer. */
export interface CountdownRecord {
  readonly user: number;
  /** The pair it cancels, or '' for every pair. */
  readonly currency_pair: string;
  /** µs of the engine's clock. */
  readonly deadline_us: number;
}

/** How often armed timers are checked against the clock. */
const CHECK_MS = 250;


/**
 * Where a family of timers lives: its record prefix and the markets a timer's `currency_pair` names (the
 * futures countdowns, routes/futures-batch.ts, use their own prefix and name settle / contract scopes).
 */
export interface CountdownScope {
  readonly prefix: string;
  readonly marketsOf: (ex: Exchange, pair: string) => number[];
  /** The account kind whose orders it cancels. */
  readonly kind: number;
}

const SPOT_SCOPE: CountdownScope = {
  prefix: COUNTDOWN_PREFIX,
  marketsOf: (ex, pair) => (pair === '' ? spotMarketIndexes(ex) : [ex.marketIndex(pair)]),
  kind: AccountKind.Spot,
};

export class CountdownCancels {
  readonly #deps: ApiDeps;
  readonly #scope: CountdownScope;
  readonly #armed = new Map<string, CountdownRecord>();
  /** Commands in flight per timer key. */
  readonly #busy = new Map<string, number>();
  /** No armed timer runs out before this (µs). */
  #next = Number.POSITIVE_INFINITY;
  /** Running-out groups in flight, and who waits for them. */
  #firing = 0;
  #waiters: (() => void)[] = [];
  readonly #timer: NodeJS.Timeout;

  /** Re-arms every timer the records hold; a timer already past runs out at once. */
  constructor(deps: ApiDeps, scope: CountdownScope = SPOT_SCOPE) {
    this.#deps = deps;
    this.#scope = scope;
    for (const r of recordRows(deps.gateway.exchange, scope.prefix)) this.#project(r.key, r.value as CountdownRecord | null);
    this.#timer = setInterval(() => this.#poll(), CHECK_MS);
    this.#timer.unref();
    this.#poll();
  }

  /**
   * Arms (or renews) the timer of `uid` and `pair` ('' for every pair) to run out `timeoutS` seconds from the
   * engine clock's now, or disarms it when `timeoutS` is 0. `done` gets Ok and the deadline in ms (0 when
   * disarmed), or the gateway's refusal.
   */
  set(uid: number, pair: string, timeoutS: number, done: (code: ResultCode, triggerTimeMs: number) => void): void {
    const key = this.#keyOf(uid, pair);
    if (timeoutS === 0 && !this.#armed.has(key) && !this.#busy.has(key)) return done(ResultCode.Ok, 0);
    const value: CountdownRecord | null = timeoutS === 0 ? null
      : { user: uid, currency_pair: pair, deadline_us: this.#deps.gateway.clock.nowUs() + timeoutS * 1_000_000 };
    this.#enter(key);
    putRecords(this.#deps.gateway, { [key]: value }, (code) => {
      this.#leave(key);
      done(code, value === null ? 0 : Math.floor(value.deadline_us / 1000));
    });
  }

  /** Runs out every armed timer whose deadline the engine's clock has reached; resolves once their cancels are applied. */
  check(): Promise<void> {
    this.#poll();
    return this.#firing === 0 ? Promise.resolve() : new Promise((resolve) => { this.#waiters.push(resolve); });
  }

  close(): void {
    clearInterval(this.#timer);
  }

  #poll(): void {
    const now = this.#deps.gateway.clock.nowUs();
    if (now < this.#next) return;
    let next = Number.POSITIVE_INFINITY;
    const due: [string, CountdownRecord][] = [];
    for (const [key, t] of this.#armed) {
      if (this.#busy.has(key)) continue;
      if (t.deadline_us <= now) due.push([key, t]);
      else next = Math.min(next, t.deadline_us);
    }
    // Set first: a timer projected while running these out (its row re-read) lowers it again.
    this.#next = next;
    for (const [key, t] of due) this.#runOut(key, t);
  }

  /**
   * One journal group: the cancels of the timer's orders, then the removal of its record. It counts as run out
   * once every command of the group has answered: on the threaded runner the record's removal (no book
   * involved) can answer before a cancel that is still at its shard.
   */
  #runOut(key: string, t: CountdownRecord): void {
    const ex = this.#deps.gateway.exchange;
    const markets = this.#scope.marketsOf(ex, t.currency_pair);
    const commands = [...cancelAllCommands(ex, t.user, markets, 0, this.#scope.kind), putRecordsCommand({ [key]: null })];
    let left = commands.length;
    const answered = (): void => {
      if (--left > 0) return;
      this.#leave(key);
      if (--this.#firing === 0) for (const w of this.#waiters.splice(0)) w();
    };
    this.#enter(key);
    this.#firing++;
    this.#deps.gateway.submitGroup(commands.map((c): GroupEntry => [c, answered]));
  }

  #keyOf(uid: number, pair: string): string {
    return `${this.#scope.prefix}${uid}/${pair === '' ? 'all' : pair}`;
  }

  #enter(key: string): void {
    this.#busy.set(key, (this.#busy.get(key) ?? 0) + 1);
  }

  /** A command for `key` completed: when none is left in flight, the timer becomes what its row holds. */
  #leave(key: string): void {
    const n = this.#busy.get(key)! - 1;
    if (n > 0) {
      this.#busy.set(key, n);
      return;
    }
    this.#busy.delete(key);
    const row = this.#deps.gateway.exchange.records.get(key);
    this.#project(key, row === undefined ? null : JSON.parse(row.value) as CountdownRecord | null);
  }

  #project(key: string, value: CountdownRecord | null): void {
    if (value === null) {
      this.#armed.delete(key);
      return;
    }
    this.#armed.set(key, value);
    this.#next = Math.min(this.#next, value.deadline_us);
  }
}
