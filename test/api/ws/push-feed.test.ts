// The push pipeline on the inline gateway with a recording publisher: what each command publishes, in
// order, on which topic — and nothing for topics without subscribers.
import { beforeEach, describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { InlineGateway } from '../../../src/engine/gateway.js';
import { MarketDataFeed } from '../../../src/api/market-data/market-data-feed.js';
import { PushFeed } from '../../../src/api/ws/push-feed.js';
import type { Publisher } from '../../../src/api/ws/publisher.js';
import { definitionFromConfig } from '../../../src/sim/sim-config.js';
import { TEST_CONFIG } from '../http-helpers.js';
import { creditOn, placeOn } from './inline-commands.js';

class Recorder implements Publisher {
  readonly subscribed = new Set<string>();
  readonly sent: { topic: string; frame: Record<string, unknown> }[] = [];
  publish(topic: string, message: string): void {
    this.sent.push({ topic, frame: JSON.parse(message) as Record<string, unknown> });
  }
  subscribers(topic: string): number {
    return this.subscribed.has(topic) ? 1 : 0;
  }
  active(channel: string): boolean {
    for (const t of this.subscribed) if (t.startsWith(`${channel}|`)) return true;
    return false;
  }
  results(topic: string): Record<string, unknown>[] {
    return this.sent.filter((s) => s.topic === topic).map((s) => s.frame.result as Record<string, unknown>);
  }
}

let gw: InlineGateway;
let out: Recorder;
let push: PushFeed;
const clock = new SimClock(Date.UTC(2026, 0, 1) * 1000);

const place = (uid: number, side: string, amount: string, price: string): number => placeOn(gw, uid, side, amount, price);
const credit = (uid: number, currency: string, amount: string): void => creditOn(gw, uid, currency, amount);

beforeEach(() => {
  const { definition, balances } = definitionFromConfig(TEST_CONFIG);
  gw = new InlineGateway(definition, clock);
  for (const b of balances) credit(b.uid, b.currency, b.amount);
  const feed = new MarketDataFeed(gw.exchange);
  gw.observe((_code, c, ev) => feed.onResult(c, ev));
  out = new Recorder();
  push = new PushFeed(gw, feed, out).attach();
});

describe('PushFeed', () => {
  it('publishes nothing for topics without subscribers', () => {
    place(10002, 'sell', '0.1', '60000');
    place(10001, 'buy', '0.1', '60000');
    expect(out.sent).toEqual([]);
  });

  it('chains spot.obu increments from the snapshot, with u the REST book version', () => {
    out.subscribed.add('spot.obu|ob.BTC_USDT.50');
    const snap = JSON.parse(push.public.obuSnapshot(0, 50, clock.nowUs())) as { result: { u: number; full: boolean } };
    expect(snap.result).toMatchObject({ full: true, s: 'ob.BTC_USDT.50', b: [], a: [] });
    place(10002, 'sell', '0.1', '60000');
    place(10002, 'sell', '0.2', '60001');
    place(10001, 'buy', '0.15', '60001');
    const incs = out.results('spot.obu|ob.BTC_USDT.50') as { U: number; u: number; a: string[][]; b: string[][] }[];
    expect(incs.map((x) => x.a)).toEqual([[['60000', '0.1']], [['60001', '0.2']], [['60000', '0'], ['60001', '0.15']]]);
    let last = snap.result.u;
    for (const x of incs) {
      expect(x.U).toBe(last + 1);
      expect(x.u).toBeGreaterThanOrEqual(x.U);
      last = x.u;
    }
    expect(last).toBe(push.feed.versions.version[0]);
  });

  it('pushes trades, candles, tickers and book tickers of a match', () => {
    for (const t of ['spot.trades|BTC_USDT', 'spot.candlesticks|1m_BTC_USDT', 'spot.tickers|BTC_USDT', 'spot.book_ticker|BTC_USDT']) out.subscribed.add(t);
    place(10002, 'sell', '0.1', '60000');
    place(10001, 'buy', '0.04', '60000');
    expect(out.results('spot.trades|BTC_USDT')).toEqual([expect.objectContaining({ id: '1', side: 'buy', price: '60000', amount: '0.04', currency_pair: 'BTC_USDT' })]);
    expect(out.results('spot.candlesticks|1m_BTC_USDT')).toEqual([expect.objectContaining({ n: '1m_BTC_USDT', c: '60000', a: '0.04', v: '2400', w: false })]);
    expect(out.results('spot.tickers|BTC_USDT').map((t) => t.last)).toEqual(['0', '60000']);
    expect(out.results('spot.book_ticker|BTC_USDT').map((t) => t.A)).toEqual(['0.1', '0.06']);
  });

  it('gives a new subscriber the current state of a quiet market, rendered as the pushes that follow', () => {
    const first = (channel: string, interval = ''): Record<string, unknown> | undefined => {
      const f = push.public.firstFrame(channel, { market: 0, depth: 5, intervalMs: 100, interval }, clock.nowUs());
      return f === undefined ? undefined : (JSON.parse(f) as { result: Record<string, unknown> }).result;
    };
    expect(first('spot.tickers')).toMatchObject({ currency_pair: 'BTC_USDT', last: '0', lowest_ask: '', highest_bid: '' });
    expect(first('spot.book_ticker')).toMatchObject({ s: 'BTC_USDT', b: '', B: '', a: '', A: '' });
    expect(first('spot.candlesticks', '1m')).toBeUndefined();
    expect(first('spot.obu')).toMatchObject({ full: true, b: [], a: [] });
    expect(first('spot.order_book')).toMatchObject({ s: 'BTC_USDT', bids: [], asks: [] });
    expect(first('spot.order_book_update')).toBeUndefined();
    expect(first('spot.trades')).toBeUndefined();
    place(10002, 'sell', '0.1', '60000');
    place(10001, 'buy', '0.04', '60000');
    place(10001, 'buy', '0.5', '59000');
    clock.advanceTo(clock.nowUs() + 120e6);
    expect(first('spot.tickers')).toMatchObject({ last: '60000', lowest_ask: '60000', lowest_size: '0.06', highest_bid: '59000' });
    expect(first('spot.book_ticker')).toMatchObject({ b: '59000', B: '0.5', a: '60000', A: '0.06', u: push.feed.versions.version[0] });
    // Two minutes on, the current 1m bucket has no fill: a flat candle at the last close, as GET /spot/candlesticks.
    expect(first('spot.candlesticks', '1m')).toMatchObject({ n: '1m_BTC_USDT', o: '60000', c: '60000', v: '0', a: '0', w: false });
    expect(first('spot.candlesticks', '1d')).toMatchObject({ n: '1d_BTC_USDT', c: '60000', a: '0.04' });
    expect(out.sent).toEqual([]);
  });

  it('pushes put, update and finish orders, user trades and balance changes to their users', () => {
    for (const t of ['spot.orders|10001.!all', 'spot.orders|10002.BTC_USDT', 'spot.usertrades|10002.!all', 'spot.balances|10001']) out.subscribed.add(t);
    push.private.prime(10001);
    const ask = place(10002, 'sell', '0.1', '60000');
    const bid = place(10001, 'buy', '0.1', '60000');
    const mine = out.results('spot.orders|10001.!all') as unknown as { id: string; event: string; finish_as: string }[][];
    expect(mine.flat().map((o) => [o.id, o.event, o.finish_as])).toEqual([[String(bid), 'put', 'filled'], [String(bid), 'finish', 'filled']]);
    const theirs = out.results('spot.orders|10002.BTC_USDT') as unknown as { id: string; event: string; user: number; create_time_ms: unknown }[][];
    expect(theirs.flat().map((o) => [o.id, o.event, o.user])).toEqual([[String(ask), 'put', 10002], [String(ask), 'finish', 10002]]);
    expect(typeof theirs[0]![0]!.create_time_ms).toBe('string');
    expect(out.results('spot.usertrades|10002.!all')).toEqual([[expect.objectContaining({ role: 'maker', side: 'sell', user_id: 10002, order_id: String(ask) })]]);
    const bal = out.results('spot.balances|10001') as unknown as Record<string, string>[][];
    expect(bal.flat().map((b) => [b.currency, b.change, b.total, b.freeze, b.change_type])).toEqual([
      ['BTC', '0.0998', '2.0998', '0', 'order-match'], ['USDT', '-6000', '94000', '0', 'order-match']]);
  });

  it('pushes balance changes of credits', () => {
    out.subscribed.add('spot.balances|10002');
    push.private.prime(10002);
    credit(10002, 'USDT', '5');
    expect(out.results('spot.balances|10002')).toEqual([[expect.objectContaining({ currency: 'USDT', change: '5', total: '50005', change_type: 'deposit' })]]);
  });
});
