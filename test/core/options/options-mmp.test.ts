// Market maker protection on the inline engine: fills of MMP orders within the window count their contracts and
// delta (± contracts × multiplier × the journaled delta); crossing qty_limit or delta_limit freezes the user's
// underlying (trigger and frozen-until times), new MMP orders are refused while frozen and their fills count no
// further; the freeze ends after frozen_period, or only on reset when it is 0; fills older than the window drop out;
// only the edge's MMP cancel (tif MmpCancelled, of an MMP order) is accepted beside the owner's; a replay reaches
// the same state hash.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { Command } from '../../../src/core/command.js';
import { FinishAs } from '../../../src/core/matching/order-types.js';
import { OptionsFlag } from '../../../src/core/options/options-orders.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { InlineEngine } from '../../../src/engine/inline-engine.js';
import { E1, optionName, OptionsDriver, T0 } from './options-driver.js';

const CALL = optionName(E1, '100000', true);
const PUT = optionName(E1, '90000', false);
const MMP = { flags: OptionsFlag.Mmp };

function setUp(): { d: OptionsDriver; clock: SimClock } {
  const clock = new SimClock(T0);
  const d = new OptionsDriver(undefined, clock);
  d.fund(1, '100000');
  d.fund(2, '100000');
  d.index(1_000_000);
  d.mark(CALL, 20_000, 5_000); // delta 0.5
  d.mark(PUT, 1_000, -1_500); // delta −0.15
  return { d, clock };
}

const state = (d: OptionsDriver, uid = 2) => d.ex.options.mmpOf(uid, 0)!;
const nowMs = (clock: SimClock): number => clock.nowUs() / 1000;

