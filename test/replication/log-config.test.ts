// `engine.log` in the config file: the documented fields are taken; anything else, a missing journal, or a
// bad server URL or stream name is refused with the field's path.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/sim/config-file.js';
import { logSpec } from '../../src/sim/follower-node.js';
import { TEST_CONFIG } from '../api/http-helpers.js';

const withLog = (log: unknown) => ({ ...TEST_CONFIG, engine: { journal: '/tmp/j.log', log } });
const ok = { type: 'jetstream', servers: ['nats://127.0.0.1:4222'], stream: 'ringmatch' };

describe('engine.log', () => {
  it('takes the documented fields, with defaults', () => {
    const c = validateConfig(withLog(ok));
    expect(logSpec(c.engine!.log!)).toEqual({ type: 'jetstream', servers: ['nats://127.0.0.1:4222'], stream: 'ringmatch', leaseMs: 3000,
      checkpointEvery: 10_000, snapshotEvery: 1_000_000, replicas: 1, readWaitMs: 5000 });
    const full = validateConfig(withLog({ ...ok, lease_ms: 1500, checkpoint_every: 0, snapshot_every: 5000, address: 'http://a:1', read_wait_ms: 250 }));
    expect(logSpec(full.engine!.log!)).toMatchObject({ leaseMs: 1500, checkpointEvery: 0, snapshotEvery: 5000, readWaitMs: 250 });
  });

  it.each([
    [{ ...ok, type: 'kafka' }, 'engine.log.type'],
    [{ ...ok, servers: [] }, 'engine.log.servers'],
    [{ ...ok, servers: ['127.0.0.1:4222'] }, 'engine.log.servers[0]'],
    [{ ...ok, stream: 'a.b' }, 'engine.log.stream'],
    [{ ...ok, lease_ms: 10 }, 'engine.log.lease_ms'],
    [{ ...ok, read_wait_ms: 61_000 }, 'engine.log.read_wait_ms'],
    [{ ...ok, extra: 1 }, 'engine.log'],
    [{ ...ok, replicas: 2 }, 'engine.log.replicas'],
    [{ type: 'jetstream', servers: ['nats://x:1'] }, 'engine.log.stream'],
  ])('refuses %j naming %s', (log, field) => {
    expect(() => validateConfig(withLog(log))).toThrow(field);
  });

  it('needs engine.journal (the leader keeps its fsync\'d journal beside the log)', () => {
    expect(() => validateConfig({ ...TEST_CONFIG, engine: { log: ok } })).toThrow(/engine\.log.*needs engine\.journal/);
  });
});
