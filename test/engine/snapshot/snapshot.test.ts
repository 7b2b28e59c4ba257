import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { Command, CommandType } from '../../../src/core/command.js';
import { renderOrder } from '../../../src/gate/shapes.js';
import { AccountKind } from '../../../src/core/ledger/account-kinds.js';
import { ArrayOrderBook } from '../../../src/core/matching/array-order-book.js';
import { NaiveOrderBook } from '../../../src/core/matching/naive-order-book.js';
import type { BookFactory, InlineEngine } from '../../../src/engine/inline-engine.js';
import { JournalWriter } from '../../../src/engine/journal/writer.js';
import { headerFor, JOURNAL_FILE, recover, recoverFromJournal } from '../../../src/engine/recovery.js';
import { captureSnapshot, restoreEngine } from '../../../src/engine/snapshot/capture.js';
import { listSnapshots, readSnapshotFile } from '../../../src/engine/snapshot/snapshot-file.js';
import { takeSnapshot } from '../../../src/engine/snapshot/snapshotter.js';
import { InlineGateway } from '../../../src/engine/gateway.js';
import { GatewaySnapshots } from '../../../src/engine/gateway-snapshots.js';
import { replayJournal } from '../../../src/backtest/journal-replay.js';
import { decodeSnapshot, encodeSnapshot } from '../../../src/protocol/snapshot-codec.js';
import { USERS } from '../../support/engine-stream.js';
import { commandStream, drive, makeEngine, SNAPSHOT_DEFINITION, T0, tempDirs } from './snapshot-helpers.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Queries that must answer alike on two engines holding the same state. */
function views(e: InlineEngine): unknown {
  const uids = [0, ...USERS, 201];
  return {
    balances: uids.map((u) => e.exchange.ledger.balances(u, AccountKind.Spot, 0)),
    book: uids.map((u) => e.exchange.ledger.accountBook(u)),
    open: uids.map((u) => e.exchange.orders.openOf(u).map((r) => e.exchange.orders.id[r])),
    finished: uids.map((u) => e.exchange.orders.finishedOf(u).map((r) => [e.exchange.orders.id[r], e.exchange.orders.fee[r]])),
    trades: e.exchange.trades.newest(() => true, 1000),
    lastOrderId: e.exchange.lastOrderId,
    best: e.books.map((b) => [b.bestBid(), b.bestAsk(), b.size]),
  };
}

describe('snapshot round trip', () => {
  const live = makeEngine();
  const first = commandStream(11, 12_000);
  drive(live.engine, live.clock, first);
  const data = captureSnapshot(live.engine, { createdTime: live.clock.nowUs() });
  const decoded = decodeSnapshot(encodeSnapshot(data).slice());

  it('captures every component, wide amounts included', () => {
    const x = data.exchange;
    expect(x.ledger.available.wideIndex.length).toBeGreaterThan(0);
    expect(x.ledger.holdRemaining.wideIndex.length).toBeGreaterThan(0);
    expect(x.ledger.bookLastId).toBeGreaterThan(x.ledger.bookTime.length);
    expect(x.orders.openCount).toBeGreaterThan(0);
    expect(x.orders.id.length).toBeGreaterThan(x.orders.openCount);
    expect(x.trades.count).toBeGreaterThan(x.trades.time.length);
    expect(data.books.map((b) => b.id.length)).toEqual(live.engine.books.map((b) => b.size));
    expect(data.books.some((b) => b.iceberg.some((v) => v > 0))).toBe(true);
    expect(data.books.some((b) => b.stp.some((v) => v > 0))).toBe(true);
    expect(decoded.seq).toBe(first.length);
  });

  const factories: [string, BookFactory | undefined][] = [['array', undefined], ['naive', (m) => new NaiveOrderBook(m)]];
  for (const [name, bookFactory] of factories) {
    it(`restores the same state hash, invariants and queries (${name} books), and continues identically`, () => {
      const clock = new SimClock(live.clock.nowUs());
      const restored = restoreEngine(decoded, { clock, bookFactory });
      expect(restored.stateHash()).toBe(live.engine.stateHash());
      restored.assertInvariants();
      expect(views(restored)).toEqual(views(live.engine));
      const twin = makeEngine();
      drive(twin.engine, twin.clock, first);
      const more = commandStream(12, 3_000).slice(30);
      drive(restored, clock, more);
      drive(twin.engine, twin.clock, more);
      expect(restored.stateHash()).toBe(twin.engine.stateHash());
      expect(views(restored)).toEqual(views(twin.engine));
      restored.assertInvariants();
    });
  }

  it('restores a book through restoreResting identically in both implementations', () => {
    const book = live.engine.books[0]!;
    const array = new ArrayOrderBook(book.market);
    const naive = new NaiveOrderBook(book.market);
    const b = data.books[0]!;
    for (const target of [array, naive]) {
      const v = { orderId: 0, userId: 0, stpId: 0, side: 1, tif: 1, stpAct: 0, price: 0, amount: 0, left: 0, visible: 0, iceberg: 0 };
      for (let i = 0; i < b.id.length; i++) {
        Object.assign(v, { orderId: b.id[i], userId: b.user[i], stpId: b.stp[i], side: b.side[i], tif: b.tif[i], stpAct: b.act[i],
          price: b.price[i], amount: b.amount[i], left: b.left[i], visible: b.visible[i], iceberg: b.iceberg[i] });
        target.restoreResting(v);
      }
      expect(target.stateHash()).toBe(book.stateHash());
      target.assertInvariants();
      expect(() => target.restoreResting({ ...v })).toThrow(/duplicate/);
    }
  });
});

