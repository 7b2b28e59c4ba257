// Options state in snapshots: after a stream with positions, open orders, margin holds and a settled expiration,
// a snapshot (captured, encoded, decoded, restored) reaches the same state hash, and the restored engine goes on
// exactly as the original does on the same further commands.
import { describe, expect, it } from 'vitest';
import { Command } from '../../../src/core/command.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { SimClock } from '../../../src/core/clock.js';
import { captureSnapshot, restoreEngine } from '../../../src/engine/snapshot/capture.js';
import { decodeSnapshot, encodeSnapshot } from '../../../src/protocol/snapshot-codec.js';
import { E1, E2, optionName, OptionsDriver, T0 } from './options-driver.js';

describe('options in snapshots', () => {
  it('restores positions, holds, orders and settlements to the same state hash', () => {
    const clock = new SimClock(T0);
    const d = new OptionsDriver(undefined, clock);
    for (const uid of [1, 2, 3]) d.fund(uid, '50000');
    d.index(1_000_000);
    const c1 = optionName(E1, '100000', true);
    const p2 = optionName(E2, '90000', false);
    expect(d.order(2, c1, -5, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(1, c1, 5, 20_000)).toBe(ResultCode.Ok);
    expect(d.order(3, p2, -4, 5_000)).toBe(ResultCode.Ok);
    expect(d.order(1, p2, 2, 5_000)).toBe(ResultCode.Ok);
    expect(d.order(1, p2, 1, 4_000)).toBe(ResultCode.Ok); // rests
    clock.advanceTo(E1 * 1e6);
    expect(d.settle(E1, 1_020_000)).toBe(ResultCode.Ok);
    const data = decodeSnapshot(encodeSnapshot(captureSnapshot(d.engine, { createdTime: 1 })));
    const restored = restoreEngine(data, { clock: new SimClock(E1 * 1e6) });
    expect(restored.stateHash()).toBe(d.engine.stateHash());
    expect(restored.exchange.options.exportData()).toEqual(d.ex.options.exportData());
    // The same further commands on both: the resting put order fills, then a cancel of a finished one.
    const more = new OptionsDriver(undefined, new SimClock(E1 * 1e6));
    more.order(3, p2, -1, 4_000);
    more.cancel(1, p2, 1);
    for (const c of more.sent) expect(restored.submit(new Command().copyFrom(c))).toBe(d.engine.submit(new Command().copyFrom(c)));
    expect(restored.stateHash()).toBe(d.engine.stateHash());
    expect(d.position(1, p2)?.size).toBe(3);
  });
});
