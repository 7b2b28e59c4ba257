// Users registered at run time are AddUser commands: the ledger's rules answer as result codes, nothing
// changes on a rejection, and a journal of the run (runtime users, their credits and orders) replays to the
// live state hash.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { LedgerCode } from '../../src/core/ledger/ledger-codes.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';
import { addUserCommand } from '../../src/engine/gateway.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { ENGINE_DEFINITION } from '../support/engine-stream.js';

const dirs: string[] = [];
afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

function credit(uid: number, currency: number, amount: number): Command {
  const c = new Command();
  c.type = CommandType.Credit; c.uid = uid; c.kind = AccountKind.Spot; c.currency = currency; c.amount = amount;
  return c;
}

describe('AddUser command', () => {
  it('registers users and sub-accounts with the ledger rules, and changes nothing when refused', () => {
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock: new SimClock(1) });
    expect(engine.submit(addUserCommand(500, 0))).toBe(ResultCode.Ok);
    expect(engine.submit(addUserCommand(501, 500))).toBe(ResultCode.Ok);
    const before = engine.stateHash();
    expect(engine.submit(addUserCommand(500, 0))).toBe(LedgerCode.UserExists);
    expect(engine.submit(addUserCommand(502, 501))).toBe(LedgerCode.NestedSubAccount);
    expect(engine.submit(addUserCommand(503, 9999))).toBe(LedgerCode.MainUserNotFound);
    expect(engine.submit(addUserCommand(0, 0))).toBe(ResultCode.InvalidParam);
    expect(engine.stateHash()).toBe(before);
    expect(engine.exchange.ledger.mainOf(501)).toBe(500);
  });

  it('is journaled: a run with runtime users replays to the live state hash', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringmatch-adduser-'));
    dirs.push(dir);
    const path = join(dir, 'journal.log');
    const clock = new SimClock(1_767_225_600_000_000);
    const journal = await JournalWriter.open(path, headerFor(ENGINE_DEFINITION, clock.nowUs()), { fsync: 'batch' });
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock, journal });
    expect(engine.submit(addUserCommand(700, 0))).toBe(ResultCode.Ok);
    expect(engine.submit(addUserCommand(701, 0))).toBe(ResultCode.Ok);
    expect(engine.submit(credit(700, 0, 1_000_000_000))).toBe(ResultCode.Ok);
    expect(engine.submit(credit(701, 1, 1_000_000))).toBe(ResultCode.Ok);
    const order = (uid: number, side: number): Command => {
      const c = new Command();
      c.type = CommandType.PlaceOrder; c.uid = uid; c.market = 0; c.side = side; c.orderType = OrderType.Limit; c.tif = TimeInForce.Gtc;
      c.price = 1000; c.amount = 50;
      return c;
    };
    expect(engine.submit(order(701, Side.Sell))).toBe(ResultCode.Ok);
    expect(engine.submit(order(700, Side.Buy))).toBe(ResultCode.Ok);
    expect(engine.exchange.trades.count).toBe(1);
    await engine.flush();
    await journal.close();
    const { engine: replayed } = await recoverFromJournal(path);
    expect(replayed.stateHash()).toBe(engine.stateHash());
  });
});
