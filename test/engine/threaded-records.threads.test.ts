// The fronts' records under pipelining: a PutRecords submitted while an order carrying records of the same key
// is in flight must land after that order's records (sequence order), as on the inline runner. Found by
// `npm run soak:engine`: the two runners' state hashes differed at checkpoints between such commands.
import { describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { ThreadedEngine } from '../../src/engine/threaded-engine.js';
import { PIPE_DEFINITION, StepClock } from '../support/pipeline-stream.js';
import { STEP_PIPE, T0_PIPE } from '../support/pipeline-driver.js';

function commands(): Command[] {
  const credit = new Command();
  credit.type = CommandType.Credit; credit.uid = 201; credit.kind = AccountKind.Spot; credit.currency = 0; credit.amount = 1_000_000_000;
  const place = new Command();
  place.type = CommandType.PlaceOrder; place.uid = 201; place.market = 0; place.side = Side.Buy;
  place.orderType = OrderType.Limit; place.tif = TimeInForce.Gtc; place.price = 900; place.amount = 3;
  place.record = '{"trigger/1":{"status":"finish"},"trigger/2":{"status":"finish"}}';
  const put = new Command();
  put.type = CommandType.PutRecords; put.record = '{"trigger/1":{"status":"cancelled"},"other":1}';
  return [credit, place, put];
}

describe('ThreadedEngine records', () => {
  it('puts records in sequence order when a PutRecords follows an order that carries records', async () => {
    const inline = new InlineEngine(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE) });
    for (const c of commands()) expect(inline.submit(c)).toBe(ResultCode.Ok);
    const engine = ThreadedEngine.start(PIPE_DEFINITION, { clock: new StepClock(T0_PIPE, STEP_PIPE), shards: 1 });
    try {
      for (const c of commands()) expect(engine.submit(c)).toBe(ResultCode.Ok);
      await engine.run();
      const rows = (e: { exchange: InlineEngine['exchange'] }): unknown => e.exchange.records.rows('');
      expect(rows(engine)).toEqual(rows(inline));
      expect(engine.exchange.records.get('trigger/1')!.value).toBe('{"status":"cancelled"}');
      expect(await engine.stateHash()).toBe(inline.stateHash());
    } finally {
      await engine.close();
    }
  });
});
