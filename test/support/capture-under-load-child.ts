// A process of its own for the test of a snapshot capture under load (test/engine/threaded-capture.threads.test.ts):
// a ThreadedGateway takes a capture while commands keep arriving, prints "captured <seq> <completed>" once the
// capture and every command completed, and exits. A drive loop that spins without yielding would starve the
// event loop (the shards' answer to the capture is a message event): the process would then print nothing and
// the test, which bounds it, fails instead of hanging.
//
// Usage: node --import tsx test/support/capture-under-load-child.ts
import { Command, CommandType } from '../../src/core/command.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { OrderType, Side, TimeInForce } from '../../src/core/matching/order-types.js';
import { ThreadedGateway } from '../../src/engine/threaded-gateway.js';
import { PIPE_DEFINITION, StepClock } from './pipeline-stream.js';
import { STEP_PIPE, T0_PIPE } from './pipeline-driver.js';

const gateway = new ThreadedGateway(PIPE_DEFINITION, new StepClock(T0_PIPE, STEP_PIPE), { shards: 1 });
const credit = new Command();
credit.type = CommandType.Credit; credit.uid = 201; credit.kind = AccountKind.Spot; credit.currency = 0; credit.amount = 1e12;
let completed = 0;
const done = (): void => { completed++; };
gateway.submit(credit, done);
const order = (i: number): Command => {
  const c = new Command();
  c.type = CommandType.PlaceOrder; c.uid = 201; c.market = 0; c.side = Side.Buy; c.orderType = OrderType.Limit;
  c.tif = TimeInForce.Gtc; c.price = 900 + (i % 50); c.amount = 1;
  return c;
};
for (let i = 0; i < 200; i++) gateway.submit(order(i), done);
// The capture pauses intake; what arrives meanwhile waits in intake while the shard is asked for its books.
const capture = gateway.capture();
for (let i = 200; i < 400; i++) gateway.submit(order(i), done);
const data = await capture;
await gateway.settled();
process.stdout.write(`captured ${data.seq} ${completed}\n`);
await gateway.close();
