// Fencing on a real nats-server, piece by piece: a leader's publisher whose expected stream sequence went
// stale (another leader appended) is refused, fails its journal with EFENCED and releases no reply for the
// refused batch; a follower drops a batch of an older epoch that reached the stream after a newer epoch
// began (as an unfenced writer would put it there), and applies everything else once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { addUserCommand } from '../../src/engine/gateway.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor } from '../../src/engine/recovery.js';
import { FollowerGateway } from '../../src/engine/replication/follower-gateway.js';
import { LogFollower } from '../../src/engine/replication/log-follower.js';
import { LogPublisher } from '../../src/engine/replication/log-publisher.js';
import { logHeaders, type LogStream, openLogStream } from '../../src/engine/replication/log-stream.js';
import { simulatorSetup } from '../../src/sim/simulator-setup.js';
import { TEST_CONFIG } from '../api/http-helpers.js';
import { type NatsServer, startNatsServer } from '../support/nats-server.js';

let nats: NatsServer;
let dir: string;
let ls: LogStream;
const def = simulatorSetup(TEST_CONFIG).definition;

beforeAll(async () => {
  nats = await startNatsServer();
  dir = await mkdtemp(join(tmpdir(), 'ringmatch-fence-'));
  ls = await openLogStream({ type: 'jetstream', servers: [nats.url], stream: 'fence' });
});
afterAll(async () => {
  await ls?.close();
  await nats?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('fencing of a deposed leader', () => {
  it('refuses its publish, fails its journal with EFENCED, and followers drop stale-epoch batches', async () => {
    const clock = new SimClock(1_000_000);
    const journal = await JournalWriter.open(join(dir, 'j.log'), headerFor(def, 0), { fsync: 'never' });
    const engine = new InlineEngine(def, { clock, journal });
    const failures: [string, boolean][] = [];
    const publisher = new LogPublisher({ js: ls.js, subject: ls.subject, epoch: 1, lastStreamSeq: 0, lastSeq: 0, checkpointEvery: 1,
      stateHash: (seq) => (engine.sequencer.lastSeq === seq ? engine.stateHash() : undefined), onFailure: (r, f) => failures.push([r, f]) });
    publisher.attach(journal);

    engine.submit(addUserCommand(20001, 0));
    engine.submit(addUserCommand(20002, 0));
    await until(() => journal.durableSeq === 2);
    expect(publisher.lastStreamSeq).toBe(1);
    const hashAt2 = engine.stateHash();

    // A new leader appends its epoch message at the end it saw.
    await ls.js.publish(ls.subject, new Uint8Array(0), { expect: { lastSequence: 1 }, headers: logHeaders('epoch', { 'Rm-Epoch': 2 }) });
    engine.submit(addUserCommand(20003, 0));
    await until(() => journal.failure !== null);
    expect(journal.failure!.code).toBe('EFENCED');
    expect(failures).toHaveLength(1);
    expect(failures[0]![1]).toBe(true);
    expect(journal.durableSeq).toBe(2);
    expect(await ls.lastSeq()).toBe(2);

    // An unfenced writer of epoch 1 slips a batch in after epoch 2 began: followers drop it.
    const stale = (await ls.jsm.streams.getMessage('fence', { seq: 1 }))!;
    await ls.js.publish(ls.subject, stale.data, { headers: logHeaders('batch', { 'Rm-Epoch': 1, 'Rm-First-Seq': 3, 'Rm-Last-Seq': 4 }) });
    const gateway = new FollowerGateway(new InlineEngine(def, { clock }), clock);
    const follower = new LogFollower(ls, gateway, { fromStreamSeq: 1, afterSeq: 0, snapshotEvery: 0, log: () => undefined });
    await follower.start();
    await until(() => follower.appliedStreamSeq === 3);
    const s = follower.status();
    expect(s).toMatchObject({ appliedSeq: 2, epoch: 2, droppedStale: 1, checkpointsVerified: 1, failure: undefined });
    expect(gateway.engine.stateHash()).toBe(hashAt2);
    await follower.stop();
    // A failed journal's close rejects with its failure (the gateway's close swallows it).
    await expect(journal.close()).rejects.toThrow(/EFENCED/);
  }, 30_000);

  it('stops a follower loudly when a checkpoint disagrees with its state', async () => {
    const clock = new SimClock(1_000_000);
    const journal = await JournalWriter.open(join(dir, 'k.log'), headerFor(def, 0), { fsync: 'never' });
    const engine = new InlineEngine(def, { clock, journal });
    const base = await ls.lastSeq();
    const publisher = new LogPublisher({ js: ls.js, subject: ls.subject, epoch: 3, lastStreamSeq: base, lastSeq: 0, checkpointEvery: 1,
      stateHash: () => 'not-the-hash' });
    publisher.attach(journal);
    engine.submit(addUserCommand(20001, 0));
    await until(() => journal.durableSeq === 1);
    const gateway = new FollowerGateway(new InlineEngine(def, { clock }), clock);
    const follower = new LogFollower(ls, gateway, { fromStreamSeq: base + 1, afterSeq: 0, snapshotEvery: 0, log: () => undefined });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => { errors.push(a.join(' ')); };
    try {
      await follower.start();
      await until(() => follower.failure !== undefined);
    } finally {
      console.error = original;
    }
    expect(follower.failure).toMatch(/STATE HASH MISMATCH at engine seq 1/);
    expect(String(errors[0])).toMatch(/REPLICATION FOLLOWER STOPPED/);
    expect(gateway.stopped?.reason).toMatch(/STATE HASH MISMATCH/);
    await follower.stop();
    await journal.close();
  }, 30_000);
});
