// The threaded runner keeps a serial product's books (futures) on the ledger thread while spot books live in
// shard workers. A seeded stream mixing spot and futures commands (orders of every kind, amends, cancels,
// leverage, margin, prices, funding, liquidations) must end, on 1 and 2 shards, at the inline runner's state
// hash with the same result code for every command; a capture taken mid-stream, restored into a fresh engine
// and fed the rest, must end there too (the local books travel in the snapshot like the shards' books).
import { afterEach, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { SimClock } from '../../src/core/clock.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { FuturesDriver, futuresDefinition, T0 } from '../support/futures-driver.js';

const USERS = 8;
const STEPS = 3000;

interface Recorded { readonly cmds: Command[]; readonly codes: ResultCode[]; readonly hash: string; readonly mid: number }

/** Runs the seeded stream inline, recording every command as stamped (seq, time) and its result. */
function recordInline(seed: number): Recorded {
  const d = new FuturesDriver(futuresDefinition(USERS));
  const cmds: Command[] = [];
  const codes: ResultCode[] = [];
  const submit = d.engine.submit.bind(d.engine);
  // The command as submitted (as the journal keeps it), with the seq and time the sequencer stamped: R1 rewrites
  // some fields in place (a futures market order becomes a limit at its slippage bound), which a replay must not see.
  d.engine.submit = (c: Command, continues?: boolean): ResultCode => {
    const sent = new Command().copyFrom(c);
    const code = submit(c, continues);
    sent.seq = c.seq;
    sent.time = c.time;
    cmds.push(sent);
    codes.push(code);
    return code;
  };
  const rng = new Prng(seed);
  const pick = (n: number): number => rng.nextInt(n);
  const ex = d.ex;
  const usdt = ex.currencyIndex('USDT');
  const btc = ex.currencyIndex('BTC');
  for (let u = 1; u <= USERS; u++) {
    d.fund(u, 'USDT', '200000');
    d.fund(u, 'BTC', '5');
    for (const cur of [usdt, btc]) {
      const c = new Command();
      c.type = CommandType.Credit; c.uid = u; c.kind = AccountKind.Spot; c.currency = cur; c.amount = cur === usdt ? 1e12 : 1e9;
      d.engine.submit(c);
    }
  }
  d.prices('BTC_USDT', 2_000_000, 2_000_000); // 20000.00 in 0.01 ticks
  d.prices('BTC_USD', 2_000_000, 2_000_000);
  const open: { uid: number; contract: string; id: number }[] = [];
  let mid = 0;
  for (let i = 0; i < STEPS; i++) {
    if (i === STEPS / 2) mid = cmds.length;
    d.sim.advanceBy(1000 + pick(50_000));
    const uid = 1 + pick(USERS);
    const contract = pick(2) === 0 ? 'BTC_USDT' : 'BTC_USD';
    const tick = contract === 'BTC_USDT' ? 10 : 50;
    const r = pick(100);
    if (r < 45) {
      const size = (1 + pick(40)) * (pick(2) === 0 ? 1 : -1);
      const price = (2_000_000 + (pick(41) - 20) * tick * 5) - ((2_000_000 + (pick(41) - 20) * tick * 5) % tick);
      const tif = [TimeInForce.Gtc, TimeInForce.Gtc, TimeInForce.Ioc, TimeInForce.Poc, TimeInForce.Fok][pick(5)]!;
      const market = pick(10) === 0;
      if (d.order(uid, contract, size, market ? 0 : price, market ? {} : { tif, flags: pick(8) === 0 ? 1 : 0 }) === ResultCode.Ok
        && !market && tif === TimeInForce.Gtc) open.push({ uid, contract, id: d.lastOrderId });
    } else if (r < 55 && open.length > 0) {
      const o = open.splice(pick(open.length), 1)[0]!;
      d.cancel(o.uid, o.contract, o.id);
    } else if (r < 60 && open.length > 0) {
      const o = open[pick(open.length)]!;
      d.amend(o.uid, o.contract, o.id, 1 + pick(30), 0);
    } else if (r < 64) {
      d.leverage(uid, contract, [0, 2, 5, 10, 25][pick(5)]!);
    } else if (r < 67) {
      d.margin(uid, contract, BigInt(1 + pick(1000)) * (contract === 'BTC_USDT' ? 100_000_000n : 10_000n) * (pick(2) === 0 ? 1n : -1n));
    } else if (r < 72) {
      const mark = 2_000_000 + (pick(201) - 100) * 1000;
      d.prices(contract, mark, mark, pick(2001) - 1000);
    } else if (r < 74) {
      d.funding(contract, pick(2001) - 1000);
    } else if (r < 78) {
      const row = d.row(uid, contract);
      if (row >= 0) d.liquidate(uid, contract);
    } else {
      // Spot traffic on the shard's book beside the local ones.
      const c = new Command();
      c.type = CommandType.PlaceOrder; c.uid = uid; c.market = 0; c.kind = AccountKind.Spot;
      c.side = pick(2) === 0 ? Side.Buy : Side.Sell; c.orderType = OrderType.Limit;
      c.tif = pick(3) === 0 ? TimeInForce.Ioc : TimeInForce.Gtc;
      c.price = 199_000 + pick(2001); c.amount = 1 + pick(500);
      d.engine.submit(c);
    }
  }
  return { cmds, codes, hash: d.engine.stateHash(), mid };
}

const engines: ThreadedEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

/** Feeds recorded commands [from, to) to `e` as replayed (recorded seq and time); returns their codes. */
async function feed(e: ThreadedEngine, cmds: readonly Command[], from: number, to: number): Promise<ResultCode[]> {
  const codes: ResultCode[] = [];
  for (let i = from; i < to; i++) {
    const at = i - from;
    while (e.submitReplayed(cmds[i]!, (code) => { codes[at] = code; }) === ResultCode.Busy) await e.run();
  }
  await e.run();
  return codes;
}

describe('ThreadedEngine with local (serial) books beside shard books', () => {
  const rec = recordInline(7);

  it('the recorded stream exercises futures and spot, accepted and refused', () => {
    const futuresOk = rec.cmds.filter((c, i) => c.kind === AccountKind.Futures && c.type === CommandType.PlaceOrder && rec.codes[i] === ResultCode.Ok);
    const spotOk = rec.cmds.filter((c, i) => c.kind === AccountKind.Spot && c.type === CommandType.PlaceOrder && rec.codes[i] === ResultCode.Ok);
    expect(futuresOk.length).toBeGreaterThan(500);
    expect(spotOk.length).toBeGreaterThan(300);
    expect(new Set(rec.codes).size).toBeGreaterThan(3);
  });

  for (const shards of [1, 2]) {
    it(`${shards} shard(s): every code and the final state hash equal the inline runner's`, async () => {
      const e = ThreadedEngine.start(futuresDefinition(USERS), { clock: new SimClock(T0), shards });
      engines.push(e);
      const codes = await feed(e, rec.cmds, 0, rec.cmds.length);
      expect(codes).toEqual(rec.codes);
      expect(await e.stateHash()).toBe(rec.hash);
    }, 60_000);
  }

  it('a capture mid-stream restores the local books: the rest ends at the inline hash', async () => {
    const a = ThreadedEngine.start(futuresDefinition(USERS), { clock: new SimClock(T0), shards: 1 });
    engines.push(a);
    await feed(a, rec.cmds, 0, rec.mid);
    const snap = await a.capture();
    const futuresMarkets = a.exchange.futures.marketOf;
    expect(futuresMarkets.some((m) => (snap.books[m]?.id.length ?? 0) > 0)).toBe(true);
    const b = ThreadedEngine.start(futuresDefinition(USERS), { clock: new SimClock(T0), shards: 2, snapshot: snap });
    engines.push(b);
    const codes = await feed(b, rec.cmds, rec.mid, rec.cmds.length);
    expect(codes).toEqual(rec.codes.slice(rec.mid));
    expect(await b.stateHash()).toBe(rec.hash);
  }, 60_000);
});
