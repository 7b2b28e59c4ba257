// An engine that stops is loud and safe: after a dead shard worker or an invariant broken while a command is
// applied, writes answer 503 TOO_BUSY at once (requests in flight too, none hangs), reads keep working,
// GET /sim/health and the log say why, the state hash route answers 503, and closing (SIGTERM) completes.
// A front callback that throws is logged and the engine goes on without applying anything twice.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { ResultCode } from '../../src/core/result-code.js';
import { InlineGateway, type ExchangeGateway } from '../../src/engine/gateway.js';
import type { ThreadedGateway } from '../../src/engine/threaded-gateway.js';
import { ThreadedGateway as Threaded } from '../../src/engine/threaded-gateway.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator } from '../api/http-helpers.js';
import { ENGINE_DEFINITION, EngineStream } from '../support/engine-stream.js';

type J = Record<string, unknown>;
const order = (s: Simulator, body: J) =>
  signedFetch(s.server.port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify({ currency_pair: 'BTC_USDT', ...body }) });

/** Captures console.error while `f` runs. */
async function capturingErrors<T>(f: () => Promise<T>): Promise<[T, string]> {
  const lines: string[] = [];
  const log = console.error;
  console.error = (...a: unknown[]) => { lines.push(a.map(String).join(' ')); };
  try {
    return [await f(), lines.join('\n')];
  } finally {
    console.error = log;
  }
}

async function expectStopped(sim: Simulator, reason: RegExp): Promise<void> {
  const t0 = Date.now();
  const w = await order(sim, { side: 'buy', amount: '0.001', price: '50000' });
  expect(w.status).toBe(503);
  expect(w.body).toMatchObject({ label: 'TOO_BUSY' });
  expect(Date.now() - t0).toBeLessThan(2_000);
  expect((await plainFetch(sim.server.port, '/api/v4/spot/order_book?currency_pair=BTC_USDT')).status).toBe(200);
  expect((await signedFetch(sim.server.port, { path: '/api/v4/spot/accounts' })).status).toBe(200);
  const health = await plainFetch(sim.server.port, '/sim/health');
  expect(health.status).toBe(503);
  expect(health.body).toMatchObject({ status: 'stopped', label: 'TOO_BUSY' });
  expect((health.body as J).reason).toMatch(reason);
  expect((await plainFetch(sim.server.port, '/sim/state_hash')).status).toBe(503);
  const closing = Date.now();
  await sim.close();
  expect(Date.now() - closing).toBeLessThan(5_000);
}

describe('an engine that stops', () => {
  it('threaded: a dead shard worker answers every request in flight and every later write with 503', async () => {
    const sim = await startTestSimulator({ engine: { runner: 'threaded' } });
    expect((await plainFetch(sim.server.port, '/sim/health')).body).toMatchObject({ status: 'ok' });
    const [, log] = await capturingErrors(async () => {
      const inFlight = Array.from({ length: 20 }, (_, i) => order(sim, { side: 'sell', amount: '0.001', price: String(60000 + i) }));
      (sim.gateway as ThreadedGateway).engine.crashShardForTesting(0);
      for (const r of await Promise.all(inFlight)) expect([201, 503]).toContain(r.status);
      await expectStopped(sim, /shard 0 failed/);
    });
    expect(log).toMatch(/shard 0 failed/);
  });

  for (const runner of ['threaded', 'inline'] as const) {
    it(`${runner}: an invariant broken in R2 stops the engine instead of running on a half-applied state`, async () => {
      const sim = await startTestSimulator({ engine: { runner } });
      expect((await order(sim, { side: 'sell', amount: '0.01', price: '60000' })).status).toBe(201);
      const ex = sim.gateway.exchange;
      const post = ex.post.bind(ex);
      let broken = false;
      ex.post = (c, code, ev) => {
        if (!broken && ev.count > 1) { broken = true; throw new Error('fill could not settle (injected)'); }
        return post(c, code, ev);
      };
      const [first, log] = await capturingErrors(() => order(sim, { side: 'buy', amount: '0.001', price: '60000' }));
      expect(broken).toBe(true);
      expect(first.status).toBe(503);
      expect(log).toMatch(/injected/);
      await expectStopped(sim, /broke an invariant.*injected/);
    });
  }
});

describe('a front callback that throws', () => {
  const T0 = 1_767_225_600_000_000;
  for (const [runner, make] of [
    ['inline', (clock: SimClock): ExchangeGateway => new InlineGateway(ENGINE_DEFINITION, clock)],
    ['threaded', (clock: SimClock): ExchangeGateway => new Threaded(ENGINE_DEFINITION, clock)],
  ] as const) {
    it(`${runner}: is logged, and the engine goes on without applying anything twice`, async () => {
      const reference = new InlineGateway(ENGINE_DEFINITION, new SimClock(T0));
      const gw = make(new SimClock(T0));
      let n = 0;
      gw.observe(() => { if (++n % 97 === 0) throw new Error('observer bug (injected)'); });
      const s1 = new EngineStream(5);
      const s2 = new EngineStream(5);
      const codes: number[] = [];
      const expected: number[] = [];
      const [, log] = await capturingErrors(async () => {
        for (const c of s1.openings()) gw.submit(c, () => { throw new Error('callback bug (injected)'); });
        for (const c of s2.openings()) reference.submit(c, () => undefined);
        for (let i = 0; i < 3_000; i++) {
          gw.submit(s1.next(), (code) => { codes[i] = code; if (i % 101 === 0) throw new Error('callback bug (injected)'); });
          reference.submit(s2.next(), (code) => { expected[i] = code; });
        }
        await gw.settled();
      });
      expect(log).toMatch(/injected/);
      expect(gw.stopped).toBeUndefined();
      expect(codes).toEqual(expected);
      expect(codes.filter((c) => c === ResultCode.Ok).length).toBeGreaterThan(1_000);
      expect(await gw.stateHash()).toBe(await reference.stateHash());
      await gw.close();
    });
  }
});
