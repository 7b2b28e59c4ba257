/**
 * soak:server's simulator: the real server (`startSimulator`) in a child process started with --expose-gc.
 * Config: the demo (three pairs, its market maker) plus the soak's four funded users, rate limits off, the
 * runner of argv[2] (`threaded`: the default, one shard worker; or `inline`), and a journal at argv[3] if given
 * (default fsync policy; snapshots every argv[4] commands when given, else the default). Reports its port over IPC, then answers:
 *   sample         memory after two forced full GCs, orders placed and open, trades, structure sizes
 *   check          after the engine settles: its stop (if any), the exchange's invariants, and conservation
 *                  per currency from the ledger (every account, the fee account and lending pool included)
 *   heap_snapshot  writes a V8 heap snapshot to the given path (blocks this process for seconds)
 * Closes when the channel closes.
 */
import v8 from 'node:v8';
import { startSimulator } from '../src/main.js';
import { validateConfig } from '../src/sim/config-file.js';
import { type ConservationRow, type FromServer, type ServerCheck, SOAK_USERS, type ToServer } from './protocol.js';

const runner = process.argv[2] === 'inline' ? 'inline' : 'threaded';
const journal = process.argv[3];
const snapshotEvery = process.argv[4] === undefined ? undefined : Number(process.argv[4]);

const config = validateConfig({
  extends: 'demo',
  users: SOAK_USERS.map((u) => ({ uid: u.uid, keys: [{ key: u.key, secret: u.secret }],
    balances: { spot: { USDT: '10000000', BTC: '200', ETH: '4000' } } })),
  rate_limits: false,
  engine: { runner, ...(journal === undefined ? {} : { journal }),
    ...(snapshotEvery === undefined ? {} : { snapshots: { every_commands: snapshotEvery } }) },
});

const sim = await startSimulator(config, { host: '127.0.0.1', port: 0 });
const ex = sim.gateway.exchange;
const FINISHED_WINDOW = ex.definition.finishedOrders ?? 100_000;
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => { throw new Error('start this process with --expose-gc'); });

/**
 * Entries (not bytes) of the server's structures that could grow with orders and trades, as far as they are
 * readable from outside: order record slots, the finished-order window, retained trades, front records, and
 * replies held for the journal. The heap figures say whether anything else grows. @allocates
 */
function structureSizes(): Record<string, number> {
  return {
    order_slots: ex.orders.capacity,
    finished_orders: ex.orders.finishedRecords().length,
    trades_retained: Math.min(ex.trades.count, ex.trades.capacity),
    records: ex.records.size,
    outputs_held: sim.gateway.output.held,
  };
}

function conservation(): ConservationRow[] {
  return ex.ledger.conservation().map((c) => {
    const fmt = (v: number | bigint): string => ex.ledger.format(c.currency, typeof v === 'bigint' && !ex.ledger.isWide(c.currency) ? Number(v) : v);
    return { currency: c.currency, accounts: fmt(c.accounts), fee_account: fmt(c.feeAccount), lending_pool: fmt(c.lendingPool),
      credits: fmt(c.credits), debits: fmt(c.debits), exact: BigInt(c.accounts) === c.credits - c.debits };
  });
}

async function check(): Promise<ServerCheck> {
  const stop = sim.gateway.stopped;
  if (stop === undefined) await sim.gateway.settled();
  let invariantError: string | null = null;
  try {
    ex.assertInvariants();
  } catch (e) {
    invariantError = e instanceof Error ? e.message : String(e);
  }
  return { stopped: stop === undefined ? null : stop.reason, invariant_error: invariantError, conservation: conservation() };
}

const send = (m: FromServer): void => { process.send?.(m); };

process.on('message', (m: ToServer) => {
  if (m.type === 'sample') {
    gc();
    gc();
    const u = process.memoryUsage();
    send({ type: 'sample', sample: { rss: u.rss, heap_used: u.heapUsed, heap_total: u.heapTotal, external: u.external,
      array_buffers: u.arrayBuffers, orders_placed: ex.lastOrderId, orders_open: ex.orders.openCount, trades: ex.trades.count,
      window_full: ex.orders.finishedRecords().length >= FINISHED_WINDOW, sizes: structureSizes() } });
  } else if (m.type === 'check') {
    void check().then((c) => send({ type: 'check', check: c }));
  } else {
    send({ type: 'heap_snapshot', path: v8.writeHeapSnapshot(m.path) });
  }
});
process.on('disconnect', () => {
  void sim.close().then(() => process.exit(0));
});
send({ type: 'listening', port: sim.server.port });
