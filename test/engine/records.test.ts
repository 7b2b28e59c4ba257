// The fronts' records in the engine: put alone (PutRecords) or riding on a command, applied only when that
// command succeeds, tombstones kept, malformed text refused before anything changes; covered by the state
// hash; carried by the journal (a replay of a stream full of them ends at the live hash) and by snapshots.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { JournalWriter } from '../../src/engine/journal/writer.js';
import { headerFor, recoverFromJournal } from '../../src/engine/recovery.js';
import { captureSnapshot, restoreEngine } from '../../src/engine/snapshot/capture.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/protocol/snapshot-codec.js';
import { generatePipeline, PIPE_DEFINITION, StepClock } from '../support/pipeline-stream.js';

const T0 = 1_767_225_600_000_000;
const dirs: string[] = [];
afterAll(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

const engine = (): InlineEngine => new InlineEngine(PIPE_DEFINITION, { clock: new SimClock(T0) });
const puts = (record: string): Command => { const c = new Command(); c.type = CommandType.PutRecords; c.record = record; return c; };
const row = (e: InlineEngine, key: string): unknown => {
  const r = e.exchange.records.get(key);
  return r === undefined ? undefined : JSON.parse(r.value);
};

describe('records in the engine', () => {
  it('PutRecords puts, overwrites and tombstones; each row keeps the seq that put it', () => {
    const e = engine();
    const empty = e.stateHash();
    expect(e.submit(puts('{"key/a":{"uid":1},"sub/2":{"remark":"x"}}'))).toBe(ResultCode.Ok);
    const one = e.stateHash();
    expect(one).not.toBe(empty);
    expect(e.submit(puts('{"key/a":null}'))).toBe(ResultCode.Ok);
    expect(row(e, 'key/a')).toBeNull();
    expect(row(e, 'sub/2')).toEqual({ remark: 'x' });
    expect(e.exchange.records.get('key/a')!.seq).toBe(2);
    expect(e.exchange.records.get('sub/2')!.seq).toBe(1);
    expect(e.exchange.records.rows('key/')).toEqual([{ key: 'key/a', value: null, seq: 2, orderId: 0 }]);
    expect(e.stateHash()).not.toBe(one);
  });

  it('refuses malformed record text with InvalidParam and changes nothing, not even the command it rides on', () => {
    const e = engine();
    const credit = new Command();
    credit.type = CommandType.Credit; credit.uid = 201; credit.kind = AccountKind.Spot; credit.currency = 0; credit.amount = 5;
    const before = e.stateHash();
    for (const bad of ['{', '[]', '"x"', '3', 'null', '{"":1}']) {
      credit.record = bad;
      expect(e.submit(credit), bad).toBe(ResultCode.InvalidParam);
      expect(e.submit(puts(bad)), bad).toBe(ResultCode.InvalidParam);
    }
    expect(e.exchange.ledger.balanceText(201, AccountKind.Spot, 0, 'USDT')!.available).toBe('0');
    expect(e.stateHash()).toBe(before);
  });

  it('applies a record riding on a command only when the command succeeds; an order\'s row keeps its id', () => {
    const e = engine();
    const credit = new Command();
    credit.type = CommandType.Credit; credit.uid = 201; credit.kind = AccountKind.Spot; credit.currency = 0; credit.amount = 10_000_000;
    credit.record = '{"dep/1":{"status":"DONE"}}';
    expect(e.submit(credit)).toBe(ResultCode.Ok);
    const debit = new Command();
    debit.type = CommandType.Debit; debit.uid = 201; debit.kind = AccountKind.Spot; debit.currency = 0; debit.amount = 10_000_001;
    debit.record = '{"wd/1":{"status":"REQUEST"}}';
    expect(e.submit(debit)).toBe(ResultCode.BalanceNotEnough);
    expect(row(e, 'dep/1')).toEqual({ status: 'DONE' });
    expect(row(e, 'wd/1')).toBeUndefined();
    const place = new Command();
    place.type = CommandType.PlaceOrder; place.uid = 201; place.market = 0; place.side = Side.Buy; place.orderType = OrderType.Limit;
    place.tif = TimeInForce.Gtc; place.price = 1000; place.amount = 1; place.record = '{"pt/9":{"status":"finish"}}';
    expect(e.submit(place)).toBe(ResultCode.Ok);
    expect(e.exchange.records.get('pt/9')!.orderId).toBe(e.exchange.lastOrderId);
    const cancel = new Command();
    cancel.type = CommandType.CancelOrder; cancel.uid = 201; cancel.market = 0; cancel.orderId = 999; cancel.record = '{"cd/1":1}';
    expect(e.submit(cancel)).toBe(ResultCode.OrderNotFound);
    expect(row(e, 'cd/1')).toBeUndefined();
    cancel.orderId = e.exchange.lastOrderId;
    expect(e.submit(cancel)).toBe(ResultCode.Ok);
    expect(row(e, 'cd/1')).toBe(1);
  });

  it('a journal of a stream full of records replays to the live hash; a snapshot keeps them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ringmatch-records-'));
    dirs.push(dir);
    const path = join(dir, 'j.log');
    const clock = new StepClock(T0, 200_000);
    const journal = await JournalWriter.open(path, headerFor(PIPE_DEFINITION, T0), { fsync: 'never' });
    const live = new InlineEngine(PIPE_DEFINITION, { clock, journal });
    generatePipeline(4, 8_000, live);
    expect(live.exchange.records.size).toBeGreaterThan(20);
    await journal.close();
    const r = await recoverFromJournal(path);
    expect(r.engine.stateHash()).toBe(live.stateHash());
    expect(r.engine.exchange.records.exportData()).toEqual(live.exchange.records.exportData());
    const restored = restoreEngine(decodeSnapshot(encodeSnapshot(captureSnapshot(live))));
    expect(restored.stateHash()).toBe(live.stateHash());
    expect(restored.exchange.records.exportData()).toEqual(live.exchange.records.exportData());
  });
});
