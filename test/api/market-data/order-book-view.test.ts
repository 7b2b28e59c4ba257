// GET /spot/order_book: limit, interval merging (bids down, asks up, sizes summed), with_id versions.
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { Driver } from './drive.js';

function setup(): Driver {
  const d = new Driver();
  for (const [p, a] of [['100.05', '1'], ['100.01', '2'], ['99.99', '0.5'], ['99.9', '1'], ['99.11', '3'], ['98', '1']] as const) {
    d.order(1, 'BTC_USDT', 'buy', p, a);
  }
  for (const [p, a] of [['100.06', '1'], ['100.1', '2'], ['100.11', '0.5'], ['100.19', '1'], ['101', '4']] as const) {
    d.order(1, 'BTC_USDT', 'sell', p, a);
  }
  return d;
}

describe('GET /spot/order_book', () => {
  it('lists the book levels with current/update in ms, id only with with_id', () => {
    const d = setup();
    const bookOf = (m: number): ReturnType<Driver['book']> => d.ex.engine.books[m];
    const now = d.clock.nowUs() + 5_000;
    const a = d.feed.spotOrderBook({ currency_pair: 'BTC_USDT', limit: '2' }, now, bookOf);
    expect(a).toEqual({ ok: true, value: { current: Math.floor(now / 1000), update: Math.floor(d.clock.nowUs() / 1000),
      asks: [['100.06', '1'], ['100.1', '2']], bids: [['100.05', '1'], ['100.01', '2']] } });
    const b = d.feed.spotOrderBook({ currency_pair: 'BTC_USDT', with_id: 'true' }, now, bookOf);
    expect(b.ok && Object.keys(b.value)).toEqual(['id', 'current', 'update', 'asks', 'bids']);
    expect(b.ok && b.value.bids).toHaveLength(6);
  });

  it('merges levels by interval: bids rounded down, asks up, sizes summed', () => {
    const d = setup();
    const bookOf = (m: number): ReturnType<Driver['book']> => d.ex.engine.books[m];
    const q = (interval: string, limit = '10'): unknown => d.feed.spotOrderBook({ currency_pair: 'BTC_USDT', interval, limit }, 0, bookOf);
    expect(q('0.1')).toMatchObject({ ok: true, value: {
      bids: [['100', '3'], ['99.9', '1.5'], ['99.1', '3'], ['98', '1']],
      asks: [['100.1', '3'], ['100.2', '1.5'], ['101', '4']] } });
    expect(q('1', '1')).toMatchObject({ ok: true, value: { bids: [['100', '3']], asks: [['101', '8.5']] } });
    expect(q('0.01')).toEqual(q('0'));
    expect(q('0.001')).toEqual({ ok: false, code: ResultCode.InvalidParam });
    expect(q('abc')).toEqual({ ok: false, code: ResultCode.InvalidParam });
    expect(q('0.1', '1001')).toEqual({ ok: false, code: ResultCode.InvalidParam });
  });

  it('changes the id on every book change and only then', () => {
    const d = setup();
    const v = (): number => d.feed.versions.version[0]!;
    const seen = [v()];
    const step = (f: () => void, changes: boolean): void => {
      const before = v();
      f();
      expect(v() > before, String(seen.length)).toBe(changes);
      seen.push(v());
    };
    step(() => d.order(2, 'BTC_USDT', 'buy', '90', '1', 'ioc'), false);
    step(() => d.order(2, 'BTC_USDT', 'sell', '99', '0.1', 'poc'), false);
    step(() => d.order(2, 'BTC_USDT', 'sell', '100.05', '0.1', 'ioc'), true);
    const id = d.order(2, 'BTC_USDT', 'buy', '50', '1');
    step(() => d.amend(2, 'BTC_USDT', id, 0, 5000), true);
    step(() => d.cancel(2, 'BTC_USDT', id), true);
    expect(() => d.cancel(2, 'BTC_USDT', id)).toThrow();
    expect(v()).toBe(seen[seen.length - 1]);
    expect(d.feed.versions.updateUs[0]).toBe(d.clock.nowUs());
  });
});
