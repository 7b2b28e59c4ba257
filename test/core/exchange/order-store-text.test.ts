// OrderStore.openWithText: the lookup behind cancelling or reading an order by its `t-` text finds the user's
// first open order with that text in the market (or any market), never another user's, never a finished
// order, and agrees with a scan of openOf on a random store.
import { describe, expect, it } from 'vitest';
import { OrderStore } from '../../../src/core/exchange/order-store.js';
import { Prng } from '../../../src/core/prng.js';

const open = (s: OrderStore, id: number, uid: number, market: number, text: string): number =>
  s.open(id, uid, market, 1, 1, 1, 100, 1, 0, 0, 0, text, id, 0);

describe('OrderStore.openWithText', () => {
  it('finds only the owner\'s open orders, first in entry order', () => {
    const s = new OrderStore(16, 4);
    const a = open(s, 1, 7, 0, 't-a');
    const b = open(s, 2, 7, 1, 't-a');
    open(s, 3, 8, 0, 't-b');
    expect(s.openWithText(7, 0, 't-a')).toBe(a);
    expect(s.openWithText(7, 1, 't-a')).toBe(b);
    expect(s.openWithText(7, -1, 't-a')).toBe(a);
    expect(s.openWithText(7, 0, 't-b')).toBe(-1);
    expect(s.openWithText(9, 0, 't-a')).toBe(-1);
    s.finish(a, 2, 1, 10);
    expect(s.openWithText(7, 0, 't-a')).toBe(-1);
    expect(s.openWithText(7, -1, 't-a')).toBe(b);
  });

  it('agrees with a scan of openOf on a random store', () => {
    const r = new Prng(5);
    const s = new OrderStore(64, 8);
    const live: number[] = [];
    for (let id = 1; id <= 2000; id++) {
      if (live.length > 0 && r.nextInt(3) === 0) {
        const k = r.nextInt(live.length);
        s.finish(live[k]!, 2, 1, id);
        live.splice(k, 1);
      } else {
        live.push(open(s, id, 1 + r.nextInt(4), r.nextInt(3), `t-${r.nextInt(20)}`));
      }
      const uid = 1 + r.nextInt(4);
      const market = r.nextInt(4) - 1;
      const text = `t-${r.nextInt(20)}`;
      const expected = s.openOf(uid, market).find((x) => s.text[x] === text) ?? -1;
      expect(s.openWithText(uid, market, text)).toBe(expected);
    }
  });
});
