// PositionStore's per-user row lists against a scan of every row (the definition): after seeded runs of row
// creation and truncation (what a rejected command undoes), rowsOf(uid), rowsOf(uid, market) and
// pendingOrders(uid, market) equal what a scan over all rows gives, in creation order; a user whose rows were all
// truncated away has none.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../../src/core/prng.js';
import { PositionSlot, PositionStore } from '../../../src/core/futures/position-store.js';

const scanRows = (P: PositionStore, uid: number, market = -1): number[] => {
  const out: number[] = [];
  for (let r = 0; r < P.count; r++) if (P.uid[r] === uid && (market < 0 || P.market[r] === market)) out.push(r);
  return out;
};

describe('PositionStore rows per user', () => {
  it('lists each user\'s rows and open orders as a scan of every row does, through creation and truncation', () => {
    const rnd = new Prng(11);
    const P = new PositionStore();
    const uids = [1, 2, 3, 10001, 2_000_000_000];
    for (let step = 0; step < 4000; step++) {
      if (rnd.chance(0.2) && P.count > 0) {
        P.truncate(Math.max(0, P.count - 1 - rnd.nextInt(3)));
      } else {
        const r = P.ensure(uids[rnd.nextInt(uids.length)]!, rnd.nextInt(4), rnd.nextInt(3), 10, 1000n, step);
        P.pending[r] = rnd.nextInt(5);
      }
      if (step % 97 !== 0) continue;
      for (const uid of [...uids, 7]) {
        expect(P.rowsOf(uid)).toEqual(scanRows(P, uid));
        for (let m = 0; m < 4; m++) {
          expect(P.rowsOf(uid, m)).toEqual(scanRows(P, uid, m));
          expect(P.pendingOrders(uid, m)).toBe(scanRows(P, uid, m).reduce((n, r) => n + P.pending[r]!, 0));
        }
      }
    }
    P.truncate(0);
    for (const uid of uids) expect(P.rowsOf(uid)).toEqual([]);
    expect(P.pendingOrders(1, 0)).toBe(0);
  });

  it('hands out a copy: rows created while a caller walks the list do not join its walk', () => {
    const P = new PositionStore();
    P.ensure(5, 0, PositionSlot.Single, 10, 1000n, 0);
    const rows = P.rowsOf(5);
    P.ensure(5, 1, PositionSlot.Single, 10, 1000n, 0);
    expect(rows).toEqual([0]);
    expect(P.rowsOf(5)).toEqual([0, 1]);
  });
});
