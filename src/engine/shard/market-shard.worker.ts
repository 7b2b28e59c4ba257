/**
 * A market-shard worker: owns the books of its markets and nothing else (single writer). It drains its
 * command ring in batches, applies each command to its book (the matching step), and writes the book's
 * events plus an END slot per command to its event ring, publishing once per batch.
 *
 * Waiting: spins briefly, then blocks in Atomics.wait (an idle shard does not burn a core). A full event
 * ring makes it publish what it has and wait for the ledger thread to consume (backpressure, never drops).
 * Thread affinity: everything here runs on the worker thread.
 * Failure: an exception ends the thread (the ledger thread sees 'error' and a non-zero exit and stops the
 * engine); results not yet published are lost with it, and recovery replays the journal.
 */
import { availableParallelism } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Command } from '../../core/command.js';
import { applyToBook } from '../../core/exchange/exchange.js';
import { bookMarketSpecs, type ExchangeDefinition } from '../../core/exchange/exchange-definition.js';
import { defineMarket } from '../../core/market.js';
import { ArrayOrderBook } from '../../core/matching/array-order-book.js';
import { BookEvents } from '../../core/matching/book-events.js';
import type { OrderBook } from '../../core/matching/order-book.js';
import { PlaceOrder } from '../../core/matching/order-types.js';
import { NO_SEQ, SpscRing } from '../ring/spsc-ring.js';
import { RingState, seqLt } from '../ring/layout.js';
import { SpinThenBlockWait } from '../ring/wait-strategy.js';
import { CMD_SLOT_F64, CTRL_CAPTURE, CTRL_CRASH, CTRL_HASH, CTRL_STOP, EVENT_SLOT_F64, readCommand, type ShardRings, writeEnd,
  writeEvent } from './shard-protocol.js';
import { bookBuffers, captureBook, restoreBook } from '../snapshot/capture.js';
import type { BookState } from '../../protocol/snapshot-codec.js';

export interface ShardData {
  readonly definition: ExchangeDefinition;
  /** Market indexes this shard owns. */
  readonly markets: readonly number[];
  readonly rings: ShardRings;
  /** Resting orders to restore into its books before the first command (a snapshot's), by market index. */
  readonly books?: Readonly<Record<number, BookState>> | undefined;
}

const data = workerData as ShardData;
const commands = SpscRing.attach(data.rings.commands, { capacity: data.rings.commandCapacity, slotWords: CMD_SLOT_F64 * 2 });
const events = SpscRing.attach(data.rings.events, { capacity: data.rings.eventCapacity, slotWords: EVENT_SLOT_F64 * 2 });
const books: (OrderBook | undefined)[] = [];
const specs = bookMarketSpecs(data.definition);
for (const m of data.markets) {
  const book = new ArrayOrderBook(defineMarket(specs[m]!));
  const restored = data.books?.[m];
  if (restored !== undefined) restoreBook(book, restored);
  books[m] = book;
}

/**
 * Spinning only pays when the producer runs on another core: in a process confined to one CPU (taskset, a
 * one-core container) a spinning shard only delays the thread it waits for, so it blocks at once.
 */
const SPINS = availableParallelism() > 1 ? 4000 : 0;
const wait = new SpinThenBlockWait({ spins: SPINS, timeoutMs: 100 });
const cmd = new Command();
const place = new PlaceOrder();
const ev = new BookEvents(1024);
const in64 = commands.slots64;
const out64 = events.slots64;

/** Claims one event slot, publishing and waiting for the consumer while the ring is full. */
function claimEventSlot(): number {
  let s = events.tryClaim(1);
  while (s === NO_SEQ) {
    events.publish(events.claimed);
    wait.waitForConsumed(events, (events.claimed + 1 - events.capacity) | 0);
    s = events.tryClaim(1);
  }
  return s;
}

/** Commands per slice of a batch after which results are published (power of two). */
const SLICE_MASK = 63;

function run(): void {
  let sinceRelease = 0;
  let next = (commands.consumed + 1) | 0;
  for (;;) {
    let last = commands.available();
    if (seqLt(last, next)) {
      last = wait.waitFor(commands, next);
      if (seqLt(last, next)) {
        if (commands.state !== RingState.Running) return;
        continue;
      }
    }
    for (let s = next; ; s = (s + 1) | 0) {
      readCommand(in64, commands.f64Offset(s), cmd);
      if (cmd.type === CTRL_STOP) {
        commands.release(s);
        events.publish(events.claimed);
        return;
      }
      if (cmd.type === CTRL_CRASH) throw new Error(`shard of markets ${data.markets.join(',')}: crash requested (test hook)`);
      if (cmd.type === CTRL_HASH) {
        parentPort!.postMessage({ seq: cmd.seq, hashes: data.markets.map((m) => [m, books[m]!.stateHash()]) });
      } else if (cmd.type === CTRL_CAPTURE) {
        const captured = data.markets.map((m) => [m, captureBook(books[m]!)] as const);
        parentPort!.postMessage({ seq: cmd.seq, books: captured }, captured.flatMap(([, b]) => bookBuffers(b)));
      } else {
        ev.clear();
        const code = applyToBook(books[cmd.market]!, cmd, place, ev);
        for (let i = 0; i < ev.count; i++) writeEvent(out64, events.f64Offset(claimEventSlot()), cmd.seq, ev, i);
        writeEnd(out64, events.f64Offset(claimEventSlot()), cmd.seq, code);
      }
      if (s === last) break;
      // Hand results back in slices, so the ledger thread settles while this one matches the rest.
      if ((++sinceRelease & SLICE_MASK) === 0) {
        commands.release(s);
        events.publish(events.claimed);
      }
    }
    commands.release(last);
    events.publish(events.claimed);
    next = (last + 1) | 0;
  }
}

run();
