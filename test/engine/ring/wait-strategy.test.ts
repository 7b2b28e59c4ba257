// Wait strategies in one thread: immediate returns, early return on close, and both AsyncWait modes
// (native Atomics.waitAsync and the setTimeout polling fallback) resolving after a publish.
import { describe, expect, it } from 'vitest';
import { H_CONSUMER_WAITING } from '../../../src/engine/ring/layout.js';
import { NO_SEQ, SpscRing } from '../../../src/engine/ring/spsc-ring.js';
import { AsyncWait, BusySpinWait, SpinThenBlockWait } from '../../../src/engine/ring/wait-strategy.js';

const ring = (): SpscRing => SpscRing.create({ capacity: 8, slotWords: 2 });

describe('wait strategies', () => {
  it.each([
    ['BusySpinWait', new BusySpinWait()],
    ['SpinThenBlockWait', new SpinThenBlockWait({ spins: 10, timeoutMs: 5 })],
  ] as const)('%s returns the published cursor at once when it is already past the sequence', (_name, wait) => {
    const r = ring();
    r.publish(r.tryClaim(3) + 2);
    expect(wait.waitFor(r, 0)).toBe(2);
    expect(wait.waitForConsumed(r, -1)).toBe(-1);
  });

  it.each([
    ['BusySpinWait', new BusySpinWait()],
    ['SpinThenBlockWait', new SpinThenBlockWait({ spins: 10, timeoutMs: 5 })],
  ] as const)('%s returns a short cursor once the ring is closing, and clears its waiter flag', (_name, wait) => {
    const r = ring();
    r.close();
    expect(wait.waitFor(r, 5)).toBe(-1);
    expect(r.header[H_CONSUMER_WAITING]).toBe(0);
    r.markClosed();
    expect(wait.waitForConsumed(r, 5)).toBe(-1);
  });

  it.each([false, true])('AsyncWait (polling fallback: %s) resolves after a publish from a timer', async (forcePolling) => {
    const r = ring();
    const wait = new AsyncWait({ timeoutMs: 2_000, pollMs: 1, forcePolling });
    expect(wait.native).toBe(!forcePolling);
    setTimeout(() => r.publish(r.tryClaim(1)), 20);
    const started = Date.now();
    expect(await wait.waitFor(r, 0)).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(r.header[H_CONSUMER_WAITING]).toBe(0);
  });

  it('AsyncWait resolves a producer wait once the consumer releases', async () => {
    const r = ring();
    r.publish(r.tryClaim(8) + 7);
    expect(r.tryClaim(1)).toBe(NO_SEQ);
    setTimeout(() => r.release(3), 10);
    expect(await new AsyncWait({ timeoutMs: 2_000 }).waitForConsumed(r, 0)).toBe(3);
  });
});
