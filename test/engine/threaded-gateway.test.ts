// The threaded gateway: commands submitted from inside another command's callbacks (observers and `done`,
// as price triggers do) queue behind it and complete; with each client command settled before the next, the codes,
// the state hash and the depth (from the mirror) equal the inline gateway's.
import { afterAll, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';
import { type ExchangeGateway, InlineGateway } from '../../src/engine/gateway.js';
import { ThreadedGateway } from '../../src/engine/threaded-gateway.js';
import { ENGINE_DEFINITION } from '../support/engine-stream.js';

const gateways: ExchangeGateway[] = [];
afterAll(async () => { await Promise.all(gateways.map((g) => g.close())); });

function order(uid: number, side: number, price: number, amount: number): Command {
  const c = new Command();
  c.type = CommandType.PlaceOrder;
  c.uid = uid; c.market = 0; c.side = side; c.orderType = OrderType.Limit; c.tif = TimeInForce.Gtc; c.price = price; c.amount = amount;
  return c;
}

/** Funds two users, then places orders where every fill makes an observer place a follow-up order, and a done places another. */
async function scenario(g: ExchangeGateway): Promise<{ codes: number[]; hash: string; bids: number[] }> {
  const codes: number[] = [];
  for (const [uid, cur] of [[101, 0], [102, 1]] as const) {
    const c = new Command();
    c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = cur; c.amount = 1e12;
    g.submit(c, (code) => codes.push(code));
  }
  let followUps = 0;
  g.observe((code, c) => {
    if (code === ResultCode.Ok && c.type === CommandType.PlaceOrder && c.uid === 102 && followUps < 20) {
      followUps++;
      g.submit(order(101, Side.Buy, 900 + followUps, 3), (k) => codes.push(k));
    }
  });
  for (let i = 0; i < 40; i++) {
    g.submit(order(101, Side.Buy, 1000 + (i % 5), 5), (k) => {
      codes.push(k);
      if (i % 10 === 0) g.submit(order(102, Side.Sell, 1100 + i, 2), (k2) => codes.push(k2));
    });
    await g.settled();
    g.submit(order(102, Side.Sell, 1000 + (i % 7), 4), (k) => codes.push(k));
    await g.settled();
  }
  await g.settled();
  const prices = new Float64Array(20);
  const lots = new Float64Array(20);
  const n = g.depth(0, Side.Buy, 20, prices, lots);
  return { codes, hash: await g.stateHash(), bids: [...prices.subarray(0, n), ...lots.subarray(0, n)] };
}

describe('ThreadedGateway', () => {
  it('runs commands submitted from callbacks and ends where the inline gateway does', async () => {
    const t0 = 1_767_225_600_000_000;
    const threaded = new ThreadedGateway(ENGINE_DEFINITION, new SimClock(t0));
    const inline = new InlineGateway(ENGINE_DEFINITION, new SimClock(t0));
    gateways.push(threaded, inline);
    const [a, b] = [await scenario(threaded), await scenario(inline)];
    expect(a.codes.length).toBe(2 + 80 + 4 + 20);
    expect(a.codes.filter((c) => c !== ResultCode.Ok)).toEqual([]);
    expect(a.codes).toEqual(b.codes);
    expect(a.bids.length).toBeGreaterThan(0);
    expect(a.bids).toEqual(b.bids);
    expect(a.hash).toBe(b.hash);
  });
});
