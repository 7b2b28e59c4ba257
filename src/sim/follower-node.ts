/**
 * A node of the replicated command log (`engine.log`, docs/scale-out.md): the same process serves as a
 * follower or as the leader, and moves between the two.
 *
 * - Start: connect, create the stream, lease bucket and snapshot store if absent, put the journal header in
 *   the stream (seq 1) if it is empty and check it holds this config's exchange definition.
 * - Follower (always first): the local journal is moved aside (the stream is the truth: a journal from an
 *   earlier run may hold commands JetStream never acknowledged), the newest snapshot in the object store (if
 *   any) is loaded, and the stream is applied from there (engine/replication/log-follower.ts). The HTTP and
 *   WebSocket fronts serve its state; writes answer 403 READ_ONLY naming the leader.
 * - Promotion: when the lease is absent or expired (a `--follow` node waits one lease time after its start
 *   first, so a leader starting beside it wins), the node takes it with a new epoch, applies the stream to
 *   its end, appends an `epoch` message expecting exactly that end (if anyone appended meanwhile, it gives
 *   the lease back and keeps following), then keeps its engine and turns the local journal it built into
 *   the leader's journal (fsync policy of `engine.fsync`), taps it (engine/replication/log-publisher.ts) and
 *   restarts the fronts as the leader. No replay: failover costs the lease time plus the catch-up.
 * - Step-down: a publish refused (a newer leader appended) or a lease lost stops intake at once (held
 *   replies answer 503); the node closes its fronts and starts over as a follower.
 * The runner is inline on every node (a follower applies records synchronously); `engine.runner` is ignored.
 */
import { hostname } from 'node:os';
import { ConfigError } from '../core/invariant.js';
import { ResultCode } from '../core/result-code.js';
import type { ExchangeDefinition } from '../core/exchange/exchange-definition.js';
import { InlineGateway } from '../engine/gateway.js';
import { type FsyncPolicy, JournalWriter } from '../engine/journal/writer.js';
import { headerFor } from '../engine/recovery.js';
import { FollowerGateway } from '../engine/replication/follower-gateway.js';
import { LeaderLease, type LeaseEntry, type LeaseValue } from '../engine/replication/leader-lease.js';
import { LogFollower } from '../engine/replication/log-follower.js';
import { LogPublisher } from '../engine/replication/log-publisher.js';
import { moveJournalAside, newestSnapshot, storeSnapshot } from '../engine/replication/bootstrap.js';
import { captureSnapshot } from '../engine/snapshot/capture.js';
import { InlineEngine } from '../engine/inline-engine.js';
import { HDR_EPOCH, type LogSpec, type LogStream, logHeaders, openLogStream } from '../engine/replication/log-stream.js';
import { WallClock } from '../engine/wall-clock.js';
import { decodeHeader, encodeHeader, type JournalHeaderData } from '../protocol/codec.js';
import type { Router } from '../api/router.js';
import { type Simulator, type StartOptions, startSimulator } from '../main.js';
import type { LogConfig, SimulatorConfig } from './config-file.js';
import { simulatorSetup } from './simulator-setup.js';
import { ensureJournalDirectory } from './journal-path.js';

export interface NodeOptions extends StartOptions {
  /** Start as a follower that competes for the lease only once the current one runs out (`--follow`). */
  readonly follow?: boolean | undefined;
  /** This node's name in the lease; default host:pid (host:pid#n for the n-th node of one process). */
  readonly nodeId?: string | undefined;
  readonly log?: ((message: string) => void) | undefined;
}

/** `down`: a move between roles failed (the NATS server unreachable …); each lease check retries as a follower. */
export type NodeRole = 'starting' | 'follower' | 'promoting' | 'leader' | 'stepping-down' | 'down' | 'closed';

/** The log spec of `engine.log` with its defaults. */
export function logSpec(c: LogConfig): Required<LogSpec> {
  return {
    type: 'jetstream', servers: c.servers, stream: c.stream, leaseMs: c.lease_ms ?? 3000,
    checkpointEvery: c.checkpoint_every ?? 10_000, snapshotEvery: c.snapshot_every ?? 1_000_000, replicas: c.replicas ?? 1,
    readWaitMs: c.read_wait_ms ?? 5000,
  };
}

