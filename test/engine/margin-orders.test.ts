// Orders and loans of the isolated Margin and the CrossMargin accounts in the engine: holds, fills, fees and releases land
// on the order's account (never its spot balance), fees go to the platform account, every currency is conserved,
// a journal with margin orders in it replays to the live state hash, a snapshot restores it, and the threaded
// gateway ends where the inline one does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import type { ExchangeDefinition } from '../../src/core/exchange/exchange-definition.js';
import { accountKindOf, OrderFlag, orderFlagsOf } from '../../src/core/exchange/order-store.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { Prng } from '../../src/core/prng.js';
import { ResultCode } from '../../src/core/result-code.js';
import { LoanKind } from '../../src/core/unified/unified-state.js';
import { type ExchangeGateway, InlineGateway } from '../../src/engine/gateway.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { captureSnapshot, restoreEngine } from '../../src/engine/snapshot/capture.js';
import { ThreadedGateway } from '../../src/engine/threaded-gateway.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/protocol/snapshot-codec.js';

const T0 = 1_767_225_600_000_000;
const DEF: ExchangeDefinition = {
  currencies: [{ code: 'BTC', scale: 8, maxSupply: '1000000' }, { code: 'USDT', scale: 6, maxSupply: '1000000000' }],
  markets: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4, fee: '0.2', maker_fee_rate: '0.1' }],
  users: [{ uid: 1 }, { uid: 2 }, { uid: 3 }],
  unified: { currencies: { BTC: { index_price: '40000' }, USDT: {} } },
};
const ACCOUNTS = [[AccountKind.Spot, 0], [AccountKind.Margin, 0], [AccountKind.CrossMargin, 0], [AccountKind.Unified, 0]] as const;
const dirs: string[] = [];
const gateways: ExchangeGateway[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await Promise.all(gateways.map((g) => g.close()));
});

function credit(c: Command, uid: number, kind: number, cur: number, amount: number): Command {
  c.clear();
  c.type = CommandType.Credit; c.uid = uid; c.kind = kind; c.currency = cur; c.amount = amount;
  return c;
}

function place(c: Command, uid: number, kind: number, side: number, price: number, lots: number, flags = 0): Command {
  c.clear();
  c.type = CommandType.PlaceOrder; c.uid = uid; c.market = 0; c.side = side; c.orderType = OrderType.Limit;
  c.tif = TimeInForce.Gtc; c.price = price; c.amount = lots; c.kind = kind; c.toKind = flags;
  return c;
}

/** The deterministic command stream both runners and the journal test apply: funds, loans, orders of every account. */
function* stream(seed: number): Generator<Command> {
  const c = new Command();
  yield credit(c, 0, AccountKind.Unified, 0, 50 * 1e8);
  yield credit(c, 0, AccountKind.Unified, 1, 1e6 * 1e6);
  for (const uid of [1, 2, 3]) {
    for (const kind of [AccountKind.Spot, AccountKind.Margin, AccountKind.CrossMargin]) {
      yield credit(c, uid, kind, 0, 2e8);
      yield credit(c, uid, kind, 1, 50_000 * 1e6);
    }
  }
  const rng = new Prng(seed);
  for (let i = 0; i < 400; i++) {
    const uid = 1 + rng.nextInt(3);
    const roll = rng.nextInt(10);
    if (roll === 0) {
      c.clear();
      c.type = rng.chance(0.5) ? CommandType.MarginBorrow : CommandType.MarginRepay;
      c.uid = uid; c.market = 0; c.currency = rng.nextInt(2); c.side = LoanKind.Auto;
      if (rng.chance(0.5)) c.kind = AccountKind.CrossMargin;
      c.amount = c.currency === 0 ? rng.between(1, 5_000_000) : rng.between(1, 2_000) * 1e6;
      yield c;
    } else if (roll === 1) {
      c.clear();
      c.type = CommandType.CancelAll; c.uid = uid; c.market = 0;
      yield c;
    } else {
      const kind = [AccountKind.Spot, AccountKind.Margin, AccountKind.CrossMargin][rng.nextInt(3)]!;
      place(c, uid, kind, rng.chance(0.5) ? Side.Buy : Side.Sell, rng.between(39_900, 40_100) * 100, rng.between(1, 3_000), rng.nextInt(4));
      c.sub = 0;
      yield c;
    }
  }
}

