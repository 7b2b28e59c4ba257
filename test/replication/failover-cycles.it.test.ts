// Kill -9 of the replicated log's leader at random moments, cycle after cycle, under concurrent signed order
// load, with a leader and two followers (test/support/failover-cycles.ts does the work; `npm run soak:failover`
// runs it at length): a follower takes over each time, no acknowledged order or cancel is lost or applied
// twice, and every node ends at the state hash of an offline replay of the stream.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFailoverCycles } from '../support/failover-cycles.js';
import { type NatsServer, startNatsServer } from '../support/nats-server.js';

let nats: NatsServer;
let dir: string;

beforeAll(async () => {
  nats = await startNatsServer();
  dir = await mkdtemp(join(tmpdir(), 'ringmatch-failover-cycles-'));
});
afterAll(async () => {
  await nats?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('kill -9 of the leader over many cycles', () => {
  it('10 cycles: a follower takes over each time; nothing acknowledged is lost or doubled; one state hash', async () => {
    const lines: string[] = [];
    const report = await runFailoverCycles({ cycles: 10, dir, servers: [nats.url], stream: 'cycles', seed: 7, log: (l) => lines.push(l) });
    expect(report.cycles).toHaveLength(10);
    // Each takeover is a new epoch, above the one before.
    const taken = report.cycles.map((c) => c.epoch);
    expect(taken.every((e, i) => e > (i === 0 ? 1 : taken[i - 1]!))).toBe(true);
    expect(report.epochs.length).toBeGreaterThanOrEqual(11);
    expect(report.ordersAcked).toBeGreaterThan(0);
    expect(report.cancelsAcked).toBeGreaterThan(0);
    console.log(`failover cycles: ${lines.join('; ')}; ${report.ordersAcked} orders and ${report.cancelsAcked} cancels acknowledged, `
      + `seq ${report.seq}`);
  }, 240_000);
});