const fsyncOf = (f: 'batch' | 'never' | number | undefined): FsyncPolicy =>
  f === undefined ? { fsync: 'batch' } : typeof f === 'number' ? { fsync: 'interval', everyMs: f } : { fsync: f };

const canonical = (json: string): string => JSON.stringify(JSON.parse(json));

/** Nodes started in this process: the second and later get a suffix, so two nodes in one process never share a lease name. */
let nodesInProcess = 0;

export class ReplicatedNode {
  readonly config: SimulatorConfig;
  readonly options: NodeOptions;
  readonly spec: Required<LogSpec>;
  readonly nodeId: string;
  readonly address: string;
  readonly #definition: ExchangeDefinition;
  readonly #header: JournalHeaderData;
  readonly #journalPath: string;
  readonly #clock = new WallClock();
  readonly #log: (m: string) => void;
  #ls: LogStream | undefined;
  #lease: LeaderLease | undefined;
  #role: NodeRole = 'starting';
  #sim: Simulator | undefined;
  #follower: LogFollower | undefined;
  #followerJournal: JournalWriter | undefined;
  #followerGateway: FollowerGateway | undefined;
  #leaderGateway: InlineGateway | undefined;
  #publisher: LogPublisher | undefined;
  #epoch = 0;
  #leader: LeaseValue | undefined;
  #streamLastSeq = 0;
  #startedAt = Date.now();
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  #lastStatusLog = 0;
  /** Failovers this node won, and how long each took from the lease's expiry to taking writes (ms). */
  readonly promotions: { epoch: number; atMs: number; tookMs: number }[] = [];

  constructor(config: SimulatorConfig, options: NodeOptions) {
    const engine = config.engine;
    if (engine?.log === undefined) throw new ConfigError('engine.log: not set');
    if (engine.journal === undefined) throw new ConfigError('engine.log: needs engine.journal');
    if (config.clock?.type === 'sim') throw new ConfigError('engine.log: needs the wall clock (clock.type "wall")');
    this.config = config;
    this.options = options;
    this.spec = logSpec(engine.log);
    this.nodeId = options.nodeId ?? `${hostname()}:${process.pid}${nodesInProcess++ === 0 ? '' : `#${nodesInProcess}`}`;
    const host = options.host ?? config.host ?? '127.0.0.1';
    const port = options.port ?? config.port;
    if (port === undefined || port === 0) throw new ConfigError('engine.log: needs a fixed port (the node restarts its fronts on it when promoted)');
    this.address = engine.log.address ?? `http://${host}:${port}`;
    this.#definition = simulatorSetup(config).definition;
    this.#header = headerFor(this.#definition, this.#clock.nowUs());
    this.#journalPath = engine.journal;
    this.#log = options.log ?? ((m) => console.warn(`ringmatch: ${m}`));
    if (engine.runner === 'threaded') this.#log('replication: every node of the replicated log runs the inline runner; engine.runner "threaded" is ignored (docs/scale-out.md, Runners)');
  }