describe('margin orders in the engine', () => {
  it('hold, fill, charge fees and release on the order\'s account', () => {
    const engine = new InlineEngine(DEF, { clock: new SimClock(T0) });
    const ex = engine.exchange;
    const c = new Command();
    const bal = (uid: number, kind: number, code: string): [string, string] => {
      const b = ex.ledger.balance(uid, kind, 0, code)!;
      return [String(b.available), String(b.locked)];
    };
    expect(engine.submit(credit(c, 1, AccountKind.Margin, 1, 10_000 * 1e6))).toBe(ResultCode.Ok);
    expect(engine.submit(credit(c, 2, AccountKind.CrossMargin, 0, 1e8))).toBe(ResultCode.Ok);
    // A margin buy of 0.1 BTC at 40,000 holds 4,000 USDT of the Margin account; the spot account has nothing.
    expect(engine.submit(place(c, 1, AccountKind.Margin, Side.Buy, 4_000_000, 1_000, OrderFlag.AutoRepay))).toBe(ResultCode.Ok);
    const buyId = c.orderId;
    expect(bal(1, AccountKind.Margin, 'USDT')).toEqual([String(6_000 * 1e6), String(4_000 * 1e6)]);
    expect(bal(1, AccountKind.Spot, 'USDT')).toEqual(['0', '0']);
    const r = ex.orders.find(buyId);
    expect([accountKindOf(ex.orders.account[r]!), orderFlagsOf(ex.orders.account[r]!)]).toEqual([AccountKind.Margin, OrderFlag.AutoRepay]);
    // Spot funds do not back a margin order, nor margin funds a spot one.
    expect(engine.submit(place(c, 2, AccountKind.Margin, Side.Sell, 4_000_000, 1_000))).toBe(ResultCode.BalanceNotEnough);
    expect(engine.submit(place(c, 2, AccountKind.Spot, Side.Sell, 4_000_000, 1_000))).toBe(ResultCode.BalanceNotEnough);
    // A cross-margin sell of 0.04 fills against it: 0.04 BTC less the 0.1 % maker fee reach the Margin account.
    expect(engine.submit(place(c, 2, AccountKind.CrossMargin, Side.Sell, 3_990_000, 400))).toBe(ResultCode.Ok);
    expect(bal(1, AccountKind.Margin, 'BTC')).toEqual([String(4_000_000 - 4_000), '0']);
    expect(bal(1, AccountKind.Margin, 'USDT')).toEqual([String(6_000 * 1e6), String(2_400 * 1e6)]);
    expect(bal(2, AccountKind.CrossMargin, 'BTC')).toEqual([String(1e8 - 4_000_000), '0']);
    expect(bal(2, AccountKind.CrossMargin, 'USDT')).toEqual([String(1_600 * 1e6 - 3_200_000), '0']);
    expect(bal(0, AccountKind.Spot, 'BTC')).toEqual(['4000', '0']);
    expect(bal(0, AccountKind.Spot, 'USDT')).toEqual(['3200000', '0']);
    // Cancelling returns the rest of the hold to the Margin account.
    c.clear(); c.type = CommandType.CancelOrder; c.uid = 1; c.market = 0; c.orderId = buyId;
    expect(engine.submit(c)).toBe(ResultCode.Ok);
    expect(bal(1, AccountKind.Margin, 'USDT')).toEqual([String(8_400 * 1e6), '0']);
    ex.assertInvariants();
    // Malformed accounts: a margin order of another market, a kind without orders, flags out of range.
    const bad = place(c, 1, AccountKind.Margin, Side.Buy, 4_000_000, 10);
    bad.sub = 3;
    expect(engine.submit(bad)).toBe(ResultCode.InvalidParam);
    expect(engine.submit(place(c, 1, AccountKind.Futures, Side.Buy, 4_000_000, 10))).toBe(ResultCode.InvalidParam);
    expect(engine.submit(place(c, 1, AccountKind.Margin, Side.Buy, 4_000_000, 10, 4))).toBe(ResultCode.InvalidParam);
  });

  it('conserve every currency, replay from the journal and restore from a snapshot to the live hash', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringmatch-margin-orders-'));
    dirs.push(dir);
    const path = join(dir, 'orders.journal');
    const clock = new SimClock(T0);
    const journal = await JournalWriter.open(path, headerFor(DEF, T0), { fsync: 'batch' });
    const engine = new InlineEngine(DEF, { clock, journal });
    const ex = engine.exchange;
    const sum = (code: string): bigint => {
      let s = 0n;
      for (const uid of [0, 1, 2, 3]) {
        for (const [kind, sub] of ACCOUNTS) {
          const b = ex.ledger.balance(uid, kind, sub, code)!;
          s += BigInt(b.available) + BigInt(b.locked);
        }
      }
      return s;
    };
    let margin = 0;
    let crossLoans = 0;
    for (const c of stream(5)) {
      const code = engine.submit(c);
      if (code === ResultCode.Ok && c.type === CommandType.PlaceOrder && c.kind !== AccountKind.Spot) margin++;
      if (code === ResultCode.Ok && c.type === CommandType.MarginBorrow && c.kind === AccountKind.CrossMargin) crossLoans++;
      for (const cur of ['BTC', 'USDT']) expect(sum(cur)).toBe(BigInt(ex.ledger.supply(cur)!));
      clock.advanceBy(1000);
    }
    const fills = ex.trades.count;
    ex.assertInvariants();
    expect(margin).toBeGreaterThan(50);
    expect(crossLoans).toBeGreaterThan(3);
    expect(fills).toBeGreaterThan(50);
    await engine.flush();
    await journal.close();
    const recovered = await recoverFromJournal(path);
    expect(recovered.engine.stateHash()).toBe(engine.stateHash());
    const restored = restoreEngine(decodeSnapshot(encodeSnapshot(captureSnapshot(engine))), { clock });
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect(Array.from(restored.exchange.orders.openRecords(), (r) => restored.exchange.orders.account[r]))
      .toEqual(Array.from(ex.orders.openRecords(), (r) => ex.orders.account[r]));
  });

  it('end in the same state on the threaded and the inline gateway', async () => {
    const run = async (g: ExchangeGateway): Promise<{ codes: number[]; hash: string }> => {
      const codes: number[] = [];
      for (const c of stream(11)) {
        g.submit(c, (code) => codes.push(code));
        await g.settled();
      }
      return { codes, hash: await g.stateHash() };
    };
    const threaded = new ThreadedGateway(DEF, new SimClock(T0));
    const inline = new InlineGateway(DEF, new SimClock(T0));
    gateways.push(threaded, inline);
    const [a, b] = [await run(threaded), await run(inline)];
    expect(a.codes.filter((c) => c === ResultCode.Ok).length).toBeGreaterThan(200);
    expect(a.codes).toEqual(b.codes);
    expect(a.hash).toBe(b.hash);
  });
});