describe('options MMP', () => {
  it('freezes the underlying when the window traded more contracts than qty_limit, for frozen_period', () => {
    const { d, clock } = setUp();
    expect(d.setMmp(2, 1000, 500, 500, 1_000_000)).toBe(ResultCode.Ok); // 5 contracts, delta 10000
    expect(d.order(2, CALL, -3, 20_000, MMP)).toBe(ResultCode.Ok);
    expect(d.order(2, PUT, -5, 1_000, MMP)).toBe(ResultCode.Ok);
    expect(d.order(2, CALL, -1, 21_000)).toBe(ResultCode.Ok); // not an MMP order
    expect(d.order(1, CALL, 3, 20_000)).toBe(ResultCode.Ok); // 3 in the window
    expect(state(d).triggerMs).toBe(0);
    clock.advanceTo(clock.nowUs() + 400_000);
    expect(d.order(1, PUT, 2, 1_000)).toBe(ResultCode.Ok); // 5: not above the limit
    expect(state(d).triggerMs).toBe(0);
    clock.advanceTo(clock.nowUs() + 700_000); // the CALL fills (1.1 s ago) left the 1 s window: 2 counted
    expect(d.order(1, PUT, 2, 1_000)).toBe(ResultCode.Ok); // 4
    expect(state(d).triggerMs).toBe(0);
    expect(d.order(1, PUT, 1, 1_000)).toBe(ResultCode.Ok); // 5
    expect(d.order(1, CALL, 1, 21_000)).toBe(ResultCode.Ok); // a non-MMP fill does not count
    expect(state(d).triggerMs).toBe(0);
    d.order(2, PUT, -3, 1_000, MMP);
    const triggers = d.ex.options.mmpTriggers;
    expect(d.order(1, PUT, 1, 1_000)).toBe(ResultCode.Ok); // 6 > 5: frozen
    const t = nowMs(clock);
    expect(state(d)).toMatchObject({ triggerMs: t, frozenUntilMs: t + 500, fills: [] });
    expect(d.ex.options.mmpTriggers).toBe(triggers + 1);
    expect(d.order(2, PUT, -1, 1_000, MMP)).toBe(ResultCode.MmpFrozen);
    expect(d.order(1, PUT, 1, 1_000)).toBe(ResultCode.Ok); // a resting MMP order filling while frozen counts no further
    expect(d.order(2, PUT, -1, 1_100)).toBe(ResultCode.Ok); // non-MMP orders still go
    expect(state(d).fills).toEqual([]);
    // The edge's MMP cancel of the open MMP order; not of a plain order, and no other reason is taken.
    const O = d.ex.orders;
    expect(d.order(2, CALL, -1, 25_000)).toBe(ResultCode.Ok);
    const open = O.openOf(2, d.market(PUT)).filter((r) => O.price[r] === 1_000).map((r) => [O.id[r]!] as const);
    const plain = O.openOf(2, d.market(CALL)).map((r) => O.id[r]!);
    expect(d.cancel(2, CALL, plain[0]!, FinishAs.MmpCancelled)).toBe(ResultCode.InvalidParam);
    expect(d.cancel(2, PUT, open[0]![0], FinishAs.Liquidated)).toBe(ResultCode.InvalidParam);
    expect(d.cancel(2, PUT, open[0]![0], FinishAs.MmpCancelled)).toBe(ResultCode.Ok);
    expect(O.finishAs[O.find(open[0]![0])]).toBe(FinishAs.MmpCancelled);
    clock.advanceTo((t + 500) * 1000);
    expect(d.order(2, PUT, -1, 1_000, MMP)).toBe(ResultCode.Ok); // the freeze is over
  });

  it('freezes on delta, until reset when frozen_period is 0; new settings keep a freeze', () => {
    const { d } = setUp();
    expect(d.setMmp(2, 5000, 0, 1_000_000, 3)).toBe(ResultCode.Ok); // delta limit 0.03
    expect(d.order(2, CALL, -10, 20_000, MMP)).toBe(ResultCode.Ok);
    expect(d.order(1, CALL, 5, 20_000)).toBe(ResultCode.Ok); // −5 × 0.01 × 0.5 = −0.025
    expect(state(d).triggerMs).toBe(0);
    expect(d.order(1, CALL, 1, 20_000)).toBe(ResultCode.Ok); // −0.03: not above
    expect(state(d).triggerMs).toBe(0);
    expect(d.order(2, PUT, 2, 1_000)).toBe(ResultCode.Ok); // a resting bid (not MMP)
    expect(d.order(2, PUT, -1, 900, MMP)).toBe(ResultCode.Ok); // sells into its own bid? STP off: fills, delta +0.0015
    expect(d.order(1, CALL, 1, 20_000)).toBe(ResultCode.Ok); // −0.035 + 0.0015 ... above 0.03: frozen
    expect(state(d).triggerMs).toBeGreaterThan(0);
    expect(state(d).frozenUntilMs).toBe(0);
    expect(d.setMmp(2, 5000, 100, 1_000_000, 3)).toBe(ResultCode.Ok);
    expect(state(d).triggerMs).toBeGreaterThan(0); // still frozen
    expect(d.order(2, CALL, -1, 20_000, MMP)).toBe(ResultCode.MmpFrozen);
    expect(d.resetMmp(2)).toBe(ResultCode.Ok);
    expect(state(d)).toMatchObject({ triggerMs: 0, frozenUntilMs: 0 });
    expect(d.order(2, CALL, -1, 20_000, MMP)).toBe(ResultCode.Ok);
    expect(d.resetMmp(1)).toBe(ResultCode.InvalidParam); // no settings
  });

  it('refuses bad settings and changes nothing; replays to the same state hash', () => {
    const { d } = setUp();
    const hash = d.engine.stateHash();
    expect(d.setMmp(2, 5001, 0, 1, 1)).toBe(ResultCode.InvalidParam);
    expect(d.setMmp(2, 10, -1, 1, 1)).toBe(ResultCode.InvalidParam);
    expect(d.setMmp(2, 10, 0, 0, 1)).toBe(ResultCode.InvalidParam);
    expect(d.setMmp(2, 10, 0, 1, 0)).toBe(ResultCode.InvalidParam);
    expect(d.engine.stateHash()).toBe(hash);
    d.setMmp(2, 1000, 0, 100, 1_000_000);
    d.order(2, CALL, -3, 20_000, MMP);
    d.order(1, CALL, 2, 20_000);
    const e = new InlineEngine(d.engine.exchange.definition, { clock: new SimClock(T0) });
    for (const c of d.sent) e.submit(new Command().copyFrom(c));
    expect(e.stateHash()).toBe(d.engine.stateHash());
    expect(e.exchange.options.exportData()).toEqual(d.ex.options.exportData());
  });
});