  get role(): NodeRole { return this.#role; }
  get simulator(): Simulator | undefined { return this.#sim; }
  get epoch(): number { return this.#epoch; }

  async start(): Promise<void> {
    ensureJournalDirectory(this.#journalPath);
    this.#ls = await openLogStream(this.spec, `ringmatch ${this.nodeId}`);
    this.#lease = new LeaderLease(this.#ls.lease, this.nodeId, this.address, this.spec.leaseMs);
    await this.#ensureHeader();
    await this.#becomeFollower();
    this.#timer = setInterval(() => void this.#tick(), Math.max(50, Math.floor(this.spec.leaseMs / 3)));
    await this.#tick();
  }

  /** The replication status GET /sim/replication shows. @allocates */
  status(): Record<string, unknown> {
    const f = this.#follower?.status();
    const p = this.#publisher;
    return {
      role: this.#role, node: this.nodeId, address: this.address, epoch: this.#epoch,
      leader: this.#leader === undefined ? null : { node: this.#leader.node, address: this.#leader.address, epoch: this.#leader.epoch,
        lease_until_ms: this.#leader.until },
      stream: { name: this.spec.stream, last_seq: this.#streamLastSeq },
      follower: f === undefined || this.#role === 'leader' ? null : {
        applied_seq: f.appliedSeq, applied_stream_seq: f.appliedStreamSeq, lag_messages: f.lagMessages, lag_ms: Math.round(f.lagMs * 10) / 10,
        checkpoints_verified: f.checkpointsVerified, last_checkpoint: f.lastCheckpoint ?? null, dropped_stale: f.droppedStale,
        snapshots_stored: f.snapshotsTaken, consumer_restarts: f.restarts, failure: f.failure ?? null,
      },
      publisher: p === undefined || this.#role !== 'leader' ? null : {
        acked_seq: p.ackedSeq, acked_stream_seq: p.lastStreamSeq, batches: p.batches, checkpoints: p.checkpoints, retries: p.retries,
        failure: p.failure ?? null,
      },
      promotions: this.promotions,
    };
  }

  /** Stops the node (a leader drains its publisher and releases the lease); a second call does nothing. */
  async close(): Promise<void> {
    if (this.#role === 'closed') return;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    while (this.#busy) await new Promise((r) => setTimeout(r, 10));
    this.#busy = true;
    const wasLeader = this.#role === 'leader';
    this.#role = 'closed';
    await this.#sim?.close();
    this.#sim = undefined;
    if (wasLeader) {
      await this.#publisher?.drain();
      await this.#leaderGateway?.close();
      await this.#lease?.release();
    } else {
      await this.#follower?.stop();
      await this.#followerJournal?.close();
    }
    await this.#ls?.close();
  }

  #routes(): (router: Router) => void {
    return (router) => {
      router.add({ method: 'GET', pattern: '/sim/replication', access: { kind: 'sim' }, limit: 'public',
        handler: (_req, reply) => reply.json(200, this.status()) });
    };
  }

  async #ensureHeader(): Promise<void> {
    const ls = this.#ls!;
    if (await ls.lastSeq() === 0) {
      await ls.js.publish(ls.subject, encodeHeader(this.#header), { msgID: 'header', expect: { lastSequence: 0 }, headers: logHeaders('header') })
        .catch(() => undefined); // Another node wrote it first; checked below.
    }
    const first = await ls.jsm.streams.getMessage(ls.stream, { seq: 1 });
    if (first === null) throw new ConfigError(`engine.log: stream ${ls.stream} has no header message`);
    const stored = decodeHeader(first.data);
    if (canonical(stored.configJson) !== canonical(this.#header.configJson)) {
      throw new ConfigError(`engine.log: stream ${ls.stream} was written for another exchange definition (markets, currencies or `
        + 'configured users differ): use the config it was written for, or another stream');
    }
  }

  async #becomeFollower(): Promise<void> {
    await moveJournalAside(this.#journalPath, this.#log);
    const snap = await newestSnapshot(this.#ls!.snapshots, this.#header.configJson, this.#clock, this.#log);
    const engine = snap?.engine ?? new InlineEngine(this.#definition, { clock: this.#clock });
    const afterSeq = snap?.seq ?? 0;
    const journal = await JournalWriter.open(this.#journalPath, { ...this.#header, firstSeq: afterSeq + 1 }, { fsync: 'never' });
    const gateway = new FollowerGateway(engine, this.#clock);
    const follower = new LogFollower(this.#ls!, gateway, {
      fromStreamSeq: snap?.streamSeq ?? 2, afterSeq, journal, snapshotEvery: this.spec.snapshotEvery, log: this.#log,
    });
    this.#followerJournal = journal;
    this.#followerGateway = gateway;
    this.#follower = follower;
    this.#publisher = undefined;
    this.#leaderGateway = undefined;
    this.#sim = await startSimulator(this.config, {
      ...this.options, extraRoutes: [...(this.options.extraRoutes ?? []), this.#routes()],
      replica: { gateway, resumed: true, follower: true, refuseWrites: () => this.#refusal(), seq: () => follower.appliedSeq,
        waitFor: (seq) => follower.whenApplied(seq, this.spec.readWaitMs) },
    });
    await follower.start();
    this.#role = 'follower';
    this.#log(`replication: ${this.nodeId} follows stream ${this.spec.stream} from stream seq ${snap?.streamSeq ?? 2} at ${this.address}`);
  }

  #refusal(): string {
    const l = this.#leader;
    const at = l === undefined || l.until < Date.now() ? 'no leader holds the lease now; retry shortly' : `the leader is ${l.node} at ${l.address}`;
    return `This node is a read-only follower of the replicated log; send writes to the leader: ${at}`;
  }

  async #tick(): Promise<void> {
    if (this.#busy || this.#ls === undefined) return;
    this.#busy = true;
    try {
      const seen = await this.#lease!.observe();
      if (seen.reachable) this.#leader = seen.entry?.value;
      this.#streamLastSeq = await this.#ls.lastSeq().catch(() => this.#streamLastSeq);
      if (this.#role === 'down') {
        await this.#sim?.close();
        this.#sim = undefined;
        this.#startedAt = Date.now();
        await this.#becomeFollower().catch((e: unknown) => this.#log(`replication: rebuilding as a follower failed: ${(e as Error).message}`));
      } else if (this.#role === 'follower') {
        const f = this.#follower!;
        const now = Date.now();
        if (now - this.#lastStatusLog > 10_000) {
          this.#lastStatusLog = now;
          const s = f.status();
          this.#log(`replication: follower at engine seq ${s.appliedSeq} (stream ${s.appliedStreamSeq}/${this.#streamLastSeq}, lag `
            + `${Math.round(s.lagMs)} ms), epoch ${s.epoch}, ${s.checkpointsVerified} checkpoints verified, leader ${seen.entry?.value.address ?? 'none'}`);
        }
        const mayCompete = this.options.follow !== true || now - this.#startedAt > this.spec.leaseMs;
        // Failover time counts from when the lease became free (a released lease: from when this node began to follow).
        if (seen.free && mayCompete && f.failure === undefined) await this.#promote(seen.entry, Math.max(seen.freeSince, this.#startedAt));
      }
    } catch (e) {
      this.#log(`replication: ${(e as Error).message}`);
    } finally {
      this.#busy = false;
    }
  }

  async #promote(seen: LeaseEntry | undefined, freeSince: number): Promise<void> {
    const ls = this.#ls!;
    const f = this.#follower!;
    const epoch = await this.#lease!.tryAcquire(seen, Math.max(f.epoch, this.#epoch));
    if (epoch === undefined) return;
    this.#role = 'promoting';
    const last = await ls.lastSeq();
    if (!(await f.caughtUp(last, 30_000))) {
      this.#log(`replication: could not reach the stream's end (seq ${last}); giving the lease back`);
      this.#role = 'follower';
      await this.#lease!.release();
      return;
    }
    try {
      await ls.js.publish(ls.subject, new Uint8Array(0), { msgID: `epoch:${epoch}`, expect: { lastSequence: last },
        headers: logHeaders('epoch', { [HDR_EPOCH]: epoch }) });
    } catch (e) {
      this.#log(`replication: epoch ${epoch} not started (${(e as Error).message}); following on`);
      this.#role = 'follower';
      await this.#lease!.release();
      return;
    }
    try {
      await this.#lead(epoch, last, f, freeSince);
    } catch (e) {
      this.#lease!.stop();
      this.#leaderGateway?.stop(ResultCode.EngineStopped, `replication: promotion failed: ${(e as Error).message}`);
      await this.#sim?.close().catch(() => undefined);
      this.#sim = undefined;
      await this.#leaderGateway?.close().catch(() => undefined);
      this.#down(`promotion to epoch ${epoch} failed: ${(e as Error).message}`);
    }
  }

  /** The second half of a promotion, once the epoch message is in the stream: the follower's engine becomes the leader's. */
  async #lead(epoch: number, last: number, f: LogFollower, expiredAt: number): Promise<void> {
    const ls = this.#ls!;
    await f.stop();
    await this.#sim?.close();
    this.#sim = undefined;
    await this.#followerJournal!.close();
    const appliedSeq = f.appliedSeq;
    const engine = this.#followerGateway!.engine;
    const journal = await JournalWriter.open(this.#journalPath, this.#header, fsyncOf(this.config.engine?.fsync), appliedSeq);
    engine.sequencer.attach(journal);
    const gateway = new InlineGateway(this.#definition, this.#clock, { engine, journal });
    // Snapshots of the leader too (a lone leader's restart then starts from one): taken where a buffer ends on a
    // boundary, with exactly its last seq applied; stored once JetStream acknowledged that buffer.
    let lastSnapshot = appliedSeq;
    let snapshotting = false;
    const publisher: LogPublisher = new LogPublisher({
      js: ls.js, subject: ls.subject, epoch, lastStreamSeq: last + 1, lastSeq: appliedSeq, checkpointEvery: this.spec.checkpointEvery,
      stateHash: (seq) => (engine.sequencer.lastSeq === seq ? engine.stateHash() : undefined),
      onBoundary: (tailSeq, streamSeq) => {
        const every = this.spec.snapshotEvery;
        if (every <= 0 || snapshotting || tailSeq - lastSnapshot < every || engine.sequencer.lastSeq !== tailSeq) return;
        lastSnapshot = tailSeq;
        snapshotting = true;
        const data = captureSnapshot(engine, { createdTime: this.#clock.nowUs() });
        void (async () => {
          try {
            if (!(await publisher.whenAcked(streamSeq, 60_000))) return;
            const bytes = await storeSnapshot(ls.snapshots, data, streamSeq);
            this.#log(`replication: snapshot at engine seq ${tailSeq} (stream seq ${streamSeq}, ${bytes} bytes) stored`);
          } catch (e) {
            this.#log(`replication: snapshot at engine seq ${tailSeq} not stored: ${(e as Error).message}`);
          } finally {
            snapshotting = false;
          }
        })();
      },
      onFailure: (reason) => void this.#stepDown(reason),
    });
    publisher.attach(journal);
    this.#epoch = epoch;
    this.#publisher = publisher;
    this.#leaderGateway = gateway;
    this.#follower = undefined;
    this.#lease!.keep((why) => {
      gateway.stop(ResultCode.EngineStopped, `replication: ${why}`);
      void this.#stepDown(why);
    });
    this.#sim = await startSimulator(this.config, {
      ...this.options, extraRoutes: [...(this.options.extraRoutes ?? []), this.#routes()],
      replica: { gateway, resumed: appliedSeq > 0, follower: false, seq: () => engine.sequencer.lastSeq },
    });
    this.#role = 'leader';
    this.#leader = this.#lease!.held;
    const tookMs = Math.max(0, Date.now() - expiredAt);
    this.promotions.push({ epoch, atMs: Date.now(), tookMs });
    this.#log(`replication: ${this.nodeId} leads with epoch ${epoch} from engine seq ${appliedSeq} (stream seq ${last + 1}) at ${this.address}`);
  }

  async #stepDown(reason: string): Promise<void> {
    while (this.#role === 'promoting' || this.#busy) await new Promise((r) => setTimeout(r, 10));
    if (this.#role !== 'leader') return;
    this.#busy = true;
    this.#role = 'stepping-down';
    try {
      console.error(`ringmatch: REPLICATION: stepping down as leader of epoch ${this.#epoch}: ${reason}; becoming a follower`);
      this.#lease!.stop();
      this.#leaderGateway?.stop(ResultCode.EngineStopped, `replication: ${reason}`);
      await this.#sim?.close();
      this.#sim = undefined;
      await this.#leaderGateway?.close();
      this.#startedAt = Date.now();
      await this.#becomeFollower();
    } catch (e) {
      this.#down(`stepping down: ${(e as Error).message}`);
    } finally {
      this.#busy = false;
    }
  }

  /** A move between roles failed: no fronts until a lease check rebuilds the node as a follower. */
  #down(why: string): void {
    this.#role = 'down';
    console.error(`ringmatch: REPLICATION: ${why}; serving nothing until the node rebuilds itself as a follower (retried every lease check)`);
  }
}

/** Starts a node of the replicated log (see the module header). Throws ConfigError. */
export async function startNode(config: SimulatorConfig, options: NodeOptions = {}): Promise<ReplicatedNode> {
  const node = new ReplicatedNode(config, options);
  try {
    await node.start();
  } catch (e) {
    await node.close().catch(() => undefined);
    throw e;
  }
  return node;
}
