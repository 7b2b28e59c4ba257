/**
 * The measured server of `bench:ws`, one process, kind from argv[2]:
 * - `ringmatch`: the simulator (runner from argv[3]: threaded, the default, or inline; wall clock, rate
 *   limits off, no market maker) with one busy
 *   market. On `drive`, an open-loop driver submits crossing order pairs in-process through the gateway at
 *   `rate` trades per second (rate 0: as fast as it can, 64 trades per event-loop turn); each match is pushed
 *   by the /ws/v4/ pipeline (spot.trades on topic `spot.trades|BTC_USDT`).
 * - `bare`: a bare uWebSockets.js app whose clients subscribe to the same topic; the driver publishes a
 *   spot.trades frame of the same shape, stamped with the wall clock, at the same rate. The reference for
 *   what uWebSockets.js fan-out costs on this machine.
 * Per phase it reports the trades made, the wall time inside the driver's steps (matching, rendering and
 * queueing the publish) and the process CPU time (including uWebSockets.js writing to the sockets).
 * Reports its port over IPC; exits when the channel closes.
 */
import { performance } from 'node:perf_hooks';
import { App, us_listen_socket_close, us_socket_local_port, type us_listen_socket } from 'uWebSockets.js';
import { Command } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import { parseCreateOrder } from '../../src/gate/spot-order-request.js';
import { startSimulator } from '../../src/main.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import type { FromServer, ServerKind, ToServer } from './ws-bench-protocol.js';

const kind = (process.argv[2] ?? 'ringmatch') as ServerKind;
const RUNNER = process.argv[3] === 'inline' ? 'inline' : 'threaded';
const wallUs = (): number => Math.floor((performance.timeOrigin + performance.now()) * 1000);
const send = (m: FromServer): void => { process.send?.(m); };

/** Emits `step(k)` for trades k = 0.. at `rate` per second (0: flat out) for `seconds`; resolves with the count. */
function drive(rate: number, seconds: number, step: (k: number) => void): Promise<{ trades: number; busyMs: number; cpuMs: number; elapsedMs: number }> {
  return new Promise((resolve) => {
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const end = start + seconds * 1000;
    let k = 0;
    let busy = 0;
    const tick = (): void => {
      const now = performance.now();
      if (now >= end) {
        const cpu = process.cpuUsage(cpu0);
        return resolve({ trades: k, busyMs: busy, cpuMs: (cpu.user + cpu.system) / 1000, elapsedMs: now - start });
      }
      const due = rate === 0 ? k + 64 : Math.floor(((now - start) / 1000) * rate);
      const t0 = performance.now();
      while (k < due) step(k++);
      busy += performance.now() - t0;
      if (rate === 0) setImmediate(tick);
      else setTimeout(tick, 1);
    };
    tick();
  });
}

async function ringmatch(): Promise<{ port: number; step: (k: number) => void; close: () => Promise<void> }> {
  const config: SimulatorConfig = {
    currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6,
      min_base_amount: '0.0001', min_quote_amount: '1', fee: '0.2', maker_fee_rate: '0.1' }],
    users: [30001, 30002].map((uid) => ({ uid, balances: { spot: { USDT: '10000000', BTC: '1000' } } })),
    rate_limits: false,
    market_maker: false,
    engine: { runner: RUNNER },
  };
  const sim = await startSimulator(config, { host: '127.0.0.1', port: 0 });
  const gw = sim.gateway;
  const cmd = new Command();
  const submit = (uid: number, side: string): void => {
    const body = { currency_pair: 'BTC_USDT', side, amount: '0.001', price: '60000' };
    if (parseCreateOrder(gw.exchange, uid, body, cmd) !== ResultCode.Ok) throw new Error('bench order rejected');
    gw.submit(cmd, (code) => { if (code !== ResultCode.Ok) throw new Error(`bench order failed: ${code}`); });
  };
  // Trade k: one user rests a sell (even k) or a buy, the other takes it; balances oscillate.
  const step = (k: number): void => {
    const [maker, taker] = k % 2 === 0 ? [30001, 30002] : [30002, 30001];
    submit(maker, k % 4 < 2 ? 'sell' : 'buy');
    submit(taker, k % 4 < 2 ? 'buy' : 'sell');
  };
  return { port: sim.server.port, step, close: () => sim.close() };
}

async function bare(): Promise<{ port: number; step: (k: number) => void; close: () => Promise<void> }> {
  const app = App();
  const topic = 'spot.trades|BTC_USDT';
  app.ws('/ws/v4/', {
    maxBackpressure: 8 << 20,
    message: (ws, message) => {
      const req = JSON.parse(Buffer.from(message).toString('utf8')) as { id: number; channel: string; event: string; payload: unknown };
      ws.subscribe(topic);
      ws.send(JSON.stringify({ time: 0, time_ms: 0, id: req.id, channel: req.channel, event: req.event, payload: req.payload, result: { status: 'success' } }));
    },
  });
  const socket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen('127.0.0.1', 0, (s) => (s === false ? reject(new Error('cannot listen')) : resolve(s)));
  });
  const step = (k: number): void => {
    const us = wallUs();
    app.publish(topic, JSON.stringify({ time: Math.floor(us / 1e6), time_ms: Math.floor(us / 1e3), channel: 'spot.trades', event: 'update',
      result: { id: String(k + 1), create_time: String(Math.floor(us / 1e6)), create_time_ms: (us / 1e3).toFixed(3), currency_pair: 'BTC_USDT',
        side: 'buy', amount: '0.001', price: '60000', sequence_id: String(k + 1) } }));
  };
  return { port: us_socket_local_port(socket), step,
    close: () => { us_listen_socket_close(socket); app.close(); return Promise.resolve(); } };
}

const server = kind === 'bare' ? await bare() : await ringmatch();
send({ type: 'listening', port: server.port });
process.on('message', (m: ToServer) => {
  if (m.type !== 'drive') return;
  void drive(m.rate, m.seconds, server.step).then(({ trades, busyMs, cpuMs, elapsedMs }) => {
    send({ type: 'driven', trades, seconds: elapsedMs / 1000, busyMs, cpuMs });
  });
});
process.on('disconnect', () => { void server.close().then(() => process.exit(0)); });
