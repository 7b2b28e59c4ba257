/**
 * The `sim.user` pushes of the control plane's socket (`/ws/sim`, sim-ws.ts): a watched user's whole view
 * (routes/sim-user-view.ts, what GET /sim/users/{uid} answers) whenever a command changed it.
 *
 * Which users a command concerns: its own user, a transfer's receiver, every user its book events name (orders
 * accepted, amended, filled on either side, finished) — for the commands known to touch no one else (NAMED_ONLY) —
 * and every watched user after any other command (prices, marks and index, funding, liquidation, deleveraging,
 * delivery and options settlement, interest: figures of many users at once).
 * Those users are marked; once per turn of the event loop (setImmediate) each marked user's view is rendered from the
 * read model and published to `sim.user|<uid>` unless it equals the last one published there. So a burst of commands
 * costs one rendering per watched user, and what a page sees is always the state after every command applied so far.
 * Publishing goes through the host (the engine's output gate): a push leaves only once the journal covers every
 * command applied before it was rendered.
 *
 * Costs: with no `sim.user` subscriber, one Map lookup per command (Publisher.active) and no allocation. With some,
 * a Map lookup per user a command names; per turn with marked users, one view rendering each (sim-user-view.ts) and a
 * string comparison.
 */
import { type Command, CommandType } from '../../core/command.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { renderUserView } from '../routes/sim-user-view.js';
import { updateFrameOfJson } from './envelope.js';
import type { Publisher } from './publisher.js';
import { PushObserver } from './push-observer.js';

export const SIM_USER_CHANNEL = 'sim.user';

/**
 * Commands that change only the users they name (their own user, a transfer's receiver, the users of their book
 * events). Any other command (prices, marks and index, funding, liquidation, deleveraging, settlement, interest, and any
 * command type added later) may move many users' figures: it marks every watched user, and the comparison with the
 * last push keeps the unchanged views unpublished.
 */
const NAMED_ONLY: ReadonlySet<number> = new Set<number>([
  CommandType.PlaceOrder, CommandType.AmendOrder, CommandType.CancelOrder, CommandType.CancelAll, CommandType.Credit,
  CommandType.Debit, CommandType.Transfer, CommandType.WithdrawHold, CommandType.WithdrawSettle, CommandType.WithdrawRelease,
  CommandType.AddUser, CommandType.PutRecords, CommandType.UnifiedBorrow, CommandType.UnifiedRepay, CommandType.UnifiedSetMode,
  CommandType.MarginBorrow, CommandType.MarginRepay, CommandType.FuturesSetLeverage, CommandType.FuturesUpdateMargin,
  CommandType.FuturesSetRiskLimit, CommandType.FuturesSetDualMode,
]);

export class SimUserPushes extends PushObserver {
  readonly #deps: ApiDeps;
  readonly #out: Publisher;
  /** Topic per user some page subscribed to; dropped at a flush that finds the topic without subscribers. */
  readonly #watched = new Map<number, string>();
  /** The `result` JSON last published per watched user (or sent as the first push of its first page). */
  readonly #last = new Map<number, string>();
  readonly #dirty = new Set<number>();
  #scheduled = false;
  readonly #flushNow = (): void => this.#flush();

  constructor(deps: ApiDeps, out: Publisher) {
    super('control-plane user push');
    this.#deps = deps;
    this.#out = out;
  }

  /**
   * The first push of a page that just subscribed to `uid`'s `topic` (the view now), and from then on the changes are
   * pushed there. When the view differs from the topic's last push (its other pages wait for a flush already due),
   * the next flush pushes it to all of them, even if the state went back meanwhile. Undefined for an unknown user.
   */
  firstFrame(uid: number, topic: string, nowUs: number): string | undefined {
    const view = renderUserView(this.#deps, uid, nowUs);
    if (view === undefined) return undefined;
    const json = JSON.stringify(view);
    this.#watched.set(uid, topic);
    const last = this.#last.get(uid);
    if (last === undefined) {
      this.#last.set(uid, json);
    } else if (last !== json) {
      this.#last.delete(uid);
      this.#dirty.add(uid);
      this.#schedule();
    }
    return updateFrameOfJson(SIM_USER_CHANNEL, json, nowUs);
  }

  override onResult(code: ResultCode, cmd: Command, events: BookEvents): void {
    if (this.stopped || code !== ResultCode.Ok || !this.#out.active(SIM_USER_CHANNEL)) return;
    if (!NAMED_ONLY.has(cmd.type)) {
      for (const uid of this.#watched.keys()) this.#dirty.add(uid);
    } else {
      this.#mark(cmd.uid);
      if (cmd.type === CommandType.Transfer) this.#mark(cmd.toUid);
      for (let i = 0; i < events.count; i++) {
        this.#mark(events.userId[i]!);
        if (events.kind[i] === EventKind.Fill) this.#mark(events.makerUserId[i]!);
      }
    }
    if (this.#dirty.size > 0) this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#flushNow);
  }

  #mark(uid: number): void {
    if (this.#watched.has(uid)) this.#dirty.add(uid);
  }

  #flush(): void {
    this.#scheduled = false;
    // Rendered at the engine clock's time, as GET /sim/users/{uid} and the first push are.
    const t = this.#deps.gateway.clock.nowUs();
    for (const uid of this.#dirty) {
      const topic = this.#watched.get(uid);
      if (topic === undefined || this.stopped) continue;
      if (this.#out.subscribers(topic) === 0) {
        this.#watched.delete(uid);
        this.#last.delete(uid);
        continue;
      }
      const view = renderUserView(this.#deps, uid, t);
      if (view === undefined) continue;
      const json = JSON.stringify(view);
      if (json === this.#last.get(uid)) continue;
      this.#last.set(uid, json);
      this.#out.publish(topic, updateFrameOfJson(SIM_USER_CHANNEL, json, t));
    }
    this.#dirty.clear();
  }
}
