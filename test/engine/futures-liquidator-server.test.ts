// The futures services in the server, on both runners: after an index move set through the services' API the
// under-margined position is liquidated (and, the insurance fund being empty, auto-deleveraged); POST /sim/clock
// past the funding time applies funding before it answers; everything is journaled, so a restart from the journal
// (with the services off) reaches the same state hash.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { assertFuturesInvariants } from '../../src/core/futures/futures-setup.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { BookType } from '../../src/core/ledger/account-book.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';
import type { ExchangeGateway } from '../../src/engine/gateway.js';
import { futuresServicesOf } from '../../src/engine/futures/futures-services.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { plainFetch, startTestSimulator } from '../api/http-helpers.js';

const P = 60_000_00; // contract ticks (priceScale 2)
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function config(journal: string, runner: 'inline' | 'threaded', clock = true): Partial<SimulatorConfig> {
  return {
    clock: { type: 'sim' },
    engine: { runner, journal, snapshots: false },
    users: [1, 2, 3, 4].map((uid) => ({ uid, balances: { futures: { USDT: '10000' } } })),
    futures: {
      contracts: [{ name: 'BTC_USDT', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1', mark_price_round: '0.01',
        funding_interval: 3600 }],
      ...(clock ? {} : { clock: { enabled: false } }),
    },
  };
}

function submit(gw: ExchangeGateway, fill: (c: Command) => void): Promise<ResultCode> {
  const c = new Command();
  fill(c);
  return new Promise((resolve) => gw.submit(c, (code) => resolve(code)));
}

async function order(gw: ExchangeGateway, uid: number, size: number, tif: number = TimeInForce.Gtc): Promise<ResultCode> {
  const ex = gw.exchange;
  return submit(gw, (c) => {
    c.type = CommandType.PlaceOrder; c.uid = uid; c.market = ex.futures.marketOf[0]!; c.kind = AccountKind.Futures;
    c.sub = ex.futures.settleCur[0]!; c.side = size > 0 ? Side.Buy : Side.Sell; c.amount = Math.abs(size); c.price = P;
    c.orderType = OrderType.Limit; c.tif = tif;
  });
}

const leverage = (gw: ExchangeGateway, uid: number, lev: number): Promise<ResultCode> => submit(gw, (c) => {
  c.type = CommandType.FuturesSetLeverage; c.uid = uid; c.market = gw.exchange.futures.marketOf[0]!; c.price = lev;
});

const sizeOf = (gw: ExchangeGateway, uid: number): number => {
  const P0 = gw.exchange.futures.positions;
  const r = P0.find(uid, gw.exchange.futures.marketOf[0]!, 0);
  return r < 0 ? 0 : P0.size[r]!;
};

describe.each(['inline', 'threaded'] as const)('futures services in the server (%s runner)', (runner) => {
  it('liquidates after a price move, funds at the interval, and replays to the same state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringmatch-futures-'));
    dirs.push(dir);
    const journal = join(dir, 'journal.log');
    const sim = await startTestSimulator(config(journal, runner));
    let hash: string;
    try {
      const gw = sim.gateway;
      const svc = sim.futures!;
      expect(futuresServicesOf(gw.exchange)).toBe(svc);
      await svc.setIndexPrice(0, P);
      expect(gw.exchange.futures.mark[0]).toBe(P);
      expect(await leverage(gw, 2, 20)).toBe(ResultCode.Ok);
      expect(await order(gw, 1, -100)).toBe(ResultCode.Ok);
      expect(await order(gw, 2, 100, TimeInForce.Ioc)).toBe(ResultCode.Ok);
      expect(await order(gw, 3, -50)).toBe(ResultCode.Ok);
      expect(await order(gw, 4, 50, TimeInForce.Ioc)).toBe(ResultCode.Ok);
      expect(sizeOf(gw, 2)).toBe(100);
      // −6 %: user 2 (20x) is under water; the fund is empty and the book too, so user 1's short is deleveraged.
      await svc.setIndexPrice(0, P * 0.94);
      expect(sizeOf(gw, 2)).toBe(0);
      expect(gw.exchange.futures.liquidations.map((l) => l.uid)).toEqual([2]);
      expect(gw.exchange.futures.adl.map((a) => a.uid)).toEqual([1]);
      expect(sizeOf(gw, 1)).toBe(0);
      // Funding: the clock moved past the contract's next funding time by the control plane.
      const next = gw.exchange.futures.nextFunding[0]!;
      const nowMs = Math.floor(gw.clock.nowUs() / 1000);
      const moved = await plainFetch(sim.server.port, '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ advance_ms: next * 1000 - nowMs }) });
      expect(moved.status).toBe(200);
      expect(gw.exchange.futures.funding.map((f) => f.t)).toEqual([next]);
      const fund = gw.exchange.ledger.accountBook(4, { kind: AccountKind.Futures, type: BookType.FuturesFund });
      expect(fund).toHaveLength(1);
      expect(fund[0]).toMatchObject({ type: 'fund', text: 'BTC_USDT' });
      expect(fund[0]!.change.startsWith('-')).toBe(true); // a long pays at the positive interest rate
      assertFuturesInvariants(gw.exchange);
      hash = await gw.stateHash();
    } finally {
      await sim.close();
    }
    const again = await startTestSimulator(config(journal, 'inline', false));
    try {
      expect(again.futures).toBeUndefined();
      expect(await again.gateway.stateHash()).toBe(hash);
    } finally {
      await again.close();
    }
  });
});
