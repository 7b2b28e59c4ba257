// The futures services' hooks a perpetual replay drives: setRecorded (the recorded index, mark and rate as
// overrides, applied by the next poll as a FuturesSetPrices) and scheduledFunding (off: the services never fund;
// on, the default: they fund at the engine's schedule, as before).
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import { FuturesServices } from '../../src/engine/futures/futures-services.js';
import { buildSim } from '../../src/backtest/md-replay.js';
import { PerpDriver } from '../../src/backtest/perp/perp-driver.js';
import type { ReplayConfig } from '../../src/backtest/replay-config.js';

const T0 = 1_767_225_600_000_000;
const CFG: ReplayConfig = { market: { id: 'BTC_USDT' }, contract: { funding_interval: 60 }, users: [{ uid: 10001, balances: { USDT: '1000' } }] };

function services(scheduledFunding: boolean | undefined): { s: FuturesServices; clock: SimClock; ex: ReturnType<typeof buildSim>['sim']['engine']['exchange'] } {
  const clock = new SimClock(T0);
  const { sim } = buildSim(CFG, 1, 3, clock, () => undefined);
  const s = new FuturesServices(PerpDriver.hostOf(sim, clock), { checkMs: 0, ...(scheduledFunding === undefined ? {} : { scheduledFunding }) });
  return { s, clock, ex: sim.engine.exchange };
}

describe('futures services driven by recorded data', () => {
  it('setRecorded applies the recorded index, mark and rate at the next poll', () => {
    const { s, ex } = services(false);
    s.setRecorded(0, 600_000, 600_012, 12_345n);
    expect(ex.futures.mark[0]).toBe(0);
    s.poll();
    expect([ex.futures.index[0], ex.futures.mark[0], ex.futures.fundingRate[0]]).toEqual([600_000, 600_012, 12_345n]);
    // A field left undefined keeps its override.
    s.setRecorded(0, undefined, 600_020, undefined);
    s.poll();
    expect([ex.futures.index[0], ex.futures.mark[0], ex.futures.fundingRate[0]]).toEqual([600_000, 600_020, 12_345n]);
    s.close();
  });

  for (const [what, flag, fundings] of [['off', false, 0], ['on (the default)', undefined, 1]] as const) {
    it(`scheduled funding ${what}: ${fundings} funding when the engine's funding time passes`, () => {
      const { s, clock, ex } = services(flag);
      s.setRecorded(0, 600_000, 600_000, 10_000n);
      s.poll();
      const due = ex.futures.nextFunding[0]! * 1e6;
      expect(due).toBe(T0 + 60_000_000);
      clock.advanceTo(due + 1);
      s.poll();
      expect(ex.futures.funding.length).toBe(fundings);
      s.close();
    });
  }
});