describe('recovery from snapshot + journal tail', () => {
  it('equals a full journal replay and the live engine; snapshots are taken mid-stream on the pool', async () => {
    const dir = await dirs.make();
    const journalPath = path.join(dir, JOURNAL_FILE);
    const journal = await JournalWriter.open(journalPath, headerFor(SNAPSHOT_DEFINITION, T0), { fsync: 'never' });
    const live = makeEngine({ journal });
    const gateway = new InlineGateway(SNAPSHOT_DEFINITION, live.clock, { engine: live.engine, journal });
    const seqs: number[] = [];
    const snap = new GatewaySnapshots(gateway, journalPath, { dir, everyCommands: 2_500, everyMs: 0, keep: 10, pruneJournal: false }, () => undefined);
    const cmds = commandStream(21, 10_000);
    const submit = (part: readonly Command[]): void => {
      for (const c of part) { live.clock.advanceBy(1); gateway.submit(new Command().copyFrom(c), () => undefined); }
    };
    for (let at = 0; at < 9_000; at += 500) {
      submit(cmds.slice(at, at + 500));
      while (snap.busy) await new Promise((resolve) => setTimeout(resolve, 2));
      if (snap.last !== undefined && !seqs.includes(snap.last.seq)) seqs.push(snap.last.seq);
    }
    const last = await snap.snapshotNow();
    submit(cmds.slice(9_000));
    await snap.close();
    await gateway.close();
    expect(last?.seq).toBe(9_000);
    expect(seqs.length).toBeGreaterThanOrEqual(2);
    expect((await readSnapshotFile(last!.path)).seq).toBe(9_000);

    const fromSnapshot = await recover(dir, { log: () => undefined });
    const full = await recoverFromJournal(journalPath);
    expect(fromSnapshot.snapshot?.seq).toBe(9_000);
    expect(fromSnapshot.replayed).toBe(1_000);
    expect(fromSnapshot.engine.stateHash()).toBe(live.engine.stateHash());
    // The journal rotated at each snapshot: the whole history replays from its segments.
    expect(full.report.records).toBeLessThan(10_000);
    const segments = await replayJournal(journalPath);
    expect(segments.report.state_hash).toBe(live.engine.stateHash());
    expect(fromSnapshot.engine.sequencer.lastSeq).toBe(10_000);
    fromSnapshot.engine.assertInvariants();
  });

  it('falls back to the previous snapshot when the newest is corrupt, and to a full replay when none is valid', async () => {
    const dir = await dirs.make();
    const journalPath = path.join(dir, 'j.log');
    const journal = await JournalWriter.open(journalPath, headerFor(SNAPSHOT_DEFINITION, T0), { fsync: 'never' });
    const live = makeEngine({ journal });
    const cmds = commandStream(31, 6_000);
    drive(live.engine, live.clock, cmds.slice(0, 2_000));
    const older = await takeSnapshot(live.engine, dir);
    drive(live.engine, live.clock, cmds.slice(2_000, 4_000));
    const newer = await takeSnapshot(live.engine, dir);
    drive(live.engine, live.clock, cmds.slice(4_000));
    await live.engine.flush();
    await journal.close();
    const bytes = await readFile(newer.path);
    bytes[bytes.length >> 1]! ^= 0xff;
    await writeFile(newer.path, bytes);

    const logged: string[] = [];
    const r = await recover({ snapshotDir: dir, journalPath }, { log: (m) => logged.push(m) });
    expect(r.snapshot?.seq).toBe(older.seq);
    expect(r.skipped.map((s) => s.path)).toEqual([newer.path]);
    expect(logged[0]).toMatch(/checksum/);
    expect(r.replayed).toBe(4_000);
    expect(r.engine.stateHash()).toBe(live.engine.stateHash());

    await writeFile(older.path, (await readFile(older.path)).subarray(0, 100));
    const none = await recover({ snapshotDir: dir, journalPath }, { log: () => undefined });
    expect(none.snapshot).toBeUndefined();
    expect(none.skipped.length).toBe(2);
    expect(none.engine.stateHash()).toBe(live.engine.stateHash());
    expect((await listSnapshots(dir)).map((s) => s.seq)).toEqual([4_000, 2_000]);
  });
});

describe('amend labels in snapshots', () => {
  it('keeps an order\'s amend_text through capture, encoding and restore', () => {
    const { engine, clock } = makeEngine();
    drive(engine, clock, commandStream(5, 400));
    const O = engine.exchange.orders;
    const uid = USERS.find((u) => O.openOf(u).length > 0)!;
    const r = O.openOf(uid)[0]!;
    const amend = new Command();
    amend.type = CommandType.AmendOrder;
    amend.uid = uid; amend.market = O.market[r]!; amend.orderId = O.id[r]!; amend.amount = O.amount[r]! + 1;
    amend.text = 't-kept';
    clock.advanceBy(1);
    expect(engine.submit(amend)).toBe(0);
    const restored = restoreEngine(decodeSnapshot(encodeSnapshot(captureSnapshot(engine)).slice()), { clock: new SimClock(clock.nowUs()) });
    const rr = restored.exchange.orders.find(amend.orderId);
    expect(renderOrder(restored.exchange, rr).amend_text).toBe('t-kept');
    expect(restored.stateHash()).toBe(engine.stateHash());
  });
});
