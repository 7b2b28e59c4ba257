// The sim.user pushes on the inline gateway with a recording publisher: nothing looked up, rendered or published
// while no page watches; with a page on a user, one push per turn of the event loop however many of that user's
// commands it held (the view after the last), a push when another user's order fills the watched user's, none for
// commands of other users, none once the page left; and a new page whose first push differs from the topic's last
// push makes the next turn push to every page, even when the state went back to that last push meanwhile.
import { beforeEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { Command, CommandType } from '../../../src/core/command.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { InlineGateway } from '../../../src/engine/gateway.js';
import type { ApiDeps } from '../../../src/api/deps.js';
import { renderUserView, type UserView } from '../../../src/api/routes/sim-user-view.js';
import type { Publisher } from '../../../src/api/ws/publisher.js';
import { SimUserPushes } from '../../../src/api/ws/sim-user-pushes.js';
import { definitionFromConfig } from '../../../src/sim/sim-config.js';
import { TEST_CONFIG } from '../http-helpers.js';
import { creditOn, placeOn } from './inline-commands.js';

class Recorder implements Publisher {
  readonly subscribed = new Set<string>();
  readonly sent: { topic: string; view: UserView }[] = [];
  lookups = 0;
  publish(topic: string, message: string): void {
    this.sent.push({ topic, view: (JSON.parse(message) as { result: UserView }).result });
  }
  subscribers(topic: string): number {
    this.lookups++;
    return this.subscribed.has(topic) ? 1 : 0;
  }
  active(channel: string): boolean {
    for (const t of this.subscribed) if (t.startsWith(`${channel}|`)) return true;
    return false;
  }
}

const ALICE = 'sim.user|10001';
let gw: InlineGateway;
let deps: ApiDeps;
let out: Recorder;
let pushes: SimUserPushes;
const clock = new SimClock(Date.UTC(2026, 0, 1) * 1000);
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

const place = (uid: number, side: string, amount: string, price: string): number => placeOn(gw, uid, side, amount, price);
const credit = (uid: number, currency: string, amount: string): void => creditOn(gw, uid, currency, amount);

/** The USDT balance of a view. */
const usdt = (v: UserView): string => v.spot.balances.find((b) => b.currency === 'USDT')!.available;

beforeEach(() => {
  const { definition, balances } = definitionFromConfig(TEST_CONFIG);
  gw = new InlineGateway(definition, clock);
  for (const b of balances) credit(b.uid, b.currency, b.amount);
  // The pushes read the gateway only (the exchange and its clock).
  deps = { gateway: gw } as unknown as ApiDeps;
  out = new Recorder();
  pushes = new SimUserPushes(deps, out).attach(gw);
});

describe('SimUserPushes', () => {
  it('looks nothing up, renders and publishes nothing while no page watches', async () => {
    for (let i = 0; i < 20; i++) place(10001, 'buy', '0.001', String(50000 + i));
    credit(10001, 'USDT', '5');
    await turn();
    expect(out.lookups).toBe(0);
    expect(out.sent).toEqual([]);
  });

  it('pushes a watched user\'s view once per turn, after the turn\'s last command, and nothing for other users', async () => {
    out.subscribed.add(ALICE);
    const first = JSON.parse(pushes.firstFrame(10001, ALICE, clock.nowUs())!) as { channel: string; result: UserView };
    expect(first.channel).toBe('sim.user');
    expect(first.result).toEqual(renderUserView(deps, 10001, clock.nowUs()));
    await turn();
    expect(out.sent).toEqual([]);

    const ids = Array.from({ length: 20 }, (_, i) => place(10001, 'buy', '0.001', String(50000 + i)));
    expect(out.sent).toEqual([]);
    await turn();
    expect(out.sent).toHaveLength(1);
    expect(out.sent[0]!.topic).toBe(ALICE);
    expect(out.sent[0]!.view.spot.open_orders.map((o) => (o as { id: string }).id).sort()).toEqual(ids.map(String).sort());
    expect(out.sent[0]!.view).toEqual(renderUserView(deps, 10001, clock.nowUs()));

    place(10002, 'sell', '0.001', '70000');
    credit(10002, 'USDT', '1');
    await turn();
    expect(out.sent).toHaveLength(1);

    // Bob's sell fills one of alice's bids: alice is the maker, named by the fill.
    place(10002, 'sell', '0.001', '50019');
    await turn();
    expect(out.sent).toHaveLength(2);
    expect(out.sent[1]!.view.spot.open_orders).toHaveLength(19);

    const before = usdt(out.sent[1]!.view);
    credit(10001, 'USDT', '7.5');
    await turn();
    expect(out.sent).toHaveLength(3);
    expect(Number(usdt(out.sent[2]!.view))).toBe(Number(before) + 7.5);

    // The page left: nothing more, and no lookups once the channel has no subscriber.
    out.subscribed.delete(ALICE);
    place(10001, 'buy', '0.001', '40000');
    await turn();
    const lookups = out.lookups;
    place(10001, 'buy', '0.001', '40001');
    await turn();
    expect(out.sent).toHaveLength(3);
    expect(out.lookups).toBe(lookups);
  });

  it('pushes to every page when a new page\'s first push differs from the topic\'s last one, even if the state went back', async () => {
    out.subscribed.add(ALICE);
    pushes.firstFrame(10001, ALICE, clock.nowUs());
    const id = place(10001, 'buy', '0.001', '50000');
    // A second page subscribes before the turn's push of that order: its first push shows the order...
    const second = JSON.parse(pushes.firstFrame(10001, ALICE, clock.nowUs())!) as { result: UserView };
    expect(second.result.spot.open_orders).toHaveLength(1);
    // ... which is cancelled in the same turn: the view is back to the first page's, and the second page must learn it.
    const cancel = new Command();
    cancel.type = CommandType.CancelOrder; cancel.uid = 10001; cancel.market = 0; cancel.orderId = id;
    gw.submit(cancel, (code) => expect(code).toBe(ResultCode.Ok));
    await turn();
    expect(out.sent).toHaveLength(1);
    expect(out.sent[0]!.view.spot.open_orders).toEqual([]);
    // A third page while nothing changed: no push.
    pushes.firstFrame(10001, ALICE, clock.nowUs());
    await turn();
    expect(out.sent).toHaveLength(1);
  });
});
