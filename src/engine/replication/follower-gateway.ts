/**
 * The gateway of a follower of the replicated log: the inline engine the log's records are applied to, in
 * stream order with their recorded seq and time (as a journal replay applies them), behind the
 * ExchangeGateway interface so the HTTP and WebSocket fronts serve its state unchanged. Observers (market
 * data, WebSocket pushes) see every applied command as they do on the leader.
 *
 * Writes are not taken here: `submit` answers NotLeader (403 READ_ONLY, naming the leader) and changes
 * nothing. There is no output gate to wait on: what a follower shows is already in the log.
 */
import type { Clock } from '../../core/clock.js';
import type { Command } from '../../core/command.js';
import type { Exchange } from '../../core/exchange/exchange.js';
import { BookEvents } from '../../core/matching/book-events.js';
import { ResultCode } from '../../core/result-code.js';
import type { SnapshotData } from '../../protocol/snapshot-codec.js';
import { type CommandDone, type ExchangeGateway, GatewayCore, type GroupEntry } from '../gateway.js';
import type { InlineEngine } from '../inline-engine.js';
import { captureSnapshot } from '../snapshot/capture.js';

const noop: CommandDone = () => undefined;

export class FollowerGateway extends GatewayCore implements ExchangeGateway {
  readonly engine: InlineEngine;
  readonly clock: Clock;
  readonly #none = new BookEvents(1);

  constructor(engine: InlineEngine, clock: Clock) {
    super(undefined);
    this.engine = engine;
    this.clock = clock;
  }

  get exchange(): Exchange { return this.engine.exchange; }

  submit(cmd: Command, done: CommandDone): void {
    done(this.stopped?.code ?? ResultCode.NotLeader, cmd, this.#none);
  }

  submitGroup(group: readonly GroupEntry[]): void {
    for (const [cmd, done] of group) this.submit(cmd, done);
  }

  /** Applies one record of the log (already sequenced); observers see it. Throws on a broken invariant. */
  applyReplicated(cmd: Command): void {
    const code = this.engine.apply(cmd);
    this.engine.sequencer.resumeAfter(cmd.seq);
    this.complete(code, cmd, this.engine.events, noop);
  }

  protected onStopped(): void {
    // Nothing is queued: writes are refused at once.
  }

  depth(market: number, side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    return this.engine.books[market]!.depth(side, limit, prices, lots);
  }

  addUser(_uid: number, _mainUid: number, done: (code: ResultCode) => void): void {
    done(ResultCode.NotLeader);
  }

  settled(): Promise<void> { return Promise.resolve(); }
  stateHash(): Promise<string> { return Promise.resolve(this.engine.stateHash()); }
  stateAt(): Promise<{ hash: string; seq: number }> {
    return Promise.resolve({ hash: this.engine.stateHash(), seq: this.engine.sequencer.lastSeq });
  }

  capture(): Promise<SnapshotData> {
    return Promise.resolve(captureSnapshot(this.engine, { createdTime: this.clock.nowUs() }));
  }

  /** The engine is handed over on promotion (sim/follower-node.ts): closing the follower leaves it alone. */
  close(): Promise<void> { return Promise.resolve(); }
}
