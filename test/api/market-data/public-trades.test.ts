// GET /spot/trades: newest first, limit, last_id both ways, from/to, page, per-market filtering, shapes.
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../../src/core/result-code.js';
import { Driver, START_US } from './drive.js';

/** 30 trades alternating between two markets, one per second: BTC trades have odd ids. */
function setup(): Driver {
  const d = new Driver();
  for (let i = 0; i < 30; i++) {
    d.clock.advanceTo(START_US + i * 1e6 + 500);
    d.trade(i % 2 === 0 ? 'BTC_USDT' : 'ETH_USDT', i % 3 === 0 ? 'sell' : 'buy', String(100 + i), '0.01');
  }
  return d;
}

const ids = (d: Driver, q: Record<string, string>): number[] => {
  const a = d.feed.spotTrades({ currency_pair: 'BTC_USDT', ...q });
  if (!a.ok) throw new Error(`rejected ${a.code}`);
  return a.value.map((t) => Number(t.id));
};

describe('GET /spot/trades', () => {
  it('renders Gate public trades, newest first, taker side', () => {
    const d = setup();
    const a = d.feed.spotTrades({ currency_pair: 'BTC_USDT', limit: '2' });
    expect(a).toEqual({ ok: true, value: [
      { id: '29', create_time: String(START_US / 1e6 + 28), create_time_ms: `${START_US / 1e3 + 28_000}.500000`,
        currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '128', sequence_id: '15' },
      expect.objectContaining({ id: '27', side: 'buy', price: '126', sequence_id: '14' }),
    ] });
    expect(ids(d, {})).toHaveLength(15);
  });

  it('pages by last_id back (reverse=true) and forward (default)', () => {
    const d = setup();
    expect(ids(d, { last_id: '21', reverse: 'true', limit: '3' })).toEqual([19, 17, 15]);
    expect(ids(d, { last_id: '21', limit: '3' })).toEqual([27, 25, 23]);
    expect(ids(d, { last_id: '21', reverse: 'false' })).toEqual([29, 27, 25, 23]);
    expect(ids(d, { last_id: '1', reverse: 'true' })).toEqual([]);
  });

  it('filters by from/to in seconds (inclusive) and pages with page', () => {
    const d = setup();
    const s = START_US / 1e6;
    expect(ids(d, { from: String(s + 10), to: String(s + 16) })).toEqual([15, 13, 11]);
    expect(ids(d, { from: String(s + 10), to: String(s + 16.0005) })).toEqual([17, 15, 13, 11]);
    expect(ids(d, { from: String(s + 10), to: String(s + 16.0004) })).toEqual([15, 13, 11]);
    expect(ids(d, { from: String(s + 10), to: String(s + 16.0005), limit: '3', page: '2' })).toEqual([11]);
    expect(ids(d, { from: String(s + 10.0006), to: String(s + 16.0005) })).toEqual([17, 15, 13]);
    expect(ids(d, { limit: '5', page: '3' })).toEqual([9, 7, 5, 3, 1]);
  });

  it('rejects bad parameters', () => {
    const d = setup();
    for (const q of [{ limit: '1001' }, { limit: '0' }, { last_id: 'x' }, { reverse: 'maybe' }, { from: '10', to: '5' }, { page: '0' }]) {
      expect(d.feed.spotTrades({ currency_pair: 'BTC_USDT', ...q }), JSON.stringify(q)).toEqual({ ok: false, code: ResultCode.InvalidParam });
    }
    expect(d.feed.spotTrades({})).toEqual({ ok: false, code: ResultCode.MissingParam });
  });
});
