/**
 * The order book's version id per market (Gate's `id` with `with_id=true`) and the time of its last change
 * (`update`), fed with each command's book events.
 *
 * A command changes its market's book when it rests an order, fills, amends or removes a resting order.
 * Rejected commands write no events; an IOC, FOK or POC order that ends without a fill changes nothing.
 * On a change the version becomes max(version + 1, cmd.seq): strictly increasing, and equal to the global
 * sequence number of the command that last changed the book whenever the sequencer stamped one — so a
 * server seeded with its recovered sequence (`initial`) never shows an id it showed before a restart.
 * Costs: O(events) per command, no allocation.
 */
import { type Command, CommandType } from '../../core/command.js';
import { type BookEvents, EventKind } from '../../core/matching/book-events.js';

/** True when applying `cmd` (with its events) changed its market's book. */
export function changesBook(cmd: Command, ev: BookEvents): boolean {
  if (ev.count === 0) return false;
  if (cmd.type !== CommandType.PlaceOrder) return true;
  let takerDone = false;
  for (let i = 0; i < ev.count; i++) {
    const kind = ev.kind[i];
    if (kind === EventKind.Fill) return true;
    if (kind === EventKind.Finished) {
      if (ev.orderId[i] !== cmd.orderId) return true;
      takerDone = true;
    }
  }
  return !takerDone;
}

export class BookVersions {
  readonly version: Float64Array;
  /** µs of the last change per market (0 before any). */
  readonly updateUs: Float64Array;

  constructor(markets: number, initial = 0) {
    this.version = new Float64Array(markets).fill(initial);
    this.updateUs = new Float64Array(markets);
  }

  /** Feeds one applied command and its events; returns true when the book changed. */
  onResult(cmd: Command, ev: BookEvents): boolean {
    if (!changesBook(cmd, ev)) return false;
    const m = cmd.market;
    this.version[m] = Math.max(this.version[m]! + 1, cmd.seq);
    this.updateUs[m] = cmd.time;
    return true;
  }
}
